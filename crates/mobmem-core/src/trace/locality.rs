//! A trace's locality in the terms of the app generator (`gen.rs`): how much of the footprint is
//! code, how much of the data is written, how concentrated the data accesses are, and how often
//! they move on to the next page. It is what a synthetic preset's assumed locality can be checked
//! against on a real capture.
//!
//! Definitions. A page fetched as an instruction at least once is code; the other pages touched are
//! data. Concentration is over the whole trace: pages ranked by their data accesses, the share of
//! the data pages that takes 50%, 85% and 95% of them (a hot set that drifts looks broader than any
//! one window of it). A data access moves when its page differs from the data access's before; a
//! move is sequential when its page's predecessor (page number − 1) is among the last `RECENT` data
//! pages moved to, so that interleaved scans of several regions count as the generator makes them.
//! Page numbers are compared without their process: in a multi-process trace two processes' pages
//! of the same number count as neighbours, so the sequential share is for one program's trace.

use super::{Op, Trace};
use serde::Serialize;

/// Data pages moved to lately that a sequential access may continue.
const RECENT: usize = 4;

#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct Locality {
    /// Pages fetched as instructions (code).
    pub code_pages: u64,
    /// Other pages read or written (data).
    pub data_pages: u64,
    /// Data pages written at least once.
    pub written_pages: u64,
    /// Code pages / pages touched (the generator's `code_share`).
    pub code_share: f64,
    /// Written data pages / data pages (the generator's `anon_share`).
    pub written_share: f64,
    /// Share of the data pages, most accessed first, that takes half of the data accesses.
    pub hot_pages_50: f64,
    /// … 85% of them (the generator's default `hot_prob`).
    pub hot_pages_85: f64,
    /// … 95% of them.
    pub hot_pages_95: f64,
    /// Data accesses to another page than the one before, and of those the share that continues a
    /// recent page (its page number − 1 among the last data pages moved to).
    pub moves: u64,
    pub sequential_share: f64,
}

/// Measures `t`. Memory: a few words per page; time: one pass and a sort of the pages.
pub fn locality(t: &Trace) -> Locality {
    let n = t.num_pages();
    let mut code = vec![false; n];
    let mut written = vec![false; n];
    let mut count = vec![0u64; n];
    let mut recent = [u64::MAX; RECENT];
    let (mut last, mut moves, mut sequential) = (usize::MAX, 0u64, 0u64);
    for &w in &t.accesses {
        let id = (w >> 2) as usize;
        let op = w & 3;
        if op == Op::Instr as u32 {
            code[id] = true;
            continue;
        }
        written[id] |= op == Op::Write as u32;
        count[id] += 1;
        if id != last {
            let page = t.page_numbers[id];
            moves += 1;
            sequential += u64::from(page > 0 && recent.contains(&(page - 1)));
            recent.rotate_right(1);
            recent[0] = page;
            last = id;
        }
    }
    let mut data: Vec<u64> = (0..n).filter(|&i| !code[i] && count[i] > 0).map(|i| count[i]).collect();
    data.sort_unstable_by(|a, b| b.cmp(a));
    let total: u64 = data.iter().sum();
    let hot = |q: f64| {
        let mut sum = 0u64;
        for (k, &c) in data.iter().enumerate() {
            sum += c;
            if sum as f64 >= q * total as f64 {
                return (k + 1) as f64 / data.len() as f64;
            }
        }
        0.0
    };
    let code_pages = code.iter().filter(|&&c| c).count() as u64;
    let data_pages = data.len() as u64;
    let written_pages = (0..n).filter(|&i| !code[i] && written[i]).count() as u64;
    let share = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    Locality {
        code_pages,
        data_pages,
        written_pages,
        code_share: share(code_pages, code_pages + data_pages),
        written_share: share(written_pages, data_pages),
        hot_pages_50: hot(0.5),
        hot_pages_85: hot(0.85),
        hot_pages_95: hot(0.95),
        moves,
        sequential_share: share(sequential, moves),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::gen::GenParams;

    fn gen(p: GenParams) -> Locality {
        locality(&GenParams { footprint_pages: 2_000, accesses: 400_000, ..p }.generate().unwrap())
    }

    #[test]
    fn a_generated_trace_shows_its_code_and_written_shares() {
        for (code_share, anon_share) in [(0.15, 0.5), (0.4, 0.3)] {
            let l = gen(GenParams { code_share, anon_share, ..GenParams::default() });
            assert!((l.code_share - code_share).abs() < 0.02, "{l:?}");
            assert!((l.written_share - anon_share).abs() < 0.03, "{l:?}");
        }
    }

    #[test]
    fn a_smaller_hot_window_concentrates_the_accesses() {
        let broad = gen(GenParams { hot_share: 0.2, ..GenParams::default() });
        let narrow = gen(GenParams { hot_share: 0.02, ..GenParams::default() });
        assert!(narrow.hot_pages_85 < broad.hot_pages_85, "{narrow:?} {broad:?}");
        assert!(narrow.hot_pages_50 <= narrow.hot_pages_85 && narrow.hot_pages_85 <= narrow.hot_pages_95);
    }

    #[test]
    fn scans_are_sequential_and_uniform_picks_are_not() {
        let scans = gen(GenParams { hot_prob: 0.0, scan_share: 1.0, ..GenParams::default() });
        let uniform = gen(GenParams { hot_prob: 0.0, scan_share: 0.0, ..GenParams::default() });
        assert!(scans.sequential_share > 0.9, "{scans:?}");
        assert!(uniform.sequential_share < 0.01, "{uniform:?}");
    }

    #[test]
    fn hand_made_trace() {
        // Code page 9; data 1 2 3 (a scan, 3 written), then 1 again eight times.
        let mut t = crate::policy::testutil::trace_of(&[9, 1, 2, 3, 1]);
        t.accesses = [(9, Op::Instr), (1, Op::Read), (2, Op::Read), (3, Op::Write)]
            .into_iter()
            .chain(std::iter::repeat((1, Op::Read)).take(8))
            .map(|(p, o)| crate::trace::pack(p, o))
            .collect();
        let l = locality(&t);
        assert_eq!((l.code_pages, l.data_pages, l.written_pages), (1, 3, 1));
        assert_eq!(l.code_share, 0.25);
        // 9 of 11 data accesses are page 1: one page of three takes half of them, two 85%.
        assert_eq!((l.hot_pages_50, l.hot_pages_85), (1.0 / 3.0, 2.0 / 3.0));
        assert_eq!(l.hot_pages_95, 1.0);
        // Moves: 1, 2 (after 1), 3 (after 2), 1: two sequential of four.
        assert_eq!((l.moves, l.sequential_share), (4, 0.5));
    }

    #[test]
    fn an_empty_trace_is_all_zero() {
        let l = locality(&Trace::default());
        assert_eq!((l.code_share, l.written_share, l.hot_pages_85, l.sequential_share), (0.0, 0.0, 0.0, 0.0));
    }
}
