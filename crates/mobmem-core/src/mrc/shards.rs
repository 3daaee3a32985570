//! SHARDS (Waldspurger et al., FAST'15) for LRU: stack distances of a spatial sample, each scaled
//! by 1/R. With `adjust` (SHARDS-adj) the estimate's denominator is the trace's accesses, not the
//! sample's scaled count (`Sample` says why it is off by default). Fixed size
//! starts at R = 1 and, whenever the sample holds one page too many, drops the page with the
//! largest hash and lowers the threshold to it; an access counts 1/R of its own time, so the
//! histogram needs no rescaling. One refinement of SHARDS: the filter sees the whole trace, so a
//! sampled access that repeats the access just before it gets its exact distance, 1, instead of
//! 1/R (program traces repeat the last page often: instruction fetches within a page).

use super::lru::StackDistances;
use super::sample::{self, Sample, Sampling};
use super::Estimate;
use crate::error::Result;
use crate::trace::Trace;
use std::collections::BinaryHeap;

/// LRU's estimated curve at every size from 1 frame to the footprint.
pub fn lru(trace: &Trace, sample: &Sample) -> Result<Estimate> {
    let sampling = sample.sampling;
    sampling.check()?;
    let pages = trace.num_pages();
    let h = sample::hashes(trace, sample.seed);
    let mut t = match sampling {
        Sampling::Rate(r) => sample::threshold(r),
        Sampling::Size(_) => u64::MAX,
    };
    let cap = match sampling {
        Sampling::Size(s) => s as usize,
        Sampling::Rate(_) => usize::MAX,
    };
    let mut heap: BinaryHeap<(u64, u32)> = BinaryHeap::new();
    let mut stack = StackDistances::new(pages);
    // hist[c]: weight of re-accesses that hit from c frames on (c = pages + 1: in no memory).
    let mut hist = vec![0f64; pages + 2];
    let (mut cold, mut total) = (0f64, 0f64);
    let mut rate = sample::rate_of(t);
    let mut sampled = 0u64;
    let mut prev = usize::MAX;
    for &a in &trace.accesses {
        let p = (a >> 2) as usize;
        // A repeat of the access just before, in the whole trace, has distance 1 exactly.
        let repeat = p == prev;
        prev = p;
        let hp = h[p];
        if t != u64::MAX && hp >= t {
            continue;
        }
        sampled += 1;
        let w = 1.0 / rate;
        total += w;
        match stack.access(p) {
            Some(d) => {
                let scaled = if repeat { 1 } else { (d as f64 / rate).round() as usize };
                hist[scaled.clamp(1, pages + 1)] += w;
            }
            None => {
                cold += w;
                if cap != usize::MAX {
                    heap.push((hp, p as u32));
                    if heap.len() > cap {
                        let (hq, q) = heap.pop().expect("the heap holds cap + 1 pages");
                        t = hq;
                        rate = sample::rate_of(t);
                        stack.forget(q as usize);
                    }
                }
            }
        }
    }
    let n = trace.accesses.len() as u64;
    if sampled == 0 && n > 0 {
        return Err(super::mini::empty_sample(trace, rate));
    }
    // SHARDS-adj: the sample stands for every access. For a fixed size the rate fell as the
    // sample filled, so the accesses it drew are weighed by the rate of their time (`total`).
    let denom = match sampling {
        Sampling::Rate(_) if sample.adjust => n as f64,
        _ => total,
    };
    let mut miss_ratio = vec![0f64; pages];
    let mut beyond = 0f64;
    for c in (1..=pages).rev() {
        beyond += hist[c + 1];
        miss_ratio[c - 1] = if denom > 0.0 { ((cold + beyond) / denom).min(1.0) } else { 0.0 };
    }
    let sampled_pages = match sampling {
        Sampling::Size(_) => heap.len() as u64,
        Sampling::Rate(_) => h.iter().enumerate().filter(|&(_, &x)| t == u64::MAX || x < t).count() as u64,
    };
    Ok(Estimate {
        method: "shards",
        policy: "lru".into(),
        sample: *sample,
        rate,
        accesses: n,
        sampled_accesses: sampled,
        sampled_pages,
        sizes: (1..=pages as u64).collect(),
        miss_ratio,
    })
}
