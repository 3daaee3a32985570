//! LRU's miss-ratio curve in one pass: Mattson's stack distances (a page's position in the LRU
//! stack when it is touched again = the distinct pages touched since its last access, plus one),
//! counted with a Fenwick tree over access positions that holds a mark at each page's latest
//! access. A re-access at distance d hits in every memory of d frames or more.
//!
//! The tree is kept small: when its positions run out it is rebuilt with the live marks
//! renumbered in order, so it holds at most twice the pages (not the accesses) and stays in cache.

use super::Curve;
use crate::trace::Trace;

/// Fenwick tree of 0/1 marks over positions `0..n`, counting marks in prefixes.
struct Marks {
    tree: Vec<u32>,
}

impl Marks {
    fn new(n: usize) -> Marks {
        Marks { tree: vec![0; n + 1] }
    }

    #[inline(always)]
    fn add(&mut self, pos: usize, delta: i32) {
        let mut i = pos + 1;
        while i < self.tree.len() {
            self.tree[i] = self.tree[i].wrapping_add_signed(delta);
            i += i & i.wrapping_neg();
        }
    }

    /// Marks at positions `0..=pos`.
    #[inline(always)]
    fn prefix(&self, pos: usize) -> u32 {
        let mut i = pos + 1;
        let mut s = 0u32;
        while i > 0 {
            s += self.tree[i];
            i &= i - 1;
        }
        s
    }

    /// Rebuilds from a 0/1 list in linear time.
    fn build(&mut self, marks: &[bool]) {
        self.tree.iter_mut().for_each(|x| *x = 0);
        for (i, &m) in marks.iter().enumerate() {
            self.tree[i + 1] += m as u32;
        }
        for i in 1..self.tree.len() {
            let j = i + (i & i.wrapping_neg());
            if j < self.tree.len() {
                self.tree[j] += self.tree[i];
            }
        }
    }
}

const NONE: u32 = u32::MAX;

/// LRU stack distances, one access at a time: pages are dense ids below the count given to `new`.
pub struct StackDistances {
    marks: Marks,
    /// Each page's latest position, `NONE` if it is not on the stack.
    last: Vec<u32>,
    /// The page marked at each position.
    owner: Vec<u32>,
    live: u32,
    next: usize,
}

impl StackDistances {
    pub fn new(pages: usize) -> StackDistances {
        let cap = (2 * pages).max(64);
        StackDistances { marks: Marks::new(cap), last: vec![NONE; pages], owner: vec![NONE; cap], live: 0, next: 0 }
    }

    /// Touches `p`: its stack distance (1 = the page touched just before), `None` on a first touch.
    #[inline(always)]
    pub fn access(&mut self, p: usize) -> Option<u32> {
        if self.next == self.owner.len() {
            self.compact();
        }
        let l = self.last[p];
        let d = if l == NONE {
            self.live += 1;
            None
        } else {
            // Distinct pages touched after position l: the marks beyond it.
            let after = self.live - self.marks.prefix(l as usize);
            self.marks.add(l as usize, -1);
            self.owner[l as usize] = NONE;
            Some(after + 1)
        };
        self.marks.add(self.next, 1);
        self.owner[self.next] = p as u32;
        self.last[p] = self.next as u32;
        self.next += 1;
        d
    }

    /// Takes `p` off the stack (a sampler dropped it); its next touch is a first touch.
    pub fn forget(&mut self, p: usize) {
        let l = self.last[p];
        if l != NONE {
            self.marks.add(l as usize, -1);
            self.owner[l as usize] = NONE;
            self.last[p] = NONE;
            self.live -= 1;
        }
    }

    /// Renumbers the live marks 0..live in position order; the tree keeps its length.
    fn compact(&mut self) {
        let cap = self.owner.len();
        let mut flags = vec![false; cap];
        let mut k = 0usize;
        for pos in 0..cap {
            let q = self.owner[pos];
            if q != NONE && self.last[q as usize] == pos as u32 {
                self.last[q as usize] = k as u32;
                self.owner[k] = q;
                flags[k] = true;
                k += 1;
            }
        }
        self.owner[k..].iter_mut().for_each(|o| *o = NONE);
        self.marks.build(&flags);
        self.next = k;
    }
}

/// The exact LRU curve of `trace`: faults at every memory size from 1 frame to the footprint.
pub fn curve(trace: &Trace) -> Curve {
    let pages = trace.num_pages();
    // hist[d]: re-accesses at stack distance d (1-based); cold misses apart.
    let mut hist = vec![0u64; pages + 2];
    let mut cold = 0u64;
    let mut stack = StackDistances::new(pages);
    for &w in &trace.accesses {
        match stack.access((w >> 2) as usize) {
            Some(d) => hist[d as usize] += 1,
            None => cold += 1,
        }
    }
    Curve::from_distances(trace.accesses.len() as u64, cold, &hist)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fenwick_build_equals_adds() {
        let flags = [true, false, true, true, false, false, true];
        let mut a = Marks::new(flags.len());
        a.build(&flags);
        let mut b = Marks::new(flags.len());
        for (i, &f) in flags.iter().enumerate() {
            if f {
                b.add(i, 1);
            }
        }
        for i in 0..flags.len() {
            assert_eq!(a.prefix(i), b.prefix(i));
        }
    }
}
