//! Spatial sampling (SHARDS, Waldspurger et al., FAST'15): a page is in the sample when a hash of
//! its page number falls below a threshold, so every access to a sampled page is kept and a
//! sampled page's reuse is seen whole. The nominal rate R = threshold / 2^64; the sample's own
//! rate is the share of the trace's pages it holds (k of P), known because the trace is whole.

use crate::error::{Error, Result};
use crate::trace::Trace;
use serde::Serialize;
use std::collections::BinaryHeap;

/// How many pages to sample.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sampling {
    /// Fixed rate: each page with probability R, 0 < R ≤ 1.
    Rate(f64),
    /// Fixed size: the pages with the smallest hashes, at most this many.
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

/// How a sample stands for the trace: the rate that scales its sizes and its counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reading {
    /// The default: the sample's own rate, k/P (its pages over the trace's). A sample that drew a
    /// few more or fewer pages than R·P is read at the rate it has, for its sizes and its counts,
    /// so the number of pages drawn adds no error (docs/MRC.md measures the three readings).
    #[default]
    Realized,
    /// SHARDS-adj (Waldspurger et al., FAST'15): the nominal rate R for sizes and counts; misses
    /// over R × the trace's accesses.
    Adjusted,
    /// The miniature-simulation paper's (ATC'17): sizes by R; misses over the accesses drawn.
    Drawn,
}

/// The readings by name, the default first.
pub const READINGS: &[&str] = &["realized", "adjusted", "drawn"];

impl Reading {
    pub fn parse(name: &str) -> Result<Reading> {
        match name {
            "realized" => Ok(Reading::Realized),
            "adjusted" => Ok(Reading::Adjusted),
            "drawn" => Ok(Reading::Drawn),
            other => {
                Err(Error::config("reading", format!("unknown reading {other:?}; known: {}", READINGS.join(", "))))
            }
        }
    }
}

/// A spatial sample: how many pages, the hash's seed, and how it is read.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Sample {
    pub sampling: Sampling,
    pub seed: u64,
    pub reading: Reading,
}

impl Sample {
    /// A sample under the default reading.
    pub fn new(sampling: Sampling, seed: u64) -> Sample {
        Sample { sampling, seed, reading: Reading::default() }
    }
}

/// A dense page id's slot in the sample, or `NONE`.
pub const NONE: u32 = u32::MAX;

/// The pages a sample holds and the rates it stands for.
pub struct Chosen {
    /// By dense page id: the page's slot (0..pages) in the sample, `NONE` when left out.
    pub slot: Vec<u32>,
    /// Pages in the sample (k).
    pub pages: usize,
    /// The trace's pages (P).
    pub footprint: usize,
    /// R: threshold / 2^64 (for a fixed size, the hash of the first page left out).
    pub nominal: f64,
}

impl Chosen {
    pub fn keep(&self) -> Vec<bool> {
        self.slot.iter().map(|&s| s != NONE).collect()
    }

    /// The share of the trace the sample stands for under `reading`: k/P (realized) or R. It
    /// scales counts: the sample's accesses stand for 1/share as many.
    pub fn share(&self, reading: Reading) -> f64 {
        match reading {
            Reading::Realized if self.footprint > 0 => self.pages as f64 / self.footprint as f64,
            _ => self.nominal,
        }
    }

    /// The rate at which the pages other than the one touched are in the sample: R, or, realized,
    /// (k − 1)/(P − 1) (given that the page touched is in it). It scales sizes (`frames`), so
    /// that the footprint stands for the whole sample.
    pub fn others(&self, reading: Reading) -> f64 {
        match reading {
            Reading::Realized if self.footprint > 1 => {
                self.pages.saturating_sub(1) as f64 / (self.footprint - 1) as f64
            }
            Reading::Realized => 1.0,
            _ => self.nominal,
        }
    }

    /// What the sample's misses are divided by under `reading`: the trace's accesses times the
    /// share, or (`Drawn`) the accesses the sample drew.
    pub fn per(&self, reading: Reading, accesses: u64, drawn: u64) -> f64 {
        match reading {
            Reading::Drawn => drawn as f64,
            r => accesses as f64 * self.share(r),
        }
    }
}

/// The sample's frames standing for `c` frames of the trace when the other pages are sampled at
/// `others`: the page being touched is in both, the other c − 1 are thinned. (Scaling all c
/// frames by R, as SHARDS and miniature simulations do, reads every reuse 1/R − 1 frames too far:
/// 99 at 1%.)
#[inline]
pub fn frames(c: u64, rate: f64) -> u64 {
    (1.0 + c.saturating_sub(1) as f64 * rate).round().max(1.0) as u64
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

/// The pages to keep. A fixed size keeps the pages with the smallest hashes, found with a heap of
/// size + 1 hashes (no sort of the footprint's hashes); R is then the hash of the
/// first page left out.
pub fn choose(trace: &Trace, sampling: Sampling, seed: u64) -> Result<Chosen> {
    sampling.check()?;
    let numbers = &trace.page_numbers;
    let t = match sampling {
        Sampling::Rate(r) => threshold(r),
        Sampling::Size(s) if s as usize >= numbers.len() => u64::MAX,
        Sampling::Size(s) => {
            let mut heap = BinaryHeap::with_capacity(s as usize + 2);
            for &n in numbers {
                let h = page_hash(n, seed);
                if heap.len() <= s as usize {
                    heap.push(h);
                } else if h < *heap.peek().expect("the heap holds size + 1 hashes") {
                    heap.pop();
                    heap.push(h);
                }
            }
            *heap.peek().expect("the trace has more pages than the size") // the first left out
        }
    };
    let mut slot = Vec::with_capacity(numbers.len());
    let mut pages = 0u32;
    for &n in numbers {
        if t == u64::MAX || page_hash(n, seed) < t {
            slot.push(pages);
            pages += 1;
        } else {
            slot.push(NONE);
        }
    }
    Ok(Chosen { slot, pages: pages as usize, footprint: numbers.len(), nominal: rate_of(t) })
}
