//! Unit tests of linux-2q: each rule of the kernel it keeps, step by step, and invariants.
use super::super::testutil::sim;
use super::*;
use proptest::prelude::*;

const R: Op = Op::Read;

fn acc(page: u32, op: Op, anon: bool) -> Access {
    Access { page, op, index: 0, anon }
}

#[test]
fn promotion_on_second_reference() {
    // 3 frames, file pages 0 1 2, each young from the fault that mapped it (folio_check_references:
    // "all mapped folios start out with page table references from the instantiating fault").
    let mut s = sim::<Linux2q>(10, 3, Params::default());
    for p in 0..3 {
        s.step(acc(p, R, false));
    }
    // 0's second touch sets the access bit its fault set: one bit between two scans.
    s.step(acc(0, R, false));
    // 3: the scan finds 0, 1, 2 young → each kept once with PG_referenced; then 0, not young
    // again, goes.
    s.step(acc(3, R, false));
    assert_eq!(s.evicted, vec![0]);
    assert_eq!(s.p.lens(), [0, 0, 3, 0]);
    // 1 touched after its first scan. 4: 1 is young with PG_referenced → activated (keeping
    // PG_referenced); 2, not young, goes.
    s.step(acc(1, R, false));
    s.step(acc(4, R, false));
    assert_eq!(s.evicted, vec![0, 2]);
    assert_eq!(s.p.lens(), [0, 0, 2, 1]);
}

#[test]
fn a_deactivated_page_touched_again_is_recovered_at_once() {
    // shrink_active_list clears the access bit but not PG_referenced (set at activation), so a
    // deactivated page touched again is activated at its next scan ("recently deactivated but
    // used folios are quickly recovered"), not kept for one more trip.
    let mut s = sim::<Linux2q>(10, 2, Params::default());
    for p in [0, 1, 0] {
        s.step(acc(p, R, true));
    }
    s.step(acc(2, R, true)); // 0, 1 kept once (young from their faults); 0 goes
    s.step(acc(1, R, true));
    s.step(acc(3, R, true)); // 1: young and PG_referenced → active; 2 goes
    assert_eq!(s.evicted, vec![0, 2]);
    assert_eq!(s.p.lens(), [1, 1, 0, 0]);
    assert_eq!(s.p.flags[1] & REFERENCED, REFERENCED, "activation marks the page");
    // 3 is freed: the inactive list is empty, so the refill deactivates 1 (its access bit only).
    s.p.on_remove(3);
    s.p.balance(false);
    assert_eq!(s.p.lens(), [1, 0, 0, 0]);
    assert_eq!(s.p.flags[1] & (YOUNG | REFERENCED), REFERENCED);
    // 1 is touched; 5 faults in ahead of it. The scan activates 1 and takes 5 (young from its
    // fault: kept once, then not young).
    s.p.on_hit(&acc(1, R, true));
    s.p.on_miss(&acc(5, R, true));
    s.p.on_insert(&acc(5, R, true));
    assert_eq!(s.p.scan(false, &ReclaimCtx::ANY), Some(5));
    assert_eq!(s.p.on[1], ACTIVE_ANON as u8);
}

#[test]
fn a_reclaim_after_refaults_deactivates_in_proportion() {
    // prepare_scan_control: refaults activated since the last reclaim let this one deactivate
    // active pages although the inactive list is not low. Active 0 1, inactive 2..7 (none
    // young); the first reclaim takes 2 and deactivates nothing.
    let run = |refault_deactivation: bool| {
        let mut s = sim::<Linux2q>(10, 8, Params { refault_deactivation, ..Params::default() });
        for p in 0..8 {
            s.p.put(if p < 2 { ACTIVE_ANON } else { INACTIVE_ANON }, p);
        }
        assert_eq!(s.p.select_victim(&ReclaimCtx::ANY), Some(2));
        assert_eq!(s.p.lens(), [5, 2, 0, 0]);
        // 2 faults back at once: within the workingset, activated (active 3, inactive 5).
        s.p.on_miss(&acc(2, R, true));
        s.p.on_insert(&acc(2, R, true));
        assert_eq!(s.p.lens(), [5, 3, 0, 0]);
        // The next reclaim takes two pages: per inactive page scanned, 3/5 then 3/4 of an
        // active page is owed, so one is deactivated before the second victim.
        let victims = [s.p.select_victim(&ReclaimCtx::ANY), s.p.select_victim(&ReclaimCtx::ANY)];
        let after_refault = s.p.lens();
        // A new page, no refault: the reclaim it makes sees no refault since the last one and
        // deactivates nothing (the snapshot), though more is owed by the ratio.
        s.p.on_miss(&acc(8, R, true));
        s.p.on_insert(&acc(8, R, true));
        let before = s.p.lens();
        s.p.select_victim(&ReclaimCtx::ANY);
        s.p.select_victim(&ReclaimCtx::ANY);
        (victims, after_refault, before[1] - s.p.lens()[1])
    };
    assert_eq!(run(true), ([Some(3), Some(4)], [4, 2, 0, 0], 0));
    assert_eq!(run(false), ([Some(3), Some(4)], [3, 3, 0, 0], 0));
}

