//! OPT's (Belady's MIN) miss-ratio curve in one pass, O(log footprint) per access: the critical
//! marker algorithm of Bilardi, Ekanadham and Pattnaik ("Optimal on-line computation of stack
//! distances for MIN and OPT", CF'17), with the two searches it needs done in trees.
//!
//! MIN is a stack algorithm (Mattson et al., 1970): an access hits in every memory at least as
//! large as its OPT stack distance, and that distance depends on the past only. The state is the
//! LRU order of the pages and one marker per memory size of two frames or more (marker c stands
//! for c + 1 frames: the paper's M(c + 1)). Both are kept on one time line of slots, oldest
//! first: a page's slot is its last access, a marker's slot the access that last set it. With
//! β(p) = the markers after slot p minus the live pages after p (never negative), an access to a
//! page last touched at slot s:
//! - z = the oldest live slot after s with β = 0 (the page touched just before always has β = 0);
//! - the distance is 1 + the smallest marker index c ≥ 1 whose slot is at or before z;
//! - the page moves to a new slot, and marker c moves to that slot too.
//!
//! A first touch adds a page and a marker at a new slot; a touch of the page touched just before
//! has distance 1 and changes nothing. β's suffix sums are a segment tree over the slots (each
//! node: its sum, and the least suffix sum after a live slot in it); the markers' slots a segment
//! tree over marker indices (minimum). Slots are renumbered in order when they run out (at most
//! one page and one marker per slot, so at most 2 per page are kept, out of 3 per page).
//! The distances equal Mattson's stack walk (`tests/mrc.rs`: runs at every size, and a property
//! test against the walk, `mrc::opt::walk`), which stays the faster of the two on small
//! footprints (`curve` picks by footprint: `WALK_MAX_PAGES`).

use super::Curve;
use crate::trace::Trace;

const NONE: u32 = u32::MAX;
/// Above any sum of ±1 over the slots: they stay within ±3 × `MAX_PAGES`, so INF + such a sum
/// fits an i32, and the tree is half the size of one of i64.
const INF: i32 = i32::MAX / 4;

/// The largest footprint the markers take (`mrc::exact` refuses a larger one).
pub const MAX_PAGES: usize = 1 << 26;

/// Footprints up to this many pages take Mattson's walk, larger ones the critical markers: the
/// walk's O(distance) is cheaper than the trees' O(log footprint) when distances are short. On
/// generated traces, the walk's worst case (long distances everywhere), the markers are 1.2×
/// faster at 20,000 pages and 1.8× at 40,000; on the 655-page sqlite3 capture the walk is 8×
/// faster (BENCHMARKS.md).
pub const WALK_MAX_PAGES: usize = 32_768;

/// The exact OPT curve of `trace`.
pub fn curve(trace: &Trace) -> Curve {
    if trace.num_pages() <= WALK_MAX_PAGES && trace.accesses.len() < u32::MAX as usize {
        walk(trace)
    } else {
        markers(trace)
    }
}

/// The exact OPT curve of `trace` by the critical markers, O(log footprint) per access.
pub fn markers(trace: &Trace) -> Curve {
    let pages = trace.num_pages();
    assert!(pages <= MAX_PAGES, "{pages} pages: the OPT curve takes at most {MAX_PAGES}");
    let mut hist = vec![0u64; pages + 2];
    let mut cold = 0u64;
    let mut st = State::new(pages);
    let mut prev = NONE;
    for &w in trace.accesses.iter() {
        let x = w >> 2;
        if x == prev {
            hist[1] += 1;
            continue;
        }
        prev = x;
        match st.access(x) {
            None => cold += 1,
            Some(d) => hist[d as usize] += 1,
        }
    }
    Curve::from_distances(trace.accesses.len() as u64, cold, &hist)
}

struct State {
    /// By page: its live slot (NONE: not touched yet).
    slot_of: Vec<u32>,
    /// By slot: the page whose last access it is, and the marker set there (NONE: none).
    page_at: Vec<u32>,
    marker_at: Vec<u32>,
    /// By marker index (1..): its slot.
    marker_slot: Vec<u32>,
    next: usize,
    seen: u32,
    beta: BetaTree,
    markers: MinTree,
}

impl State {
    fn new(pages: usize) -> State {
        let cap = (3 * pages).max(1024);
        State {
            slot_of: vec![NONE; pages],
            page_at: vec![NONE; cap],
            marker_at: vec![NONE; cap],
            marker_slot: vec![NONE], // marker 0 (capacity 1) is never read
            next: 0,
            seen: 0,
            beta: BetaTree::new(cap),
            markers: MinTree::new(pages.max(1)),
        }
    }

