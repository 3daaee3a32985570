//! Reclaim: kswapd between the watermarks, direct reclaim at the min watermark, the killer
//! (asked at each wake-up and each direct reclaim), and zram writeback rounds.

use super::io::{DevRef, Waits};
use super::Sim;
use crate::error::{Error, Result};
use crate::policy::Policy;
use crate::system::killer::{KillReason, MemView};

impl<P: Policy> Sim<'_, P> {
    /// Frames holding neither a page nor compressed swap (zram).
    pub(super) fn free(&self) -> u64 {
        self.e.free()
    }

    pub(super) fn view(&mut self, t: f64) -> MemView {
        MemView {
            now_ns: t,
            page_size: self.w.phone.page_size,
            frames: self.w.layout.frames,
            free_pages: self.free(),
            file_pages: self.e.view().file_resident,
            swap_on: self.w.io.swap.is_some(),
            swap_total: self.w.layout.swap_pages,
            swap_used: self.e.view().swap_used,
            stall_ms_per_s: self.w.stall.ms_per_s(t),
        }
    }

    /// Reclaims up to `n` pages; returns (reclaimed, swap writes, file writes).
    pub(super) fn reclaim(&mut self, n: u64) -> Result<(u64, u64, u64)> {
        let r = self.e.reclaim(n, self.w.index)?.evicted;
        Ok((r.pages() as u64, r.swap_writes as u64, r.file_writes as u64))
    }

    /// kswapd at `t`: the killer looks first (the legacy LMK ran as a shrinker inside reclaim),
    /// then pages are reclaimed up to the high watermark unless a device is backed up.
    pub(super) fn kswapd(&mut self, t: f64) -> Result<()> {
        self.w.m.kswapd_wakes += 1;
        self.consult_killer(t);
        let backlog = self.w.phone.kswapd_max_backlog_ms * 1e6;
        while self.free() < self.w.layout.high {
            if self.w.io.busy.iter().any(|&b| b - t > backlog) {
                self.w.m.kswapd_throttled += 1;
                break;
            }
            let want = (self.w.layout.high - self.free()).min(self.w.phone.reclaim_pass as u64);
            let (got, sw, fw) = self.reclaim(want)?;
            self.w.m.kswapd_pages += got;
            self.write_batch(sw, fw, t);
            if got < want {
                break;
            }
        }
        Ok(())
    }

    /// Makes room for a page fault of the task at `*clock`: direct reclaim at the min watermark
    /// (the task waits for the batch's writes), and kills when nothing can be reclaimed.
    pub(super) fn make_room(&mut self, clock: &mut f64, w: &mut Waits) -> Result<()> {
        if self.free() > self.w.layout.min {
            return Ok(());
        }
        self.w.m.direct_reclaims += 1;
        self.consult_killer(*clock);
        if self.free() > self.w.layout.min {
            return Ok(());
        }
        let (got, sw, fw) = self.reclaim(self.w.phone.reclaim_pass as u64)?;
        self.w.m.direct_reclaim_pages += got;
        let end = self.write_batch(sw, fw, *clock);
        let wait = end - *clock;
        w.reclaim += wait;
        self.stall_add(*clock, wait);
        *clock = end;
        while self.free() == 0 {
            // Nothing left to reclaim (swap off or full, no clean page): only a kill helps.
            if !self.kill_one(0, KillReason::Oom) {
                let fg = self.w.fg.map(|i| self.w.procs[i].name.clone()).unwrap_or_default();
                let others = self.w.procs.iter().filter(|p| p.alive && p.app.is_some()).count().saturating_sub(1);
                return Err(Error::OutOfMemory {
                    access: self.w.index as u64,
                    msg: format!(
                        "at {:.3} s nothing can be reclaimed or killed for {fg:?}: {} frames resident ({} file), \
                         swap {} of {} pages, {others} other apps alive",
                        *clock * 1e-9,
                        self.e.view().resident,
                        self.e.view().file_resident,
                        self.e.view().swap_used,
                        self.w.layout.swap_pages
                    ),
                });
            }
        }
        Ok(())
    }

    /// zram writeback rounds (and the one-time idle marking) due by `t`, checked before each
    /// launch, each step of a foreground session and each background task, so that they fall
    /// between the touches in time order: each round writes its pages to the backing device in
    /// the background.
    pub(super) fn writeback(&mut self, t: f64) {
        if self.w.io.backing.is_none() {
            return;
        }
        let mut rounds = Vec::new();
        self.e.writeback_until(t.max(0.0) as u64, |tick, n| rounds.push((tick as f64, n)));
        for (tick, n) in rounds {
            self.request(DevRef::Backing, true, n, tick);
        }
    }
}