#[test]
fn a_touch_through_a_cached_translation_sets_no_accessed_bit() {
    // 2 frames. 0 1 faulted (young); 2 makes the scan keep both once, clearing their bits,
    // and take 0. 1 is touched again; 3 makes room: with the bit set again, 1 (PG_referenced)
    // is activated and 2 goes; through a TLB that still caches 1's translation (x86 clears
    // the bit without a flush), 1 looks untouched and goes. A one-entry TLB lost 1's
    // translation to 2's: the touch walks and sets the bit.
    let run = |tlb_entries: u32| {
        let mut s = sim::<Linux2q>(10, 2, Params { tlb_entries, ..Params::default() });
        for p in [0, 1, 2, 1, 3] {
            s.step(acc(p, R, true));
        }
        s.evicted
    };
    assert_eq!(run(0), vec![0, 2]);
    assert_eq!(run(4), vec![0, 1]);
    assert_eq!(run(1), vec![0, 2]);
}

#[test]
fn a_page_no_fault_mapped_is_not_young() {
    // 0 mapped by a fault, 1 read around it: the scan keeps 0 once (young) and takes 1. Both
    // mapped by faults: both kept once, then 0 goes.
    let space = crate::trace::PageSpace { pages: 4, kinds: None, future: None };
    let setup = PolicySetup::new(2, space, Default::default());
    let a = |page| Access { page, op: R, index: 0, anon: true };
    let mut p = Linux2q::new(&setup, Params::default()).unwrap();
    p.on_miss(&a(0));
    p.on_insert(&a(0));
    p.on_miss(&a(1));
    p.on_insert_unmapped(&a(1));
    assert_eq!(p.lens(), [2, 0, 0, 0]);
    assert_eq!(p.select_victim(&ReclaimCtx::ANY), Some(1));
    let mut p = Linux2q::new(&setup, Params::default()).unwrap();
    for page in [0, 1] {
        p.on_miss(&a(page));
        p.on_insert(&a(page));
    }
    assert_eq!(p.select_victim(&ReclaimCtx::ANY), Some(0));
}

#[test]
fn scan_weights_are_the_kernels_exact_floor() {
    // Against get_scan_count computed with exact division, for list lengths and fractions
    // where fixed point alone would round a whole quotient down (ap / den = 0.3, len 10).
    let space = crate::trace::PageSpace { pages: 5000, kinds: None, future: None };
    let setup = PolicySetup::new(4000, space, Default::default());
    let mut p = Linux2q::new(&setup, Params::default()).unwrap();
    for (i, lens) in [[10usize, 0, 20, 30], [4096, 0, 140, 0], [28, 0, 4000, 4000], [1, 2, 3, 4], [0, 0, 7, 0]]
        .into_iter()
        .enumerate()
    {
        for (l, &n) in lens.iter().enumerate() {
            p.lists[l].len = n;
        }
        for (ap, fp) in [(60u128, 140u128), (3, 7), (1, 1_000_000), (123_456_789, 987)] {
            let den = ap + fp;
            let mut want = [0u128; 2];
            let mut done = false;
            for prio in (1..=DEF_PRIORITY).rev() {
                for (t, f) in [(0, ap), (1, fp)] {
                    for &len in &lens[2 * t..2 * t + 2] {
                        want[t] += (len >> prio) as u128 * f / den;
                    }
                }
                if want[0] + want[1] >= SWAP_CLUSTER_MAX {
                    done = true;
                    break;
                }
            }
            if !done {
                want[0] += (lens[0] + lens[1]) as u128;
                want[1] += (lens[2] + lens[3]) as u128;
            }
            assert_eq!(p.scan_weights(ap, fp), want, "case {i}, lens {lens:?}, ap {ap}, fp {fp}");
        }
    }
    // 140 text pages beside 24,000 anon pages at swappiness 60: never scanned.
    for (l, n) in [24_000, 0, 140, 0].into_iter().enumerate() {
        p.lists[l].len = n;
    }
    assert_eq!(p.scan_weights(60, 140)[1], 0);
}

