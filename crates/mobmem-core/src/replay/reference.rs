//! A bare loop over a trace's accesses: the yardstick of the speed guard (bench/speed_guard.py).
//! A policy's replay time over this loop's time, on the same trace in the same process, is a ratio
//! that a slower or busier machine moves much less than either time alone.

use crate::trace::Trace;
use std::hint::black_box;
use std::time::Instant;

/// Counts each page's accesses, the least a replay does per access (one load and one store of
/// per-page state). Returns the pages touched more than once, and the loop's wall time in seconds.
pub fn reference_loop(trace: &Trace) -> (u64, f64) {
    let mut counts = vec![0u32; trace.num_pages()];
    let start = Instant::now();
    for &a in black_box(&trace.accesses[..]) {
        let c = &mut counts[(a >> 2) as usize];
        *c = c.wrapping_add(1);
    }
    let reused = black_box(&counts).iter().filter(|&&c| c > 1).count() as u64;
    (reused, start.elapsed().as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{pack, Op};

    #[test]
    fn counts_the_pages_touched_again() {
        let t = Trace {
            accesses: [0u32, 1, 0, 2, 2, 2].iter().map(|&p| pack(p, Op::Read)).collect::<Vec<_>>().into(),
            page_numbers: vec![10, 11, 12],
            ..Default::default()
        };
        let (reused, secs) = reference_loop(&t);
        assert_eq!(reused, 2);
        assert!(secs >= 0.0);
    }
}
