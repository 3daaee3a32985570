//! Where a run's CPU time goes (the A2S paper's Fig. 11, from `/proc/stat`): user time is the
//! apps' own work at starts and resumes (the launch CPU times of the app catalog); system time is
//! the kernel's, counted per event at the costs of `KernelCpu`, plus the time a CPU-side swap
//! backend (zram) spends compressing and decompressing. The foreground sessions' own CPU is the
//! same whatever the memory does, and is not modelled.
//!
//! The per-event costs are assumptions (no paper measures them; docs/SYSTEM.md): what ratios of
//! system time depend on, the reproduction prints with the swap costs halved and doubled.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// Kernel CPU time per event, µs. Assumed orders of magnitude for a 2013–2016 ARM phone core.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct KernelCpu {
    /// A page written to swap: unmap, swap cache, block request (device time not included).
    pub swap_out_us: f64,
    /// A page read from swap: fault, swap cache, block request.
    pub swap_in_us: f64,
    /// A page reclaimed (file or anon): the LRU scan and unmap around it.
    pub reclaim_us: f64,
    /// A page fault served from a file or by zero-fill (I/O not included).
    pub fault_us: f64,
    /// A process killed: exit and the freeing of its pages.
    pub kill_us: f64,
}

impl Default for KernelCpu {
    fn default() -> Self {
        KernelCpu { swap_out_us: 10.0, swap_in_us: 8.0, reclaim_us: 1.0, fault_us: 2.0, kill_us: 5000.0 }
    }
}

impl KernelCpu {
    pub fn validate(&self) -> Result<()> {
        let f = [
            ("swap_out_us", self.swap_out_us),
            ("swap_in_us", self.swap_in_us),
            ("reclaim_us", self.reclaim_us),
            ("fault_us", self.fault_us),
            ("kill_us", self.kill_us),
        ];
        for (name, v) in f {
            if !(v.is_finite() && v >= 0.0) {
                return Err(Error::config(format!("kernel.{name}"), format!("{v} is not a time ≥ 0 µs")));
            }
        }
        Ok(())
    }
}

/// The events a run's system time is counted from.
#[derive(Debug, Clone, Copy, Default)]
pub struct KernelEvents {
    pub swap_outs: u64,
    pub swap_ins: u64,
    pub reclaimed: u64,
    pub faults: u64,
    pub kills: u64,
    /// CPU time of a CPU-side swap backend (zram) compressing the pages it stores, s.
    pub compress_s: f64,
    /// And decompressing the pages read back from it, s.
    pub decompress_s: f64,
}

/// A run's CPU time, s.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct CpuTime {
    pub user_s: f64,
    pub system_s: f64,
    /// The system time's parts, s.
    pub swap_s: f64,
    /// Of `swap_s`, a CPU-side swap backend's (zram's) compression of the pages it stores.
    pub compress_s: f64,
    /// Of `swap_s`, its decompression of the pages read back (not of pages written back to a
    /// backing device, which the model does not charge).
    pub decompress_s: f64,
    pub reclaim_s: f64,
    pub fault_s: f64,
    pub kill_s: f64,
}

impl CpuTime {
    pub fn new(user_s: f64, k: &KernelCpu, e: &KernelEvents) -> CpuTime {
        let us = 1e-6;
        let backend_s = e.compress_s + e.decompress_s;
        let swap_s = (e.swap_outs as f64 * k.swap_out_us + e.swap_ins as f64 * k.swap_in_us) * us + backend_s;
        let reclaim_s = e.reclaimed as f64 * k.reclaim_us * us;
        let fault_s = e.faults as f64 * k.fault_us * us;
        let kill_s = e.kills as f64 * k.kill_us * us;
        let (compress_s, decompress_s) = (e.compress_s, e.decompress_s);
        let system_s = swap_s + reclaim_s + fault_s + kill_s;
        CpuTime { user_s, system_s, swap_s, compress_s, decompress_s, reclaim_s, fault_s, kill_s }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_time_adds_up_its_parts() {
        let (compress_s, decompress_s) = (0.375, 0.125);
        let e = KernelEvents {
            swap_outs: 1000,
            swap_ins: 500,
            reclaimed: 2000,
            faults: 3000,
            kills: 2,
            compress_s,
            decompress_s,
        };
        let c = CpuTime::new(7.0, &KernelCpu::default(), &e);
        assert!((c.swap_s - (0.01 + 0.004 + 0.5)).abs() < 1e-12);
        assert_eq!((c.compress_s, c.decompress_s), (0.375, 0.125));
        assert!((c.system_s - (c.swap_s + 0.002 + 0.006 + 0.01)).abs() < 1e-12);
        assert_eq!(c.user_s, 7.0);
        let bad = KernelCpu { kill_us: -1.0, ..KernelCpu::default() };
        assert!(bad.validate().unwrap_err().to_string().contains("kernel.kill_us"));
    }
}
