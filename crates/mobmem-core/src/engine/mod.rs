//! The page engine: demand paging over a fixed number of DRAM frames, with the fault semantics of
//! DESIGN.md. The engine owns every page's state and the swap area; the policy only orders victims.
//! The replay loop is monomorphised per policy (see `policy::dispatch`): per access it reads one
//! packed word, one state byte, and calls the policy inline — no allocation, no hashing.

use crate::error::Result;
use crate::meters::Meters;
use crate::policy::{Access, Policy, ReclaimCtx};
#[cfg(test)]
use crate::trace::Trace;
use crate::trace::{Op, PageId};
use std::ops::Range;

mod admitted;
mod build;
mod check;
mod memory;
mod oom;
mod outcome;
pub(crate) mod pages;
mod readahead;
pub(crate) mod tiered;
mod writeback;

pub use crate::swap::SwapSemantics;
use crate::swap::{Owners, Scope, SwapAdmission};
pub(crate) use build::Setup;
pub(crate) use memory::Memory;
pub use outcome::{Evictions, Fault, Held, MemoryView, Outcome, Reclaimed, Shortfall, SwapLifetimes};
pub use pages::Tally;
use pages::{becomes_anon, FaultIo, Pages};
pub(crate) use pages::{EvictIo, ANON, FILE_FIXED};
pub use writeback::WritebackSchedule;

/// The flat page engine: one pool of frames. Page-trace replay drives it through `replay`; the
/// system level (`crate::system`) drives it access by access through `access`, reclaims ahead of
/// demand like kswapd through `reclaim`, releases the pages of processes that die, and reads
/// memory through `view` and `holds`. Everything else is private.
pub(crate) struct Engine<P> {
    policy: P,
    direct_read: bool,
    pages: Pages,
    resident: usize,
    frames: usize,
    /// Swap-in read-around: a swap fault also reads the other pages of its aligned cluster of
    /// `2^page_cluster` slots into free frames (Linux `vm.page-cluster`); 0 = off.
    page_cluster: u32,
    /// A fault that finds memory full reclaims until fewer frames than this are in use: `frames`
    /// (the room it needs), or `frames − (batch − 1)` with a reclaim batch (a memory cgroup's
    /// SWAP_CLUSTER_MAX: `SimConfig::reclaim_batch`).
    room_until: usize,
    /// What may go to swap (`crate::swap::admission`), its scope, and what it may look at.
    admission: Box<dyn SwapAdmission>,
    scope: Scope,
    owners: Owners,
    /// Pages each owner (`owners.procs`) has had written to swap; empty unless asked for
    /// (`with_owner_swap_outs`: the phone meters each app's swap-outs). The swap-outs are written
    /// down on the cold path of a swap-out (`Pages`' swap journal) and counted when the owners
    /// change or the counts are read, so the eviction path is the same with or without it.
    owner_swap_outs: Vec<u64>,
    /// zram writeback rounds (`crate::swap::backend`): none when `next` is `u64::MAX`.
    wb: WritebackSchedule,
    /// Page traces: the access at which the next round is due (`u64::MAX`: none, or the caller
    /// drives the rounds by time).
    wb_due_access: u64,
    /// Pages the admission vetoed, parked off the policy's lists until the owners' state changes
    /// (`change_owners`) or the page is touched — Linux's unevictable list, which holds pages that
    /// reclaim cannot take until their state changes. Without it a policy would walk the same
    /// vetoed pages at every reclaim (A2S with a low T_reuse vetoes most anon pages).
    parked: Vec<bool>,
    parked_list: Vec<PageId>,
    /// Pages parked now.
    parked_n: u64,
    /// Scratch for the pages one reclaim vetoed.
    vetoed: Vec<PageId>,
    /// Page traces with processes: when nothing can be reclaimed, the kernel's OOM killer takes
    /// a process (`oom::oom_kill`) instead of the run failing.
    oom_kill: bool,
}

impl<P: Policy> Engine<P> {
    /// Whether the policy is kept from `a`'s page: anon pages when nothing may go to swap.
    #[inline(always)]
    fn hidden(&self, anon: bool) -> bool {
        self.scope == Scope::None && anon
    }

    /// Frames in use: resident pages and the zram area.
    #[inline]
    fn used(&self) -> usize {
        self.resident + self.pages.pool_frames()
    }

