//! The system-level simulator: replays an app-usage trace on a phone. Apps are processes whose
//! pages live in the page engine (the same engine page traces drive); launches, foreground
//! sessions and background work *generate* page touches, and the engine decides hits, faults,
//! evictions and swap. Around it: kswapd and direct reclaim between watermarks, the low memory
//! killer, device queues with size-dependent bandwidth, and the launch clock.
//!
//! Time is simulated ns. A launch's clock advances by its CPU time (spread evenly over its
//! touches) and by the I/O it waits for: file reads (sequential faults merged up to the readahead
//! size), swap-ins (with read-around), and the writes of direct reclaim. kswapd's writes are queued
//! on the devices without anyone waiting, so a later read may queue behind them.

use super::catalog::{AppCatalog, AppProfile};
use super::killer::{self, Candidate, Kill, Killer, KillerSetup, KillerVisitor, MemView};
use super::meters::{AppSummary, LaunchRecord, PhoneResult, ResolvedPhone, SystemEnergy, SystemMeters};
use super::phone::{Layout, Phone};
use super::ranges::Ranges;
use super::usage::UsageTrace;
use crate::device::{Catalog, Device, DeviceKind};
use crate::engine::{Engine, ANON, FILE_FIXED};
use crate::error::{Error, Result};
use crate::policy::{self, IoCosts, Policy, PolicySetup, PolicyVisitor};
use crate::swap::{self, OwnerState, Owners};
use crate::trace::gen::Rng;
use crate::trace::{Kind, Op, PageId, PageSpace};
use std::time::Instant;

/// What to run.
pub struct PhoneRun<'a> {
    pub phone_name: &'a str,
    pub phone: &'a Phone,
    pub usage: &'a UsageTrace,
    pub apps: &'a AppCatalog,
    pub devices: &'a Catalog,
    pub seed: u64,
    /// Check the conservation invariants after every launch (tests; costs a pass over all pages).
    pub checks: bool,
}

/// Length of a foreground-session step: background work due in a step runs before its touches.
const STEP_NS: f64 = 100e6;
/// Most page touches one foreground session may make (a day at 1,000 per second is 8.6e7).
const MAX_SESSION_TOUCHES: f64 = 1e8;
/// PSI-style stall window.
const WINDOW_NS: f64 = 1e9;

struct Proc {
    name: String,
    /// Index into the profiles (apps), None for system processes.
    app: Option<usize>,
    anon0: u32,
    anon_n: u32,
    file0: u32,
    file_n: u32,
    /// Whether `anon0` and `file0` are the process's (an app may have lost its ids to another
    /// app while dead; see `ranges`).
    ranged: bool,
    adj: i32,
    alive: bool,
    /// Anon pages allocated since the process started (a prefix of its anon range).
    anon_alloc: u32,
    last_used_ns: f64,
    period_ns: f64,
    bg_pages: u64,
    next_bg_ns: f64,
    /// Background touches since the last launch (bounded by the phone's `max_bg_touches`).
    bg_touches: u64,
    hot_share: f64,
    hot_prob: f64,
    write_share: f64,
    anon_share: f64,
}

impl Proc {
    fn persistent(&self) -> bool {
        self.adj < 0
    }

    /// A page to touch: anon or file by the app's split, hot set with `hot_prob`.
    fn pick(&self, rng: &mut Rng) -> (PageId, Op) {
        let anon = self.anon_alloc > 0 && (self.file_n == 0 || rng.f64() < self.anon_share);
        let (base, n) = if anon { (self.anon0, self.anon_alloc) } else { (self.file0, self.file_n) };
        let hot = ((n as f64 * self.hot_share) as u64).max(1);
        let off = if rng.f64() < self.hot_prob { rng.below(hot) } else { rng.below(n as u64) };
        let op = if anon && rng.f64() < self.write_share { Op::Write } else { Op::Read };
        (base + off as u32, op)
    }
}

/// A device and its queue (two devices with the same name share one queue).
struct Dev {
    model: Device,
    q: usize,
}

/// Stall time per window, PSI-like: the last full window plus the current one.
#[derive(Default)]
struct Stall {
    window: u64,
    cur: f64,
    prev: f64,
    total: f64,
}

impl Stall {
    fn add(&mut self, t: f64, ns: f64) {
        if ns <= 0.0 {
            return;
        }
        self.roll(t);
        self.cur += ns;
        self.total += ns;
    }
    fn roll(&mut self, t: f64) {
        let w = (t.max(0.0) / WINDOW_NS) as u64;
        if w != self.window {
            self.prev = if w == self.window + 1 { self.cur } else { 0.0 };
            self.cur = 0.0;
            self.window = w;
        }
    }
    fn ms_per_s(&mut self, t: f64) -> f64 {
        self.roll(t);
        let span = WINDOW_NS + (t.max(0.0) - self.window as f64 * WINDOW_NS);
        (self.prev + self.cur) / span * 1e3
    }
}

/// Waits a task accumulated (a launch's, or background work's).
#[derive(Default, Clone, Copy)]
struct Waits {
    file: f64,
    swap: f64,
    reclaim: f64,
    file_pages: u64,
    swap_pages: u64,
}

struct Sim<'a, P: Policy, K: Killer> {
    e: Engine<P>,
    killer: K,
    phone: &'a Phone,
    layout: Layout,
    procs: Vec<Proc>,
    profiles: Vec<AppProfile>,
    swap: Option<Dev>,
    /// Whether swap requests run on the task's CPU (zram) instead of queueing on the device.
    swap_on_cpu: bool,
    /// zram writeback's backing device.
    backing: Option<Dev>,
    file: Dev,
    busy: Vec<f64>,
    /// Which apps hold which page ids.
    ranges: Ranges,
    rng: Rng,
    fg: Option<usize>,
    prev_fg: Option<usize>,
    index: usize,
    stall: Stall,
    m: SystemMeters,
    swap_read_pages_dev: u64,
    swap_write_pages_dev: u64,
    backing_read_pages_dev: u64,
    backing_write_pages_dev: u64,
    file_read_pages_dev: u64,
    file_write_pages_dev: u64,
    checks: bool,
    launches: Vec<LaunchRecord>,
    /// Whether the touches being made are the foreground app's (launch or session): only its
    /// waits count as memory stall (background work's clock runs behind the device queues).
    in_fg: bool,
    /// A conservation check that failed inside a step that cannot return an error.
    broken: Option<String>,
}

