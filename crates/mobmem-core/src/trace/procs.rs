//! Processes and their importance over a trace: each pid's `oom_score_adj` at the start and every
//! change after (an app going to the background). It comes from an `adj` column of a CSV trace or
//! from a side file (`--procs FILE`), and decides which pages belong to critical processes.
//!
//! Side file: CSV with a header; `pid` and `adj` (or `oom_score_adj`) required, and at most one of
//! `access` (0-based index of the first access the value holds for) or `time_ns` (the first access
//! at or after that time; the trace must carry times). A row without either (or with it empty)
//! holds from the start.
//! A `name` column is allowed and only documents the row.

use super::table::Table;
use super::Trace;
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

    /// The trace's processes numbered 0.. in order of first page: each page's process number,
    /// each number's pid, and each pid's number (one process, pid 0, when the trace has no pid
    /// column).
    pub fn page_procs(trace: &Trace) -> (Vec<u32>, Vec<u32>, std::collections::HashMap<u32, u32>) {
        let mut index: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
        let Some(page_pids) = &trace.page_pids else {
            index.insert(0, 0);
            return (vec![0; trace.num_pages()], vec![0], index);
        };
        let mut pids: Vec<u32> = Vec::new();
        let page_proc = page_pids
            .iter()
            .map(|&pid| {
                *index.entry(pid).or_insert_with(|| {
                    pids.push(pid);
                    pids.len() as u32 - 1
                })
            })
            .collect();
        (page_proc, pids, index)
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
        const PID: usize = 0;
        const ADJ: usize = 1;
        const ACCESS: usize = 2;
        const TIME: usize = 3;
        let cols: &[&[&str]] = &[&["pid"], &["adj", "oom_score_adj"], &["access"], &["time_ns"], &["name"]];
        let t = Table::read(path, "process table", cols, &[PID, ADJ])?;
        if t.has(ACCESS) && t.has(TIME) {
            return Err(t.bad_header("give `access` or `time_ns`, not both"));
        }
        if t.has(TIME) && trace.times.is_none() {
            return Err(t.bad_header(format!(
                "column time_ns needs a trace with times; {} has none here (a streamed trace keeps \
                     none: key the table by `access`)",
                trace.path.display()
            )));
        }
        let mut rows: Vec<(u64, u32, i32)> = Vec::new();
        for r in t.rows() {
            let pid: u32 =
                r.get(PID).parse().map_err(|_| r.bad(format!("pid {:?} is not a 32-bit number", r.get(PID))))?;
            let adj = parse_adj(r.get(ADJ))
                .ok_or_else(|| r.bad(format!("adj {:?} is not in {MIN_ADJ}..={MAX_ADJ}", r.get(ADJ))))?;
            let at = if !r.get(ACCESS).is_empty() {
                r.get(ACCESS)
                    .parse::<u64>()
                    .map_err(|_| r.bad(format!("access {:?} is not an index", r.get(ACCESS))))?
            } else if !r.get(TIME).is_empty() {
                let ns: u64 =
                    r.get(TIME).parse().map_err(|_| r.bad(format!("time_ns {:?} is not a number", r.get(TIME))))?;
                let times = trace.times.as_deref().unwrap_or(&[]);
                times.partition_point(|&x| x < ns) as u64
            } else {
                0
            };
            rows.push((at, pid, adj));
        }
        // Stable: rows for the same access keep their file order (the last one wins).
        rows.sort_by_key(|r| r.0);
        let mut table = ProcTable::default();
        for (at, pid, adj) in rows {
            table.set(at, pid, adj);
        }
        table.check_covers(trace, &path.display().to_string())?;
        Ok(table)
    }
}

/// An `oom_score_adj` as text, if it is a number in the kernel's range.
pub fn parse_adj(s: &str) -> Option<i32> {
    s.parse().ok().filter(|a| valid_adj(*a))
}

/// Whether `adj` is in the kernel's `oom_score_adj` range.
pub fn valid_adj(adj: i32) -> bool {
    (MIN_ADJ..=MAX_ADJ).contains(&adj)
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