    /// Frames holding neither a page nor compressed swap.
    #[inline]
    pub fn free(&self) -> u64 {
        self.frames.saturating_sub(self.used()) as u64
    }

    /// Memory as it is now.
    pub fn view(&self) -> MemoryView {
        MemoryView {
            frames: self.frames as u64,
            free: self.free(),
            resident: self.resident as u64,
            file_resident: self.pages.file_resident() as u64,
            zram_frames: self.pages.pool_frames() as u64,
            swap_used: self.pages.swap_used(),
            swap_cap: self.pages.swap_cap(),
        }
    }

    /// What the pages of `range` hold in memory and swap.
    pub fn holds(&self, range: Range<PageId>) -> Held {
        let mut h = Held::default();
        for &f in &self.pages.all_flags()[range.start as usize..range.end as usize] {
            h.resident += (f & pages::RESIDENT != 0) as u64;
            h.swapped += (f & pages::SWAP_VALID != 0) as u64;
            h.either += (f & (pages::RESIDENT | pages::SWAP_VALID) != 0) as u64;
        }
        h
    }

    /// Whether touching `page` with `op` now would be a hit (no fault, no reclaim).
    #[inline(always)]
    pub fn would_hit(&self, page: PageId, op: Op) -> bool {
        let f = self.pages.flag(page);
        f & pages::RESIDENT != 0 || (f & pages::NVM_MAPPED != 0 && !op.is_write())
    }

    /// The page-level counters so far (`accesses` is the caller's to set).
    pub fn meters(&self) -> Meters {
        self.pages.meters()
    }

    pub fn into_meters(self) -> Meters {
        self.pages.meters()
    }

    /// Reclaims one page if the policy finds one. The common case (every page may go to swap and
    /// swap has room) is inline; the rest is `try_reclaim_constrained`.
    #[inline(always)]
    fn try_reclaim(&mut self, index: usize) -> Result<std::result::Result<(EvictIo, bool), Shortfall>> {
        if self.scope != Scope::All || self.pages.swap_full() {
            return self.try_reclaim_constrained(index);
        }
        match self.policy.select_victim(&ReclaimCtx::ANY) {
            Some(v) => self.take(v, index).map(Ok),
            // Pages are parked only under a per-page admission: nothing is vetoed here.
            None => Ok(Err(Shortfall::Nothing)),
        }
    }

    /// Evicts the policy's victim `v`; says what I/O it took and whether it was a file page.
    #[inline(always)]
    fn take(&mut self, v: PageId, index: usize) -> Result<(EvictIo, bool)> {
        let file = self.pages.flag(v) & ANON == 0;
        let io = self.pages.evict(v, index)?;
        self.resident -= 1;
        if self.pages.has_pool_classes() && io == EvictIo::SwapWrite {
            // Compressed in its hotness class's chunk size (pages without one are cold).
            self.pages.compressed_in(v, self.owners.hotness.get(v as usize).copied().unwrap_or(crate::swap::COLD));
        }
        Ok((io, file))
    }

    /// Counts the swap-outs written down since the last call against their pages' owners (the
    /// first of a shared page's owners): before the owners change, and when the counts are read.
    fn settle_owner_swap_outs(&mut self) {
        if self.owner_swap_outs.len() < self.owners.procs.len() {
            self.owner_swap_outs.resize(self.owners.procs.len(), 0); // owners given after the counts
        }
        let (owners, counts) = (&self.owners, &mut self.owner_swap_outs);
        self.pages.drain_swap_journal(|v| {
            if let Some(n) = owners.owners_of(v).first().and_then(|&o| counts.get_mut(o as usize)) {
                *n += 1;
            }
        });
    }

    /// Pages of each owner (as numbered in the owners given with the admission) written to swap so
    /// far; empty unless the engine was built to count them (`Setup::owner_swap_outs`).
    pub fn owner_swap_outs(&mut self) -> &[u64] {
        self.settle_owner_swap_outs();
        &self.owner_swap_outs
    }

    /// Reclaims up to `n` pages (kswapd, direct reclaim); `index` is the access it happens at.
    pub fn reclaim(&mut self, n: u64, index: usize) -> Result<Reclaimed> {
        let mut r = Reclaimed::default();
        for _ in 0..n {
            match self.try_reclaim(index)? {
                Ok((io, file)) => r.evicted.add(io, file),
                Err(s) => {
                    r.short = Some(s);
                    break;
                }
            }
        }
        Ok(r)
    }

