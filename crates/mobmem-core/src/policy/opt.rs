//! Belady's OPT (MIN): evict the resident page whose next use is farthest in the future (never
//! used again counts as infinitely far). Offline: a pre-pass over the trace annotates each access
//! with the position of the next access to the same page. Victims come from an indexed max-heap
//! keyed by next use (O(log frames) per access, no allocation after construction). OPT minimises
//! the number of faults; it ignores that dirty evictions cost more, so it is the floor for faults,
//! not for I/O time.
//!
//! Each heap entry is one `u64`, the next use above the page id: comparing two entries is one
//! compare that reads nothing else (a key array indexed by page cost a cache miss per level), ties
//! between pages never used again fall to the higher id, and sifting moves a hole instead of
//! swapping. (A bitmap over next-use positions, tried instead, was slower: finding the page at the
//! farthest position is a cache miss into a per-access array at every eviction.)

use super::{Access, Policy, PolicySetup, ReclaimCtx};
use crate::error::{Error, Result};
use crate::trace::PageId;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {}

const NEVER: u32 = u32::MAX;
const NOT_IN_HEAP: u32 = u32::MAX;

/// A heap entry: next use in the high half, page id in the low half.
#[inline(always)]
fn entry(next_use: u32, page: PageId) -> u64 {
    (next_use as u64) << 32 | page as u64
}
#[inline(always)]
fn page_of(e: u64) -> usize {
    e as u32 as usize
}

pub struct Opt {
    /// Next use of the page accessed at each position.
    next_use: Vec<u32>,
    /// Heap position of each page.
    pos: Vec<u32>,
    /// Max-heap of `entry(next use, page)` over the resident pages.
    heap: Vec<u64>,
}

impl Opt {
    /// Places `e` at or above position `i` (its key grew, or it is new at the bottom).
    #[inline(always)]
    fn sift_up(&mut self, mut i: usize, e: u64) {
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if p >= e {
                break;
            }
            self.heap[i] = p;
            self.pos[page_of(p)] = i as u32;
            i = parent;
        }
        self.heap[i] = e;
        self.pos[page_of(e)] = i as u32;
    }

    /// Places `e` at or below position `i`.
    fn sift_down(&mut self, mut i: usize, e: u64) {
        let n = self.heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let c = if l + 1 < n && self.heap[l + 1] > self.heap[l] { l + 1 } else { l };
            let ce = self.heap[c];
            if ce <= e {
                break;
            }
            self.heap[i] = ce;
            self.pos[page_of(ce)] = i as u32;
            i = c;
        }
        self.heap[i] = e;
        self.pos[page_of(e)] = i as u32;
    }

    fn remove_at(&mut self, i: usize) -> PageId {
        let v = page_of(self.heap[i]);
        let last = self.heap.pop().expect("non-empty heap");
        self.pos[v] = NOT_IN_HEAP;
        if i < self.heap.len() {
            // The last entry fills the hole: it may belong above it or below it.
            if i > 0 && self.heap[(i - 1) / 2] < last {
                self.sift_up(i, last);
            } else {
                self.sift_down(i, last);
            }
        }
        v as PageId
    }
}

impl Policy for Opt {
    type Params = Params;

    fn new(s: &PolicySetup, _: Params) -> Result<Self> {
        let Some(future) = s.space.future else {
            return Err(Error::config("policy", "opt needs every access in advance (a page trace)"));
        };
        if future.len() >= NEVER as usize {
            return Err(Error::config("policy", "opt handles traces of fewer than 2^32 accesses"));
        }
        let mut next_use = vec![NEVER; future.len()];
        let mut last = vec![NEVER; s.space.pages];
        for (i, &a) in future.iter().enumerate().rev() {
            let id = (a >> 2) as usize;
            next_use[i] = last[id];
            last[id] = i as u32;
        }
        Ok(Opt { next_use, pos: vec![NOT_IN_HEAP; s.space.pages], heap: Vec::with_capacity(s.frames) })
    }

    #[inline(always)]
    fn on_hit(&mut self, a: &Access) {
        // The key only grows (the next use moves further out), so the page can only rise.
        let i = self.pos[a.page as usize] as usize;
        self.sift_up(i, entry(self.next_use[a.index], a.page));
    }

    fn select_victim(&mut self, ctx: &ReclaimCtx) -> Option<PageId> {
        let &top = self.heap.first()?;
        if ctx.evictable(page_of(top) as PageId) {
            return Some(self.remove_at(0));
        }
        // Swap full: the farthest next use among evictable pages (linear, rare).
        let best = (0..self.heap.len())
            .filter(|&i| ctx.evictable(page_of(self.heap[i]) as PageId))
            .max_by_key(|&i| self.heap[i])?;
        Some(self.remove_at(best))
    }

    #[inline(always)]
    fn on_insert(&mut self, a: &Access) {
        self.heap.push(0);
        let i = self.heap.len() - 1;
        self.sift_up(i, entry(self.next_use[a.index], a.page));
    }

    fn on_remove(&mut self, page: PageId) {
        let i = self.pos[page as usize];
        if i != NOT_IN_HEAP {
            self.remove_at(i as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;
    use super::*;

    #[test]
    fn textbook_sequence() {
        // The reference string of Silberschatz et al.: OPT with 3 frames has 9 faults.
        let seq = [7, 0, 1, 2, 0, 3, 0, 4, 2, 3, 0, 3, 2, 1, 2, 0, 1, 7, 0, 1];
        assert_eq!(run::<Opt>(&seq, 3, Params {}).misses, 9);
    }

    #[test]
    fn evicts_farthest() {
        // 2 frames: 0 1 then 2: next uses 0 → 4, 1 → never → evict 1.
        let s = run::<Opt>(&[0, 1, 2, 2, 0], 2, Params {});
        assert_eq!(s.evicted, vec![1]);
    }
}
