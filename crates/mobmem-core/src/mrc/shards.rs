//! SHARDS (Waldspurger et al., FAST'15) for LRU: the stack distances of a spatial sample, each
//! standing for a distance of the whole trace. A sampled distance d (the page itself and d − 1
//! other sampled pages) stands for 1 + (d − 1)/R frames: the page itself is not thinned by the
//! sample, the others are. SHARDS scales all of d by 1/R, which reads every reuse 1/R − 1 frames
//! too far (docs/MRC.md). R is the reading's (`Chosen::others`); distances are counted over the
//! sample's own slots, so the stack and histogram take memory for the sample's pages only.

use super::lru::StackDistances;
use super::sample::{self, Sample, NONE};
use super::Estimate;
use crate::error::Result;
use crate::trace::Trace;

/// LRU's estimated curve at every size from 1 frame to the footprint.
pub fn lru(trace: &Trace, sample: &Sample) -> Result<Estimate> {
    let chosen = sample::choose(trace, sample.sampling, sample.seed)?;
    let (rate, others) = (chosen.share(sample.reading), chosen.others(sample.reading));
    if chosen.pages == 0 && !trace.is_empty() {
        return Err(super::mini::empty_sample(trace, rate));
    }
    let mut stack = StackDistances::new(chosen.pages);
    // hist[d]: re-accesses at sampled distance d (1..=k).
    let mut hist = vec![0u64; chosen.pages + 1];
    let mut drawn = 0u64;
    for &a in trace.accesses.iter() {
        let s = chosen.slot[(a >> 2) as usize];
        if s == NONE {
            continue;
        }
        drawn += 1;
        if let Some(d) = stack.access(s as usize) {
            hist[d as usize] += 1;
        }
    }
    // hits[j]: re-accesses at sampled distance ≤ j, which hit in the sizes standing for j frames.
    let mut hits = hist;
    for j in 1..hits.len() {
        hits[j] += hits[j - 1];
    }
    let n = trace.len() as u64;
    let per = chosen.per(sample.reading, n, drawn);
    let pages = trace.num_pages();
    let miss_ratio = (1..=pages as u64)
        .map(|c| {
            let j = (sample::frames(c, others) as usize).min(chosen.pages);
            let misses = (drawn - hits[j]) as f64;
            if per > 0.0 {
                (misses / per).min(1.0)
            } else {
                0.0
            }
        })
        .collect();
    Ok(Estimate {
        method: "shards",
        policy: "lru".into(),
        sample: *sample,
        rate,
        nominal_rate: chosen.nominal,
        accesses: n,
        sampled_accesses: drawn,
        sampled_pages: chosen.pages as u64,
        sizes: (1..=pages as u64).collect(),
        miss_ratio,
    })
}