    /// Reclaims one page for a fault on `page`; false when nothing more could be reclaimed but the
    /// fault has its room (the end of a reclaim batch cut short).
    #[inline(always)]
    fn reclaim_one(&mut self, page: PageId, index: usize, out: &mut Evictions) -> Result<bool> {
        match self.try_reclaim(index)? {
            Ok((io, file)) => {
                out.add(io, file);
                Ok(true)
            }
            Err(_) => self.no_room(page, index),
        }
    }

    /// Nothing could be reclaimed for a fault on `page`. If the fault has its frame (the rest of a
    /// reclaim batch, or a policy's extra reclaim such as 2Q's capped Am list) that is no error:
    /// false. Otherwise the OOM killer takes a process, or the run is out of memory.
    #[cold]
    #[inline(never)]
    fn no_room(&mut self, page: PageId, index: usize) -> Result<bool> {
        if self.used() < self.frames {
            return Ok(false);
        }
        if self.oom_kill && self.oom_kill(page) {
            return Ok(true);
        }
        Err(self.pages.out_of_memory(index, self.resident))
    }

    /// A page of a process that died leaves memory and swap with no I/O; it comes back as
    /// `kind` (`ANON` or `FILE_FIXED`), never touched.
    pub fn release(&mut self, page: PageId, kind: u8) {
        let f = self.pages.flag(page);
        let parked = self.parked.get_mut(page as usize).is_some_and(std::mem::take);
        self.parked_n -= parked as u64;
        if f & pages::RESIDENT != 0 {
            if !self.hidden(f & ANON != 0) && !parked {
                self.policy.on_remove(page);
            }
            self.resident -= 1;
        }
        self.pages.forget(page as usize, kind);
    }

    /// A fault: the page comes in (after reclaim if memory is full).
    /// Always inlined: once the system level called it too, LLVM stopped inlining it into the
    /// replay loop and CLOCK's hit path lost a third of its speed (measured; BENCHMARKS.md).
    #[inline(always)]
    fn fault(&mut self, a: &Access) -> Result<Outcome> {
        let (fault, io) = self.pages.classify(a, self.direct_read)?;
        let mut o = Outcome { fault: Some(fault), ..Outcome::HIT };
        match io {
            FaultIo::Mapped => return Ok(o), // Direct Read: no frame, and the policy never sees it.
            FaultIo::SwapRead => o.swap_reads = 1,
            FaultIo::BackingRead => o.backing_reads = 1,
            FaultIo::FileRead => o.file_reads = 1,
            FaultIo::None => o.swap_reads = (fault == Fault::Promoted) as u32,
        }
        let hidden = self.hidden(a.anon);
        if !hidden {
            self.policy.on_miss(a);
        }
        if self.used() >= self.frames {
            self.make_room(a.page, a.index, &mut o.evicted)?;
        }
        if self.policy.needs_room() {
            self.reclaim_one(a.page, a.index, &mut o.evicted)?;
        }
        self.pages.admit(a);
        self.resident += 1;
        if !hidden {
            self.policy.on_insert(a);
        }
        Ok(o)
    }

    /// Reclaims until a frame is free (with a reclaim batch, until `room_until`). Without zram that
    /// is one eviction; with zram a swap-out frees only 1 − 1/ratio of a frame, so it may take more
    /// (each takes a page out of memory, so this ends). Inline: called out of line, its call and the
    /// registers it saved and restored took 23 instructions per fault (cachegrind, FIFO on the
    /// anchor trace). The batch is a bound, not a count, so the loop is the same with or without
    /// one: counting the batch's pages here, or calling out to a batch path, made CLOCK's miss path
    /// 1.13–1.22× slower (bench/compare_builds.py).
    #[inline(always)]
    fn make_room(&mut self, page: PageId, index: usize, out: &mut Evictions) -> Result<()> {
        loop {
            if !self.reclaim_one(page, index, out)? || self.used() < self.room_until {
                return Ok(());
            }
        }
    }

