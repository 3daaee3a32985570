//! What pages keep only when a run asks for it: numbered swap slots (read-around), zram
//! writeback's idle marks, and swap-entry lifetimes.

use super::{Pages, BACKED, NO, NVM_MAPPED, RESIDENT, SWAP_VALID};
use crate::trace::PageId;

/// Swap-entry lifetimes in the caller's ticks: when each page's slot was written, and how long
/// each freed slot lived (from its write until the page was written again or its owner died),
/// tallied as they end — so their memory is fixed, however many slots a run writes.
pub struct Lifetimes {
    pub born: Vec<u64>,
    /// Where the tallies count (ticks, ascending): lifetimes at most each mark.
    pub marks: Vec<u64>,
    pub ended: Tally,
    /// Of `ended`, those whose owner died (the A2S paper counts only these as invalidated).
    pub died: Tally,
    pub now: u64,
}

/// Lifetimes seen: how many, their sum, and how many were at most each mark.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    pub n: u64,
    pub sum: u128,
    pub within: Vec<u64>,
}

impl Tally {
    pub(super) fn add(&mut self, age: u64, marks: &[u64]) {
        self.n += 1;
        self.sum += age as u128;
        let k = marks.partition_point(|&m| m < age);
        for w in &mut self.within[k..] {
            *w += 1;
        }
    }
}

/// zram's idle tracking (`/sys/block/zram0/idle`): each copy's last write or read, in marks.
pub struct Idle {
    pub stamp: Vec<u32>,
    pub epoch: u32,
    /// Where the last writeback stopped when it reached its limit (the next one resumes there),
    /// else 0: a run of limited rounds costs one pass over the pages, not one per round.
    pub cursor: usize,
}

/// Where each swapped page sits in the swap area. Slots are handed out next-fit from a cursor, as
/// Linux's swap allocator does within a cluster, so pages swapped out together sit together and a
/// read-around cluster brings back their neighbours.
pub struct Slots {
    owner: Vec<u32>,
    of: Vec<u32>,
    cursor: usize,
    cap: usize,
}

impl Slots {
    pub fn new(pages: usize, cap: u64) -> Slots {
        Slots { owner: Vec::new(), of: vec![NO; pages], cursor: 0, cap: cap.min(u32::MAX as u64 - 1) as usize }
    }

    pub(super) fn alloc(&mut self, page: PageId) {
        if self.owner.len() < self.cap && self.cursor >= self.owner.len() {
            self.owner.push(NO);
        }
        let n = self.owner.len();
        for k in 0..n {
            let s = (self.cursor + k) % n;
            if self.owner[s] == NO {
                self.owner[s] = page;
                self.of[page as usize] = s as u32;
                self.cursor = s + 1;
                return;
            }
        }
        // The engine checks swap_full before swapping out: a free slot always exists here.
        unreachable!("swap slot allocation with swap full")
    }

    pub(super) fn free(&mut self, page: PageId) {
        let s = std::mem::replace(&mut self.of[page as usize], NO);
        if s != NO {
            self.owner[s as usize] = NO;
        }
    }

    /// The pages in the aligned cluster of `2^order` slots around `page`'s slot, other than `page`.
    pub fn neighbours(&self, page: PageId, order: u32) -> impl Iterator<Item = PageId> + '_ {
        let s = self.of[page as usize] as usize;
        let n = 1usize << order;
        let start = if s == NO as usize { self.owner.len() } else { s & !(n - 1) };
        let end = (start + n).min(self.owner.len());
        self.owner[start.min(end)..end].iter().copied().filter(move |&q| q != NO && q != page)
    }
}

impl Pages {
    /// zram writeback: writes back up to `max` swap copies that stayed in zram, unread, since the
    /// last idle mark (in page-id order from where a limited round stopped, else from the lowest);
    /// they leave the DRAM pool. Returns how many.
    pub fn writeback(&mut self, max: u64) -> u64 {
        let Some(idle) = &mut self.idle else { return 0 };
        let len = self.flags.len();
        let (mut n, start) = (0, idle.cursor.min(len));
        idle.cursor = 0;
        for id in (start..len).chain(0..start) {
            if n == max {
                idle.cursor = id;
                break;
            }
            let f = &mut self.flags[id];
            if *f & (SWAP_VALID | BACKED | RESIDENT | NVM_MAPPED) == SWAP_VALID && idle.stamp[id] < idle.epoch {
                *f |= BACKED;
                n += 1;
            }
        }
        self.backed += n;
        self.m.written_back += n;
        self.resize_pool();
        n
    }

    /// Marks every zram copy idle: the next writeback may take those not read by then.
    pub fn mark_idle(&mut self) {
        if let Some(i) = &mut self.idle {
            i.epoch = i.epoch.saturating_add(1);
        }
    }
}
