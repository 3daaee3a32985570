//! Page state shared by the flat and the tiered engine: what each page is (anon or file, dirty,
//! swapped), the swap area's slots, and the fault and eviction semantics of DESIGN.md with their
//! counters. Where a resident page sits (which frame, which tier) is the engines' business.

use super::Fault;

mod classes;
mod extras;
mod flags;
mod sealed;
use crate::error::{Error, Result};
use crate::meters::Meters;
use crate::policy::Access;
use crate::swap::SwapSemantics;
use crate::trace::{Kind, PageId, PageSpace};
pub use extras::{Idle, Lifetimes, Slots, Tally};
pub use flags::*;
use flags::{evicted_class, eviction};

pub struct Pages {
    flags: Vec<u8>,
    swap_used: u64,
    swap_cap: u64,
    /// Slot numbers, kept only when swap-in read-around needs to know which pages are neighbours
    /// in the swap area (the system level); page-trace runs count slots without placing them.
    slots: Option<Slots>,
    /// zram: swapped pages per DRAM frame of the compressed area; 0 when swap is outside DRAM.
    zram_ratio: f64,
    /// DRAM frames the zram area takes: kept as slots come and go, so that a fault's room check
    /// is one addition, not a division.
    pool: usize,
    /// Resident pages that are not anon (the page cache), kept as pages come and go.
    file_resident: usize,
    /// zram writeback: swap copies on the backing device, and when each zram copy was last
    /// written or read (in idle marks; `None` without writeback).
    backed: u64,
    idle: Option<Idle>,
    /// Swap-entry lifetimes, when asked for (`Engine::with_lifetimes`).
    life: Option<Lifetimes>,
    /// Pages swapped out since the engine last read them (`keep_swap_journal`: per-owner counts).
    journal: Option<Vec<PageId>>,
    /// How swap behaves (`SwapSemantics`; Linux's by default).
    semantics: SwapSemantics,
    /// zram compressing by class (Ariadne): each copy's class and the pool by class.
    classes: Option<Box<classes::PoolClasses>>,
    /// Any of zram, `slots`, `idle`, `life` or `journal` is on (`note_extras`).
    keeps_slots: bool,
    /// The counters, but for the four kinds of eviction: those are `evicted`, read through
    /// `meters`.
    pub m: Meters,
    /// Evictions by the victim's ANON, DIRTY and SWAP_VALID bits: an eviction bumps one counter,
    /// and `meters` sums them into swap-outs, swap-cache drops, write-backs and file drops
    /// (counting the four at every eviction measured 3–5% of FIFO's replay at 10% memory).
    evicted: [u64; 8],
}

const NO: u32 = u32::MAX;

impl Pages {
    pub fn new(space: PageSpace, swap_cap: u64) -> Pages {
        let flags = match space.kinds {
            None => vec![0; space.pages],
            Some(k) => k
                .iter()
                .map(|&k| match Kind::from_u8(k) {
                    Kind::Anon => ANON,
                    Kind::File => FILE_FIXED,
                    Kind::Unknown => 0,
                })
                .collect(),
        };
        Pages {
            flags,
            swap_used: 0,
            swap_cap,
            slots: None,
            zram_ratio: 0.0,
            pool: 0,
            file_resident: 0,
            backed: 0,
            idle: None,
            life: None,
            journal: None,
            semantics: SwapSemantics::LINUX,
            classes: None,
            keeps_slots: false,
            m: Meters::default(),
            evicted: [0; 8],
        }
    }

    /// Gives up `id`'s swap slot (its copy is stale, or its owner died).
    fn free_slot(&mut self, id: usize, died: bool) {
        self.swap_used -= 1;
        self.slot_freed(id, died);
    }