    /// One access: a hit, a read of a page mapped in place, or a fault. `index` is its position
    /// (offline policies look their annotations up by it).
    #[inline(always)]
    pub fn access(&mut self, page: PageId, op: Op, index: usize) -> Result<Outcome> {
        let f = self.pages.flag(page);
        let a = Access { page, op, index, anon: becomes_anon(f, op) };
        if f & pages::RESIDENT != 0 {
            self.pages.m.hits += 1;
            if a.op.is_write() {
                self.pages.write_touch(a.page as usize);
            }
            if self.parked.get(page as usize).copied().unwrap_or(false) {
                // A parked page is touched: back on the policy's lists, as a page just brought in.
                self.unpark(page, index, true);
            } else if !self.hidden(a.anon) {
                self.policy.on_hit(&a);
            }
            Ok(Outcome::HIT)
        } else if f & pages::NVM_MAPPED != 0 && !a.op.is_write() {
            // A read of a page mapped in place: served from NVM, no fault.
            self.pages.m.hits += 1;
            self.pages.m.dr_hits += 1;
            Ok(Outcome { mapped_reads: 1, ..Outcome::HIT })
        } else {
            let mut o = self.fault(&a)?;
            if o.fault == Some(Fault::SwapIn) && self.page_cluster > 0 {
                o.swap_reads += self.read_around(&a);
            }
            Ok(o)
        }
    }

    /// Replays a whole trace whose processes never change.
    #[cfg(test)]
    fn replay(&mut self, trace: &Trace) -> Result<()> {
        self.replay_chunk(&trace.accesses, 0)
    }

    /// Replays a run of access words whose first is access `first` of the trace (a whole trace, or
    /// a chunk of a streamed one, or a run between two changes of its processes), in one of three
    /// loops: under a swap admission that may veto pages, reading around swap faults when
    /// `page_cluster` is on, or the hit path first.
    pub(crate) fn replay_chunk(&mut self, words: &[u32], first: usize) -> Result<()> {
        if self.scope != Scope::All {
            self.replay_words_admitted(words, first)
        } else if self.page_cluster > 0 {
            self.replay_words_reading_around(words, first)
        } else {
            self.replay_words(words, first)
        }
    }

    /// The page-trace loop: `access` spelled out, hit path first, nothing returned from a hit.
    /// Calling `access` here instead measured 274 against 352 M accesses/s on CLOCK's hit path.
    /// It runs with the default admission (all), so no page is kept from the policy. Never inlined into
    /// `replay_chunk`: there MGLRU's hit path took 3 more instructions per access (callgrind).
    #[inline(never)]
    pub(crate) fn replay_words(&mut self, words: &[u32], first: usize) -> Result<()> {
        debug_assert!(self.scope != Scope::None, "replay hides no page from the policy");
        // The word of the access just before when it was a resident hit. A repeat of it (same page,
        // same op) is a hit that changes nothing for a policy that says so, nor for the page (a
        // write's touch is done), so it is only counted. NO_WORD is wider than any word.
        const NO_WORD: u64 = u64::MAX;
        let mut last_hit = NO_WORD;
        // Every access is a hit or a fault: hits are counted at the end, from the faults. A counter
        // in memory bumped at every hit made each hit wait for the last one's store (measured with
        // every page resident: FIFO's hits took half as long again).
        let faults_before = self.pages.m.faults;
        for (index, &w) in (first..).zip(words) {
            if P::REPEAT_HIT_IS_NOOP && w as u64 == last_hit {
                continue;
            }
            let op = Op::from_bits(w);
            let f = self.pages.flag(w >> 2);
            let a = Access { page: w >> 2, op, index, anon: becomes_anon(f, op) };
            last_hit = NO_WORD;
            if f & pages::RESIDENT != 0 {
                if a.op.is_write() {
                    // A branch: the branch-free `touch` stores the flags at every hit, and that
                    // measured half the speed on hits (`Pages::touch`).
                    self.pages.write_touch(a.page as usize);
                }
                self.policy.on_hit(&a);
                last_hit = w as u64;
            } else if f & pages::NVM_MAPPED != 0 && !a.op.is_write() {
                self.pages.m.dr_hits += 1;
            } else {
                if index as u64 >= self.wb_due_access {
                    self.writeback_due(index);
                }
                self.fault(&a)?;
            }
        }
        self.pages.m.hits += words.len() as u64 - (self.pages.m.faults - faults_before);
        self.pages.m.accesses += words.len() as u64;
        Ok(())
    }
}

#[cfg(test)]
mod repeat_tests;
#[cfg(test)]
mod tests;
