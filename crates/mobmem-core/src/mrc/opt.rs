//! OPT's (Belady's MIN) miss-ratio curve in one pass. MIN is a stack algorithm (Mattson et al.,
//! 1970): the pages resident in a memory of c frames are always the top c of one priority stack,
//! the priority being the next use (sooner is higher). On an access at depth d the page goes to
//! the top and the pages above d are re-sorted by carrying the lower-priority one down at each
//! level — O(d) per access, O(footprint) for a first touch. An access at depth d hits in every
//! memory of d frames or more, as with LRU. The levels a carry passes without changing places are
//! found by a vectorised scan of their next uses, so the walk costs O(d) compares at a block at a
//! time, plus the few levels where pages change places.

use super::Curve;
use crate::trace::Trace;

const NEVER: u32 = u32::MAX;
const ABSENT: u32 = u32::MAX;

/// The exact OPT curve of `trace`.
pub fn curve(trace: &Trace) -> Curve {
    let n = trace.accesses.len();
    let pages = trace.num_pages();
    // Next use of the page accessed at each position (NEVER: not again).
    let mut next_use = vec![NEVER; n];
    let mut seen = vec![NEVER; pages];
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
    let mut depth = vec![ABSENT; pages]; // each page's level (0 = top)
    let mut hist = vec![0u64; pages + 2];
    let mut cold = 0u64;
    for (&w, &next) in trace.accesses.iter().zip(&next_use) {
        let x = w >> 2;
        let d = depth[x as usize];
        let end = if d == ABSENT {
            cold += 1;
            keys.push(NEVER); // a new bottom level, filled by the carry below
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