    /// A slot's bookkeeping beyond its count, once it is freed (`swap_used` already says so).
    #[cold]
    #[inline(never)]
    fn slot_freed(&mut self, id: usize, died: bool) {
        if let Some(l) = &mut self.life {
            let age = l.now.saturating_sub(l.born[id]);
            l.ended.add(age, &l.marks);
            if died {
                l.died.add(age, &l.marks);
            }
        }
        if self.flags[id] & BACKED != 0 {
            self.flags[id] &= !BACKED;
            self.backed -= 1;
        }
        self.unclassify(id);
        self.resize_pool();
        if let Some(s) = &mut self.slots {
            s.free(id as PageId);
        }
    }

    /// Forgets a page of a process that died: no frame (the engine has taken it from the policy),
    /// no swap slot, and the next touch is a first touch again. `kind` is the page's declared kind
    /// bits (`ANON` or `FILE_FIXED`).
    pub fn forget(&mut self, id: usize, kind: u8) {
        if self.flags[id] & (RESIDENT | ANON) == RESIDENT {
            self.file_resident -= 1;
        }
        if self.flags[id] & SWAP_VALID != 0 {
            self.free_slot(id, true);
        }
        self.flags[id] = kind;
    }

    /// DRAM frames the zram area takes now (0 without zram).
    #[inline(always)]
    pub fn pool_frames(&self) -> usize {
        self.pool
    }

    #[inline]
    fn resize_pool(&mut self) {
        if self.zram_ratio != 0.0 {
            // The compressed bytes rounded up to whole frames (written-back copies take none);
            // by class when copies are compressed by class (a backend with classes has no
            // writeback: `engine::build` refuses both).
            self.pool = match self.class_frames() {
                Some(f) => f,
                None => ((self.swap_used - self.backed) as f64 / self.zram_ratio).ceil() as usize,
            };
            self.m.peak_zram_frames = self.m.peak_zram_frames.max(self.pool as u64);
        }
    }

    #[inline(always)]
    pub fn swap_full(&self) -> bool {
        self.swap_used >= self.swap_cap
    }

    /// A write to a resident page (a hit): `touched`, the flags stored. A page of unknown kind
    /// written for the first time (once per page) leaves the page cache out of line.
    #[inline(always)]
    pub fn write_touch(&mut self, id: usize) {
        let f = self.flags[id];
        let t = touched(f, true);
        if t & !f & ANON != 0 {
            self.became_anon();
        }
        self.store_touched(id, f, t);
    }

    #[cold]
    #[inline(never)]
    fn became_anon(&mut self) {
        self.file_resident -= 1;
    }

    /// Stores a page's `touched` flags `t` (its flags were `f`). A swap copy made stale frees its
    /// slot; a freed slot's bookkeeping, when any is kept (zram, slot places, idle marks,
    /// lifetimes), is out of line.
    #[inline(always)]
    fn store_touched(&mut self, id: usize, f: u8, t: u8) {
        self.flags[id] = t;
        let stale = (f & !t & SWAP_VALID) >> 4; // SWAP_VALID == 16
        self.swap_used -= stale as u64;
        if self.keeps_slots() && stale != 0 {
            self.slot_freed(id, false);
        }
    }

    /// Takes `v` out of memory: dirty anon → swap-out, clean anon with a swap copy → dropped,
    /// dirty file → written back, clean file → dropped. The four cases are counted without a
    /// branch (which case a victim is follows no pattern); only a swap-out's bookkeeping beyond
    /// its counts (zram's pool, slots, idle marks, lifetimes) branches, and only when one is kept.
    #[inline(always)]
    pub fn evict(&mut self, v: PageId, index: usize) -> Result<EvictIo> {
        let f = self.flags[v as usize];
        let anon = f & ANON != 0;
        let [swap_out, _, write_back, _] = eviction(f);
        if (f & RESIDENT == 0) | (swap_out & self.swap_full()) {
            return Err(self.bad_victim(v, index));
        }
        self.evicted[evicted_class(f)] += 1;
        self.file_resident -= !anon as usize;
        self.swap_used += swap_out as u64;
        self.m.peak_swap_pages = self.m.peak_swap_pages.max(self.swap_used);
        // An anon page leaves with a valid swap copy (ANON << 2 == SWAP_VALID).
        self.flags[v as usize] = (f & !(RESIDENT | DIRTY)) | ((f & ANON) << 2);
        if swap_out & (self.swap_used == self.swap_cap || self.keeps_slots()) {
            self.swapped_out(v, index);
        }
        Ok(if swap_out {
            EvictIo::SwapWrite
        } else if write_back {
            EvictIo::FileWrite
        } else {
            EvictIo::None
        })
    }