#[test]
fn refault_within_the_workingset_is_activated() {
    // 2 frames. 0 1 fill the inactive file list; 2 evicts 0 at age 0 (age → 1); 0 faults back:
    // distance 1 > workingset = active lists (0) + inactive anon (0) → the inactive list.
    let mut s = sim::<Linux2q>(10, 2, Params::default());
    for p in [0, 1, 2, 0] {
        s.step(acc(p, R, false));
    }
    assert_eq!(s.p.lens(), [0, 0, 2, 0]);
    // With anon pages active, the same refault distance fits the workingset.
    let mut s = sim::<Linux2q>(10, 3, Params::default());
    s.step(acc(5, Op::Write, true));
    s.step(acc(5, Op::Write, true));
    for p in [0, 1] {
        s.step(acc(p, R, false));
    }
    // 2: anon 1 page, file 2, no costs yet → weights anon 1×60, file 2×140 → file; its inactive
    // tail 0 goes (age 0 → 1). 0 faults back: distance 1 ≤ workingset = active lists (0) +
    // inactive anon (1) → it enters the active file list.
    s.step(acc(2, R, false));
    assert_eq!(s.evicted, vec![0]);
    s.step(acc(0, R, false));
    assert_eq!(s.p.lens()[ACTIVE_FILE], 1, "lists {:?}", s.p.lens());
}

#[test]
fn swappiness_out_of_range() {
    let t = super::super::testutil::trace_of(&[0]);
    let setup = PolicySetup::new(4, t.space(), Default::default());
    let e = Linux2q::new(&setup, Params { swappiness: 201, ..Default::default() }).err().unwrap();
    assert!(e.to_string().contains("swappiness"), "{e}");
}

proptest! {
    #[test]
    fn swappiness_0_never_evicts_anon_while_file_pages_remain(
        acc_ in prop::collection::vec((0u32..40, 0u8..3), 1..500), frames in 1usize..20,
    ) {
        let mut s = sim::<Linux2q>(40, frames, Params { swappiness: 0, ..Default::default() });
        for (p, o) in acc_ {
            let anon = p < 20;
            let op = if anon { Op::Write } else if o == 0 { Op::Instr } else { R };
            let before = s.evicted.len();
            let file_resident = (20..40).any(|q| s.resident[q as usize]);
            s.step(acc(p, op, anon));
            if s.evicted.len() > before && file_resident {
                let v = *s.evicted.last().unwrap();
                prop_assert!(v >= 20, "anon page {} evicted while file pages were resident", v);
            }
        }
    }

    #[test]
    fn lists_hold_exactly_the_resident_pages(
        acc_ in prop::collection::vec((0u32..40, 0u8..3), 1..500), frames in 1usize..20, sw in 0u32..=200,
    ) {
        let mut s = sim::<Linux2q>(40, frames, Params { swappiness: sw, ..Default::default() });
        for (p, o) in acc_ {
            let anon = p < 20;
            let op = if anon && o == 2 { Op::Write } else if o == 0 { Op::Instr } else { R };
            s.step(acc(p, op, anon));
            prop_assert_eq!(s.p.lens().iter().sum::<usize>(), s.n);
            for q in 0..40u32 {
                prop_assert_eq!(s.p.on[q as usize] != NONE, s.resident[q as usize]);
            }
        }
    }
}
