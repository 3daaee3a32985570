//! Synthetic multi-process buffer-cache traces for the four workload types of the hybrid
//! DRAM+PCM paper (section 4, Table 2): critical-intensive, non-critical-intensive, balanced and
//! stand-by. The paper's traces (a Nexus 7, 24 hours of Chrome, Hangouts, Gmail, Facebook, audio
//! streaming) are not public; these are generated, and every output that uses them says so.
//!
//! What is taken from the paper: the number of requests by critical and by non-critical processes
//! (Table 2, times `scale`), the process mix it describes (system processes; Chrome in the
//! foreground except in stand-by; Hangouts pushing messages; audio streaming; apps cached in the
//! background), and that every request is a buffer-cache page (file-backed). What is assumed:
//! each process's footprint (its expected requests / `reuse`), its write share, its locality (a
//! drifting hot window), and one app switch: an app used in the foreground for the first
//! `switch_at` of the trace, then moved to the background (oom_score_adj 0 → 700).

use super::gen::{GenParams, Region, Rng};
use super::{pack, Kind, Op, ProcTable, Trace};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// Table 2: requests by critical and by non-critical processes, per workload.
pub const WORKLOADS: &[(&str, u64, u64, &str)] = &[
    ("critical-intensive", 1_027_230, 131_915, "web browsing in Chrome; a Hangouts message every 30 s"),
    ("non-critical-intensive", 11_236_137, 13_470_195, "Chrome idle in the foreground; a message every 5 s"),
    ("balanced", 9_136_464, 7_129_521, "Chrome idle in the foreground; a message every 30 s"),
    ("stand-by", 1_350_282, 523_500, "no foreground app; background apps asleep for 24 hours"),
];

/// A process of a generated workload.
struct Proc {
    pid: u32,
    adj: i32,
    /// Share of its class's requests while in that class.
    weight: f64,
    write_share: f64,
    /// The adj it switches to at `HybridGen::switch_at` of the trace.
    switch: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HybridGen {
    pub workload: String,
    /// Multiplies Table 2's request counts.
    pub scale: f64,
    /// Requests per distinct page on average (sizes the footprints).
    pub reuse: f64,
    /// Share of the trace after which the switched app goes to the background.
    pub switch_at: f64,
    pub seed: u64,
}

impl Default for HybridGen {
    fn default() -> Self {
        HybridGen { workload: "critical-intensive".into(), scale: 0.1, reuse: 40.0, switch_at: 0.3, seed: 1 }
    }
}

fn procs(workload: &str) -> Vec<Proc> {
    let p = |pid, adj, weight, write_share, switch| Proc { pid, adj, weight, write_share, switch };
    // Critical: system_server, surfaceflinger, media; Chrome (foreground); Gmail (foreground, then
    // background). Non-critical: Hangouts (service), audio (perceptible), Facebook (cached).
    let mut v = vec![p(1000, -900, 0.25, 0.35, None), p(1001, -800, 0.10, 0.2, None), p(1013, -700, 0.05, 0.2, None)];
    if workload != "stand-by" {
        v.push(p(2001, 0, 0.45, 0.3, None));
        v.push(p(2002, 0, 0.15, 0.3, Some(700)));
    }
    v.push(p(3001, 500, 0.5, 0.5, None));
    v.push(p(3002, 200, 0.3, 0.2, None));
    v.push(p(3003, 900, 0.2, 0.4, None));
    v
}

impl HybridGen {
    pub fn counts(&self) -> Result<(u64, u64, &'static str)> {
        let (_, c, n, about) = WORKLOADS.iter().find(|w| w.0 == self.workload).ok_or_else(|| {
            let names: Vec<_> = WORKLOADS.iter().map(|w| w.0).collect();
            Error::config("workload", format!("unknown workload {:?}; known: {}", self.workload, names.join(", ")))
        })?;
        let s = |x: u64| (x as f64 * self.scale).round() as u64;
        Ok((s(*c), s(*n), about))
    }

