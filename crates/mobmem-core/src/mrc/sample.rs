//! Spatial sampling (SHARDS, Waldspurger et al., FAST'15): a page is in the sample when a hash of
//! its page number falls below a threshold, so every access to a sampled page is kept and a
//! sampled page's reuse is seen whole. Rate R = threshold / 2^64.

use crate::error::{Error, Result};
use crate::trace::Trace;
use serde::Serialize;

/// How many pages to sample.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sampling {
    /// Fixed rate: each page with probability R, 0 < R ≤ 1.
    Rate(f64),
    /// Fixed size: at most this many pages, those with the smallest hashes (the rate follows).
    Size(u64),
}

impl Sampling {
    pub fn check(&self) -> Result<()> {
        match *self {
            Sampling::Rate(r) if !(r > 0.0 && r <= 1.0) => {
                Err(Error::config("sample", format!("a sampling rate must be in (0, 1], got {r}")))
            }
            Sampling::Size(0) => Err(Error::config("sample_size", "must be at least 1 page")),
            _ => Ok(()),
        }
    }
}

/// A spatial sample: how many pages, the hash's seed, and the reading of its miss ratio. As drawn
/// (the default, as in the miniature-simulation paper): the sample's misses over the accesses it
/// drew. `adjust` (SHARDS-adj): over the accesses it stands for (R × the trace's), which corrects
/// a sample that drew too few or too many accesses when those are hits; it is off by default
/// because on the 20,000-page anchor trace at 1% it doubled the mean error (docs/MRC.md).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Sample {
    pub sampling: Sampling,
    pub seed: u64,
    pub adjust: bool,
}

impl Sample {
    /// A sample read as drawn (the default).
    pub fn new(sampling: Sampling, seed: u64) -> Sample {
        Sample { sampling, seed, adjust: false }
    }
}

/// SplitMix64's finaliser over the page number and the seed: a page's place in the sample order.
#[inline]
pub fn page_hash(page_number: u64, seed: u64) -> u64 {
    let mut z = page_number ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The hash threshold of rate `r`: pages whose hash is below it are sampled.
pub fn threshold(r: f64) -> u64 {
    if r >= 1.0 {
        u64::MAX
    } else {
        (r * 2f64.powi(64)) as u64
    }
}

/// The rate of a threshold.
pub fn rate_of(threshold: u64) -> f64 {
    if threshold == u64::MAX {
        1.0
    } else {
        threshold as f64 / 2f64.powi(64)
    }
}

/// Each page's hash, by dense id.
pub fn hashes(trace: &Trace, seed: u64) -> Vec<u64> {
    trace.page_numbers.iter().map(|&n| page_hash(n, seed)).collect()
}

/// The pages to keep (by dense id) and the rate they stand for. A fixed size picks the pages with
/// the smallest hashes; the rate is then the threshold just above the largest kept hash.
pub fn choose(trace: &Trace, sampling: Sampling, seed: u64) -> Result<(Vec<bool>, f64)> {
    sampling.check()?;
    let h = hashes(trace, seed);
    let t = match sampling {
        Sampling::Rate(r) => threshold(r),
        Sampling::Size(s) if s as usize >= h.len() => u64::MAX,
        Sampling::Size(s) => {
            let mut sorted = h.clone();
            let (_, &mut nth, _) = sorted.select_nth_unstable(s as usize);
            nth // the first hash left out
        }
    };
    let keep = h.iter().map(|&x| x < t || t == u64::MAX).collect();
    Ok((keep, rate_of(t)))
}
