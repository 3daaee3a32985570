//! Processes and their importance over a trace: each pid's `oom_score_adj` at the start and every
//! change after (an app going to the background). It comes from an `adj` column of a CSV trace or
//! from a side file (`--procs FILE`), and decides which pages belong to critical processes.
//!
//! Side file: CSV with a header; `pid` and `adj` (or `oom_score_adj`) required, and at most one of
//! `access` (0-based index of the first access the value holds for) or `time_ns` (the first access
//! at or after that time; the trace must carry times). A row without either (or with it empty)
//! holds from the start.
//! A `name` column is allowed and only documents the row.

use super::{open_input, Trace};
use crate::error::{Error, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The kernel's `oom_score_adj` range.
pub const MIN_ADJ: i32 = -1000;
pub const MAX_ADJ: i32 = 1000;

/// Critical processes (the hybrid DRAM+PCM paper, section 2): system processes (adj < 0) and the
/// foreground (adj 0). Visible, service, background and empty processes are not.
#[inline]
pub fn is_critical(adj: i32) -> bool {
    adj <= 0
}

/// From access `at` on, process `pid` has `adj`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AdjChange {
    pub at: u64,
    pub pid: u32,
    pub adj: i32,
}

/// `oom_score_adj` of every process over a trace.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ProcTable {
    /// Each pid's value from the start of the trace.
    pub initial: BTreeMap<u32, i32>,
    /// Later changes, in access order.
    pub changes: Vec<AdjChange>,
}

impl ProcTable {
    /// Records that `pid` has `adj` from access `at` on: the first value given for a pid holds
    /// from the start; later ones are changes.
    pub fn set(&mut self, at: u64, pid: u32, adj: i32) {
        match self.initial.get(&pid) {
            None => {
                self.initial.insert(pid, adj);
            }
            Some(_) if at == 0 => {
                self.initial.insert(pid, adj);
            }
            Some(_) => self.changes.push(AdjChange { at, pid, adj }),
        }
    }

    /// The value of `pid` once every change up to and including access `at` applied.
    pub fn adj_at(&self, pid: u32, at: u64) -> Option<i32> {
        let mut v = *self.initial.get(&pid)?;
        for c in self.changes.iter().filter(|c| c.pid == pid && c.at <= at) {
            v = c.adj;
        }
        Some(v)
    }

    /// Fails on a pid of the trace that has no value; `origin` names where the table came from.
    pub fn check_covers(&self, trace: &Trace, origin: &str) -> Result<()> {
        let pids: std::collections::BTreeSet<u32> = match &trace.page_pids {
            Some(p) => p.iter().copied().collect(),
            None => [0].into(),
        };
        if let Some(p) = pids.iter().find(|p| !self.initial.contains_key(p)) {
            return Err(Error::config(
                "procs",
                format!("pid {p} of {} has no oom_score_adj in {origin}", trace.path.display()),
            ));
        }
        Ok(())
    }

    /// Reads a side file (see the module doc) for `trace`.
    pub fn load(path: &Path, trace: &Trace) -> Result<ProcTable> {
        let (mut input, _) = open_input(path)?;
        let Some((_, header)) = input.next_line()? else {
            return Err(Error::format(path, 1, "empty process table: no header line"));
        };
        let names: Vec<String> =
            String::from_utf8_lossy(header).split(',').map(|s| s.trim().to_ascii_lowercase()).collect();
        const KNOWN: [&str; 6] = ["pid", "adj", "oom_score_adj", "access", "time_ns", "name"];
        let mut col = [usize::MAX; 5]; // pid, adj, access, time_ns, name
        for (i, n) in names.iter().enumerate() {
            let k = match n.as_str() {
                "pid" => 0,
                "adj" | "oom_score_adj" => 1,
                "access" => 2,
                "time_ns" => 3,
                "name" => 4,
                _ => return Err(Error::format(path, 1, format!("unknown column {n:?}; known: {}", KNOWN.join(", ")))),
            };
            if col[k] != usize::MAX {
                return Err(Error::format(path, 1, format!("column {n:?} appears twice")));
            }
            col[k] = i;
        }
        for (k, what) in [(0, "pid"), (1, "adj")] {
            if col[k] == usize::MAX {
                return Err(Error::format(path, 1, format!("header lacks the required column {what:?}")));
            }
        }
        if col[2] != usize::MAX && col[3] != usize::MAX {
            return Err(Error::format(path, 1, "give `access` or `time_ns`, not both"));
        }
        if col[3] != usize::MAX && trace.times.is_none() {
            return Err(Error::format(
                path,
                1,
                format!("column time_ns needs a trace with times; {} has none", trace.path.display()),
            ));
        }
        let mut rows: Vec<(u64, u32, i32)> = Vec::new();
        while let Some((n, line)) = input.next_line()? {
            let text = String::from_utf8_lossy(line);
            if text.trim().is_empty() || text.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = text.split(',').map(str::trim).collect();
            if fields.len() != names.len() {
                return Err(Error::format(path, n, format!("expected {} fields, got {}", names.len(), fields.len())));
            }
            let pid: u32 = fields[col[0]]
                .parse()
                .map_err(|_| Error::format(path, n, format!("pid {:?} is not a 32-bit number", fields[col[0]])))?;
            let adj: i32 =
                fields[col[1]].parse().ok().filter(|a| (MIN_ADJ..=MAX_ADJ).contains(a)).ok_or_else(|| {
                    Error::format(path, n, format!("adj {:?} is not in {MIN_ADJ}..={MAX_ADJ}", fields[col[1]]))
                })?;
            let when = |k: usize| col[k] != usize::MAX && !fields[col[k]].is_empty();
            let at = if when(2) {
                fields[col[2]]
                    .parse::<u64>()
                    .map_err(|_| Error::format(path, n, format!("access {:?} is not an index", fields[col[2]])))?
            } else if when(3) {
                let t: u64 = fields[col[3]]
                    .parse()
                    .map_err(|_| Error::format(path, n, format!("time_ns {:?} is not a number", fields[col[3]])))?;
                let times = trace.times.as_deref().unwrap_or(&[]);
                times.partition_point(|&x| x < t) as u64
            } else {
                0
            };
            rows.push((at, pid, adj));
        }
        // Stable: rows for the same access keep their file order (the last one wins).
        rows.sort_by_key(|r| r.0);
        let mut t = ProcTable::default();
        for (at, pid, adj) in rows {
            t.set(at, pid, adj);
        }
        t.check_covers(trace, &path.display().to_string())?;
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_value_is_initial_later_ones_change() {
        let mut t = ProcTable::default();
        t.set(5, 7, 0);
        t.set(10, 7, 900);
        t.set(0, 8, -800);
        assert_eq!(t.initial[&7], 0);
        assert_eq!(t.changes, vec![AdjChange { at: 10, pid: 7, adj: 900 }]);
        assert_eq!(t.adj_at(7, 9), Some(0));
        assert_eq!(t.adj_at(7, 10), Some(900));
        assert_eq!(t.adj_at(9, 0), None);
        assert!(is_critical(-800) && is_critical(0) && !is_critical(100));
    }
}
