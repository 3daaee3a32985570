//! Unit tests of SPO-CLOCK: Algorithm 1 step by step, the adaptation rules, and invariants.
use super::super::clock::Clock;
use super::super::testutil::{run, run_ops, sim};
use super::*;
use crate::trace::Op;
use proptest::prelude::*;

const R: Op = Op::Read;
const W: Op = Op::Write;

fn params() -> Params {
    Params::default()
}

/// Algorithm 1 read literally, with the per-slot donor (the step-by-step test follows it).
fn literal() -> Params {
    Params { donor: Donor::Value, shadow_lookup: ShadowLookup::Target, ..params() }
}

/// real + shadow = capacity for every region; shadows within their capacity; every resident
/// page linked in some real region and no other page linked in one.
fn check_invariants(s: &super::super::testutil::Sim<SpoClock>) {
    let p = &s.p;
    assert_eq!(p.size.iter().sum::<usize>(), s.frames, "sizes {:?}", p.size);
    for r in 0..4 {
        assert_eq!(p.size[r] + p.shadow_cap(r), s.frames);
        assert!(p.shadow[r].len <= p.shadow_cap(r), "shadow {r} over capacity");
    }
    for (pg, &res) in s.resident.iter().enumerate() {
        let linked = p.in_real(0, pg as u32) || p.in_real(1, pg as u32);
        assert_eq!(linked, res, "page {pg}: resident {res}, linked {linked}");
    }
}

#[test]
fn algorithm_1_step_by_step() {
    // 4 frames → RF WF RA WA sizes 1 each; shadows 3 each; write threshold 1, read 2.
    let mut s = sim::<SpoClock>(8, 4, literal());
    let st = |s: &super::super::testutil::Sim<SpoClock>| (s.p.sizes(), s.p.lens(), s.p.shadow_lens(), s.p.hit_counts());
    assert_eq!(s.p.sizes(), [1, 1, 1, 1]);
    // Fill memory: 0 read/file → RF; 1 write/anon → WA; 2 read/anon → RA; 3 read/file → RF (no
    // reclaim: frames are free, RF goes over its target of 1).
    for (pg, op, anon) in [(0, R, false), (1, W, true), (2, R, true), (3, R, false)] {
        s.step(Access { page: pg, op, index: 0, anon });
    }
    assert_eq!(st(&s), ([1, 1, 1, 1], [2, 0, 1, 1], [0; 4], [0; 4]));
    assert_eq!(s.p.region_pages(RF), vec![3, 0]);
    // 4 read/file: memory full, RF over its size → RECLAIM(RF): hand at 0 (bit clear) → 0 goes to
    // RF-S and is freed.
    s.step(Access { page: 4, op: R, index: 0, anon: false });
    assert_eq!(s.evicted, vec![0]);
    assert_eq!(s.p.shadow_pages(RF), vec![0]);
    // 2 is written while resident (RA page, write bit set). 5 read/anon: RA at its size →
    // RECLAIM(RA): 2's read bit is clear, but its write bit is set and it is not in WA, so it
    // moves into WA (bit cleared) and stays resident; RA is empty now but memory is still full
    // → the region furthest over its size is RF (2 for 1) → 3 goes.
    s.step(Access { page: 2, op: W, index: 0, anon: true });
    s.step(Access { page: 5, op: R, index: 0, anon: true });
    assert_eq!(s.evicted, vec![0, 3]);
    assert_eq!(s.p.shadow_pages(RA), vec![2]);
    assert_eq!(s.p.region_pages(WA), vec![2, 1]);
    assert_eq!(s.p.shadow_pages(RF), vec![3, 0]);
    // 0 read/file again: RF (page 4) is at its size → 4 goes. 0 is in RF-S: hit 1 of the read
    // threshold 2, no growth yet.
    s.step(Access { page: 0, op: R, index: 0, anon: false });
    assert_eq!(s.evicted, vec![0, 3, 4]);
    assert_eq!(s.p.hit_counts(), [1, 0, 0, 0]);
    assert_eq!(s.p.shadow_pages(RF), vec![4, 3]);
    // 3 read/file: RF at its size → 0 goes. 3 is in RF-S: hit 2 = threshold → RF grows to 2 (its
    // shadow to 2). Donor by value: only RF has ghost hits; of the others (all worth 0) the
    // cheapest — with unit device costs a read region's miss costs 1, a write region's 2 (the
    // write-back and the re-read) → RA.
    s.step(Access { page: 3, op: R, index: 0, anon: false });
    assert_eq!(s.evicted, vec![0, 3, 4, 0]);
    assert_eq!(st(&s), ([2, 1, 0, 1], [1, 0, 1, 2], [2, 0, 1, 0], [0; 4]));
    assert_eq!(s.p.shadow_pages(RF), vec![0, 4]);
    // 6 write/anon: WA (2 pages, size 1) → its hand: 1 (bits clear) goes to WA-S.
    s.step(Access { page: 6, op: W, index: 0, anon: true });
    assert_eq!(s.evicted, vec![0, 3, 4, 0, 1]);
    assert_eq!(s.p.shadow_pages(WA), vec![1]);
    // 1 written again: WA's hand → 2 goes (its write bit was cleared when it moved in, it has
    // not been read since, and it is in no read region). 1 is in WA-S: the write threshold is
    // 1 → WA grows. Donor by value: RF's decayed ghost hits make it worth more than WF (none);
    // RA has no page to give → WF.
    s.step(Access { page: 1, op: W, index: 0, anon: true });
    assert_eq!(s.evicted, vec![0, 3, 4, 0, 1, 2]);
    assert_eq!(st(&s), ([2, 0, 0, 2], [1, 0, 1, 2], [2, 0, 1, 1], [0; 4]));
    check_invariants(&s);
}

