//! The processes of a page trace over time: the trace's pid column and process table (each pid's
//! `oom_score_adj` over the trace), read as the system level's processes (docs/CONFIG.md, "Swap
//! admission"). The driver owns it and tells the memory where it changes (`super::drive`).
//!
//! - A process is an app (it has a launch history) if its adj is ever 0–999; one that is only
//!   ever negative is a system process (LVSP always admits its pages).
//! - A launch is an app's adj becoming 0 (foreground) from another value, or starting at 0.
//!   Launches at the same access count in pid order.
//! - N_live counts the processes at adj 0–999 now (`counts_as_live`). A page trace has no low
//!   memory killer: processes live the whole trace unless nothing can be reclaimed, when the OOM
//!   killer (`oom_kill`) frees one's pages; its later accesses find them new.

use crate::swap::history::History;
use crate::swap::{counts_as_live, OwnerState, Owners};
use crate::trace::{ProcTable, Trace};

/// The processes' states over a page trace, applied access by access.
pub(crate) struct Timeline {
    /// (access, process, adj from then on), in access order.
    changes: Vec<(u64, u32, i32)>,
    next: usize,
    adj: Vec<i32>,
    app: Vec<bool>,
    history: History,
    /// What a memory sees now (`OwnerState` per process), and N_live.
    now: Vec<OwnerState>,
    live_apps: u32,
}

impl Timeline {
    /// The timeline of `trace`'s processes and the owners to start from (none known when the
    /// trace has no process table).
    pub fn new(trace: &Trace) -> (Timeline, Owners) {
        let Some(table) = trace.procs.as_ref() else {
            let t = Timeline {
                changes: Vec::new(),
                next: 0,
                adj: Vec::new(),
                app: Vec::new(),
                history: History::new(0),
                now: Vec::new(),
                live_apps: 0,
            };
            return (t, Owners::default());
        };
        let (of_page, pids, index) = ProcTable::page_procs(trace);
        let adj: Vec<i32> = pids.iter().map(|p| table.initial.get(p).copied().unwrap_or(0)).collect();
        let changes: Vec<(u64, u32, i32)> =
            table.changes.iter().filter_map(|c| Some((c.at, *index.get(&c.pid)?, c.adj))).collect();
        let mut app: Vec<bool> = adj.iter().map(|&a| counts_as_live(a)).collect();
        for &(_, p, a) in &changes {
            app[p as usize] |= counts_as_live(a);
        }
        let n = pids.len();
        let mut t = Timeline {
            changes,
            next: 0,
            adj: vec![i32::MIN; n],
            app,
            history: History::new(n),
            now: vec![OwnerState::new(0, true); n],
            live_apps: 0,
        };
        // The initial values are changes at access 0 from nothing (a process starting at 0 is launched).
        for (p, &a) in adj.iter().enumerate() {
            t.set(p, a);
        }
        t.refresh();
        let owners = Owners { of_page, procs: t.now.clone(), live_apps: t.live_apps, ..Owners::default() };
        (t, owners)
    }

    fn set(&mut self, p: usize, adj: i32) {
        if adj == 0 && self.adj[p] != 0 && self.app[p] {
            self.history.launch(p);
        }
        self.adj[p] = adj;
    }

    /// Applies the changes due at access `index`; says whether there were any.
    pub fn advance(&mut self, index: u64) -> bool {
        let before = self.next;
        while let Some(&(at, p, a)) = self.changes.get(self.next) {
            if at > index {
                break;
            }
            self.set(p as usize, a);
            self.next += 1;
        }
        let changed = self.next > before;
        if changed {
            self.refresh();
        }
        changed
    }

    /// The access of the next change not yet applied.
    pub fn next_change(&self) -> Option<u64> {
        self.changes.get(self.next).map(|c| c.0)
    }

    /// Each process's state now, in the order of `Owners::procs`, and N_live.
    pub fn now(&self) -> (&[OwnerState], u32) {
        (&self.now, self.live_apps)
    }

    fn refresh(&mut self) {
        for (p, s) in self.now.iter_mut().enumerate() {
            *s = OwnerState { adj: self.adj[p], alive: true, reuse: self.app[p].then(|| self.history.reuse(p)) };
        }
        self.live_apps = self.adj.iter().filter(|&&a| counts_as_live(a)).count() as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launches_and_live_apps_follow_the_process_table() {
        // pid 1 starts in the foreground, pid 2 not started, pid 3 a system process; at access 10
        // pid 2 comes to the foreground and pid 1 becomes the previous app.
        let mut procs = ProcTable::default();
        for (pid, adj) in [(1, 0), (2, 1000), (3, -800)] {
            procs.set(0, pid, adj);
        }
        procs.set(10, 2, 0);
        procs.set(10, 1, 700);
        let t = Trace {
            page_pids: Some(vec![1, 2, 3]),
            page_numbers: vec![0, 1, 2],
            procs: Some(procs),
            ..Default::default()
        };
        let (mut tl, o) = Timeline::new(&t);
        assert_eq!(o.of_page, [0, 1, 2]);
        assert_eq!(o.live_apps, 1);
        assert_eq!(o.procs[0].reuse.map(|r| r.launches), Some(1));
        assert_eq!(o.procs[1].reuse.map(|r| r.launches), Some(0));
        assert_eq!(o.procs[2].reuse, None, "a system process has no launch history");
        assert!(!tl.advance(9));
        assert_eq!(tl.next_change(), Some(10));
        assert!(tl.advance(10));
        let (now, live) = tl.now();
        assert_eq!(live, 2);
        assert_eq!((now[0].adj, now[1].adj), (700, 0));
        assert_eq!(now[1].reuse.map(|r| r.launches), Some(1));
        assert_eq!(tl.next_change(), None);
    }
}
