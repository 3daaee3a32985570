#![allow(dead_code)]
//! Helpers shared by the integration tests.

use mobmem_core::trace::{pack, Op, Trace};
use mobmem_core::{simulate, Catalog, MemorySize, RunResult, SimConfig};
use std::path::PathBuf;

pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data").join(name)
}

/// A trace of (page, op) pairs; page numbers are used as given.
pub fn trace(acc: &[(u64, Op)]) -> Trace {
    let mut ids = std::collections::HashMap::new();
    let mut t = Trace::default();
    for &(p, op) in acc {
        let n = ids.len() as u32;
        let id = *ids.entry(p).or_insert_with(|| {
            t.page_numbers.push(p);
            n
        });
        t.accesses.push(pack(id, op));
    }
    t
}

pub fn run(t: &Trace, policy: &str, frames: u64) -> RunResult {
    run_cfg(t, policy, frames, |_| {})
}

pub fn run_cfg(t: &Trace, policy: &str, frames: u64, f: impl FnOnce(&mut SimConfig)) -> RunResult {
    let mut cfg = SimConfig::new(MemorySize::Pages(frames));
    cfg.policy = policy.to_string();
    f(&mut cfg);
    simulate(t, &t.stats(cfg.page_size), &cfg, &Catalog::builtin()).unwrap()
}

/// Pages resident in DRAM at the end: faults that took a frame (all but Direct Read mappings)
/// minus every kind of eviction.
pub fn resident_at_end(r: &RunResult) -> u64 {
    let m = &r.meters;
    m.faults - m.dr_maps - m.evictions()
}
