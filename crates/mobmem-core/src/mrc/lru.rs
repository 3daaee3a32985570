//! LRU's miss-ratio curve in one pass: Mattson's stack distances (a page's position in the LRU
//! stack when it is touched again = the distinct pages touched since its last access, plus one),
//! counted over access positions that hold a mark at each page's latest access (a bitmap, with a
//! Fenwick tree over its words). A re-access at distance d hits in every memory of d frames or more.
//!
//! The positions are kept few: when they run out the marks are rebuilt with the live ones
//! renumbered in order, so there are at most four per page (not per access) and they stay in cache.

use super::Curve;
use crate::trace::Trace;

/// 0/1 marks over positions `0..n`, counting marks in prefixes: a bitmap, and a Fenwick tree over
/// its 64-bit words' counts. The tree has n/64 entries, so for a stack of 20,000 pages it is a few
/// KiB and its ~10 levels stay in L1; the bit inside a word is one popcount. Marks are set only at
/// increasing positions, so the word being filled (`open`) stays out of the tree until the next
/// word opens: one tree update per 64 sets instead of one per set.
struct Marks {
    bits: Vec<u64>,
    tree: Vec<u32>,
    open: usize,
}

impl Marks {
    fn new(n: usize) -> Marks {
        let words = n.div_ceil(64);
        Marks { bits: vec![0; words], tree: vec![0; words + 1], open: 0 }
    }

    #[inline(always)]
    fn tree_add(&mut self, word: usize, delta: i32) {
        let mut i = word + 1;
        while i < self.tree.len() {
            self.tree[i] = self.tree[i].wrapping_add_signed(delta);
            i += i & i.wrapping_neg();
        }
    }

    /// Sets a mark at `pos`, past every position set before.
    #[inline(always)]
    fn set(&mut self, pos: usize) {
        let w = pos / 64;
        if w != self.open {
            let c = self.bits[self.open].count_ones();
            self.tree_add(self.open, c as i32);
            self.open = w;
        }
        self.bits[w] |= 1 << (pos % 64);
    }

    #[inline(always)]
    fn clear(&mut self, pos: usize) {
        let w = pos / 64;
        self.bits[w] &= !(1 << (pos % 64));
        if w != self.open {
            self.tree_add(w, -1);
        }
    }

    /// Marks at positions `0..=pos` (the tree holds every word before the open one).
    #[inline(always)]
    fn prefix(&self, pos: usize) -> u32 {
        let w = pos / 64;
        let mut i = w;
        let mut s = 0u32;
        while i > 0 {
            s += self.tree[i];
            i &= i - 1;
        }
        let within = self.bits[w] & (u64::MAX >> (63 - pos % 64));
        s + within.count_ones()
    }

    /// Rebuilds with marks at positions `0..k` and none after, in linear time.
    fn fill_first(&mut self, k: usize) {
        for (w, b) in self.bits.iter_mut().enumerate() {
            let from = w * 64;
            *b = if from + 64 <= k {
                u64::MAX
            } else if from >= k {
                0
            } else {
                u64::MAX >> (64 - (k - from))
            };
        }
        self.open = k / 64;
        self.tree[0] = 0;
        for (w, &b) in self.bits.iter().enumerate() {
            self.tree[w + 1] = if w == self.open { 0 } else { b.count_ones() };
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
        // Four positions per page: a rebuild (O(positions)) every three footprints of accesses.
        let cap = (4 * pages).max(4096);
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
            self.marks.clear(l as usize);
            self.owner[l as usize] = NONE;
            Some(after + 1)
        };
        self.marks.set(self.next);
        self.owner[self.next] = p as u32;
        self.last[p] = self.next as u32;
        self.next += 1;
        d
    }

    /// Renumbers the live marks 0..live in position order; the positions keep their number. A
    /// position's owner is cleared when its page moves on, so the owners left are the live marks.
    fn compact(&mut self) {
        let mut k = 0usize;
        for pos in 0..self.owner.len() {
            let q = self.owner[pos];
            if q != NONE {
                self.last[q as usize] = k as u32;
                self.owner[k] = q;
                k += 1;
            }
        }
        self.owner[k..].iter_mut().for_each(|o| *o = NONE);
        self.marks.fill_first(k);
        self.next = k;
    }
}

/// Accesses per chunk below which a curve is not split across threads.
const MIN_CHUNK: usize = 1 << 21;

/// The exact LRU curve of `trace`: faults at every memory size from 1 frame to the footprint. A
/// long trace is cut into one chunk per core (`in_chunks`).
pub fn curve(trace: &Trace) -> Curve {
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    in_chunks(trace, cores.min(trace.len() / MIN_CHUNK).max(1))
}

