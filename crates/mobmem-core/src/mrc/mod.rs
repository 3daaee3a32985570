//! Miss-ratio curves in one pass: a trace's faults at every memory size, from 1 frame to its
//! footprint, without a run per size. Exact for LRU (`lru`) and OPT (`opt`), both stack algorithms:
//! an access hits in every memory at least as large as its stack distance.

pub mod lru;
pub mod opt;

use crate::error::{Error, Result};
use crate::trace::Trace;
use serde::Serialize;

/// Faults at each memory size (`sizes[i]` frames → `faults[i]`); sizes run from 1 to the footprint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Curve {
    pub accesses: u64,
    /// First touches: faults in any memory.
    pub cold: u64,
    pub sizes: Vec<u64>,
    pub faults: Vec<u64>,
}

impl Curve {
    /// From stack distances: `hist[d]` accesses at distance `d` (1-based) hit with `d` frames or more.
    pub fn from_distances(accesses: u64, cold: u64, hist: &[u64]) -> Curve {
        let footprint = hist.len().saturating_sub(2);
        let mut faults = vec![0u64; footprint];
        // faults(c) = cold + Σ_{d > c} hist[d], from the largest size down.
        let mut beyond = 0u64;
        for c in (1..=footprint).rev() {
            beyond += hist.get(c + 1).copied().unwrap_or(0);
            faults[c - 1] = cold + beyond;
        }
        Curve { accesses, cold, sizes: (1..=footprint as u64).collect(), faults }
    }

    /// Faults with `frames` frames (past the footprint: the cold misses).
    pub fn at(&self, frames: u64) -> u64 {
        match frames {
            0 => self.accesses,
            f if f as usize > self.faults.len() => self.cold,
            f => self.faults[f as usize - 1],
        }
    }
}

/// Policies with an exact one-pass curve.
pub const EXACT: &[&str] = &["lru", "opt"];

/// The exact curve of `policy` on `trace`.
pub fn exact(trace: &Trace, policy: &str) -> Result<Curve> {
    match policy {
        "lru" => Ok(lru::curve(trace)),
        "opt" => Ok(opt::curve(trace)),
        other => {
            Err(Error::config("policy", format!("no exact one-pass curve for {other:?}; exact: {}", EXACT.join(", "))))
        }
    }
}
