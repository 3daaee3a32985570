//! Synthetic multi-process buffer-cache traces for the four workload types of the hybrid
//! DRAM+PCM paper (section 4, Table 2): critical-intensive, non-critical-intensive, balanced and
//! stand-by. The paper's traces (a Nexus 7, 24 hours of Chrome, Hangouts, Gmail, Facebook, audio
//! streaming) are not public; these are generated, and every output that uses them says so.
//!
//! Each workload is its own cast of processes in `hybrid_workloads.toml`, written from the paper's
//! description of the run: what was in the foreground and what it did (browsing, idle, none), how
//! often Hangouts was pushed a message, what the system processes did. Taken from the paper: the
//! requests by critical and by non-critical processes (Table 2, times `scale`), the processes, and
//! that every request is a buffer-cache page (file-backed). Assumed, per process, and said so in
//! the file: its share of its class's requests, its write share, its reuse (which sizes its
//! footprint) and its locality (hot window, sequential share); one app switch (an app in the
//! foreground until `switch_at` of the trace, then cached).

use super::gen::{GenParams, Region, Rng};
use super::{pack, Kind, Op, ProcTable, Trace};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The workloads' casts (TOML), built in.
pub const BUILTIN: &str = include_str!("hybrid_workloads.toml");

/// A workload of Table 2 and its processes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    pub name: String,
    /// Table 2: requests by critical and by non-critical processes.
    pub critical: u64,
    pub non_critical: u64,
    /// What the paper ran.
    pub about: String,
    pub proc: Vec<Proc>,
}

/// A process of a generated workload; every field but `name`, `pid` and `adj` is assumed.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Proc {
    pub name: String,
    pub pid: u32,
    pub adj: i32,
    /// Share of its class's requests while in that class.
    pub weight: f64,
    pub write_share: f64,
    /// Requests per distinct page on average (sizes its footprint).
    pub reuse: f64,
    pub hot_share: f64,
    pub hot_prob: f64,
    pub scan_share: f64,
    /// The adj it switches to at `HybridGen::switch_at` of the trace.
    #[serde(default)]
    pub switch_adj: Option<i32>,
}

#[derive(Deserialize)]
struct File {
    workload: Vec<Workload>,
}

/// The built-in workloads, parsed once (the file is checked by a unit test).
pub fn workloads() -> &'static [Workload] {
    static W: OnceLock<Vec<Workload>> = OnceLock::new();
    W.get_or_init(|| {
        let f: File = toml::from_str(BUILTIN).expect("hybrid_workloads.toml is valid (unit-tested)");
        f.workload
    })
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HybridGen {
    pub workload: String,
    /// Multiplies Table 2's request counts.
    pub scale: f64,
    /// Multiplies every process's reuse (requests per distinct page): > 1 shrinks the footprints.
    pub reuse: f64,
    /// Share of the trace after which the switched app goes to the background.
    pub switch_at: f64,
    pub seed: u64,
}

impl Default for HybridGen {
    fn default() -> Self {
        HybridGen { workload: "critical-intensive".into(), scale: 0.1, reuse: 1.0, switch_at: 0.3, seed: 1 }
    }
}

impl HybridGen {
    fn workload(&self) -> Result<&'static Workload> {
        workloads().iter().find(|w| w.name == self.workload).ok_or_else(|| {
            let names: Vec<_> = workloads().iter().map(|w| w.name.as_str()).collect();
            Error::config("workload", format!("unknown workload {:?}; known: {}", self.workload, names.join(", ")))
        })
    }

    /// Requests by critical and by non-critical processes (Table 2 × `scale`), and what ran.
    pub fn counts(&self) -> Result<(u64, u64, &'static str)> {
        let w = self.workload()?;
        let s = |x: u64| (x as f64 * self.scale).round() as u64;
        Ok((s(w.critical), s(w.non_critical), w.about.as_str()))
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
        let ps = &self.workload()?.proc;
        let total = n_crit + n_non;
        if total == 0 {
            return Err(Error::config("scale", format!("{} leaves no requests", self.scale)));
        }
        let switch_index = (total as f64 * self.switch_at) as u64;
        // Expected requests of each process, for its footprint.
        let class_weight = |crit: bool, ps: &[Proc]| -> f64 {
            ps.iter().filter(|p| crate::trace::is_critical(p.adj) == crit).map(|p| p.weight).sum()
        };
        let (wc, wn) = (class_weight(true, ps), class_weight(false, ps));
        let locs: Vec<GenParams> = ps
            .iter()
            .map(|p| GenParams { hot_prob: p.hot_prob, scan_share: p.scan_share, ..Default::default() })
            .collect();
        let mut regions: Vec<Region> = Vec::new();
        let mut base = 0u64;
        for p in ps {
            let expected = if crate::trace::is_critical(p.adj) {
                n_crit as f64 * p.weight / wc
            } else {
                n_non as f64 * p.weight / wn
            };
            let len = ((expected / (p.reuse * self.reuse)).round() as u64).max(16);
            regions.push(Region::new(base, len, p.hot_share));
            base += len;
        }
        let phase = (total / 20).max(1000);
        let mut rng = Rng::new(self.seed);
        let mut ids = vec![u32::MAX; base as usize];
        let mut table = ProcTable::default();
        for p in ps {
            table.set(0, p.pid, p.adj);
        }
        let mut t = Trace {
            path: format!("synthetic-hybrid({}, scale={}, seed={})", self.workload, self.scale, self.seed).into(),
            format: "synthetic",
            accesses: Vec::with_capacity(total as usize).into(),
            page_pids: Some(Vec::new()),
            page_kinds: Some(Vec::new()),
            ..Default::default()
        };
        let mut adj: Vec<i32> = ps.iter().map(|p| p.adj).collect();
        let (mut left_c, mut left_n) = (n_crit, n_non);
        for i in 0..total {
            if i == switch_index {
                for (k, p) in ps.iter().enumerate() {
                    if let Some(a) = p.switch_adj {
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
            let page = regions[k].pick(&mut rng, &locs[k]);
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
    fn the_built_in_casts_are_sound() {
        assert_eq!(workloads().len(), 4);
        for w in workloads() {
            let mut pids: Vec<u32> = w.proc.iter().map(|p| p.pid).collect();
            pids.sort_unstable();
            pids.dedup();
            assert_eq!(pids.len(), w.proc.len(), "{}: pids repeat", w.name);
            for p in &w.proc {
                for (what, v) in [
                    ("write_share", p.write_share),
                    ("hot_share", p.hot_share),
                    ("hot_prob", p.hot_prob),
                    ("scan_share", p.scan_share),
                ] {
                    assert!((0.0..=1.0).contains(&v), "{} {}: {what} {v}", w.name, p.name);
                }
                assert!(p.weight > 0.0 && p.reuse >= 1.0, "{} {}", w.name, p.name);
            }
            // Both classes have a process before and after the switch (the generator relies on it).
            for after in [false, true] {
                let adj = |p: &Proc| if after { p.switch_adj.unwrap_or(p.adj) } else { p.adj };
                for crit in [true, false] {
                    assert!(
                        w.proc.iter().any(|p| crate::trace::is_critical(adj(p)) == crit),
                        "{}: no {} process{}",
                        w.name,
                        if crit { "critical" } else { "non-critical" },
                        if after { " after the switch" } else { "" }
                    );
                }
            }
        }
    }

    #[test]
    fn counts_follow_table_2_and_classes_follow_adj() {
        for w in workloads() {
            let (name, c, n) = (&w.name, &w.critical, &w.non_critical);
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