    /// Whether a slot has bookkeeping beyond its count: read at every fault, so kept as one flag
    /// (`note_extras`) that the CPU predicts, not four fields it loads.
    #[inline(always)]
    fn keeps_slots(&self) -> bool {
        self.keeps_slots
    }

    /// Says that zram, slot places, idle marks or lifetimes were switched on (the engine's
    /// `with_*` builders call it).
    fn note_extras(&mut self) {
        self.keeps_slots = self.zram_ratio != 0.0
            || self.slots.is_some()
            || self.idle.is_some()
            || self.life.is_some()
            || self.journal.is_some();
    }

    /// A swap-out's bookkeeping beyond its counts: when swap filled, zram's pool, the slot's place,
    /// its idle mark and its birth.
    #[cold]
    #[inline(never)]
    fn swapped_out(&mut self, v: PageId, index: usize) {
        if self.swap_used == self.swap_cap && self.m.swap_full_at.is_none() {
            self.m.swap_full_at = Some(index as u64);
        }
        self.resize_pool();
        if let Some(s) = &mut self.slots {
            s.alloc(v);
        }
        if let Some(i) = &mut self.idle {
            i.stamp[v as usize] = i.epoch;
        }
        if let Some(l) = &mut self.life {
            l.born[v as usize] = l.now;
        }
        if let Some(j) = &mut self.journal {
            j.push(v);
        }
    }

    /// Why a policy's victim cannot go.
    #[cold]
    #[inline(never)]
    fn bad_victim(&self, v: PageId, index: usize) -> Error {
        if self.flags[v as usize] & RESIDENT == 0 {
            Error::Invariant(format!("policy chose page {v}, which is not resident"))
        } else {
            Error::Invariant(format!("policy chose dirty anon page {v} while swap is full at access {index}"))
        }
    }

    /// Counts a fault on `a.page` by cause and says what it reads. Under Direct Read a read fault
    /// on a swapped page is mapped in place (`Mapped`) and needs no frame.
    /// Always inlined: called out of line, it needs the access's op decoded into a register before
    /// the hit test, and that decoding (a mispredicted branch on mixed reads and writes) cost
    /// CLOCK's hit path a fifth of its speed (measured).
    #[inline(always)]
    pub fn classify(&mut self, a: &Access, direct_read: bool) -> Result<(Fault, FaultIo)> {
        let id = a.page as usize;
        let f = self.flags[id];
        self.m.faults += 1;
        if f & NVM_MAPPED != 0 {
            // A write to a page mapped in place: migrate it to DRAM (a real swap-in, a copy).
            self.m.dr_promotions += 1;
            self.m.swap_ins += 1;
            self.flags[id] &= !NVM_MAPPED;
            Ok((Fault::Promoted, FaultIo::None))
        } else if f & SEEN == 0 {
            if becomes_anon(f, a.op) {
                // Zero-fill. An anon page has no copy anywhere yet: it is dirty from birth.
                // (A declared file page is read from its file first, even when written.)
                self.m.cold_anon += 1;
                self.flags[id] |= ANON | DIRTY;
                if self.semantics.first_touch_from_swap {
                    self.m.swap_ins += 1;
                    return Ok((Fault::ColdSwap, FaultIo::SwapRead));
                }
                Ok((Fault::ZeroFill, FaultIo::None))
            } else {
                self.m.cold_file += 1;
                Ok((Fault::ColdFile, FaultIo::FileRead))
            }
        } else {
            // A refault: a swap-in (anon) or a file reread. Which one follows no pattern, so the
            // common case (Linux's swap cache, no Direct Read, no writeback) counts without a branch.
            let anon = f & ANON != 0;
            if anon & (f & SWAP_VALID == 0) {
                return Err(Error::Invariant(format!("anon page {id} faulted with no swap copy")));
            }
            // Pages are written back (BACKED) only when idle marks are kept. The setting is tested
            // first: it is the same at every fault, and the CPU predicts it.
            if (direct_read || !self.semantics.swap_cache || self.idle.is_some()) && anon {
                return Ok(self.swap_in_special(id, f, a.op.is_write(), direct_read));
            }
            self.m.swap_faults += anon as u64;
            self.m.swap_ins += anon as u64;
            self.m.file_rereads += !anon as u64;
            Ok(if anon { (Fault::SwapIn, FaultIo::SwapRead) } else { (Fault::FileReread, FaultIo::FileRead) })
        }
    }

