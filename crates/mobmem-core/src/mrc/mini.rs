//! Miniature simulations (Waldspurger et al., ATC'17): the real policy, run on a spatial sample of
//! the trace at rate R with every memory size scaled by R (the page touched, plus R of the others:
//! `sample::frames`). Works for every flat policy. A policy's
//! constants in pages or events scale through `PolicySetup::sample_rate` (linux-2q's inactive ratio
//! is taken from the memory the run stands for, mglru's `MIN_LRU_BATCH` and an spo-clock
//! `decay_window` set in faults are multiplied by R); ratios (2Q's queues, spo-clock's margin, ARC's
//! target) need nothing. A swap area given in pages or bytes is scaled by R too.

use super::sample::{self, Sample};
use super::Estimate;
use crate::config::SimConfig;
use crate::device::Catalog;
use crate::error::{Error, Result};
use crate::parallel::parallel;
use crate::replay::simulate_sampled;
use crate::trace::Trace;
use crate::units::MemorySize;

/// The error for a sample that holds no page of a non-empty trace.
pub(crate) fn empty_sample(trace: &Trace, rate: f64) -> Error {
    let why = format!(
        "the sample at rate {rate} keeps none of {}'s {} pages; raise the rate or use a fixed size",
        trace.path.display(),
        trace.num_pages()
    );
    Error::config("sample", why)
}

/// The sizes (frames of the full trace) of an evenly spaced grid: `points` sizes up to the footprint.
pub fn grid(footprint: u64, points: u64) -> Vec<u64> {
    let points = points.max(1);
    let mut v: Vec<u64> =
        (1..=points).map(|k| ((footprint * k) as f64 / points as f64).round().max(1.0) as u64).collect();
    v.dedup();
    v
}

/// `cfg.policy`'s estimated miss ratio at each of `sizes` (frames of the full trace).
pub fn curve(
    trace: &Trace,
    cfg: &SimConfig,
    catalog: &Catalog,
    sizes: &[u64],
    sample: &Sample,
    threads: usize,
) -> Result<Estimate> {
    if cfg.tiers.is_some() {
        return Err(Error::config("tiers", "miniature simulations run flat policies; drop [sim.tiers]"));
    }
    if let Some(&bad) = sizes.iter().find(|&&c| c == 0) {
        return Err(Error::config("sizes", format!("a memory size must be at least 1 frame, got {bad}")));
    }
    let chosen = sample::choose(trace, sample.sampling, sample.seed)?;
    let (rate, others) = (chosen.share(sample.reading), chosen.others(sample.reading));
    let small = trace.subset(&chosen.keep());
    if small.is_empty() && !trace.is_empty() {
        return Err(empty_sample(trace, rate));
    }
    let stats = small.stats(cfg.page_size);
    let footprint = trace.num_pages() as u64;
    let swap_size = match cfg.swap_size {
        None | Some(MemorySize::Percent(_)) => cfg.swap_size,
        Some(s) => match s.to_pages(cfg.page_size, footprint) {
            0 => Some(MemorySize::Pages(0)),
            p => Some(MemorySize::Pages(((p as f64 * rate).round() as u64).max(1))),
        },
    };
    let runs = parallel(sizes.len(), threads, |i| {
        let c = SimConfig { memory: MemorySize::Pages(sample::frames(sizes[i], others)), swap_size, ..cfg.clone() };
        simulate_sampled(&small, &stats, &c, catalog, rate)
    });
    let per = chosen.per(sample.reading, trace.len() as u64, small.len() as u64);
    let mut miss_ratio = Vec::with_capacity(sizes.len());
    for r in runs {
        miss_ratio.push(if per > 0.0 { (r?.meters.faults as f64 / per).min(1.0) } else { 0.0 });
    }
    Ok(Estimate {
        method: "mini",
        policy: cfg.policy.clone(),
        sample: *sample,
        rate,
        nominal_rate: chosen.nominal,
        accesses: trace.len() as u64,
        sampled_accesses: small.len() as u64,
        sampled_pages: small.num_pages() as u64,
        sizes: sizes.to_vec(),
        miss_ratio,
    })
}