    pub fn generate(&self) -> Result<Trace> {
        if !(self.scale > 0.0 && self.scale <= 10.0) {
            return Err(Error::config("scale", format!("{} is not in (0, 10]", self.scale)));
        }
        if !(self.reuse >= 1.0 && self.reuse.is_finite()) {
            return Err(Error::config("reuse", format!("{} is not ≥ 1", self.reuse)));
        }
        if !(0.0..=1.0).contains(&self.switch_at) {
            return Err(Error::config("switch_at", format!("{} is not a share in [0, 1]", self.switch_at)));
        }
        let (n_crit, n_non, _) = self.counts()?;
        let total = n_crit + n_non;
        if total == 0 {
            return Err(Error::config("scale", format!("{} leaves no requests", self.scale)));
        }
        let ps = procs(&self.workload);
        let switch_index = (total as f64 * self.switch_at) as u64;
        // Expected requests of each process, for its footprint.
        let class_weight = |crit: bool, ps: &[Proc]| -> f64 {
            ps.iter().filter(|p| crate::trace::is_critical(p.adj) == crit).map(|p| p.weight).sum()
        };
        let (wc, wn) = (class_weight(true, &ps), class_weight(false, &ps));
        let loc = GenParams { hot_share: 0.1, hot_prob: 0.8, scan_share: 0.3, ..Default::default() };
        let mut regions: Vec<Region> = Vec::new();
        let mut base = 0u64;
        for p in &ps {
            let expected = if crate::trace::is_critical(p.adj) {
                n_crit as f64 * p.weight / wc
            } else {
                n_non as f64 * p.weight / wn
            };
            let len = ((expected / self.reuse).round() as u64).max(16);
            regions.push(Region::new(base, len, loc.hot_share));
            base += len;
        }
        let phase = (total / 20).max(1000);
        let mut rng = Rng::new(self.seed);
        let mut ids = vec![u32::MAX; base as usize];
        let mut table = ProcTable::default();
        for p in &ps {
            table.set(0, p.pid, p.adj);
        }
        let mut t = Trace {
            path: format!("synthetic-hybrid({}, scale={}, seed={})", self.workload, self.scale, self.seed).into(),
            format: "synthetic",
            accesses: Vec::with_capacity(total as usize),
            page_pids: Some(Vec::new()),
            page_kinds: Some(Vec::new()),
            ..Default::default()
        };
        let mut adj: Vec<i32> = ps.iter().map(|p| p.adj).collect();
        let (mut left_c, mut left_n) = (n_crit, n_non);
        for i in 0..total {
            if i == switch_index {
                for (k, p) in ps.iter().enumerate() {
                    if let Some(a) = p.switch {
                        adj[k] = a;
                        // At access 0 this replaces the initial value, as the generator uses it.
                        table.set(i, p.pid, a);
                    }
                }
            }
            if i > 0 && i % phase == 0 {
                for r in regions.iter_mut() {
                    r.shift(&mut rng);
                }
            }
            let crit = rng.below(left_c + left_n) < left_c;
            if crit {
                left_c -= 1;
            } else {
                left_n -= 1;
            }
            // A process of the class, by weight among those in it now.
            let in_class = |k: usize| crate::trace::is_critical(adj[k]) == crit;
            let sum: f64 = (0..ps.len()).filter(|&k| in_class(k)).map(|k| ps[k].weight).sum();
            let mut u = rng.f64() * sum;
            let mut k = (0..ps.len()).rev().find(|&k| in_class(k)).expect("every class has a process");
            for j in (0..ps.len()).filter(|&j| in_class(j)) {
                if u < ps[j].weight {
                    k = j;
                    break;
                }
                u -= ps[j].weight;
            }
            let page = regions[k].pick(&mut rng, &loc);
            let op = if rng.f64() < ps[k].write_share { Op::Write } else { Op::Read };
            let slot = &mut ids[page as usize];
            if *slot == u32::MAX {
                *slot = t.page_numbers.len() as u32;
                t.page_numbers.push(page - regions[k].base_page());
                t.page_pids.as_mut().expect("set above").push(ps[k].pid);
                t.page_kinds.as_mut().expect("set above").push(Kind::File as u8);
            }
            t.accesses.push(pack(*slot, op));
        }
        t.procs = Some(table);
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_follow_table_2_and_classes_follow_adj() {
        for (name, c, n, _) in WORKLOADS {
            let g = HybridGen { workload: name.to_string(), scale: 0.01, ..Default::default() };
            let t = g.generate().unwrap();
            let procs = t.procs.as_ref().unwrap();
            let pids = t.page_pids.as_ref().unwrap();
            let mut crit = 0u64;
            for (i, &a) in t.accesses.iter().enumerate() {
                let pid = pids[(a >> 2) as usize];
                crit += crate::trace::is_critical(procs.adj_at(pid, i as u64).unwrap()) as u64;
            }
            let want_c = (*c as f64 * 0.01).round() as u64;
            let want_n = (*n as f64 * 0.01).round() as u64;
            assert_eq!((crit, t.len() as u64 - crit), (want_c, want_n), "{name}");
            assert_eq!(g.generate().unwrap().accesses, t.accesses, "{name}: same seed, same trace");
            let other = HybridGen { seed: 2, ..g.clone() }.generate().unwrap();
            assert_ne!(other.accesses, t.accesses, "{name}: another seed, another trace");
        }
        assert!(HybridGen { workload: "nope".into(), ..Default::default() }.generate().is_err());
        assert!(HybridGen { scale: 0.0, ..Default::default() }.generate().is_err());
    }
}
