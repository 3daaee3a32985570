//! Processes and their importance: the system processes and the apps, Android's oom_score_adj
//! levels (foreground, previous, background work, cached by recency), kills, and the page-id
//! ranges apps take when they start.

use super::Sim;
use crate::engine::{ANON, FILE_FIXED};
use crate::error::Result;
use crate::policy::Policy;
use crate::swap::OwnerState;
use crate::system::catalog::AppProfile;
use crate::system::killer::{self, Candidate, Kill, KillReason};
use crate::system::phone::SystemProcess;
use crate::system::ranges::Range as AppRange;
use crate::trace::gen::Rng;
use crate::trace::{Op, PageId};

/// The app in the foreground (Android's FOREGROUND_APP_ADJ).
pub(super) const FOREGROUND_ADJ: i32 = 0;
/// The app used before it (PREVIOUS_APP_ADJ).
pub(super) const PREVIOUS_ADJ: i32 = 700;
/// Cached apps, most recent first: 900, 910, … up to 999 (CACHED_APP_MIN_ADJ … MAX_ADJ).
pub(super) const CACHED_MIN_ADJ: i32 = 900;
pub(super) const CACHED_STEP: i32 = 10;
pub(super) const CACHED_MAX_ADJ: i32 = 999;
/// An app not started yet (never a kill candidate: it is not alive).
pub(super) const NOT_STARTED_ADJ: i32 = 1000;

pub(super) struct Proc {
    pub(super) name: String,
    /// Index into the profiles (apps), None for system processes.
    pub(super) app: Option<usize>,
    pub(super) anon0: u32,
    pub(super) anon_n: u32,
    pub(super) file0: u32,
    pub(super) file_n: u32,
    /// Whether `anon0` and `file0` are the process's (an app may have lost its ids to another
    /// app while dead; see `ranges`).
    pub(super) ranged: bool,
    pub(super) adj: i32,
    pub(super) alive: bool,
    /// Anon pages allocated since the process started (a prefix of its anon range).
    pub(super) anon_alloc: u32,
    pub(super) last_used_ns: f64,
    pub(super) period_ns: f64,
    pub(super) bg_pages: u64,
    pub(super) next_bg_ns: f64,
    /// Background touches since the last launch (bounded by the phone's `max_bg_touches`).
    pub(super) bg_touches: u64,
    pub(super) hot_share: f64,
    pub(super) hot_prob: f64,
    pub(super) write_share: f64,
    pub(super) anon_share: f64,
}

impl Proc {
    /// A system process: alive from boot, with its periodic background work.
    pub(super) fn system(s: &SystemProcess, anon0: u32, na: u32, nf: u32) -> Proc {
        Proc {
            name: s.name.clone(),
            app: None,
            anon0,
            anon_n: na,
            file0: anon0 + na,
            file_n: nf,
            ranged: true,
            adj: s.adj,
            alive: true,
            anon_alloc: 0,
            last_used_ns: 0.0,
            period_ns: s.period_s * 1e9,
            bg_pages: s.pages,
            next_bg_ns: s.period_s * 1e9,
            bg_touches: 0,
            hot_share: s.hot_share,
            hot_prob: s.hot_prob,
            write_share: s.write_share,
            anon_share: if na + nf > 0 { na as f64 / (na + nf) as f64 } else { 0.0 },
        }
    }

    /// App `i` of the usage trace, not started; `planned` is the range laid out for it, if any.
    pub(super) fn app(i: usize, prof: &AppProfile, (na, nf): (u32, u32), planned: Option<AppRange>) -> Proc {
        Proc {
            name: prof.name.clone(),
            app: Some(i),
            anon0: planned.map_or(0, |r| r.anon0),
            anon_n: na,
            file0: planned.map_or(0, |r| r.file0),
            file_n: nf,
            ranged: planned.is_some(),
            adj: NOT_STARTED_ADJ,
            alive: false,
            anon_alloc: 0,
            last_used_ns: 0.0,
            period_ns: prof.bg_period_s * 1e9,
            bg_pages: prof.bg_pages,
            next_bg_ns: f64::INFINITY,
            bg_touches: 0,
            hot_share: prof.fg_hot_share,
            hot_prob: prof.fg_hot_prob,
            write_share: prof.fg_write_share,
            anon_share: prof.anon_share,
        }
    }

    pub(super) fn persistent(&self) -> bool {
        self.adj < 0
    }

