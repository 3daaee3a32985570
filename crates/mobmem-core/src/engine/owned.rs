//! Page traces under a swap admission that looks at processes (A2S, adj-limit): the trace's pid
//! column and process table (each pid's `oom_score_adj` over the trace) are what it sees.
//!
//! How a page trace's processes read as the system level's (docs/CONFIG.md, "Swap admission"):
//! - A process is an app (it has a launch history) if its adj is ever 0–999; one that is only
//!   ever negative is a system process (LVSP always admits its pages).
//! - A launch is an app's adj becoming 0 (foreground) from another value, or starting at 0.
//!   Launches at the same access count in pid order.
//! - N_live counts the processes at adj 0–999 now (`counts_as_live`). A page trace has no low
//!   memory killer: processes live the whole trace unless nothing can be reclaimed, when the OOM
//!   killer (`oom_kill`) frees one's pages; its later accesses find them new.

use super::pages::{self, becomes_anon};
use super::Engine;
use crate::error::Result;
use crate::policy::{Access, Policy};
use crate::swap::history::History;
use crate::swap::{counts_as_live, OwnerState, Owners, Scope, SHARED};
use crate::trace::{Op, PageId, ProcTable, Trace};

/// The processes' states over a page trace, applied access by access.
pub(crate) struct Timeline {
    /// (access, process, adj from then on), in access order.
    changes: Vec<(u64, u32, i32)>,
    next: usize,
    adj: Vec<i32>,
    app: Vec<bool>,
    history: History,
}

impl Timeline {
    /// The timeline of `trace`'s processes and the owners to start from (none known when the
    /// trace has no process table).
    pub fn new(trace: &Trace) -> (Timeline, Owners) {
        let Some(table) = trace.procs.as_ref() else {
            let t =
                Timeline { changes: Vec::new(), next: 0, adj: Vec::new(), app: Vec::new(), history: History::new(0) };
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
        let mut t =
            Timeline { changes, next: 0, adj: vec![i32::MIN; pids.len()], app, history: History::new(pids.len()) };
        // The initial values are changes at access 0 from nothing (a process starting at 0 is launched).
        for (p, &a) in adj.iter().enumerate() {
            t.set(p, a);
        }
        let procs = vec![OwnerState::new(0, true); pids.len()];
        let mut owners = Owners { of_page, procs, sets: Vec::new(), live_apps: 0 };
        t.fill(&mut owners);
        (t, owners)
    }

    fn set(&mut self, p: usize, adj: i32) {
        if adj == 0 && self.adj[p] != 0 && self.app[p] {
            self.history.launch(p);
        }
        self.adj[p] = adj;
    }

    /// Applies the changes due at `index`.
    fn advance(&mut self, index: u64) {
        while let Some(&(at, p, a)) = self.changes.get(self.next) {
            if at > index {
                break;
            }
            self.set(p as usize, a);
            self.next += 1;
        }
    }

    /// What the admission sees now.
    fn fill(&self, o: &mut Owners) {
        for (p, s) in o.procs.iter_mut().enumerate() {
            *s = OwnerState { adj: self.adj[p], alive: true, reuse: self.app[p].then(|| self.history.reuse(p)) };
        }
        o.live_apps = self.adj.iter().filter(|&&a| counts_as_live(a)).count() as u32;
    }
}

impl<P: Policy> Engine<P> {
    /// Kills processes when nothing can be reclaimed (see `oom_kill`).
    pub(super) fn with_oom_kill(mut self) -> Self {
        self.oom_kill = true;
        self
    }

    /// The kernel's OOM killer for a fault on `page` that nothing could be reclaimed for: the
    /// process with the highest adj above 0 (never the foreground or a system process, nor an
    /// owner of `page`) that holds resident pages, the one holding most among equals. Its pages
    /// leave memory and swap with no I/O and come back new when the trace touches them again (the
    /// process starts over). Returns whether it freed a frame.
    #[cold]
    #[inline(never)]
    pub(super) fn oom_kill(&mut self, page: PageId) -> bool {
        let owners = &self.owners;
        let mut resident = vec![0u64; owners.procs.len()];
        for (p, &f) in self.pages.all_flags().iter().enumerate() {
            if f & pages::RESIDENT != 0 {
                if let Some(&o) = owners.of_page.get(p).filter(|&&o| o & SHARED == 0) {
                    resident[o as usize] += 1;
                }
            }
        }
        let spared = owners.owners_of(page);
        let victim = (0..owners.procs.len())
            .filter(|&i| owners.procs[i].adj > 0 && resident[i] > 0 && !spared.contains(&(i as u32)))
            .max_by_key(|&i| (owners.procs[i].adj, resident[i], std::cmp::Reverse(i)));
        let Some(victim) = victim else { return false };
        let mut freed = 0;
        for p in 0..self.pages.len() {
            let f = self.pages.all_flags()[p];
            if self.owners.of_page[p] == victim as u32 && f & (pages::RESIDENT | pages::SWAP_VALID) != 0 {
                self.release(p as PageId, f & (pages::ANON | pages::FILE_FIXED));
                freed += 1;
            }
        }
        self.pages.m.oom_kills += 1;
        self.pages.m.oom_kill_pages += freed;
        true
    }