/// One chunk's own pass, from an empty stack.
struct Chunk {
    /// Distances of the re-accesses whose previous access is in the chunk.
    hist: Vec<u64>,
    /// The chunk's pages in order of their first touch in it: page, and the distinct pages the
    /// chunk touched before it.
    firsts: Vec<(u32, u32)>,
    /// The chunk's pages, most recently touched first.
    recency: Vec<u32>,
}

fn pass(accesses: &[u32], pages: usize) -> Chunk {
    let mut hist = vec![0u64; pages + 2];
    let mut firsts = Vec::new();
    let mut stack = StackDistances::new(pages);
    for &w in accesses {
        let p = w >> 2;
        match stack.access(p as usize) {
            Some(d) => hist[d as usize] += 1,
            None => firsts.push((p, firsts.len() as u32)),
        }
    }
    let mut by_time: Vec<(u32, u32)> = firsts.iter().map(|&(p, _)| (stack.last[p as usize], p)).collect();
    by_time.sort_unstable_by(|a, b| b.cmp(a));
    Chunk { hist, firsts, recency: by_time.into_iter().map(|(_, p)| p).collect() }
}

/// The curve from `chunks` chunks run in parallel, then merged in order. A chunk's first touch of
/// a page the stack already held has distance = the chunk's pages touched before it + the older
/// stack's pages above it that the chunk has not touched yet + 1; those are counted over the older
/// stack's ranks, in one pass of the chunk's first touches (at most one per page).
pub fn in_chunks(trace: &Trace, chunks: usize) -> Curve {
    let pages = trace.num_pages();
    let size = trace.len().div_ceil(chunks.max(1)).max(1);
    let parts: Vec<Chunk> = std::thread::scope(|s| {
        let handles: Vec<_> = trace.accesses.chunks(size).map(|c| s.spawn(move || pass(c, pages))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    let mut hist = vec![0u64; pages + 2];
    let mut cold = 0u64;
    let mut rank = vec![NONE; pages]; // in the stack before the current chunk, 0 = most recent
    let mut order: Vec<u32> = Vec::with_capacity(pages);
    let mut untouched = Marks::new(pages.max(1));
    let mut in_chunk = vec![false; pages];
    for part in parts {
        hist.iter_mut().zip(&part.hist).for_each(|(h, c)| *h += c);
        untouched.fill_first(order.len());
        for &(p, before) in &part.firsts {
            let r = rank[p as usize];
            if r == NONE {
                cold += 1;
                continue;
            }
            let above = if r == 0 { 0 } else { untouched.prefix(r as usize - 1) };
            hist[(before + above + 1) as usize] += 1;
            untouched.clear(r as usize);
        }
        // The new stack: the chunk's pages, then the older ones it did not touch, in their order.
        part.recency.iter().for_each(|&p| in_chunk[p as usize] = true);
        let older: Vec<u32> = order.iter().copied().filter(|&q| !in_chunk[q as usize]).collect();
        part.recency.iter().for_each(|&p| in_chunk[p as usize] = false);
        order.clear();
        order.extend(part.recency);
        order.extend(older);
        for (i, &q) in order.iter().enumerate() {
            rank[q as usize] = i as u32;
        }
    }
    Curve::from_distances(trace.accesses.len() as u64, cold, &hist)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_equals_sets() {
        for k in [0, 1, 63, 64, 65, 130, 300] {
            let mut a = Marks::new(300);
            a.set(5);
            a.fill_first(k);
            let mut b = Marks::new(300);
            (0..k).for_each(|i| b.set(i));
            for i in 0..k {
                // Positions up to the newest mark: the ones a stack asks about.
                assert_eq!((a.prefix(i), b.prefix(i)), (i as u32 + 1, i as u32 + 1), "{k} at {i}");
            }
        }
    }

    #[test]
    fn set_and_clear_count() {
        let flags: Vec<bool> = (0..300).map(|i| i % 3 == 0 || i % 7 == 1).collect();
        let mut b = Marks::new(flags.len());
        for (i, &f) in flags.iter().enumerate() {
            b.set(i);
            if !f {
                b.clear(i);
            }
        }
        let mut flags = flags;
        for (i, f) in flags.iter_mut().enumerate() {
            if i % 5 == 0 && *f {
                b.clear(i); // in closed words and in the open one
                *f = false;
            }
        }
        let mut count = 0;
        for (i, &f) in flags.iter().enumerate() {
            count += f as u32;
            assert_eq!(b.prefix(i), count, "at {i}");
        }
    }
}
