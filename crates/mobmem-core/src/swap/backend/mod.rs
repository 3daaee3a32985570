//! Swap backends: where swapped pages are kept and what that costs. A block device (flash, NVM, a
//! DRAM ramdisk) queues requests and takes no memory; zram keeps pages compressed in the phone's own
//! DRAM and works on the swapping task's CPU; zram with writeback also moves copies that stayed
//! idle to a backing flash device, as Android ships it. A device names its backend (`backend`,
//! default by kind) and gives its parameters in `backend_params`; each backend is one file plus
//! one line in `backends!`.

mod ariadne;
mod block;
mod zram;
mod zram_writeback;

use crate::device::{Catalog, Device};
use crate::error::{Error, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;

pub use ariadne::{compressors, ZramClasses};

/// zram writeback: where idle copies go and how fast.
#[derive(Debug, Clone, Serialize)]
pub struct Writeback {
    /// The backing device (flash on Android).
    pub backing: Device,
    /// A copy in zram unread for this long is written back at the next round; rounds run this
    /// often.
    pub idle_s: f64,
    /// Most pages a round writes back (`writeback_limit`), from the MiB-per-day budget.
    pub limit_mib_per_day: f64,
    /// The first round, s after the start (Android's `ro.zram.first_wb_delay_mins`); later ones
    /// every `idle_s`.
    pub first_s: f64,
    /// A one-time marking of every zram copy idle, s after the start (Android's
    /// `ro.zram.mark_idle_delay_mins`); `None`: none (the first round then finds nothing idle and
    /// only marks, as every round does after writing back).
    pub mark_idle_s: Option<f64>,
    /// The backing partition's size (`zram_backingdev_size`); `None`: unbounded.
    pub backing_mib: Option<f64>,
}

impl Writeback {
    /// Pages a round may write back at `page_size`.
    pub fn limit_pages(&self, page_size: u64) -> u64 {
        (self.limit_mib_per_day * 1048576.0 * self.idle_s / 86400.0 / page_size as f64).floor() as u64
    }

    /// Pages the backing partition holds at `page_size` (`u64::MAX`: unbounded).
    pub fn capacity_pages(&self, page_size: u64) -> u64 {
        self.backing_mib.map_or(u64::MAX, |m| (m * 1048576.0 / page_size as f64).floor() as u64)
    }
}

/// zram writeback's schedule in an engine's ticks: rounds at `first`, then every `every`, at most
/// `limit` pages each and `cap` on the backing device in all; a one-time idle marking at
/// `mark_at` (`u64::MAX`: none).
#[derive(Debug, Clone, Copy)]
pub struct WritebackRounds {
    pub every: u64,
    pub first: u64,
    pub mark_at: u64,
    pub limit: u64,
    pub cap: u64,
    pub by_access: bool,
}

impl WritebackRounds {
    /// A round every `every` ticks from the start, at most `limit` pages each, no other bound.
    #[cfg(test)]
    pub(crate) fn every(every: u64, limit: u64, by_access: bool) -> WritebackRounds {
        WritebackRounds { every, first: every, mark_at: u64::MAX, limit, cap: u64::MAX, by_access }
    }
}

/// The clock an engine counts writeback's rounds in.
#[derive(Debug, Clone, Copy)]
pub enum Ticks {
    /// A page trace's accesses, `cpu_ns_per_access` of CPU time each; a round comes at least one
    /// access per page after the last (a round scans every page, so the rounds cost at most as
    /// much as the accesses); the engine runs the rounds.
    Accesses { cpu_ns_per_access: f64, footprint: u64 },
    /// Simulated nanoseconds; the caller (the phone) runs the rounds.
    Ns,
}

impl Writeback {
    /// Its rounds at `page_size`, in `ticks`: from `first_s`, then every `idle_s`, at most the
    /// daily budget's share each; a one-time idle marking at `mark_idle_s`.
    pub fn rounds(&self, page_size: u64, ticks: Ticks) -> WritebackRounds {
        let at = |s: f64| match ticks {
            Ticks::Accesses { cpu_ns_per_access, .. } => {
                (s * 1e9 / cpu_ns_per_access.max(1e-3)).min(u64::MAX as f64) as u64
            }
            Ticks::Ns => (s * 1e9) as u64,
        };
        let (floor, by_access) = match ticks {
            Ticks::Accesses { footprint, .. } => (footprint, true),
            Ticks::Ns => (0, false),
        };
        WritebackRounds {
            every: at(self.idle_s).max(floor),
            first: at(self.first_s).max(floor),
            mark_at: self.mark_idle_s.map_or(u64::MAX, at),
            limit: self.limit_pages(page_size),
            cap: self.capacity_pages(page_size),
            by_access,
        }
    }
}

/// What a swap backend means for a run, said in one place (`SwapBackend::effects`); the plan
/// keeps it (`plan::SwapPlan::effects`) and the engine and the phone read it from there. A backend
/// with new behaviour adds a field here and the code that simulates it.
#[derive(Debug, Clone, Default)]
pub struct SwapEffects {
    /// zram: swapped pages per DRAM frame of the compressed area; `None`: the area is not in DRAM.
    pub compression_ratio: Option<f64>,
    /// Requests run on the swapping task's CPU (zram's per-CPU streams) rather than queueing on
    /// the device.
    pub on_cpu: bool,
    /// zram writeback: the backing device and its rounds.
    pub writeback: Option<Writeback>,
    /// Ariadne: copies compressed by hotness class, each class at its own cost and ratio (the
    /// phone then keeps the classes); `None`: every page alike.
    pub classes: Option<ZramClasses>,
    /// Linux's `SWP_SYNCHRONOUS_IO`: a swap-in reads the page at once, bypassing the swap cache
    /// and its read-ahead, and frees the slot (mm/memory.c, `do_swap_page`), so the page is dirty
    /// again and its next eviction writes it. A block device keeps the swap cache.
    pub synchronous_io: bool,
}

/// A swap backend.
pub trait SwapBackend: Send + Sync {
    /// The swap device: latency, energy, kind.
    fn device(&self) -> &Device;
    /// What it means for a run (a block device: nothing beyond its device).
    fn effects(&self) -> SwapEffects;
}

/// How a backend is built from its device and typed parameters.
pub trait Build: SwapBackend + Sized + 'static {
    type Params: Default + Serialize + DeserializeOwned;
    fn new(device: Device, params: Self::Params, catalog: &Catalog) -> Result<Self>;
}

