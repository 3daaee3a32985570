//! Miss-ratio curves in one pass: a trace's faults at every memory size, from 1 frame to its
//! footprint, without a run per size. Exact for LRU (`lru`) and OPT (`opt`), both stack algorithms:
//! an access hits in every memory at least as large as its stack distance. Estimated for every
//! policy from a spatial sample of the pages (`sample`): SHARDS for LRU (`shards`), miniature
//! simulations for any flat policy (`mini`).

pub mod lru;
pub mod mini;
pub mod opt;
pub mod sample;
pub mod shards;

pub use sample::{Reading, Sample, Sampling, READINGS};

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
        "opt" if trace.num_pages() > opt::MAX_PAGES => Err(Error::config(
            "policy",
            format!(
                "the OPT curve takes at most {} pages; {} has {}",
                opt::MAX_PAGES,
                trace.path.display(),
                trace.num_pages()
            ),
        )),
        "opt" => Ok(opt::curve(trace)),
        other => {
            Err(Error::config("policy", format!("no exact one-pass curve for {other:?}; exact: {}", EXACT.join(", "))))
        }
    }
}

/// A curve estimated from a spatial sample: the miss ratio at each size (frames of the full trace).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Estimate {
    /// `shards` (LRU's sampled stack distances) or `mini` (the policy run on the sample).
    pub method: &'static str,
    pub policy: String,
    pub sample: Sample,
    /// The share of the trace the sample stands for under its reading (`Chosen::share`).
    pub rate: f64,
    /// R: the hash threshold's share of the hash space (for a fixed size, the first left out's).
    pub nominal_rate: f64,
    pub accesses: u64,
    pub sampled_accesses: u64,
    pub sampled_pages: u64,
    pub sizes: Vec<u64>,
    pub miss_ratio: Vec<f64>,
}

impl Estimate {
    /// Mean absolute difference of the miss ratio from `exact` at this estimate's sizes (sizes
    /// past the exact curve's footprint take its cold-miss ratio).
    pub fn mean_abs_error(&self, exact: &Curve) -> f64 {
        if self.sizes.is_empty() || exact.accesses == 0 {
            return 0.0;
        }
        let n = exact.accesses as f64;
        let sum: f64 = self.sizes.iter().zip(&self.miss_ratio).map(|(&c, &m)| (m - exact.at(c) as f64 / n).abs()).sum();
        sum / self.sizes.len() as f64
    }
}
