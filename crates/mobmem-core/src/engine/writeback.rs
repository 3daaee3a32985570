//! zram writeback's rounds and swap-entry lifetimes: the engine's two clocks. Page traces run
//! the rounds by access count; the system level drives them by simulated time.

use super::{Engine, SwapLifetimes};
use crate::policy::Policy;

/// When zram writes back: at `next`, then every `every` ticks (accesses for page traces, ns at
/// the system level) it writes back up to `limit` idle copies (fewer when the backing device holds
/// `cap`), then marks every copy idle; a one-time marking at `mark_at` comes before.
#[derive(Debug, Clone, Copy)]
pub struct WritebackSchedule {
    pub every: u64,
    pub next: u64,
    /// A one-time idle marking (`u64::MAX`: none, or done).
    pub mark_at: u64,
    pub limit: u64,
    /// Most copies on the backing device at once.
    pub cap: u64,
}

impl WritebackSchedule {
    pub(super) const OFF: WritebackSchedule =
        WritebackSchedule { every: u64::MAX, next: u64::MAX, mark_at: u64::MAX, limit: 0, cap: 0 };
}

impl<P: Policy> Engine<P> {
    /// Page traces: zram writeback rounds by access count (the system level drives them by time).
    #[cold]
    #[inline(never)]
    pub(super) fn writeback_due(&mut self, index: usize) {
        self.writeback_until(index as u64, |_, _| {});
        self.wb_due_access = self.wb.next.min(self.wb.mark_at);
    }

    /// Runs the writeback rounds due by tick `now`; `round(tick, pages)` is told of each round
    /// that wrote something. Rounds past the second in a row that found fewer idle copies than
    /// the limit would find none either (nothing new was swapped out): they are skipped, so the
    /// rounds run are bounded by the copies written back, not by `now / every`.
    pub fn writeback_until(&mut self, now: u64, mut round: impl FnMut(u64, u64)) {
        let mut quiet = 0;
        while self.wb.next.min(self.wb.mark_at) <= now {
            if self.wb.mark_at < self.wb.next {
                self.pages.mark_idle();
                self.wb.mark_at = u64::MAX;
                continue;
            }
            let tick = self.wb.next;
            let room = self.wb.cap.saturating_sub(self.pages.backed());
            let n = self.pages.writeback(self.wb.limit.min(room));
            self.pages.mark_idle();
            if n > 0 {
                round(tick, n);
            }
            // A round that found fewer than its limit (none at a limit of 0) leaves nothing for
            // the next; two such in a row and the rest until `now` would find nothing either.
            quiet = if n == 0 || n < self.wb.limit { quiet + 1 } else { 0 };
            self.wb.next = tick.saturating_add(self.wb.every);
            if quiet >= 2 && self.wb.next <= now && self.wb.mark_at == u64::MAX {
                let skip = (now - self.wb.next) / self.wb.every + 1;
                self.wb.next = self.wb.next.saturating_add(skip.saturating_mul(self.wb.every));
            }
        }
    }

    /// The tick (e.g. simulated ns) of what happens next, for swap-entry lifetimes.
    #[inline]
    pub fn set_now(&mut self, tick: u64) {
        self.pages.set_now(tick);
    }

    /// Swap-entry lifetimes so far: of the slots freed, and how many are still valid.
    pub fn lifetimes(&self) -> Option<SwapLifetimes<'_>> {
        let (ended, died) = self.pages.lifetimes()?;
        Some(SwapLifetimes { ended, died, valid: self.pages.swap_used() })
    }
}