macro_rules! backends {
    ($( $name:literal => $ty:ty : $desc:literal ),* $(,)?) => {
        /// Names of the registered backends, in registry order.
        pub const NAMES: &[&str] = &[$($name),*];
        /// One line describing each.
        pub const DESCRIPTIONS: &[(&str, &str)] = &[$(($name, $desc)),*];

        /// The backend of swap device `device` (its `backend`, with `backend_params`); devices it
        /// names (a backing device) come from `catalog`.
        pub fn build(device: &Device, catalog: &Catalog) -> Result<Box<dyn SwapBackend>> {
            let field = format!("devices.{}.backend_params", device.name);
            match device.backend.as_str() {
                $($name => {
                    let p: <$ty as Build>::Params = crate::params::parse_params(&field, &device.backend_params)?;
                    Ok(Box::new(<$ty>::new(device.clone(), p, catalog)?))
                })*
                other => Err(Error::config(
                    format!("devices.{}.backend", device.name),
                    format!("unknown swap backend {other:?}; known: {}", NAMES.join(", ")),
                )),
            }
        }
    };
}

backends! {
    "block" => block::Block : "a block device (flash, NVM, DRAM ramdisk): requests queue on it, it takes no memory",
    "zram" => zram::Zram : "compressed in the phone's own DRAM (Linux zram): CPU work, frames taken from memory",
    "ariadne" => ariadne::Ariadne : "zram compressing by hotness class (Ariadne): hot and warm pages in small chunks, cold ones in large chunks, the next page decompressed ahead of a read",
    "zram-writeback" => zram_writeback::ZramWriteback : "zram whose idle copies are written back to a backing flash device (Android), within a daily limit",
}