#[test]
fn a_page_in_both_regions_is_freed_only_when_unlinked_from_both() {
    // 2 frames: RF/WF/RA/WA sizes 1,1,0,0 (remainder to the first). Page 0 read/anon → RA,
    // then written (write bit); page 1 read/anon → RA.
    let mut s = sim::<SpoClock>(8, 2, literal());
    for (page, op) in [(0, R), (0, W), (1, R)] {
        s.step(Access { page, op, index: 0, anon: true });
    }
    // 2 read/anon: memory full, RA (2 pages, size 0) over → hand at 0: read bit clear, write
    // bit set → linked into WA too; 0 leaves RA but stays resident. Still full and RA still over
    // its size → 1 goes.
    s.step(Access { page: 2, op: R, index: 0, anon: true });
    assert_eq!(s.evicted, vec![1]);
    assert!(s.resident[0]);
    assert!(s.p.in_real(1, 0) && !s.p.in_real(0, 0));
    check_invariants(&s);
    // 3 read/anon: RA is over (1 page, 2, size 0) → 2 goes; 0 stays (in WA).
    s.step(Access { page: 3, op: R, index: 0, anon: true });
    assert_eq!(s.evicted, vec![1, 2]);
    // 4 write/anon: WA (1 page, size 0) is over → 0, in no other region now, is freed.
    s.step(Access { page: 4, op: W, index: 0, anon: true });
    assert_eq!(s.evicted, vec![1, 2, 0]);
    check_invariants(&s);
}

#[test]
fn a_read_fault_back_from_the_write_shadow_counts_for_the_write_region() {
    // 4 frames, sizes 1 each. 1 written (WA), 2 read (RA), 3 and 0 read from files (RF).
    let fill = [(1, W, true), (2, R, true), (3, R, false), (0, R, false)];
    let sizes = |p: Params| {
        let mut s = sim::<SpoClock>(8, 4, p);
        for (page, op, anon) in fill {
            s.step(Access { page, op, index: 0, anon });
        }
        // 5 written: WA at its size → 1 goes to WA's shadow. 1 read back (read-modify-write):
        // the target is RA (2 goes), and 1 is in WA's shadow, not RA's.
        s.step(Access { page: 5, op: W, index: 0, anon: true });
        s.step(Access { page: 1, op: R, index: 0, anon: true });
        assert_eq!(s.evicted, vec![1, 2]);
        check_invariants(&s);
        s.p.sizes()
    };
    // Algorithm 1 literally: RA's shadow is looked up only, WA learns nothing.
    assert_eq!(sizes(literal()), [1, 1, 1, 1]);
    // Both shadows: WA's hit reaches the write threshold (1), and it was at the margin (the last
    // page WA evicted), so WA is worth 1 × 2 (write + read); the others are worth 0 and the donor
    // is the cheapest of them, then the first: RF.
    assert_eq!(sizes(params()), [0, 1, 1, 2]);
}