    /// A swap fault under Direct Read, without the swap cache, from zram's backing device, or with
    /// zram's idle marks kept.
    #[cold]
    #[inline(never)]
    fn swap_in_special(&mut self, id: usize, f: u8, write: bool, direct_read: bool) -> (Fault, FaultIo) {
        self.m.swap_faults += 1;
        if direct_read && !write {
            self.m.dr_maps += 1;
            self.flags[id] |= NVM_MAPPED;
            return (Fault::Mapped, FaultIo::Mapped);
        }
        self.m.swap_ins += 1;
        if !self.semantics.swap_cache {
            // No swap cache: the copy is dropped now, and the page is written again if evicted.
            self.flags[id] = (f & !SWAP_VALID) | DIRTY;
            self.free_slot(id, false);
        }
        if f & BACKED != 0 {
            self.m.backing_reads += 1;
            return (Fault::SwapIn, FaultIo::BackingRead);
        }
        if let Some(i) = &mut self.idle {
            // Read from zram: the copy is not idle.
            i.stamp[id] = i.epoch;
        }
        (Fault::SwapIn, FaultIo::SwapRead)
    }

    /// The faulted page is now in memory; a write dirties it (`touched`).
    ///
    /// Whether a faulting access writes follows no pattern the CPU can predict: nothing here
    /// branches on it (a branch on the op, and a read-modify-write of the flags before `touched`'s,
    /// measured 2–3% of FIFO's replay at 10% memory).
    #[inline(always)]
    pub fn admit(&mut self, a: &Access) {
        let id = a.page as usize;
        let f = self.flags[id] | RESIDENT | SEEN;
        let t = touched(f, a.op.is_write());
        self.file_resident += (t & ANON == 0) as usize;
        self.store_touched(id, f, t);
    }

    /// The counters, evictions included.
    pub fn meters(&self) -> Meters {
        let mut m = self.m.clone();
        for (class, &n) in self.evicted.iter().enumerate() {
            let kinds = eviction((class as u8) << 2);
            let meters = [&mut m.swap_outs, &mut m.swap_cache_drops, &mut m.write_backs, &mut m.file_drops];
            for (meter, is) in meters.into_iter().zip(kinds) {
                *meter += n * is as u64;
            }
        }
        m
    }

    pub fn out_of_memory(&self, index: usize, resident: usize) -> Error {
        let cap = if self.swap_cap == u64::MAX { "unlimited".to_string() } else { self.swap_cap.to_string() };
        let zram = if self.zram_ratio != 0.0 {
            format!("; frames taken by zram: {}, at {} pages per frame", self.pool, self.zram_ratio)
        } else {
            String::new()
        };
        Error::OutOfMemory {
            access: index as u64,
            msg: format!(
                "no page can be reclaimed ({resident} frames resident, swap {} of {cap} pages used{zram})",
                self.swap_used
            ),
        }
    }
}