    /// A page to touch: anon or file by the app's split, hot set with `hot_prob`.
    pub(super) fn pick(&self, rng: &mut Rng) -> (PageId, Op) {
        let anon = self.anon_alloc > 0 && (self.file_n == 0 || rng.f64() < self.anon_share);
        let (base, n) = if anon { (self.anon0, self.anon_alloc) } else { (self.file0, self.file_n) };
        let hot = ((n as f64 * self.hot_share) as u64).max(1);
        let off = if rng.f64() < self.hot_prob { rng.below(hot) } else { rng.below(n as u64) };
        let op = if anon && rng.f64() < self.write_share { Op::Write } else { Op::Read };
        (base + off as u32, op)
    }
}

impl<P: Policy> Sim<'_, P> {
    pub(super) fn candidates(&self, with_pages: bool) -> Vec<Candidate> {
        self.w
            .live
            .iter()
            .map(|&i| (i, &self.w.procs[i]))
            .filter(|(i, p)| !p.persistent() && Some(*i) != self.w.fg)
            .map(|(i, p)| Candidate {
                pid: i,
                adj: p.adj,
                last_used_ns: p.last_used_ns,
                pages: if with_pages { self.held(p) } else { 0 },
            })
            .collect()
    }

    /// Anon pages a process holds in memory or swap.
    pub(super) fn held(&self, p: &Proc) -> u64 {
        if !p.ranged {
            return 0;
        }
        self.e.holds(p.anon0..p.anon0 + p.anon_n).either
    }

    /// Kills `pid`: its anon pages leave memory and swap at once (file pages stay in the page
    /// cache, which belongs to the files, not the process).
    pub(super) fn kill(&mut self, pid: usize, reason: KillReason) {
        let expect = self.w.checks.then(|| {
            let p = &self.w.procs[pid];
            let h = self.e.holds(p.anon0..p.anon0 + p.anon_n);
            let v = self.e.view();
            (v.resident - h.resident, v.swap_used - h.swapped)
        });
        let p = &mut self.w.procs[pid];
        p.alive = false;
        p.anon_alloc = 0;
        if let Ok(at) = self.w.live.binary_search(&pid) {
            self.w.live.remove(at);
        }
        let (a0, n) = (p.anon0, p.anon_n);
        let live = self.live_count();
        self.e.change_owners(self.w.index, |o| {
            o.procs[pid].alive = false;
            o.live_apps = live;
        });
        for page in a0..a0 + n {
            self.e.release(page, ANON);
        }
        if let Some(k) = &mut self.w.io.classes {
            // Its pages decompressed ahead are gone with its copies (the ids may be reused).
            k.forget(a0..a0 + n);
        }
        if let Some((res, swp)) = expect {
            let v = self.e.view();
            if (v.resident, v.swap_used) != (res, swp) && self.w.broken.is_none() {
                self.w.broken = Some(format!(
                    "killing {} left {} frames and {} slots in use, expected {res} and {swp}",
                    self.w.procs[pid].name, v.resident, v.swap_used
                ));
            }
        }
        *self.w.m.kills.entry(reason.as_str().to_string()).or_insert(0) += 1;
        self.w.m.kills_total += 1;
        if let Some(a) = self.w.procs[pid].app {
            self.w.m.apps[a].kills += 1;
            self.w.ranges.release(a);
        }
    }

    /// Asks the killer; kills at most one process. Returns whether it killed.
    pub(super) fn consult_killer(&mut self, t: f64) -> bool {
        let v = self.view(t);
        match self.w.killer.check(&v) {
            Some(Kill { min_adj, reason }) => self.kill_one(min_adj, reason),
            None => false,
        }
    }

    pub(super) fn kill_one(&mut self, min_adj: i32, reason: KillReason) -> bool {
        let tie = self.w.killer.tie();
        let c = self.candidates(tie == killer::Tie::Largest);
        match killer::choose(&c, min_adj, tie) {
            Some(pid) => {
                self.kill(pid, reason);
                true
            }
            None => false,
        }
    }

    /// Importance after `fg` comes to the foreground: the foreground app, the previous app, apps
    /// with background work their `bg_adj`, the other apps cached by recency; cached apps beyond
    /// `max_cached` are killed, oldest first.
    pub(super) fn reorder(&mut self) {
        let mut cached: Vec<usize> = Vec::new();
        for &i in &self.w.live {
            let p = &mut self.w.procs[i];
            let Some(a) = p.app else { continue };
            if Some(i) == self.w.fg {
                p.adj = FOREGROUND_ADJ;
            } else if Some(i) == self.w.prev_fg {
                p.adj = PREVIOUS_ADJ;
            } else if p.period_ns > 0.0 && p.bg_pages > 0 {
                p.adj = self.w.profiles[a].bg_adj;
            } else {
                cached.push(i);
            }
        }
        cached.sort_by(|&a, &b| self.w.procs[b].last_used_ns.total_cmp(&self.w.procs[a].last_used_ns).then(a.cmp(&b)));
        for (rank, &i) in cached.iter().enumerate() {
            self.w.procs[i].adj = (CACHED_MIN_ADJ + CACHED_STEP * rank as i32).min(CACHED_MAX_ADJ);
        }
        for &i in cached.iter().skip(self.w.phone.max_cached as usize) {
            self.kill(i, KillReason::CachedCap);
        }
        self.sync_owners();
    }

    /// Tells the swap admission the live processes' importance and launch history, and how many
    /// apps are alive. A dead process's state is left as its death set it: it holds no anon page
    /// (`kill` released them), so no admission asks about it.
    pub(super) fn sync_owners(&mut self) {
        let live = self.live_count();
        let (procs, history, alive) = (&self.w.procs, &self.w.history, &self.w.live);
        self.e.change_owners(self.w.index, |o| {
            for &i in alive {
                let p = &procs[i];
                o.procs[i] = OwnerState { adj: p.adj, alive: p.alive, reuse: p.app.map(|a| history.reuse(a)) };
            }
            o.live_apps = live;
        });
    }

    /// Live apps as Android counts them (the A2S paper's N_live, at most 22 on its phone).
    pub(super) fn live_count(&self) -> u32 {
        self.w.live.iter().filter(|&&i| crate::swap::counts_as_live(self.w.procs[i].adj)).count() as u32
    }

    pub(super) fn live_apps(&self) -> u32 {
        self.w.live.iter().filter(|&&i| self.w.procs[i].app.is_some()).count() as u32
    }

    /// Gives a starting app its page ids (`ranges`): when they were another dead app's, that
    /// app's cached file pages leave memory first, and it holds no ids until it starts again.
    pub(super) fn take_range(&mut self, app: usize, pid: usize) -> Result<()> {
        let got = self.w.ranges.acquire(app)?;
        if let Some(prev) = got.taken_from {
            let ppid = self.app_pid(prev);
            let (f0, nf) = (got.range.file0, self.w.procs[ppid].file_n);
            for page in f0..f0 + nf {
                self.e.release(page, FILE_FIXED);
            }
            self.w.procs[ppid].ranged = false;
            self.w.m.ranges_reused += 1;
        }
        let (na, nf) = (self.w.procs[pid].anon_n, self.w.procs[pid].file_n);
        let p = &mut self.w.procs[pid];
        p.anon0 = got.range.anon0;
        p.file0 = got.range.file0;
        p.ranged = true;
        let owner = pid as u32;
        let anon = got.range.anon0 as usize..(got.range.anon0 + na) as usize;
        let file = got.range.file0 as usize..(got.range.file0 + nf) as usize;
        self.e.change_owners(self.w.index, |o| {
            o.of_page[anon.clone()].fill(owner);
            o.of_page[file.clone()].fill(owner);
            // A starting app has no hot or warm data yet (its ids may have been another app's).
            if !o.hotness.is_empty() {
                o.hotness[anon].fill(crate::swap::COLD);
                o.hotness[file].fill(crate::swap::COLD);
            }
        });
        Ok(())
    }

    /// Ariadne's lists after a launch of `pid`: what a relaunch will touch (a resume's front, which a
    /// resume has just touched and a cold start too) is its hot data now, and what its previous
    /// launch left hot is warm. Kept only for an admission that reads them (`hot-list`).
    pub(super) fn mark_hot(&mut self, pid: usize) {
        use crate::swap::{COLD, HOT, WARM};
        if !self.e.keeps_hotness() {
            return;
        }
        let touched = self.launch_touches(pid, false);
        let p = &self.w.procs[pid];
        let ranges = [p.anon0 as usize..(p.anon0 + p.anon_n) as usize, p.file0 as usize..(p.file0 + p.file_n) as usize];
        self.e.change_owners(self.w.index, |o| {
            if o.hotness.is_empty() {
                o.hotness = vec![COLD; o.of_page.len()];
            }
            for r in ranges.clone() {
                o.hotness[r].iter_mut().filter(|h| **h == HOT).for_each(|h| *h = WARM);
            }
            for &(page, _) in &touched {
                debug_assert!(ranges.iter().any(|r| r.contains(&(page as usize))), "a page of the app's own");
                o.hotness[page as usize] = HOT;
            }
        });
    }

    pub(super) fn app_pid(&self, app: usize) -> usize {
        self.w.procs.len() - self.w.profiles.len() + app
    }
}