fn pages_of(mib: f64, page_size: u64) -> u32 {
    (mib * 1048576.0 / page_size as f64).round() as u32
}

impl<P: Policy, K: Killer> Sim<'_, P, K> {
    /// Frames holding neither a page nor compressed swap (zram).
    fn free(&self) -> u64 {
        self.e.free()
    }

    fn view(&mut self, t: f64) -> MemView {
        MemView {
            now_ns: t,
            page_size: self.phone.page_size,
            frames: self.layout.frames,
            free_pages: self.free(),
            file_pages: self.e.view().file_resident,
            swap_on: self.swap.is_some(),
            swap_total: self.layout.swap_pages,
            swap_used: self.e.view().swap_used,
            stall_ms_per_s: self.stall.ms_per_s(t),
        }
    }

    fn candidates(&self, with_pages: bool) -> Vec<Candidate> {
        self.procs
            .iter()
            .enumerate()
            .filter(|(i, p)| p.alive && !p.persistent() && Some(*i) != self.fg)
            .map(|(i, p)| Candidate {
                pid: i,
                adj: p.adj,
                last_used_ns: p.last_used_ns,
                pages: if with_pages { self.held(p) } else { 0 },
            })
            .collect()
    }

    /// Anon pages a process holds in memory or swap.
    fn held(&self, p: &Proc) -> u64 {
        if !p.ranged {
            return 0;
        }
        self.e.holds(p.anon0..p.anon0 + p.anon_n).either
    }

    /// Kills `pid`: its anon pages leave memory and swap at once (file pages stay in the page
    /// cache, which belongs to the files, not the process).
    fn kill(&mut self, pid: usize, reason: &str) {
        let expect = self.checks.then(|| {
            let p = &self.procs[pid];
            let h = self.e.holds(p.anon0..p.anon0 + p.anon_n);
            let v = self.e.view();
            (v.resident - h.resident, v.swap_used - h.swapped)
        });
        let p = &mut self.procs[pid];
        p.alive = false;
        p.anon_alloc = 0;
        self.e.owners_mut().procs[pid].alive = false;
        let (a0, n) = (p.anon0, p.anon_n);
        for page in a0..a0 + n {
            self.e.release(page, ANON);
        }
        if let Some((res, swp)) = expect {
            let v = self.e.view();
            if (v.resident, v.swap_used) != (res, swp) && self.broken.is_none() {
                self.broken = Some(format!(
                    "killing {} left {} frames and {} slots in use, expected {res} and {swp}",
                    self.procs[pid].name, v.resident, v.swap_used
                ));
            }
        }
        *self.m.kills.entry(reason.to_string()).or_insert(0) += 1;
        self.m.kills_total += 1;
        if let Some(a) = self.procs[pid].app {
            self.m.apps[a].kills += 1;
            self.ranges.release(a);
        }
    }

    /// Asks the killer; kills at most one process. Returns whether it killed.
    fn consult_killer(&mut self, t: f64) -> bool {
        let v = self.view(t);
        match self.killer.check(&v) {
            Some(Kill { min_adj, reason }) => self.kill_one(min_adj, reason),
            None => false,
        }
    }

    fn kill_one(&mut self, min_adj: i32, reason: &str) -> bool {
        let tie = self.killer.tie();
        let c = self.candidates(tie == killer::Tie::Largest);
        match killer::choose(&c, min_adj, tie) {
            Some(pid) => {
                self.kill(pid, reason);
                true
            }
            None => false,
        }
    }

    fn stall_add(&mut self, t: f64, ns: f64) {
        if self.in_fg {
            self.stall.add(t, ns);
        }
    }

    /// Queues a request; returns when it completes.
    fn request(&mut self, dev: DevRef, write: bool, pages: u64, t: f64) -> f64 {
        let ps = self.phone.page_size;
        let d = match dev {
            DevRef::Swap => self.swap.as_ref().unwrap_or(&self.file),
            DevRef::Backing => self.backing.as_ref().unwrap_or(&self.file),
            DevRef::File => &self.file,
        };
        let service = if write { d.model.write_time_ns(pages, ps) } else { d.model.read_time_ns(pages, ps) };
        let end = if matches!(dev, DevRef::Swap) && self.swap_on_cpu {
            // zram compresses and decompresses on the CPU of the task that swaps (per-CPU
            // streams): a swap-in does not wait behind kswapd's compression.
            t + service
        } else {
            let q = d.q;
            let end = t.max(self.busy[q]) + service;
            self.busy[q] = end;
            end
        };
        match (dev, write) {
            (DevRef::Swap, false) => {
                self.swap_read_pages_dev += pages;
                self.m.swap_read_requests += 1;
            }
            (DevRef::Swap, true) => {
                self.swap_write_pages_dev += pages;
                self.m.swap_write_requests += 1;
            }
            (DevRef::File, false) => {
                self.file_read_pages_dev += pages;
                self.m.file_read_requests += 1;
            }
            (DevRef::Backing, false) => {
                self.backing_read_pages_dev += pages;
                self.m.swap_read_requests += 1;
            }
            (DevRef::Backing, true) => self.backing_write_pages_dev += pages,
            (DevRef::File, true) => self.file_write_pages_dev += pages,
        }
        end
    }

    /// A file fault on `page` at `t`: one request for the page and the readahead window after it
    /// (the rest of the app's file, at most `file_readahead_kib`). Returns when the page is in.
    fn file_read(&mut self, page: PageId, t: f64) -> (f64, u64) {
        let max = (self.phone.file_readahead_kib * 1024 / self.phone.page_size).max(1) as u32;
        let p = &self.procs[self.e.owners().of_page[page as usize] as usize];
        let end = (p.file0 + p.file_n).min(page + max);
        let ahead = self.e.prefetch_file(page + 1..end, self.index);
        (self.request(DevRef::File, false, 1 + ahead, t), 1 + ahead)
    }

    /// Queues the writes of an eviction batch; returns when they complete.
    fn write_batch(&mut self, swap_w: u64, file_w: u64, t: f64) -> f64 {
        let mut end = t;
        if swap_w > 0 {
            end = end.max(self.request(DevRef::Swap, true, swap_w, t));
        }
        if file_w > 0 {
            end = end.max(self.request(DevRef::File, true, file_w, t));
        }
        end
    }

    /// Reclaims up to `n` pages; returns (reclaimed, swap writes, file writes).
    fn reclaim(&mut self, n: u64) -> Result<(u64, u64, u64)> {
        let r = self.e.reclaim(n, self.index)?.evicted;
        Ok((r.pages() as u64, r.swap_writes as u64, r.file_writes as u64))
    }

    /// kswapd at `t`: the killer looks first (the legacy LMK ran as a shrinker inside reclaim),
    /// then pages are reclaimed up to the high watermark unless a device is backed up.
    fn kswapd(&mut self, t: f64) -> Result<()> {
        self.m.kswapd_wakes += 1;
        self.consult_killer(t);
        let backlog = self.phone.kswapd_max_backlog_ms * 1e6;
        while self.free() < self.layout.high {
            if self.busy.iter().any(|&b| b - t > backlog) {
                self.m.kswapd_throttled += 1;
                break;
            }
            let want = (self.layout.high - self.free()).min(self.phone.reclaim_batch as u64);
            let (got, sw, fw) = self.reclaim(want)?;
            self.m.kswapd_pages += got;
            self.write_batch(sw, fw, t);
            if got < want {
                break;
            }
        }
        Ok(())
    }

    /// Makes room for a page fault of the task at `*clock`: direct reclaim at the min watermark
    /// (the task waits for the batch's writes), and kills when nothing can be reclaimed.
    fn make_room(&mut self, clock: &mut f64, w: &mut Waits) -> Result<()> {
        if self.free() > self.layout.min {
            return Ok(());
        }
        self.m.direct_reclaims += 1;
        self.consult_killer(*clock);
        if self.free() > self.layout.min {
            return Ok(());
        }
        let (got, sw, fw) = self.reclaim(self.phone.reclaim_batch as u64)?;
        self.m.direct_reclaim_pages += got;
        let end = self.write_batch(sw, fw, *clock);
        let wait = end - *clock;
        w.reclaim += wait;
        self.stall_add(*clock, wait);
        *clock = end;
        while self.free() == 0 {
            // Nothing left to reclaim (swap off or full, no clean page): only a kill helps.
            if !self.kill_one(0, "oom") {
                let fg = self.fg.map(|i| self.procs[i].name.clone()).unwrap_or_default();
                let others = self.procs.iter().filter(|p| p.alive && p.app.is_some()).count().saturating_sub(1);
                return Err(Error::OutOfMemory {
                    access: self.index as u64,
                    msg: format!(
                        "at {:.3} s nothing can be reclaimed or killed for {fg:?}: {} frames resident ({} file), \
                         swap {} of {} pages, {others} other apps alive",
                        *clock * 1e-9,
                        self.e.view().resident,
                        self.e.view().file_resident,
                        self.e.view().swap_used,
                        self.layout.swap_pages
                    ),
                });
            }
        }
        Ok(())
    }

    /// One touch by the task at `*clock`; its I/O waits advance the clock.
    fn touch(&mut self, page: PageId, op: Op, clock: &mut f64, w: &mut Waits) -> Result<()> {
        self.m.touches += 1;
        if self.e.would_hit(page, op) {
            return self.e.access(page, op, self.index).map(|_| self.index += 1);
        }
        self.make_room(clock, w)?;
        let o = self.e.access(page, op, self.index)?;
        self.index += 1;
        let (so, wb) = (o.evicted.swap_writes as u64, o.evicted.file_writes as u64);
        if so + wb > 0 {
            // The policy reclaimed inside the fault (2Q's queue cap): synchronous, like direct reclaim.
            let end = self.write_batch(so, wb, *clock);
            w.reclaim += end - *clock;
            self.stall_add(*clock, end - *clock);
            *clock = end;
        }
        if o.file_reads > 0 {
            let (end, n) = self.file_read(page, *clock);
            w.file += end - *clock;
            w.file_pages += n;
            if o.fault == Some(crate::engine::Fault::FileReread) {
                self.stall_add(*clock, end - *clock);
            }
            *clock = end;
        }
        for (dev, n) in [(DevRef::Swap, o.swap_reads), (DevRef::Backing, o.backing_reads)] {
            if n > 0 && self.swap.is_some() {
                let end = self.request(dev, false, n as u64, *clock);
                w.swap += end - *clock;
                w.swap_pages += n as u64;
                self.stall_add(*clock, end - *clock);
                *clock = end;
            }
        }
        if self.free() < self.layout.low {
            self.kswapd(*clock)?;
        }
        Ok(())
    }

    /// zram writeback rounds due by `t` (checked at launches; the rounds fall in the idle time
    /// between them): each writes its pages to the backing device in the background.
    fn writeback(&mut self, t: f64) {
        if self.backing.is_none() {
            return;
        }
        let mut rounds = Vec::new();
        self.e.writeback_until(t.max(0.0) as u64, |tick, n| rounds.push((tick as f64, n)));
        for (tick, n) in rounds {
            self.request(DevRef::Backing, true, n, tick);
        }
    }

    /// Runs the background work due up to `until`.
    fn background(&mut self, until: f64) -> Result<()> {
        loop {
            let next = self
                .procs
                .iter()
                .enumerate()
                .filter(|(i, p)| p.alive && p.period_ns > 0.0 && p.bg_pages > 0 && Some(*i) != self.fg)
                .map(|(i, p)| (p.next_bg_ns, i))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let Some((t, pid)) = next else { return Ok(()) };
            if t > until {
                return Ok(());
            }
            let mut clock = t;
            let mut w = Waits::default();
            let fg = std::mem::replace(&mut self.in_fg, false);
            for _ in 0..self.procs[pid].bg_pages {
                if !self.procs[pid].alive {
                    break;
                }
                let (page, op) = self.procs[pid].pick(&mut self.rng);
                self.touch(page, op, &mut clock, &mut w)?;
            }
            self.in_fg = fg;
            let p = &mut self.procs[pid];
            p.bg_touches += p.bg_pages;
            if p.bg_touches + p.bg_pages > self.phone.max_bg_touches {
                // Quiet until the next launch: the gap's cost stays bounded (see `max_bg_touches`).
                p.next_bg_ns = f64::INFINITY;
                self.m.bg_rounds_capped += 1;
            } else {
                p.next_bg_ns = t + p.period_ns;
            }
        }
    }

    /// Importance after `fg` comes to the foreground: foreground 0, the previous app 700, apps
    /// with background work their `bg_adj`, the other apps cached 900–999 by recency; cached apps
    /// beyond `max_cached` are killed, oldest first.
    fn reorder(&mut self) {
        let mut cached: Vec<usize> = Vec::new();
        for (i, p) in self.procs.iter_mut().enumerate() {
            let Some(a) = p.app else { continue };
            if !p.alive {
                continue;
            }
            if Some(i) == self.fg {
                p.adj = 0;
            } else if Some(i) == self.prev_fg {
                p.adj = 700;
            } else if p.period_ns > 0.0 && p.bg_pages > 0 {
                p.adj = self.profiles[a].bg_adj;
            } else {
                cached.push(i);
            }
        }
        cached.sort_by(|&a, &b| self.procs[b].last_used_ns.total_cmp(&self.procs[a].last_used_ns).then(a.cmp(&b)));
        for (rank, &i) in cached.iter().enumerate() {
            self.procs[i].adj = (900 + 10 * rank as i32).min(999);
        }
        for &i in cached.iter().skip(self.phone.max_cached as usize) {
            self.kill(i, "cached-cap");
        }
        self.sync_owners();
    }

    /// Tells the swap admission the processes' importance and liveness.
    fn sync_owners(&mut self) {
        let states = &mut self.e.owners_mut().procs;
        for (s, p) in states.iter_mut().zip(&self.procs) {
            *s = OwnerState { adj: p.adj, alive: p.alive };
        }
    }

    fn live_apps(&self) -> u32 {
        self.procs.iter().filter(|p| p.alive && p.app.is_some()).count() as u32
    }

    /// Touches of a cold start: the file pages it reads and the anon pages it allocates, mixed
    /// evenly; or of a resume: the hot front of both regions, some anon ones written.
    fn launch_touches(&self, pid: usize, cold: bool) -> Vec<(PageId, Op)> {
        let p = &self.procs[pid];
        let prof = &self.profiles[p.app.unwrap_or(0)];
        let (nf, na, write_share) = if cold {
            (
                (p.file_n as f64 * prof.cold_file_share).round() as u32,
                (p.anon_n as f64 * prof.cold_anon_share).round() as u32,
                1.0,
            )
        } else {
            (
                (p.file_n as f64 * prof.resume_share).round() as u32,
                (p.anon_alloc as f64 * prof.resume_share).round() as u32,
                prof.resume_write_share,
            )
        };
        let mut out = Vec::with_capacity((nf + na) as usize);
        let (mut i, mut j) = (0u32, 0u32);
        let total = (nf + na) as u64;
        for k in 0..total {
            // Interleave so that after k touches about k × nf / total are file pages.
            let want_file = (k + 1) * nf as u64 / total.max(1);
            if (i as u64) < want_file && i < nf || j >= na {
                out.push((p.file0 + i, Op::Read));
                i += 1;
            } else {
                let op = if cold || (j as f64) < na as f64 * write_share { Op::Write } else { Op::Read };
                out.push((p.anon0 + j, op));
                j += 1;
            }
        }
        out
    }

    fn launch(&mut self, index: u32, time_s: f64, app: usize, start: f64, next: f64) -> Result<f64> {
        let pid = self.app_pid(app);
        self.writeback(start);
        self.background(start)?;
        for p in &mut self.procs {
            if p.bg_touches + p.bg_pages > self.phone.max_bg_touches && p.alive {
                p.next_bg_ns = start + p.period_ns;
            }
            p.bg_touches = 0;
        }
        if self.fg != Some(pid) {
            self.prev_fg = self.fg;
        }
        self.fg = Some(pid);
        let cold = !self.procs[pid].alive;
        {
            let p = &mut self.procs[pid];
            p.alive = true;
            p.last_used_ns = start;
            p.next_bg_ns = start + p.period_ns;
        }
        self.reorder();
        if cold {
            self.take_range(app, pid)?;
        }
        let prof = &self.profiles[app];
        let cpu_ns = if cold { prof.cold_cpu_s } else { prof.resume_cpu_s } * 1e9;
        let touches = self.launch_touches(pid, cold);
        if cold {
            let p = &mut self.procs[pid];
            p.anon_alloc = touches.iter().filter(|(pg, _)| *pg >= p.anon0 && *pg < p.anon0 + p.anon_n).count() as u32;
        }
        let mut clock = start;
        let mut w = Waits::default();
        self.in_fg = true;
        let dt = cpu_ns / touches.len().max(1) as f64;
        for &(page, op) in &touches {
            clock += dt;
            self.touch(page, op, &mut clock, &mut w)?;
        }
        if touches.is_empty() {
            clock += cpu_ns;
        }
        // The sum of its parts rather than `clock - start`: the clock is ns since the first launch,
        // and years into a trace its steps round to tens of ns, which would add up to 0.1 ms.
        let latency_ms = (cpu_ns + w.file + w.swap + w.reclaim) * 1e-6;
        let ux = &self.phone.ux;
        let ux_class = ux.class(latency_ms);
        let excessive = latency_ms >= if cold { ux.vitals_cold_ms } else { ux.vitals_hot_ms };
        let live = self.live_apps();
        let rec = LaunchRecord {
            index,
            time_s,
            start_s: start * 1e-9,
            app: self.profiles[app].name.clone(),
            cold,
            latency_ms,
            cpu_ms: cpu_ns * 1e-6,
            file_wait_ms: w.file * 1e-6,
            swap_wait_ms: w.swap * 1e-6,
            reclaim_wait_ms: w.reclaim * 1e-6,
            file_pages_read: w.file_pages,
            swap_pages_read: w.swap_pages,
            ux_class,
            excessive,
            live_apps: live,
        };
        self.record(app, &rec);
        self.launches.push(rec);
        // The foreground session: touches at the app's rate until the next launch (at most
        // session_s), background work interleaved step by step.
        let end = next.min(clock + self.phone.session_s * 1e9);
        let rate = self.profiles[app].fg_pages_per_s;
        if rate > 0.0 {
            let dt = 1e9 / rate;
            let mut w = Waits::default();
            while clock + dt <= end {
                // At least one touch per step: a rate below 1/STEP_NS would otherwise never advance.
                let step_end = (clock + STEP_NS.max(dt)).min(end);
                self.background(step_end)?;
                while clock + dt <= step_end {
                    clock += dt;
                    let (page, op) = self.procs[pid].pick(&mut self.rng);
                    self.touch(page, op, &mut clock, &mut w)?;
                }
                if step_end >= end {
                    break;
                }
            }
        }
        self.in_fg = false;
        self.procs[pid].last_used_ns = clock.max(start);
        Ok(clock.max(end))
    }

    /// Gives a starting app its page ids (`ranges`): when they were another dead app's, that
    /// app's cached file pages leave memory first, and it holds no ids until it starts again.
    fn take_range(&mut self, app: usize, pid: usize) -> Result<()> {
        let got = self.ranges.acquire(app)?;
        if let Some(prev) = got.taken_from {
            let ppid = self.app_pid(prev);
            let (f0, nf) = (got.range.file0, self.procs[ppid].file_n);
            for page in f0..f0 + nf {
                self.e.release(page, FILE_FIXED);
            }
            self.procs[ppid].ranged = false;
            self.m.ranges_reused += 1;
        }
        let (na, nf) = (self.procs[pid].anon_n, self.procs[pid].file_n);
        let p = &mut self.procs[pid];
        p.anon0 = got.range.anon0;
        p.file0 = got.range.file0;
        p.ranged = true;
        let owner = pid as u32;
        let of = &mut self.e.owners_mut().of_page;
        of[got.range.anon0 as usize..(got.range.anon0 + na) as usize].fill(owner);
        of[got.range.file0 as usize..(got.range.file0 + nf) as usize].fill(owner);
        Ok(())
    }

    fn app_pid(&self, app: usize) -> usize {
        self.procs.len() - self.profiles.len() + app
    }

    fn record(&mut self, app: usize, r: &LaunchRecord) {
        let m = &mut self.m;
        m.launches += 1;
        if r.cold {
            m.cold += 1;
        } else {
            m.resumed += 1;
        }
        m.total_launch_ms += r.latency_ms;
        *m.ux.entry(super::phone::UX_CLASSES[r.ux_class].to_string()).or_insert(0) += 1;
        m.excessive += r.excessive as u64;
        m.live_apps_max = m.live_apps_max.max(r.live_apps);
        m.live_apps_mean += r.live_apps as f64;
        let a = &mut m.apps[app];
        a.launches += 1;
        if r.cold {
            a.cold += 1;
            a.mean_cold_ms = Some(a.mean_cold_ms.unwrap_or(0.0) + r.latency_ms);
        } else {
            a.resumed += 1;
            a.mean_resume_ms = Some(a.mean_resume_ms.unwrap_or(0.0) + r.latency_ms);
        }
        a.mean_latency_ms += r.latency_ms;
    }

    /// The conservation invariants (tests): resident and swap counts match the page states, free
    /// memory is never negative, dead processes hold nothing, swap is never used with swap off.
    fn check(&self) -> Result<()> {
        let bad = |msg: String| Err(Error::Invariant(msg));
        if let Some(b) = &self.broken {
            return bad(b.clone());
        }
        self.e.check().or_else(bad)?;
        let v = self.e.view();
        if v.swap_used > self.layout.swap_pages {
            return bad(format!("{} slots used of {}", v.swap_used, self.layout.swap_pages));
        }
        for p in &self.procs {
            let held = self.held(p);
            if !p.alive && held > 0 {
                return bad(format!("dead process {} holds {held} pages", p.name));
            }
            if !p.ranged {
                continue;
            }
            if self.e.holds(p.anon0 + p.anon_alloc..p.anon0 + p.anon_n).either > 0 {
                return bad(format!("process {} holds anon pages it never allocated", p.name));
            }
        }
        Ok(())
    }

    /// Brings up the system processes before the first launch (their I/O is not timed).
    fn boot(&mut self) -> Result<()> {
        for pid in 0..self.procs.len() {
            if !self.procs[pid].alive {
                continue;
            }
            let p = &self.procs[pid];
            let (f0, nf, a0, na) = (p.file0, p.file_n, p.anon0, p.anon_n);
            self.procs[pid].anon_alloc = na;
            let (mut clock, mut w) = (0.0, Waits::default());
            for page in f0..f0 + nf {
                self.touch(page, Op::Read, &mut clock, &mut w)?;
            }
            for page in a0..a0 + na {
                self.touch(page, Op::Write, &mut clock, &mut w)?;
            }
        }
        // Launches start on an idle phone.
        self.busy.iter_mut().for_each(|b| *b = 0.0);
        self.stall = Stall::default();
        self.swap_read_pages_dev = 0;
        self.swap_write_pages_dev = 0;
        self.backing_read_pages_dev = 0;
        self.backing_write_pages_dev = 0;
        self.file_read_pages_dev = 0;
        self.file_write_pages_dev = 0;
        let keep_apps = std::mem::take(&mut self.m.apps);
        self.m = SystemMeters { apps: keep_apps, ..SystemMeters::default() };
        Ok(())
    }

    fn run(&mut self, usage: &UsageTrace) -> Result<()> {
        self.boot()?;
        let t0 = usage.launches.first().map(|l| l.time_s).unwrap_or(0.0);
        let at = |l: &super::usage::Launch| (l.time_s - t0) * 1e9;
        let mut free_at = 0.0f64;
        for (k, l) in usage.launches.iter().enumerate() {
            let next = usage.launches.get(k + 1).map(at).unwrap_or(f64::INFINITY);
            let start = at(l).max(free_at);
            free_at = self.launch(k as u32, l.time_s, l.app as usize, start, next)?;
            if self.checks {
                self.check()?;
            }
        }
        self.m.sim_time_s = free_at * 1e-9;
        Ok(())
    }

    fn finish(mut self, r: &PhoneRun, layout: Layout, wall: f64) -> Result<PhoneResult> {
        let ps = self.phone.page_size;
        let m = &mut self.m;
        let n = m.launches.max(1) as f64;
        m.live_apps_mean /= n;
        m.mean_launch_ms = m.total_launch_ms / n;
        let mean = |v: Vec<f64>| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
        m.mean_cold_ms = mean(self.launches.iter().filter(|l| l.cold).map(|l| l.latency_ms).collect());
        m.mean_resume_ms = mean(self.launches.iter().filter(|l| !l.cold).map(|l| l.latency_ms).collect());
        for a in &mut m.apps {
            let l = a.launches.max(1) as f64;
            a.mean_latency_ms /= l;
            a.mean_cold_ms = a.mean_cold_ms.map(|v| v / a.cold.max(1) as f64);
            a.mean_resume_ms = a.mean_resume_ms.map(|v| v / a.resumed.max(1) as f64);
        }
        for c in super::phone::UX_CLASSES {
            m.ux.entry(c.to_string()).or_insert(0);
        }
        m.swap_in_pages = self.swap_read_pages_dev + self.backing_read_pages_dev;
        m.swap_out_pages = self.swap_write_pages_dev;
        m.written_back_pages = self.backing_write_pages_dev;
        m.backing_read_pages = self.backing_read_pages_dev;
        m.file_read_pages = self.file_read_pages_dev;
        m.write_back_pages = self.file_write_pages_dev;
        m.stall_ms = self.stall.total * 1e-6;
        let swap_flash = self.swap.as_ref().is_some_and(|d| d.model.kind == DeviceKind::Flash);
        let file_flash = self.file.model.kind == DeviceKind::Flash;
        if swap_flash {
            m.flash_swap_write_bytes = m.swap_out_pages * ps;
            m.flash_write_bytes += m.swap_out_pages * ps;
            m.flash_read_bytes += m.swap_in_pages * ps;
        }
        if file_flash {
            m.flash_write_bytes += m.write_back_pages * ps;
            m.flash_read_bytes += m.file_read_pages * ps;
        }
        // zram writeback: the backing device's writes are swap writes to flash.
        let backing_flash = self.backing.as_ref().is_some_and(|d| d.model.kind == DeviceKind::Flash);
        if backing_flash {
            m.flash_swap_write_bytes += m.written_back_pages * ps;
            m.flash_write_bytes += m.written_back_pages * ps;
            m.flash_read_bytes += m.backing_read_pages * ps;
        }
        // Wear: the file store's flash if it is flash, else the swap device's.
        let flash = if file_flash {
            Some(&self.file.model)
        } else if backing_flash {
            self.backing.as_ref().map(|d| &d.model)
        } else {
            self.swap.as_ref().map(|d| &d.model).filter(|_| swap_flash)
        };
        if let Some(d) = flash {
            if let (Some(cap), Some(endurance)) = (d.capacity_bytes, d.endurance_cycles) {
                let written = m.flash_write_bytes as f64 * self.phone.write_amplification;
                m.pe_cycles_used = Some(written / cap as f64);
                let per_s = written / m.sim_time_s.max(1e-9);
                m.flash_lifetime_years =
                    (per_s > 0.0).then(|| endurance as f64 * cap as f64 / per_s / (365.25 * 86400.0));
            }
        }
        let scale = ps as f64 / 4096.0 * 1e-9;
        let dev_j = |d: &Device, r: u64, w: u64| (r as f64 * d.read_nj + w as f64 * d.write_nj) * scale;
        let dram_gib = (layout.dram_pages * ps) as f64 / (1u64 << 30) as f64;
        m.energy = SystemEnergy {
            dram_background_j: self.phone.dram_mw_per_gib * 1e-3 * dram_gib * m.sim_time_s,
            swap_device_j: self
                .swap
                .as_ref()
                .map(|d| dev_j(&d.model, m.swap_in_pages - m.backing_read_pages, m.swap_out_pages))
                .unwrap_or(0.0)
                + self
                    .backing
                    .as_ref()
                    .map(|d| dev_j(&d.model, m.backing_read_pages, m.written_back_pages))
                    .unwrap_or(0.0),
            storage_device_j: dev_j(&self.file.model, m.file_read_pages, m.write_back_pages),
            launch_j: self.phone.active_mw * 1e-3 * m.total_launch_ms * 1e-3,
            total_j: 0.0,
        };
        let e = &mut m.energy;
        e.total_j = e.dram_background_j + e.swap_device_j + e.storage_device_j + e.launch_j;
        m.defaulted_apps = m.apps.iter().filter(|a| !a.known).count() as u64;
        m.page_ids = self.e.owners().of_page.len() as u64;
        let mut pages = self.e.meters().clone();
        pages.accesses = self.index as u64;
        pages.file_reads = pages.cold_file + pages.file_rereads;
        let phone = self.phone.clone();
        Ok(PhoneResult {
            config: ResolvedPhone {
                name: r.phone_name.to_string(),
                layout,
                swap: self.swap.map(|d| d.model),
                storage: self.file.model,
                policy_params: policy::resolved_params(&phone.policy, &phone.params)?,
                killer_params: killer::resolved_params(&phone.killer, &phone.killer_params)?,
                swap_admission_params: swap::admission::build(&phone.swap_admission, &phone.swap_admission_params)?.1,
                killer_levels: self.killer.levels(),
                seed: r.seed,
                ux_classes: super::phone::UX_CLASSES,
                phone,
            },
            usage: r.usage.stats(),
            usage_path: r.usage.path.display().to_string(),
            meters: self.m,
            pages,
            launches: self.launches,
            wall_time_s: wall,
        })
    }
}

