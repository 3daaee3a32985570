//! One-pass miss-ratio curves equal a run at every size: LRU's and OPT's faults at each memory size
//! are those of `simulate` with that many frames, on the committed real traces and on generated ones.

mod common;

use common::{data, run, trace};
use mobmem_core::mrc::{exact, lru, opt, Curve};
use mobmem_core::trace::gen::GenParams;
use mobmem_core::trace::{Op, Trace};
use mobmem_core::{read_trace, ReadOptions};
use proptest::prelude::*;

fn sizes(footprint: u64) -> Vec<u64> {
    let mut s: Vec<u64> = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597]
        .into_iter()
        .filter(|&c| c <= footprint)
        .collect();
    s.extend([footprint / 4, footprint / 2, footprint.saturating_sub(1), footprint, footprint + 5]);
    s.retain(|&c| c > 0);
    s
}

fn check(t: &Trace, policy: &str) -> Curve {
    let c = exact(t, policy).unwrap();
    assert_eq!(c.sizes.len(), t.num_pages());
    assert!(c.faults.windows(2).all(|w| w[0] >= w[1]), "{policy}: faults never rise with memory");
    for f in sizes(t.num_pages() as u64) {
        assert_eq!(c.at(f), run(t, policy, f).meters.faults, "{policy} at {f} frames");
    }
    c
}

#[test]
fn curves_equal_runs_on_the_committed_traces() {
    for name in ["sqlite_60k.txt.zst", "captures/gzip6_150k.txt.zst", "corpus/social-feed.txt.zst"] {
        let t = read_trace(&data(name), &ReadOptions::default()).unwrap();
        let lru = check(&t, "lru");
        for chunks in [2, 3, 7] {
            assert_eq!(lru::in_chunks(&t, chunks), lru, "{name} in {chunks} chunks");
        }
        let opt = check(&t, "opt");
        assert_eq!(opt::markers(&t), opt::walk(&t), "{name}: the critical markers equal Mattson's walk");
        assert_eq!(lru.cold, opt.cold);
        assert!(opt.faults.iter().zip(&lru.faults).all(|(o, l)| o <= l), "{name}: OPT is the floor");
    }
}

#[test]
fn opt_equals_the_walk_on_generated_traces() {
    // Long enough for the slots to be renumbered (every footprint's worth of new slots at most).
    for (pages, accesses, seed) in [(4_000, 400_000, 5), (300, 200_000, 6), (20_000, 300_000, 7)] {
        let t = GenParams { footprint_pages: pages, accesses, seed, ..GenParams::default() }.generate().unwrap();
        assert_eq!(opt::markers(&t), opt::walk(&t), "{pages} pages, seed {seed}");
    }
}

#[test]
fn a_large_footprint_takes_the_markers_and_equals_runs() {
    let t =
        GenParams { footprint_pages: 60_000, accesses: 1_000_000, seed: 8, ..GenParams::default() }.generate().unwrap();
    assert!(t.num_pages() > opt::WALK_MAX_PAGES, "{} pages: too few for the markers", t.num_pages());
    let c = exact(&t, "opt").unwrap();
    assert_eq!(c, opt::markers(&t));
    assert_eq!(c, opt::walk(&t));
    for f in [1, 100, 3_000, 20_000, t.num_pages() as u64] {
        assert_eq!(c.at(f), run(&t, "opt", f).meters.faults, "opt at {f} frames");
    }
}

#[test]
fn unknown_policy_is_a_config_error() {
    let t = trace(&[(1, Op::Read)]);
    let e = exact(&t, "clock").unwrap_err().to_string();
    assert!(e.contains("clock") && e.contains("lru"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn curves_equal_runs_on_generated_traces(
        acc in prop::collection::vec((0u64..40, prop_oneof![Just(Op::Read), Just(Op::Write), Just(Op::Instr)]), 1..600)
    ) {
        let t = trace(&acc);
        for policy in ["lru", "opt"] {
            let c = exact(&t, policy).unwrap();
            for f in 1..=(t.num_pages() as u64 + 1) {
                prop_assert_eq!(c.at(f), run(&t, policy, f).meters.faults, "{} at {}", policy, f);
            }
        }
    }

    #[test]
    fn opt_equals_the_walk(
        acc in prop::collection::vec((0u64..50, Just(Op::Read)), 1..4000),
    ) {
        let t = trace(&acc);
        prop_assert_eq!(opt::markers(&t), opt::walk(&t));
    }

    #[test]
    fn chunks_merge_to_the_whole_curve(
        acc in prop::collection::vec((0u64..60, Just(Op::Read)), 1..800),
        chunks in 1usize..9,
    ) {
        let t = trace(&acc);
        prop_assert_eq!(lru::in_chunks(&t, chunks), lru::in_chunks(&t, 1));
    }
}