    /// The page-trace loop with an admission that looks at processes: the owners change where
    /// the timeline says, and between changes the accesses run as in `replay`, with a hit on a
    /// parked page (and every access under `off`, which hides anon pages) through `access`. Kept
    /// apart from `replay` so that the default admission's hit path does not pay for it.
    pub(super) fn replay_owned(&mut self, trace: &Trace, mut t: Timeline) -> Result<()> {
        let n = trace.accesses.len();
        let hits_inline = self.scope == Scope::PerPage;
        let mut start = 0;
        while start < n {
            t.advance(start as u64);
            if start > 0 {
                // A change is due here (the process table's changes are all after access 0).
                self.change_owners(start, |o| t.fill(o));
            }
            let end = t.changes.get(t.next).map_or(n, |c| (c.0 as usize).clamp(start + 1, n));
            for (index, &w) in trace.accesses[start..end].iter().enumerate() {
                let index = start + index;
                let (page, op) = (w >> 2, Op::from_bits(w));
                let f = self.pages.flag(page);
                if hits_inline && f & pages::RESIDENT != 0 && !self.parked[page as usize] {
                    self.pages.m.hits += 1;
                    if op.is_write() {
                        self.pages.write_touch(page as usize);
                    }
                    self.policy.on_hit(&Access { page, op, index, anon: becomes_anon(f, op) });
                    continue;
                }
                // Writeback rounds run before a fault, as in `replay`.
                if index as u64 >= self.wb_due_access && !self.would_hit(page, op) {
                    self.writeback_due(index);
                }
                self.access(page, op, index)?;
            }
            start = end;
        }
        self.pages.m.accesses = n as u64;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{self, IoCosts, PolicySetup, PolicyVisitor};
    use crate::system::categories::{category, CATEGORY_ANON_RW_SHARE};

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
        let (mut tl, mut o) = Timeline::new(&t);
        assert_eq!(o.of_page, [0, 1, 2]);
        assert_eq!(o.live_apps, 1);
        assert_eq!(o.procs[0].reuse.map(|r| r.launches), Some(1));
        assert_eq!(o.procs[1].reuse.map(|r| r.launches), Some(0));
        assert_eq!(o.procs[2].reuse, None, "a system process has no launch history");
        tl.advance(9);
        assert_eq!(tl.next, 0);
        tl.advance(10);
        tl.fill(&mut o);
        assert_eq!(o.live_apps, 2);
        assert_eq!((o.procs[0].adj, o.procs[1].adj), (700, 0));
        assert_eq!(o.procs[1].reuse.map(|r| r.launches), Some(1));
        assert_eq!(tl.next, tl.changes.len());
    }

    /// Replays a round-robin trace under A2S with ESS always holding (every anon page kept), so
    /// that the OOM killer must act; the engine's counts stay consistent.
    struct Kills;

    impl PolicyVisitor for Kills {
        type Output = std::result::Result<(u64, u64), String>;
        fn visit<P: Policy>(self, name: &'static str) -> Self::Output {
            let t = category("gaming", 4, 5_000, 3, CATEGORY_ANON_RW_SHARE).unwrap().generate().unwrap();
            let frames = t.num_pages() / 4;
            let setup = PolicySetup::new(frames, t.space(), IoCosts::default());
            let policy = P::new(&setup, P::Params::default()).map_err(|e| e.to_string())?;
            let params: toml::Table = toml::from_str("t_live = 0").unwrap();
            let (a, _) = crate::swap::admission::build("a2s", &params).map_err(|e| e.to_string())?;
            let (tl, owners) = Timeline::new(&t);
            let mut e =
                Engine::new(policy, t.space(), frames, u64::MAX, false).with_oom_kill().with_admission(a, owners);
            e.replay_owned(&t, tl).map_err(|x| format!("{name}: {x}"))?;
            e.check().map_err(|x| format!("{name}: {x}"))?;
            Ok((e.meters().swap_outs, e.meters().oom_kills))
        }
    }

    #[test]
    fn the_oom_killer_keeps_a_run_going_and_consistent_for_every_policy() {
        for name in policy::NAMES {
            let (outs, kills) = policy::dispatch(name, Kills).unwrap().unwrap();
            assert_eq!(outs, 0, "{name}");
            assert!(kills > 0, "{name}");
        }
    }
}