/// Replays `r.usage` on `r.phone`.
pub fn simulate_phone(r: &PhoneRun) -> Result<PhoneResult> {
    let phone = r.phone;
    // A phone's own fields are named under its table (`mine.session_s`), as in a phones file.
    phone.validate(r.devices).map_err(|e| match e {
        Error::Config { field, msg } if !field.starts_with(r.phone_name) => {
            Error::Config { field: format!("{}.{field}", r.phone_name), msg }
        }
        e => e,
    })?;
    let layout = phone.layout()?;
    if r.usage.launches.is_empty() {
        return Err(Error::config("usage", format!("{}: no launches to replay", r.usage.path.display())));
    }
    let ps = phone.page_size;
    let profiles: Vec<AppProfile> = r.usage.apps.iter().map(|n| r.apps.get(n)).collect::<Result<_>>()?;
    let mut procs = Vec::new();
    let mut kinds: Vec<u8> = Vec::new();
    let mut pids: Vec<u32> = Vec::new();
    let mut add = |p: Proc, kinds: &mut Vec<u8>, pids: &mut Vec<u32>| {
        let pid = procs.len() as u32;
        kinds.extend(std::iter::repeat(Kind::Anon as u8).take(p.anon_n as usize));
        kinds.extend(std::iter::repeat(Kind::File as u8).take(p.file_n as usize));
        pids.extend(std::iter::repeat(pid).take((p.anon_n + p.file_n) as usize));
        procs.push(p);
    };
    let mut next = 0u64;
    let mut place = |anon: u32, file: u32| -> Result<(u32, u32)> {
        let a0 = next;
        next += anon as u64 + file as u64;
        if next >= (1 << 30) {
            return Err(Error::config("usage", "the apps' pages together are more than mobmem models (2^30)"));
        }
        Ok((a0 as u32, (a0 + anon as u64) as u32))
    };
    for s in &phone.system {
        let (na, nf) = (pages_of(s.anon_mib, ps), pages_of(s.file_mib, ps));
        let (anon0, file0) = place(na, nf)?;
        let p = Proc {
            name: s.name.clone(),
            app: None,
            anon0,
            anon_n: na,
            file0,
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
            hot_share: 0.2,
            hot_prob: 0.9,
            write_share: 0.3,
            anon_share: if na + nf > 0 { na as f64 / (na + nf) as f64 } else { 0.0 },
        };
        add(p, &mut kinds, &mut pids);
    }
    // Apps get their ids from `ranges`, laid out up front (bounded by what can be alive at once).
    let base = next as u32;
    let shapes: Vec<(u32, u32)> = profiles
        .iter()
        .map(|prof| {
            let (na, nf) = prof.pages(ps);
            (na as u32, nf as u32)
        })
        .collect();
    let bg: Vec<bool> = profiles.iter().map(|p| p.bg_period_s > 0.0 && p.bg_pages > 0).collect();
    // A foreground session's touches are its length times the app's rate: bounded per launch.
    if let Some(p) = profiles.iter().find(|p| p.fg_pages_per_s * phone.session_s > MAX_SESSION_TOUCHES) {
        return Err(Error::config(
            "session_s",
            format!(
                "{} s in the foreground at {}'s {} touches/s is more than {MAX_SESSION_TOUCHES:e} touches per launch",
                phone.session_s, p.name, p.fg_pages_per_s
            ),
        ));
    }
    let (ranges, ids) = Ranges::plan(base, &shapes, &bg, phone.max_cached)?;
    // Each id costs its flags, owner, kind and the policy's state: some tens of bytes.
    crate::limits::ensure_fits("usage", "page ids (system processes and apps)", ids, 48)?;
    let first_app_pid = procs.len();
    for (i, prof) in profiles.iter().enumerate() {
        let (na, nf) = shapes[i];
        let planned = ranges.of(i);
        let p = Proc {
            name: prof.name.clone(),
            app: Some(i),
            anon0: planned.map_or(0, |r| r.anon0),
            anon_n: na,
            file0: planned.map_or(0, |r| r.file0),
            file_n: nf,
            ranged: planned.is_some(),
            adj: 1000,
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
        };
        procs.push(p);
    }
    for (app, range) in ranges.layout() {
        debug_assert_eq!(range.anon0 as usize, kinds.len());
        let (na, nf) = shapes[app];
        kinds.extend(std::iter::repeat(Kind::Anon as u8).take(na as usize));
        kinds.extend(std::iter::repeat(Kind::File as u8).take(nf as usize));
        pids.extend(std::iter::repeat((first_app_pid + app) as u32).take((na + nf) as usize));
    }
    let (swap, storage) = phone.devices(r.devices)?;
    let backend = swap.as_ref().map(|s| crate::swap::backend::build(s, r.devices)).transpose()?;
    let io_dev = swap.as_ref().unwrap_or(&storage);
    let costs = IoCosts {
        swap_read_ns: io_dev.read_time_ns(1, ps),
        swap_write_ns: io_dev.write_time_ns(1, ps),
        file_read_ns: storage.read_time_ns(1, ps),
        file_write_ns: storage.write_time_ns(1, ps),
    };
    let apps = profiles
        .iter()
        .map(|p| AppSummary { app: p.name.clone(), category: p.category.clone(), known: p.known, ..Default::default() })
        .collect();
    let shared_queue = swap.as_ref().is_some_and(|s| s.name == storage.name);
    // zram writeback's backing device: its own queue unless it is the file store's device.
    let wb = backend.as_ref().and_then(|b| b.writeback().cloned());
    let backing_q = wb.as_ref().map(|w| if w.backing.name == storage.name { 0 } else { 2 });
    let parts = Parts {
        r,
        layout,
        procs,
        ranges,
        profiles,
        swap: swap.map(|model| Dev { model, q: 1 }),
        file: Dev { model: storage, q: 0 },
        busy: vec![
            0.0;
            if backing_q == Some(2) {
                3
            } else if shared_queue {
                1
            } else {
                2
            }
        ],
        swap_on_cpu: backend.as_ref().is_some_and(|b| b.on_cpu()),
        zram: backend.as_ref().and_then(|b| b.compression_ratio()),
        backing: wb.map(|w| (Dev { model: w.backing.clone(), q: backing_q.unwrap_or(0) }, w)),
        apps,
        kinds: &kinds,
        owners: pids,
        costs,
    };
    let parts = Parts { swap: parts.swap.map(|d| Dev { q: if shared_queue { 0 } else { 1 }, ..d }), ..parts };
    policy::dispatch(&phone.policy, parts)?
}