#[test]
fn the_margin_donor_gives_frames_only_to_a_region_worth_more() {
    // 4 frames, read threshold 1 (cost_ratio 1), file reads only. 0..4 fill RF; 4 and 5 evict 0
    // and 1 (RF's shadow: 1, 0).
    let run = |p: Params| {
        let mut s = sim::<SpoClock>(8, 4, p);
        let mut after = vec![];
        for page in [0, 1, 2, 3, 4, 5, 0, 2] {
            s.step(Access { page, op: R, index: 0, anon: false });
            after.push(s.p.sizes());
        }
        assert_eq!(s.evicted, vec![0, 1, 2, 3]);
        check_invariants(&s);
        after
    };
    let p = Params { cost_ratio: 1.0, ..params() };
    let margin = run(p.clone());
    // 0 faults back after 1 left: a hit one eviction deep, beyond the margin (1 eviction with 4
    // frames). RF is worth no more than the others (0), so nothing moves.
    assert_eq!(margin[6], [1, 1, 1, 1]);
    // 2 faults back right after it left (2 went for 0): at the margin, RF is worth 1; the donor is
    // the cheapest of the regions worth 0, RA.
    assert_eq!(margin[7], [2, 1, 0, 1]);
    // By all shadow hits, the deep hit already grows RF.
    let hits = run(Params { donor: Donor::Hits, ..p });
    assert_eq!(hits[6], [2, 1, 0, 1]);
}

#[test]
fn the_per_frame_donor_is_the_region_worth_least_per_frame_the_grower_included() {
    let t = super::super::testutil::trace_of(&[0]);
    let setup = PolicySetup::new(8, t.space(), IoCosts::default());
    let mut p = SpoClock::new(&setup, Params { donor: Donor::Density, ..params() }).unwrap();
    // Unit costs: RF 1, WF 2 (read + write), RA 1, WA 2. WF has no frames, so it cannot give.
    p.size = [4, 0, 2, 2];
    p.recent = [4.0, 0.0, 3.0, 0.25];
    // Hits per frame × cost: RF 1, RA 1.5, WA 0.25.
    assert_eq!(p.pick_donor(RF), Some(WA));
    assert_eq!(p.pick_donor(RA), Some(WA));
    // The grower is worth least itself: nothing moves.
    assert_eq!(p.pick_donor(WA), None);
    // Counting all hits (RF 4, RA 3, WA 2 × 2 = 4), RA gives to RF; per frame (RF 1, RA 1.5, WA
    // 2) RF is worth least itself and takes nothing, and WA takes from RF.
    p.donor = Donor::Hits;
    p.recent = [4.0, 0.0, 3.0, 2.0];
    assert_eq!(p.pick_donor(RF), Some(RA));
    p.donor = Donor::Density;
    assert_eq!(p.pick_donor(RF), None);
    assert_eq!(p.pick_donor(WA), Some(RF));
    // A region that shrinks is worth more per frame, so it stops giving. RA 4 hits on 4 frames
    // (1 per frame) gives to WA (5 hits on 4 frames × 2 = 2.5); on 1 frame (4 per frame) it does
    // not (WA on 7: 1.43).
    p.recent = [0.0, 0.0, 4.0, 5.0];
    p.size = [0, 0, 4, 4];
    assert_eq!(p.pick_donor(WA), Some(RA));
    let before = [p.worth(RA), {
        p.donor = Donor::Value;
        p.worth(RA)
    }];
    p.donor = Donor::Density;
    p.size = [0, 0, 1, 7];
    assert_eq!(p.pick_donor(WA), None);
    // Per shadow slot the shrunk region is worth less than before (4 / 7 slots against 4 / 4), so
    // that rule takes from it again; per frame it is worth more (4 against 1).
    let after = [p.worth(RA), {
        p.donor = Donor::Value;
        p.worth(RA)
    }];
    assert_eq!((before[0], after[0]), (1.0, 4.0));
    assert!(after[1] < before[1], "{before:?} {after:?}");
}