    /// Touches `x` (not the page touched just before): its OPT stack distance, None on a first touch.
    fn access(&mut self, x: u32) -> Option<u32> {
        if self.next == self.page_at.len() {
            self.compact();
        }
        let t = self.next;
        self.next += 1;
        let s = self.slot_of[x as usize];
        let (dist, c) = if s == NONE {
            self.seen += 1;
            if self.seen == 1 {
                (None, NONE) // the first page's marker would be marker 0, which is never read
            } else {
                self.marker_slot.push(NONE);
                (None, self.marker_slot.len() as u32 - 1)
            }
        } else {
            let z = self.beta.oldest_zero_after(s as usize).expect("the page touched just before has β = 0");
            let c = self.markers.leftmost_at_most(z as u32).expect("a marker at or before z");
            self.page_at[s as usize] = NONE;
            self.beta.set(s as usize, self.marker_at[s as usize] != NONE, false);
            (Some(c + 1), c)
        };
        if c != NONE {
            let old = self.marker_slot[c as usize];
            if old != NONE {
                self.marker_at[old as usize] = NONE;
                self.beta.set(old as usize, false, self.page_at[old as usize] != NONE);
            }
            self.marker_slot[c as usize] = t as u32;
            self.marker_at[t] = c;
            self.markers.set(c as usize, t as u32);
        }
        self.slot_of[x as usize] = t as u32;
        self.page_at[t] = x;
        self.beta.set(t, c != NONE, true);
        dist
    }

    /// Renumbers the slots in use in order, from 0.
    fn compact(&mut self) {
        let mut k = 0;
        for old in 0..self.next {
            let (p, m) = (self.page_at[old], self.marker_at[old]);
            if p == NONE && m == NONE {
                continue;
            }
            self.page_at[old] = NONE;
            self.marker_at[old] = NONE;
            self.page_at[k] = p;
            self.marker_at[k] = m;
            if p != NONE {
                self.slot_of[p as usize] = k as u32;
            }
            if m != NONE {
                self.marker_slot[m as usize] = k as u32;
            }
            k += 1;
        }
        self.next = k;
        let (markers, pages) = (&self.marker_at, &self.page_at);
        self.beta.rebuild(|i| (markers.get(i).is_some_and(|&m| m != NONE), pages.get(i).is_some_and(|&p| p != NONE)));
        self.markers.rebuild(&self.marker_slot);
    }
}

/// β over the slots: each leaf is +1 for a marker and −1 for a live page; a node keeps its sum and
/// the least sum of the leaves after a live leaf within it (INF without one), side by side.
struct BetaTree {
    size: usize,
    node: Vec<[i32; 2]>,
}

impl BetaTree {
    fn new(cap: usize) -> BetaTree {
        let size = cap.next_power_of_two();
        BetaTree { size, node: vec![[0, INF]; 2 * size] }
    }

    #[inline]
    fn pull(&mut self, i: usize) {
        let ([ls, lm], [rs, rm]) = (self.node[2 * i], self.node[2 * i + 1]);
        self.node[i] = [ls + rs, (lm + rs).min(rm)];
    }

    #[inline]
    fn leaf(marker: bool, live: bool) -> [i32; 2] {
        [marker as i32 - live as i32, if live { 0 } else { INF }]
    }

    /// Sets a leaf and its ancestors; the new values are carried up in registers, so each level
    /// waits only on the sibling it reads, not on the store below it.
    #[inline]
    fn set(&mut self, slot: usize, marker: bool, live: bool) {
        let mut i = self.size + slot;
        let mut v = Self::leaf(marker, live);
        self.node[i] = v;
        while i > 1 {
            let sib = self.node[i ^ 1];
            let ([ls, lm], [rs, rm]) = if i & 1 == 0 { (v, sib) } else { (sib, v) };
            v = [ls + rs, (lm + rs).min(rm)];
            i >>= 1;
            self.node[i] = v;
        }
    }

    fn rebuild(&mut self, leaf: impl Fn(usize) -> (bool, bool)) {
        for s in 0..self.size {
            let (marker, live) = leaf(s);
            self.node[self.size + s] = Self::leaf(marker, live);
        }
        for i in (1..self.size).rev() {
            self.pull(i);
        }
    }

    /// The oldest live slot after `s` whose suffix sum is 0: up from `s`'s leaf, the right
    /// siblings on the way cover the slots after `s` in order, nearest first; the first of them
    /// holding such a slot is searched down.
    fn oldest_zero_after(&self, s: usize) -> Option<usize> {
        let mut right = [0usize; 64];
        let mut n = 0;
        let mut total = 0; // the sum of the leaves after s
        let mut i = self.size + s;
        while i > 1 {
            // Branch-free: the parity of the path is as good as random.
            let left = (i & 1) ^ 1;
            right[n] = i | 1;
            n += left;
            total += self.node[i | 1][0] & -(left as i32);
            i >>= 1;
        }
        let mut before = 0; // the sum of the siblings before the one tested
        for &j in &right[..n] {
            let [sum, min] = self.node[j];
            let after = total - before - sum;
            if min + after <= 0 {
                return Some(self.down(j, after));
            }
            before += sum;
        }
        None
    }