struct Parts<'a> {
    r: &'a PhoneRun<'a>,
    layout: Layout,
    procs: Vec<Proc>,
    ranges: Ranges,
    profiles: Vec<AppProfile>,
    swap: Option<Dev>,
    file: Dev,
    busy: Vec<f64>,
    apps: Vec<AppSummary>,
    /// Kind of each page id (anon or file), and the process owning it at the start.
    kinds: &'a [u8],
    owners: Vec<u32>,
    costs: IoCosts,
    swap_on_cpu: bool,
    zram: Option<f64>,
    /// zram writeback: the backing device and its rounds.
    backing: Option<(Dev, crate::swap::backend::Writeback)>,
}

impl PolicyVisitor for Parts<'_> {
    type Output = Result<PhoneResult>;
    fn visit<P: Policy>(self, name: &'static str) -> Result<PhoneResult> {
        let phone = self.r.phone;
        let params: P::Params = policy::parse_params(name, &phone.params)?;
        let space = PageSpace { pages: self.kinds.len(), kinds: Some(self.kinds), future: None };
        let setup = PolicySetup { frames: self.layout.frames as usize, space, costs: self.costs };
        let policy = P::new(&setup, params)?;
        killer::dispatch(&phone.killer, WithPolicy { policy, parts: self })?
    }
}

