//! A killer in the spirit of today's lmkd (AOSP `lmkd.cpp`, PSI mode): it kills when the
//! foreground work stalls on memory — time in direct reclaim, waiting for swap-ins and refaults —
//! for more than `partial_stall_ms` per second, or when swap is nearly full while memory must be
//! reclaimed. Processes with adj ≤ `protect_adj` (perceptible and above) are spared unless the
//! stall reaches `complete_stall_ms` per second (critical pressure). The defaults are lmkd's
//! `ro.lmk.psi_partial_stall_ms` (70), `ro.lmk.psi_complete_stall_ms` (700) and
//! `ro.lmk.swap_free_low_percentage` (10); after a kill, lmkd waits for the victim to die before
//! killing again (`kill_timeout_ms`, 100 here).

use super::{Build, Kill, KillReason, Killer, KillerSetup, MemView, Tie};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    pub partial_stall_ms: f64,
    pub complete_stall_ms: f64,
    pub swap_free_low_percent: f64,
    /// Processes with adj at or below this survive all but critical pressure.
    pub protect_adj: i32,
    pub kill_timeout_ms: f64,
    pub tie: Tie,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            partial_stall_ms: 70.0,
            complete_stall_ms: 700.0,
            swap_free_low_percent: 10.0,
            protect_adj: 200,
            kill_timeout_ms: 100.0,
            tie: Tie::Lru,
        }
    }
}

pub struct Psi {
    p: Params,
    last_kill_ns: f64,
}

impl Build for Psi {
    type Params = Params;

    fn new(_: &KillerSetup, p: Params) -> Result<Self> {
        let f = |name: &str, v: f64| {
            if !(v >= 0.0 && v.is_finite()) {
                return Err(Error::config(format!("killer_params.{name}"), format!("{v} must be ≥ 0")));
            }
            Ok(())
        };
        f("partial_stall_ms", p.partial_stall_ms)?;
        f("complete_stall_ms", p.complete_stall_ms)?;
        f("kill_timeout_ms", p.kill_timeout_ms)?;
        if !(0.0..=100.0).contains(&p.swap_free_low_percent) {
            return Err(Error::config(
                "killer_params.swap_free_low_percent",
                format!("{} is not 0–100", p.swap_free_low_percent),
            ));
        }
        if p.complete_stall_ms < p.partial_stall_ms {
            return Err(Error::config("killer_params.complete_stall_ms", "must be ≥ partial_stall_ms"));
        }
        Ok(Psi { p, last_kill_ns: f64::NEG_INFINITY })
    }
}

impl Killer for Psi {
    fn check(&mut self, m: &MemView) -> Option<Kill> {
        if m.now_ns - self.last_kill_ns < self.p.kill_timeout_ms * 1e6 {
            return None;
        }
        let spared = self.p.protect_adj + 1;
        let swap_low = m.swap_on
            && m.swap_total > 0
            && ((m.swap_total - m.swap_used.min(m.swap_total)) as f64)
                < m.swap_total as f64 * self.p.swap_free_low_percent / 100.0;
        let kill = if m.stall_ms_per_s >= self.p.complete_stall_ms {
            Some(Kill { min_adj: 0, reason: KillReason::PsiCritical })
        } else if m.stall_ms_per_s >= self.p.partial_stall_ms {
            Some(Kill { min_adj: spared, reason: KillReason::PsiPressure })
        } else if swap_low {
            Some(Kill { min_adj: spared, reason: KillReason::SwapLow })
        } else {
            None
        };
        if kill.is_some() {
            self.last_kill_ns = m.now_ns;
        }
        kill
    }

    fn tie(&self) -> Tie {
        self.p.tie
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pressure_levels_and_swap_low() {
        let s = KillerSetup { dram_bytes: 1 << 30, page_size: 4096 };
        let mut k = Psi::new(&s, Params::default()).unwrap();
        let at = |t: f64, stall: f64| MemView { now_ns: t * 1e9, stall_ms_per_s: stall, ..Default::default() };
        assert_eq!(k.check(&at(0.0, 10.0)), None);
        assert_eq!(k.check(&at(1.0, 80.0)).map(|k| (k.min_adj, k.reason)), Some((201, KillReason::PsiPressure)));
        // Within the kill timeout: nothing, whatever the pressure.
        assert_eq!(k.check(&at(1.05, 900.0)), None);
        assert_eq!(k.check(&at(1.2, 900.0)).map(|k| k.min_adj), Some(0));
        let low = MemView { now_ns: 5e9, swap_on: true, swap_total: 100, swap_used: 95, ..Default::default() };
        assert_eq!(k.check(&low).map(|k| k.reason), Some(KillReason::SwapLow));
        let ok = MemView { now_ns: 6e9, swap_on: true, swap_total: 100, swap_used: 50, ..Default::default() };
        assert_eq!(k.check(&ok), None);
        let bad = Params { complete_stall_ms: 10.0, ..Params::default() };
        assert!(Psi::new(&s, bad).is_err());
    }
}
