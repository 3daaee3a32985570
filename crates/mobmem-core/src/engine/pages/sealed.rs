//! What the rest of the engine may do with the pages: read their state, and ask for the
//! transitions that keep the counts true (resident file pages, swap slots, zram's pool, copies
//! written back). Page states change only here and in the transitions of `mod.rs`; the engine
//! bumps only the counters of what it decides itself (hits, vetoes, OOM kills) in `m`.

use super::extras::{Idle, Lifetimes, Slots, Tally};
use super::{Pages, ANON, BACKED, NVM_MAPPED, RESIDENT, SEEN, SWAP_VALID};
use crate::swap::SwapSemantics;
use crate::trace::PageId;

impl Pages {
    /// Page `id`'s state bits.
    #[inline(always)]
    pub fn flag(&self, id: PageId) -> u8 {
        self.flags[id as usize]
    }

    /// Every page's state bits, by page id.
    #[inline(always)]
    pub fn all_flags(&self) -> &[u8] {
        &self.flags
    }

    /// How many pages there are.
    pub fn len(&self) -> usize {
        self.flags.len()
    }

    /// Resident pages that are not anon (the page cache).
    pub fn file_resident(&self) -> usize {
        self.file_resident
    }

    /// Swap slots in use, and how many there are.
    pub fn swap_used(&self) -> u64 {
        self.swap_used
    }
    pub fn swap_cap(&self) -> u64 {
        self.swap_cap
    }

    /// Swap copies on zram's backing device.
    pub fn backed(&self) -> u64 {
        self.backed
    }

    /// Reads page `q` ahead into a free frame, clean: a swapped page (its copy stays valid, as in
    /// the swap cache) when `swap`, else a file page. False when it is not one to read: in memory
    /// already, mapped in place, written back, without a copy, or (a file page) anon.
    pub fn read_ahead(&mut self, q: PageId, swap: bool) -> bool {
        let f = self.flags[q as usize];
        let skip = if swap {
            f & (RESIDENT | NVM_MAPPED | BACKED) != 0 || f & SWAP_VALID == 0
        } else {
            f & (RESIDENT | ANON) != 0
        };
        if skip {
            return false;
        }
        self.flags[q as usize] = f | RESIDENT | SEEN;
        if swap {
            self.m.swap_readahead += 1;
        } else {
            self.m.file_readahead += 1;
            self.file_resident += 1;
        }
        true
    }

    /// The numbered slots, out for a walk over a cluster (`put_slots` gives them back).
    pub fn take_slots(&mut self) -> Option<Slots> {
        self.slots.take()
    }
    pub fn put_slots(&mut self, slots: Slots) {
        self.slots = Some(slots);
    }

    /// Numbers the swap slots (next-fit), so that a fault can read its cluster's neighbours.
    pub fn number_slots(&mut self) {
        self.slots = Some(Slots::new(self.flags.len(), self.swap_cap));
        self.note_extras();
    }

    /// Marks zram copies idle for writeback.
    pub fn keep_idle_marks(&mut self) {
        self.idle = Some(Idle { stamp: vec![0; self.flags.len()], epoch: 0, cursor: 0 });
        self.note_extras();
    }

    /// Records swap-entry lifetimes, tallied at `marks` (ticks, ascending).
    pub fn keep_lifetimes(&mut self, marks: &[u64]) {
        let tally = Tally { within: vec![0; marks.len()], ..Default::default() };
        let n = self.flags.len();
        self.life =
            Some(Lifetimes { born: vec![0; n], marks: marks.to_vec(), ended: tally.clone(), died: tally, now: 0 });
        self.note_extras();
    }

    /// Writes down each page swapped out (its id), until `drain_swap_journal` reads them.
    pub fn keep_swap_journal(&mut self) {
        self.journal = Some(Vec::new());
        self.note_extras();
    }

    /// Gives each page swapped out since the last call to `f`, in order.
    pub fn drain_swap_journal(&mut self, mut f: impl FnMut(PageId)) {
        if let Some(j) = &mut self.journal {
            j.drain(..).for_each(&mut f);
        }
    }

    /// The tick of what happens next, for swap-entry lifetimes.
    #[inline]
    pub fn set_now(&mut self, tick: u64) {
        if let Some(l) = &mut self.life {
            l.now = tick;
        }
    }

    /// Lifetimes so far: of the slots freed, and of those freed by a death.
    pub fn lifetimes(&self) -> Option<(&Tally, &Tally)> {
        self.life.as_ref().map(|l| (&l.ended, &l.died))
    }

    /// What a swap-in keeps and what a first touch of an anon page reads.
    pub fn set_semantics(&mut self, semantics: SwapSemantics) {
        self.semantics = semantics;
    }

    /// zram: swapped pages per frame of the compressed area in memory (`None`: outside memory).
    pub fn set_zram_ratio(&mut self, ratio: Option<f64>) {
        self.zram_ratio = ratio.unwrap_or(0.0);
        self.note_extras();
    }
}
