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
#[derive(Debug, Clone)]
pub struct Workload {
    pub name: String,
    /// Table 2: requests by critical and by non-critical processes.
    pub critical: u64,
    pub non_critical: u64,
    /// What the paper ran.
    pub about: String,
    pub proc: Vec<Proc>,
}

/// A process of a generated workload: its behaviour (`[process.NAME]` in the file) with what the
/// workload changes; every field but `name`, `pid`, `adj` and `switch_adj` is assumed.
#[derive(Debug, Clone, PartialEq)]
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
    pub switch_adj: Option<i32>,
}

/// A process's behaviour, written once in the file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Behaviour {
    pid: u32,
    adj: i32,
    #[serde(default)]
    switch_adj: Option<i32>,
    write_share: f64,
    reuse: f64,
    hot_share: f64,
    hot_prob: f64,
    scan_share: f64,
}

/// A process in a workload: its weight, and what the workload changes of its behaviour.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: String,
    weight: f64,
    write_share: Option<f64>,
    reuse: Option<f64>,
    hot_share: Option<f64>,
    hot_prob: Option<f64>,
    scan_share: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorkloadEntry {
    name: String,
    critical: u64,
    non_critical: u64,
    about: String,
    proc: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    process: std::collections::BTreeMap<String, Behaviour>,
    workload: Vec<WorkloadEntry>,
}

fn parse(text: &str) -> std::result::Result<Vec<Workload>, String> {
    let f: File = toml::from_str(text).map_err(|e| e.to_string())?;
    let used = |n: &String| f.workload.iter().any(|w| w.proc.iter().any(|e| &e.name == n));
    let unused = f.process.keys().find(|n| !used(n)).cloned();
    let workloads = f
        .workload
        .into_iter()
        .map(|w| {
            let proc = w
                .proc
                .into_iter()
                .map(|e| {
                    let b = f.process.get(&e.name).ok_or_else(|| format!("{}: no [process.{}]", w.name, e.name))?;
                    Ok(Proc {
                        pid: b.pid,
                        adj: b.adj,
                        switch_adj: b.switch_adj,
                        weight: e.weight,
                        write_share: e.write_share.unwrap_or(b.write_share),
                        reuse: e.reuse.unwrap_or(b.reuse),
                        hot_share: e.hot_share.unwrap_or(b.hot_share),
                        hot_prob: e.hot_prob.unwrap_or(b.hot_prob),
                        scan_share: e.scan_share.unwrap_or(b.scan_share),
                        name: e.name,
                    })
                })
                .collect::<std::result::Result<Vec<_>, String>>()?;
            Ok(Workload { name: w.name, critical: w.critical, non_critical: w.non_critical, about: w.about, proc })
        })
        .collect::<std::result::Result<Vec<_>, String>>()?;
    match unused {
        Some(n) => Err(format!("[process.{n}] is in no workload")),
        None => Ok(workloads),
    }
}

/// The built-in workloads, parsed once (the file is checked by a unit test).
pub fn workloads() -> &'static [Workload] {
    static W: OnceLock<Vec<Workload>> = OnceLock::new();
    W.get_or_init(|| parse(BUILTIN).expect("hybrid_workloads.toml is valid (unit-tested)"))
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
    /// Multiply every process's write share, hot-window share, hot probability and scan share
    /// (each kept within [0, 1]): the assumed numbers of the casts, moved for all processes at
    /// once, so that a sensitivity can show which kind matters.
    pub write_scale: f64,
    pub hot_share_scale: f64,
    pub hot_prob_scale: f64,
    pub scan_scale: f64,
    pub seed: u64,
}

