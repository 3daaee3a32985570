//! Belady's OPT (MIN): evict the resident page whose next use is farthest in the future (never
//! used again counts as infinitely far). Offline: a pre-pass over the trace annotates each access
//! with the position of the next access to the same page. Victims come from an indexed max-heap
//! keyed by next use (O(log frames) per access, no allocation after construction). OPT minimises
//! the number of faults; it ignores that dirty evictions cost more, so it is the floor for faults,
//! not for I/O time.

use super::{Access, Policy, PolicySetup, ReclaimCtx};
use crate::error::{Error, Result};
use crate::trace::PageId;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {}

const NEVER: u32 = u32::MAX;
const NOT_IN_HEAP: u32 = u32::MAX;

pub struct Opt {
    /// Next use of the page accessed at each position.
    next_use: Vec<u32>,
    /// Next use of each page currently resident.
    key: Vec<u32>,
    /// Heap position of each page.
    pos: Vec<u32>,
    heap: Vec<PageId>,
}

impl Opt {
    #[inline(always)]
    fn less(&self, a: PageId, b: PageId) -> bool {
        // Ties (two pages never used again) broken by id, so runs are deterministic.
        (self.key[a as usize], a) < (self.key[b as usize], b)
    }
    #[inline(always)]
    fn swap(&mut self, i: usize, j: usize) {
        self.heap.swap(i, j);
        self.pos[self.heap[i] as usize] = i as u32;
        self.pos[self.heap[j] as usize] = j as u32;
    }
    fn sift_up(&mut self, mut i: usize) {
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.less(self.heap[parent], self.heap[i]) {
                self.swap(parent, i);
                i = parent;
            } else {
                break;
            }
        }
    }
    fn sift_down(&mut self, mut i: usize) {
        let n = self.heap.len();
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut m = i;
            if l < n && self.less(self.heap[m], self.heap[l]) {
                m = l;
            }
            if r < n && self.less(self.heap[m], self.heap[r]) {
                m = r;
            }
            if m == i {
                break;
            }
            self.swap(i, m);
            i = m;
        }
    }
    fn remove_at(&mut self, i: usize) -> PageId {
        let last = self.heap.len() - 1;
        self.swap(i, last);
        let v = self.heap.pop().expect("non-empty heap");
        self.pos[v as usize] = NOT_IN_HEAP;
        if i < self.heap.len() {
            self.sift_down(i);
            self.sift_up(i);
        }
        v
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
        Ok(Opt {
            next_use,
            key: vec![NEVER; s.space.pages],
            pos: vec![NOT_IN_HEAP; s.space.pages],
            heap: Vec::with_capacity(s.frames),
        })
    }

    #[inline]
    fn on_hit(&mut self, a: &Access) {
        // The key only grows (the next use moves further out), so the page can only rise.
        self.key[a.page as usize] = self.next_use[a.index];
        let i = self.pos[a.page as usize] as usize;
        self.sift_up(i);
    }

    fn select_victim(&mut self, ctx: &ReclaimCtx) -> Option<PageId> {
        if self.heap.is_empty() {
            return None;
        }
        if ctx.evictable(self.heap[0]) {
            return Some(self.remove_at(0));
        }
        // Swap full: the farthest next use among evictable pages (linear, rare).
        let best = (0..self.heap.len())
            .filter(|&i| ctx.evictable(self.heap[i]))
            .max_by_key(|&i| (self.key[self.heap[i] as usize], self.heap[i]))?;
        Some(self.remove_at(best))
    }

    #[inline]
    fn on_insert(&mut self, a: &Access) {
        self.key[a.page as usize] = self.next_use[a.index];
        self.heap.push(a.page);
        let i = self.heap.len() - 1;
        self.pos[a.page as usize] = i as u32;
        self.sift_up(i);
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
