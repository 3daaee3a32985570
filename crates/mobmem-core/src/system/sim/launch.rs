//! Launches and the clock: a launch's touches (a cold start's file reads and allocations, a
//! resume's hot set), the foreground session after it, background work due in between, each touch
//! through the engine with its I/O waits, and the launch records.

use super::io::{DevRef, Stall, Waits};
use super::{Sim, STEP_NS};
use crate::engine::Fault;
use crate::error::Result;
use crate::policy::Policy;
use crate::system::meters::{LaunchRecord, SystemMeters};
use crate::system::usage::UsageTrace;
use crate::trace::{Op, PageId};

impl<P: Policy> Sim<'_, P> {
    /// One touch by the task at `*clock`; its I/O waits advance the clock.
    pub(super) fn touch(&mut self, page: PageId, op: Op, clock: &mut f64, w: &mut Waits) -> Result<()> {
        self.w.m.touches += 1;
        self.e.set_now(*clock as u64);
        if self.e.would_hit(page, op) {
            let o = self.e.access(page, op, self.w.index)?;
            self.w.index += 1;
            if self.w.hotness {
                // A touch of a cold page makes it warm (Ariadne's cold-to-warm move on access);
                // a first touch (allocation) leaves it cold; a launch's marking comes after.
                self.e.warm(page);
            }
            if o.mapped_reads > 0 {
                // Served in place from NVM: no fault, no queue, but slower than a DRAM hit.
                let ns = self.w.io.swap.as_ref().map_or(0.0, |d| d.model.mapped_read_ns);
                w.mapped += ns;
                w.mapped_reads += 1;
                *clock += ns;
            }
            return Ok(());
        }
        self.make_room(clock, w)?;
        // Compressed by class: the class the copy was compressed in (freed by the swap-in).
        let zram_class = if self.w.io.classes.is_some() { self.e.zram_class(page) } else { None };
        let o = self.e.access(page, op, self.w.index)?;
        self.w.index += 1;
        if self.w.hotness && o.fault.is_some_and(Fault::is_refault) {
            self.e.warm(page);
        }
        if matches!(o.fault, Some(Fault::SwapIn | Fault::Mapped | Fault::Promoted)) {
            // Whose page came back from swap: an app's, or a system process's.
            let owner = self.e.owners().of_page[page as usize] as usize;
            match self.w.procs.get(owner).and_then(|p| p.app) {
                Some(app) => self.w.m.apps[app].swap_faults += 1,
                None => self.w.m.system_swap_faults += 1,
            }
        }
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
            if n > 0 && self.w.io.swap.is_some() {
                let end = match zram_class {
                    Some(class) if matches!(dev, DevRef::Swap) => self.zram_read(page, class, *clock),
                    _ => self.request(dev, false, n as u64, *clock),
                };
                w.swap += end - *clock;
                w.swap_pages += n as u64;
                self.stall_add(*clock, end - *clock);
                *clock = end;
            }
        }
        if self.free() < self.w.layout.low {
            self.kswapd(*clock)?;
        }
        Ok(())
    }

    /// Runs the background work due up to `until`.
    pub(super) fn background(&mut self, until: f64) -> Result<()> {
        loop {
            let procs = &self.w.procs;
            let next = self
                .w
                .live
                .iter()
                .map(|&i| (i, &procs[i]))
                .filter(|(i, p)| p.period_ns > 0.0 && p.bg_pages > 0 && Some(*i) != self.w.fg)
                .map(|(i, p)| (p.next_bg_ns, i))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let Some((t, pid)) = next else { return Ok(()) };
            if t > until {
                return Ok(());
            }
            // zram writeback's rounds (and its idle marking) due before this work, in time order.
            self.writeback(t);
            let mut clock = t;
            let mut w = Waits::default();
            let fg = std::mem::replace(&mut self.w.in_fg, false);
            let touches = (self.w.procs[pid].bg_pages as f64 * self.activity(pid)).round() as u64;
            for _ in 0..touches {
                if !self.w.procs[pid].alive {
                    break;
                }
                let (page, op) = self.w.procs[pid].pick(&mut self.w.rng);
                self.touch(page, op, &mut clock, &mut w)?;
            }
            self.w.in_fg = fg;
            let p = &mut self.w.procs[pid];
            p.bg_touches += p.bg_pages;
            if p.bg_touches + p.bg_pages > self.w.phone.max_bg_touches {
                // Quiet until the next launch: the gap's cost stays bounded (see `max_bg_touches`).
                p.next_bg_ns = f64::INFINITY;
                self.w.m.bg_rounds_capped += 1;
            } else {
                p.next_bg_ns = t + p.period_ns;
            }
        }
    }

    /// The share of its page touches process `pid` makes: the phone's `activity`, times the apps'
    /// or the system processes' own (`apps_activity`, `system_activity`).
    fn activity(&self, pid: usize) -> f64 {
        let ph = &self.w.phone;
        ph.activity * if self.w.procs[pid].app.is_some() { ph.apps_activity } else { ph.system_activity }
    }

    /// Touches of a cold start: the file pages it reads and the anon pages it allocates, mixed
    /// evenly; or of a resume: the hot front of both regions, some anon ones written.
    pub(super) fn launch_touches(&self, pid: usize, cold: bool) -> Vec<(PageId, Op)> {
        let p = &self.w.procs[pid];
        let prof = &self.w.profiles[p.app.unwrap_or(0)];
        let act = self.activity(pid);
        let (nf, na, write_share) = if cold {
            (
                (p.file_n as f64 * prof.cold_file_share * act).round() as u32,
                (p.anon_n as f64 * prof.cold_anon_share * act).round() as u32,
                1.0,
            )
        } else {
            (
                (p.file_n as f64 * prof.resume_share * act).round() as u32,
                (p.anon_alloc as f64 * prof.resume_share * act).round() as u32,
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

    pub(super) fn launch(&mut self, index: u32, time_s: f64, app: usize, start: f64, next: f64) -> Result<f64> {
        let pid = self.app_pid(app);
        self.background(start)?;
        self.writeback(start);
        for &i in &self.w.live {
            let p = &mut self.w.procs[i];
            if p.bg_touches + p.bg_pages > self.w.phone.max_bg_touches {
                p.next_bg_ns = start + p.period_ns;
            }
            p.bg_touches = 0;
        }
        if self.w.fg != Some(pid) {
            self.w.prev_fg = self.w.fg;
        }
        self.w.fg = Some(pid);
        let cold = !self.w.procs[pid].alive;
        self.w.history.launch(app);
        self.e.set_now(start as u64);
        {
            let p = &mut self.w.procs[pid];
            p.alive = true;
            p.last_used_ns = start;
            p.next_bg_ns = start + p.period_ns;
            p.bg_touches = 0;
        }
        if cold {
            let at = self.w.live.partition_point(|&i| i < pid);
            self.w.live.insert(at, pid);
        }
        self.reorder();
        if cold {
            self.take_range(app, pid)?;
        }
        let prof = &self.w.profiles[app];
        let cpu_ns = if cold { prof.cold_cpu_s } else { prof.resume_cpu_s } * 1e9;
        let touches = self.launch_touches(pid, cold);
        if cold {
            let p = &mut self.w.procs[pid];
            p.anon_alloc = touches.iter().filter(|(pg, _)| *pg >= p.anon0 && *pg < p.anon0 + p.anon_n).count() as u32;
        }
        let mut clock = start;
        let mut w = Waits::default();
        let decompressed_before = self.w.io.decompress_ns;
        self.w.in_fg = true;
        let dt = cpu_ns / touches.len().max(1) as f64;
        self.w.launching = true;
        for &(page, op) in &touches {
            clock += dt;
            self.touch(page, op, &mut clock, &mut w)?;
        }
        self.w.launching = false;
        if touches.is_empty() {
            clock += cpu_ns;
        }
        self.mark_hot(pid);
        self.meta_write(clock);
        // The sum of its parts rather than `clock - start`: the clock is ns since the first launch,
        // and years into a trace its steps round to tens of ns, which would add up to 0.1 ms.
        let latency_ms = (cpu_ns + w.file + w.swap + w.reclaim + w.mapped) * 1e-6;
        let ux = &self.w.phone.ux;
        let ux_class = ux.class(latency_ms);
        let excessive = latency_ms >= if cold { ux.vitals_cold_ms } else { ux.vitals_hot_ms };
        let live = self.live_apps();
        let rec = LaunchRecord {
            index,
            time_s,
            start_s: start * 1e-9,
            app: self.w.profiles[app].name.clone(),
            cold,
            latency_ms,
            cpu_ms: cpu_ns * 1e-6,
            file_wait_ms: w.file * 1e-6,
            swap_wait_ms: w.swap * 1e-6,
            reclaim_wait_ms: w.reclaim * 1e-6,
            mapped_read_ms: w.mapped * 1e-6,
            file_pages_read: w.file_pages,
            swap_pages_read: w.swap_pages,
            decompress_ms: (self.w.io.decompress_ns - decompressed_before) * 1e-6,
            mapped_reads: w.mapped_reads,
            ux_class,
            excessive,
            live_apps: live,
        };
        self.record(app, &rec);
        self.w.launches.push(rec);
        // The foreground session: touches at the app's rate until the next launch (at most
        // session_s), background work interleaved step by step.
        let end = next.min(clock + self.w.phone.session_s * 1e9);
        let rate = self.w.profiles[app].fg_pages_per_s * self.w.phone.activity * self.w.phone.apps_activity;
        if rate > 0.0 {
            let dt = 1e9 / rate;
            let mut w = Waits::default();
            while clock + dt <= end {
                // At least one touch per step: a rate below 1/STEP_NS would otherwise never advance.
                let step_end = (clock + STEP_NS.max(dt)).min(end);
                self.writeback(clock);
                self.background(step_end)?;
                while clock + dt <= step_end {
                    clock += dt;
                    let (page, op) = self.w.procs[pid].pick(&mut self.w.rng);
                    self.touch(page, op, &mut clock, &mut w)?;
                }
                if step_end >= end {
                    break;
                }
            }
        }
        self.w.in_fg = false;
        self.w.procs[pid].last_used_ns = clock.max(start);
        Ok(clock.max(end))
    }

    pub(super) fn record(&mut self, app: usize, r: &LaunchRecord) {
        let m = &mut self.w.m;
        m.launches += 1;
        if r.cold {
            m.cold += 1;
        } else {
            m.resumed += 1;
        }
        m.total_launch_ms += r.latency_ms;
        *m.ux.entry(r.ux_class.as_str().to_string()).or_insert(0) += 1;
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

    /// Brings up the system processes before the first launch (their I/O is not timed).
    pub(super) fn boot(&mut self) -> Result<()> {
        for pid in 0..self.w.procs.len() {
            if !self.w.procs[pid].alive {
                continue;
            }
            let p = &self.w.procs[pid];
            let act = self.activity(pid);
            let scaled = |n: u32| (n as f64 * act).round() as u32;
            let (f0, nf, a0, na) = (p.file0, scaled(p.file_n), p.anon0, scaled(p.anon_n));
            self.w.procs[pid].anon_alloc = na;
            let (mut clock, mut w) = (0.0, Waits::default());
            for page in f0..f0 + nf {
                self.touch(page, Op::Read, &mut clock, &mut w)?;
            }
            for page in a0..a0 + na {
                self.touch(page, Op::Write, &mut clock, &mut w)?;
            }
        }
        // Launches start on an idle phone.
        self.w.io.reset();
        self.w.stall = Stall::default();
        let keep_apps = std::mem::take(&mut self.w.m.apps);
        self.w.m = SystemMeters { apps: keep_apps, ..SystemMeters::default() };
        Ok(())
    }

    pub(super) fn run(&mut self, usage: &UsageTrace) -> Result<()> {
        self.boot()?;
        let t0 = usage.launches.first().map(|l| l.time_s).unwrap_or(0.0);
        let at = |l: &crate::system::usage::Launch| (l.time_s - t0) * 1e9;
        let mut free_at = 0.0f64;
        for (k, l) in usage.launches.iter().enumerate() {
            let next = usage.launches.get(k + 1).map(at).unwrap_or(f64::INFINITY);
            let start = at(l).max(free_at);
            free_at = self.launch(k as u32, l.time_s, l.app as usize, start, next)?;
            if self.w.checks {
                self.check()?;
            }
        }
        self.w.m.sim_time_s = free_at * 1e-9;
        Ok(())
    }
}
