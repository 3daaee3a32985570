//! OPT's (Belady's MIN) miss-ratio curve in one pass. MIN is a stack algorithm (Mattson et al.,
//! 1970): the pages resident in a memory of c frames are always the top c of one priority stack,
//! the priority being the next use (sooner is higher). On an access at depth d the page goes to
//! the top and the pages above d are re-sorted by carrying the lower-priority one down at each
//! level — O(d) per access, O(footprint) for a first touch. An access at depth d hits in every
//! memory of d frames or more, as with LRU.

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
    let mut key = vec![NEVER; pages]; // each stacked page's next use
    let mut depth = vec![ABSENT; pages]; // each page's position in the stack (0 = top)
    let mut stack: Vec<u32> = Vec::with_capacity(pages);
    let mut hist = vec![0u64; pages + 2];
    let mut cold = 0u64;
    for (i, &w) in trace.accesses.iter().enumerate() {
        let x = w >> 2;
        let d = depth[x as usize];
        let end = if d == ABSENT {
            cold += 1;
            stack.push(x); // a new bottom slot, filled by the carry below
            stack.len() - 1
        } else {
            hist[d as usize + 1] += 1;
            d as usize
        };
        key[x as usize] = next_use[i];
        // x to the top; carry the old top down, keeping the sooner-used page at each level.
        let mut carry = if end == 0 { x } else { stack[0] };
        stack[0] = x;
        depth[x as usize] = 0;
        for (level, slot) in stack[..=end].iter_mut().enumerate().skip(1) {
            if level == end {
                *slot = carry;
                depth[carry as usize] = level as u32;
                break;
            }
            let here = *slot;
            if key[here as usize] > key[carry as usize] {
                // `here` is used later: it goes down, the carried page stays.
                *slot = carry;
                depth[carry as usize] = level as u32;
                carry = here;
            }
        }
    }
    Curve::from_distances(n as u64, cold, &hist)
}