impl Default for HybridGen {
    fn default() -> Self {
        HybridGen {
            workload: "critical-intensive".into(),
            scale: 0.1,
            reuse: 1.0,
            switch_at: 0.3,
            write_scale: 1.0,
            hot_share_scale: 1.0,
            hot_prob_scale: 1.0,
            scan_scale: 1.0,
            seed: 1,
        }
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

    /// The generated trace's name: the workload, scale and seed, and any factor moved from 1.
    fn label(&self) -> String {
        let mut more = String::new();
        for (what, k) in [
            ("reuse", self.reuse),
            ("write_scale", self.write_scale),
            ("hot_share_scale", self.hot_share_scale),
            ("hot_prob_scale", self.hot_prob_scale),
            ("scan_scale", self.scan_scale),
        ] {
            if k != 1.0 {
                more += &format!(", {what}={k}");
            }
        }
        format!("synthetic-hybrid({}, scale={}, seed={}{more})", self.workload, self.scale, self.seed)
    }

    /// `p` with the scales applied.
    fn scaled(&self, p: &Proc) -> Proc {
        let share = |v: f64, k: f64| (v * k).clamp(0.0, 1.0);
        Proc {
            write_share: share(p.write_share, self.write_scale),
            hot_share: share(p.hot_share, self.hot_share_scale),
            hot_prob: share(p.hot_prob, self.hot_prob_scale),
            scan_share: share(p.scan_share, self.scan_scale),
            ..p.clone()
        }
    }

    pub fn generate(&self) -> Result<Trace> {
        for (what, k) in [
            ("write_scale", self.write_scale),
            ("hot_share_scale", self.hot_share_scale),
            ("hot_prob_scale", self.hot_prob_scale),
            ("scan_scale", self.scan_scale),
        ] {
            if !(k.is_finite() && k >= 0.0) {
                return Err(Error::config(what, format!("{k} is not a factor ≥ 0")));
            }
        }
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
        let ps: Vec<Proc> = self.workload()?.proc.iter().map(|p| self.scaled(p)).collect();
        let ps = &ps[..];
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
            path: self.label().into(),
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
    fn a_process_is_written_once_and_a_workload_changes_only_what_it_names() {
        let text = r#"
            [process.a]
            pid = 1
            adj = 0
            write_share = 0.3
            reuse = 10
            hot_share = 0.1
            hot_prob = 0.8
            scan_share = 0.2
            [[workload]]
            name = "w"
            critical = 10
            non_critical = 5
            about = "x"
            proc = [{ name = "a", weight = 1.0, reuse = 4 }]
        "#;
        let w = parse(text).unwrap();
        let p = &w[0].proc[0];
        assert_eq!((p.pid, p.weight, p.reuse, p.write_share, p.hot_prob), (1, 1.0, 4.0, 0.3, 0.8));
        let e = parse(&text.replace(r#"name = "a", weight"#, r#"name = "b", weight"#)).unwrap_err();
        assert!(e.contains("no [process.b]"), "{e}");
        let e = parse(&text.replace("reuse = 4", "reuse = 4, colour = 1")).unwrap_err();
        assert!(e.contains("colour"), "{e}");
        let e = parse(&text.replace("[[workload]]", "[process.b]\npid = 2\nadj = 0\nwrite_share = 0\nreuse = 1\nhot_share = 0\nhot_prob = 0\nscan_share = 0\n[[workload]]")).unwrap_err();
        assert!(e.contains("[process.b] is in no workload"), "{e}");
    }

    #[test]
    fn the_scales_move_every_process_and_stay_shares() {
        let g = HybridGen { workload: "balanced".into(), scale: 0.002, ..Default::default() };
        let writes =
            |g: &HybridGen| g.generate().unwrap().accesses.iter().filter(|&&a| a & 3 == Op::Write as u32).count();
        let (base, more) = (writes(&g), writes(&HybridGen { write_scale: 1.5, ..g.clone() }));
        assert!(more as f64 > 1.3 * base as f64, "{base} → {more}");
        assert_eq!(writes(&HybridGen { write_scale: 0.0, ..g.clone() }), 0);
        let k = HybridGen { hot_prob_scale: 10.0, scan_scale: 0.5, hot_share_scale: 2.0, ..g.clone() };
        for w in workloads() {
            for p in &w.proc {
                let s = k.scaled(p);
                // A share stays a share: 10 × any hot probability above 0.1 is 1.
                assert_eq!(s.hot_prob, if p.hot_prob > 0.1 { 1.0 } else { p.hot_prob * 10.0 }, "{}", p.name);
                assert_eq!((s.scan_share, s.hot_share), (p.scan_share * 0.5, p.hot_share * 2.0), "{}", p.name);
                assert_eq!((s.write_share, s.reuse, s.weight), (p.write_share, p.reuse, p.weight), "{}", p.name);
            }
        }
        for bad in [-1.0, f64::NAN, f64::INFINITY] {
            let e = HybridGen { hot_share_scale: bad, ..g.clone() }.generate().unwrap_err();
            assert!(e.to_string().contains("hot_share_scale"), "{e}");
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
