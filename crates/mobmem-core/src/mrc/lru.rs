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

/// The exact LRU curve of `trace`: faults at every memory size from 1 frame to the footprint.
pub fn curve(trace: &Trace) -> Curve {
    let pages = trace.num_pages();
    // hist[d]: re-accesses at stack distance d (1-based); cold misses apart.
    let mut hist = vec![0u64; pages + 2];
    let mut cold = 0u64;
    let mut last = vec![NONE; pages];
    let cap = (2 * pages).max(64);
    let mut marks = Marks::new(cap);
    let mut owner = vec![NONE; cap]; // page marked at each position
    let mut live = 0u32;
    let mut next = 0usize;
    for &w in &trace.accesses {
        let p = (w >> 2) as usize;
        if next == cap {
            // Renumber the live marks 0..live in position order; the tree stays `cap` long.
            let mut flags = vec![false; cap];
            let mut k = 0usize;
            for pos in 0..cap {
                let q = owner[pos];
                if q != NONE && last[q as usize] == pos as u32 {
                    last[q as usize] = k as u32;
                    owner[k] = q;
                    flags[k] = true;
                    k += 1;
                }
            }
            owner[k..].iter_mut().for_each(|o| *o = NONE);
            marks.build(&flags);
            next = k;
        }
        let l = last[p];
        if l == NONE {
            cold += 1;
            live += 1;
        } else {
            // Distinct pages touched after position l: the marks beyond it.
            let after = live - marks.prefix(l as usize);
            hist[after as usize + 1] += 1;
            marks.add(l as usize, -1);
            owner[l as usize] = NONE;
        }
        marks.add(next, 1);
        owner[next] = p as u32;
        last[p] = next as u32;
        next += 1;
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