struct WithPolicy<'a, P> {
    policy: P,
    parts: Parts<'a>,
}

impl<P: Policy> KillerVisitor for WithPolicy<'_, P> {
    type Output = Result<PhoneResult>;
    fn visit<K: Killer>(self, name: &'static str) -> Result<PhoneResult> {
        let Parts {
            r,
            layout,
            procs,
            ranges,
            profiles,
            swap,
            file,
            busy,
            apps,
            kinds,
            owners,
            swap_on_cpu,
            zram,
            backing,
            ..
        } = self.parts;
        let phone = r.phone;
        let params: K::Params = policy::parse_params(&format!("killer_params ({name})"), &phone.killer_params)?;
        let dram_bytes = layout.dram_pages * phone.page_size;
        let killer = K::new(&KillerSetup { dram_bytes, page_size: phone.page_size }, params)?;
        let swap_cap = layout.swap_pages;
        let space = PageSpace { pages: kinds.len(), kinds: Some(kinds), future: None };
        let mut e = Engine::new(self.policy, space, layout.frames as usize, swap_cap, phone.direct_read);
        let mut e_writeback = None;
        if phone.page_cluster > 0 && swap.is_some() {
            e = e.with_read_around(phone.page_cluster);
        }
        e = e.with_zram(zram);
        let backing = backing.map(|(dev, w)| {
            // Rounds every idle_s of simulated time (ns), at most the daily budget's share each.
            e_writeback = Some(((w.idle_s * 1e9) as u64, w.limit_pages(phone.page_size)));
            dev
        });
        if let Some((every, limit)) = e_writeback {
            e = e.with_writeback(every, limit, false);
        }
        let admission = swap::admission::effective(&phone.swap_admission, swap.is_some());
        let (admission, _) = swap::admission::build(admission, &phone.swap_admission_params)?;
        let states = procs.iter().map(|p| OwnerState { adj: p.adj, alive: p.alive }).collect();
        e = e.with_admission(admission, Owners { of_page: owners, procs: states });
        let mut sim = Sim {
            e,
            killer,
            phone,
            layout,
            procs,
            profiles,
            swap,
            swap_on_cpu,
            backing,
            file,
            busy,
            ranges,
            rng: Rng::new(r.seed),
            fg: None,
            prev_fg: None,
            index: 0,
            stall: Stall::default(),
            m: SystemMeters { apps, ..SystemMeters::default() },
            swap_read_pages_dev: 0,
            swap_write_pages_dev: 0,
            backing_read_pages_dev: 0,
            backing_write_pages_dev: 0,
            file_read_pages_dev: 0,
            file_write_pages_dev: 0,
            checks: r.checks,
            launches: Vec::new(),
            in_fg: false,
            broken: None,
        };
        let start = Instant::now();
        sim.run(r.usage)?;
        let wall = start.elapsed().as_secs_f64();
        sim.finish(r, layout, wall)
    }
}

#[derive(Clone, Copy)]
enum DevRef {
    Swap,
    /// zram writeback's backing device.
    Backing,
    File,
}