#[test]
fn bad_params_are_errors() {
    let t = super::super::testutil::trace_of(&[0]);
    let setup = PolicySetup::new(4, t.space(), IoCosts::default());
    let e = SpoClock::new(&setup, Params { write_threshold: 0, ..params() }).err().unwrap();
    assert!(e.to_string().contains("write_threshold"), "{e}");
    let e = SpoClock::new(&setup, Params { cost_ratio: -1.0, ..params() }).err().unwrap();
    assert!(e.to_string().contains("cost_ratio"), "{e}");
    for margin in [0.0, -0.5, 1.5, f64::NAN] {
        let e = SpoClock::new(&setup, Params { margin, ..params() }).err().unwrap();
        assert!(e.to_string().contains("margin"), "{margin}: {e}");
    }
}

fn accesses() -> impl Strategy<Value = Vec<(u32, Op, bool)>> {
    prop::collection::vec(
        (0u32..40, 0u8..3).prop_map(|(p, o)| {
            // Pages 0..20 are anon (written sometimes), 20..40 file (read only).
            let anon = p < 20;
            let op = if anon && o == 2 {
                W
            } else if o == 0 {
                Op::Instr
            } else {
                R
            };
            (p, op, anon)
        }),
        1..400,
    )
}

proptest! {
    #[test]
    fn split_none_is_clock(acc in accesses(), frames in 1usize..24) {
        let spo = run_ops::<SpoClock>(&acc, frames, Params { split: Split::None, ..params() });
        let clock = run_ops::<Clock>(&acc, frames, Default::default());
        prop_assert_eq!(spo.evicted, clock.evicted);
    }

    #[test]
    fn one_used_region_is_clock(pages in prop::collection::vec(0u32..40, 1..400), frames in 1usize..24) {
        // Only read/file faults: one region of the four is ever used.
        let spo = run::<SpoClock>(&pages, frames, params());
        let clock = run::<Clock>(&pages, frames, Default::default());
        prop_assert_eq!(spo.evicted, clock.evicted);
    }

    #[test]
    fn invariants_hold(
        acc in accesses(), frames in 1usize..24, donor in 0usize..7, wt in 1u32..4, both in any::<bool>(),
        margin in 0.01f64..1.0,
    ) {
        let donor =
            [Donor::Margin, Donor::Hits, Donor::Value, Donor::Density, Donor::Largest, Donor::Cheapest, Donor::RoundRobin]
                [donor];
        let shadow_lookup = if both { ShadowLookup::Both } else { ShadowLookup::Target };
        let p = Params { donor, write_threshold: wt, shadow_lookup, margin, ..params() };
        let mut s = sim::<SpoClock>(40, frames, p);
        for &(page, op, anon) in &acc {
            s.step(Access { page, op, index: 0, anon });
            check_invariants(&s);
        }
    }
}

#[test]
fn without_a_swap_cache_a_read_anon_miss_costs_the_write_too() {
    let c = IoCosts {
        swap_read_ns: 2.0,
        swap_write_ns: 7.0,
        file_read_ns: 3.0,
        file_write_ns: 5.0,
        clean_anon_evict_ns: 0.0,
    };
    assert_eq!(region_costs(&c), [3.0, 8.0, 2.0, 9.0]);
    assert_eq!(region_costs(&IoCosts { clean_anon_evict_ns: 7.0, ..c }), [3.0, 8.0, 9.0, 9.0]);
}