    /// The oldest live leaf under `j` whose suffix sum is 0, `after` being the sum after `j`.
    fn down(&self, mut j: usize, mut after: i32) -> usize {
        while j < self.size {
            let r = self.node[2 * j + 1];
            if self.node[2 * j][1] + r[0] + after <= 0 {
                after += r[0];
                j *= 2;
            } else {
                j = 2 * j + 1;
            }
        }
        j - self.size
    }
}

/// Minimum over marker indices of their slots; finds the smallest index at or below a slot.
struct MinTree {
    size: usize,
    min: Vec<u32>,
}

impl MinTree {
    fn new(n: usize) -> MinTree {
        let size = n.next_power_of_two();
        MinTree { size, min: vec![NONE; 2 * size] }
    }

    #[inline]
    fn set(&mut self, i: usize, v: u32) {
        let mut i = self.size + i;
        let mut v = v;
        self.min[i] = v;
        while i > 1 {
            v = v.min(self.min[i ^ 1]);
            i >>= 1;
            if self.min[i] == v {
                break; // the ancestors above keep their minimum
            }
            self.min[i] = v;
        }
    }

    fn rebuild(&mut self, values: &[u32]) {
        for i in 0..self.size {
            self.min[self.size + i] = values.get(i).copied().unwrap_or(NONE);
        }
        for i in (1..self.size).rev() {
            self.min[i] = self.min[2 * i].min(self.min[2 * i + 1]);
        }
    }

    /// The smallest index whose value is at most `bound`.
    fn leftmost_at_most(&self, bound: u32) -> Option<u32> {
        if self.min[1] > bound {
            return None;
        }
        let mut i = 1;
        while i < self.size {
            i = if self.min[2 * i] <= bound { 2 * i } else { 2 * i + 1 };
        }
        Some((i - self.size) as u32)
    }
}

/// Mattson's stack walk (O(d) per access, d the distance; O(footprint) for a first touch), the
/// reference the trees are tested against: on an access at depth d the page goes to the top and
/// the pages above d are re-sorted by next use, carrying the later-used one down at each level;
/// the levels a carry passes without changing places are skipped by a vectorised scan.
pub fn walk(trace: &Trace) -> Curve {
    let n = trace.accesses.len();
    let pages = trace.num_pages();
    // Next use of the page accessed at each position (NONE: not again; `curve` sends traces of
    // u32::MAX accesses or more to the markers).
    let mut next_use = vec![NONE; n];
    let mut seen = vec![NONE; pages];
    for i in (0..n).rev() {
        let p = (trace.accesses[i] >> 2) as usize;
        next_use[i] = seen[p];
        seen[p] = i as u32;
    }
    drop(seen);
    // Level by level, the next use of the page there and the page, in two arrays: the walk below
    // reads only next uses.
    let mut keys: Vec<u32> = Vec::with_capacity(pages);
    let mut at: Vec<u32> = Vec::with_capacity(pages);
    let mut depth = vec![NONE; pages]; // each page's level (0 = top)
    let mut hist = vec![0u64; pages + 2];
    let mut cold = 0u64;
    for (&w, &next) in trace.accesses.iter().zip(&next_use) {
        let x = w >> 2;
        let d = depth[x as usize];
        let end = if d == NONE {
            cold += 1;
            keys.push(NONE); // a new bottom level, filled by the carry below
            at.push(x);
            keys.len() - 1
        } else {
            hist[d as usize + 1] += 1;
            d as usize
        };
        depth[x as usize] = 0;
        if end == 0 {
            keys[0] = next;
            continue;
        }
        // x to the top; the old top is carried down to x's old level. A level keeps its page unless
        // that page is used later than the carried one: then they change places. Only those levels
        // are visited; the ones between are skipped by a scan of their next uses.
        let (mut carry_key, mut carry) = (keys[0], at[0]);
        (keys[0], at[0]) = (next, x);
        let mut from = 1;
        while let Some(j) = first_later(&keys[from..end], carry_key) {
            let level = from + j;
            std::mem::swap(&mut keys[level], &mut carry_key);
            std::mem::swap(&mut at[level], &mut carry);
            depth[at[level] as usize] = level as u32;
            from = level + 1;
        }
        (keys[end], at[end]) = (carry_key, carry);
        depth[carry as usize] = end as u32;
    }
    Curve::from_distances(n as u64, cold, &hist)
}

/// The first of `keys` greater than `k`: whole blocks are tested in a loop the compiler vectorises
/// (most levels keep their page, so most blocks hold none), then the block that holds it is searched.
#[inline]
fn first_later(keys: &[u32], k: u32) -> Option<usize> {
    const BLOCK: usize = 16;
    let mut from = 0;
    for b in keys.chunks_exact(BLOCK) {
        if b.iter().fold(false, |any, &x| any | (x > k)) {
            break;
        }
        from += BLOCK;
    }
    keys[from..].iter().position(|&x| x > k).map(|j| from + j)
}
