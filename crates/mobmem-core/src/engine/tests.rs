//! The engine's API contract, over every registered policy: what `access` and `reclaim` return
//! adds up to the engine's own counters, and the view agrees with the page states.

use super::*;
use crate::policy::{self, IoCosts, PolicySetup, PolicyVisitor};
use crate::swap::backend::WritebackRounds;
use crate::swap::{Owners, Scope, SwapAdmission};
use crate::trace::gen::Rng;
use crate::trace::PageSpace;
use proptest::prelude::*;

/// Random accesses over `n` pages (some declared anon, some file, some undeclared), a few kswapd-
/// like reclaims and releases between them.
struct Drive {
    n: u32,
    frames: usize,
    swap_cap: u64,
    zram: Option<f64>,
    read_around: u32,
    /// zram writeback rounds every so many accesses (0: none).
    writeback_every: u64,
    semantics: SwapSemantics,
    seed: u64,
    steps: usize,
}

impl PolicyVisitor for &Drive {
    type Output = std::result::Result<(), String>;
    fn visit<P: Policy>(self, name: &'static str) -> Self::Output {
        let kinds: Vec<u8> = (0..self.n).map(|p| (p % 3) as u8).collect();
        let space = PageSpace { pages: self.n as usize, kinds: Some(&kinds), future: None };
        let setup = PolicySetup::new(self.frames, space, IoCosts::default());
        let policy = P::new(&setup, P::Params::default()).map_err(|e| e.to_string())?;
        let mut e = Engine::new(policy, space, self.frames, self.swap_cap, false)
            .with_zram(self.zram)
            .with_swap_semantics(self.semantics);
        if self.read_around > 0 {
            e = e.with_read_around(self.read_around);
        }
        if self.writeback_every > 0 {
            e = e.with_writeback(WritebackRounds::every(self.writeback_every, 7, true));
        }
        let mut rng = Rng::new(self.seed);
        let (mut swap_reads, mut file_reads, mut ev, mut faults) = (0u64, 0u64, Evictions::default(), 0u64);
        // The counters as of the last access that completed (one that runs out of memory counts
        // its fault, then fails).
        let mut m = e.meters();
        for i in 0..self.steps {
            let r = rng.f64();
            if r < 0.02 {
                let got = e.reclaim(1 + rng.below(4), i).map_err(|x| x.to_string())?;
                ev += got.evicted;
                m = e.meters();
                continue;
            }
            if r < 0.03 {
                let p = rng.below(self.n as u64) as u32;
                // Releasing declared kinds only: an undeclared page stays as the trace made it.
                if kinds[p as usize] != 0 {
                    e.release(p, if kinds[p as usize] == 1 { ANON } else { FILE_FIXED });
                }
                continue;
            }
            let page = (rng.below(self.n as u64 / 2) + rng.below(self.n as u64 / 2 + 1)) as u32 % self.n;
            let op = if rng.f64() < 0.3 { Op::Write } else { Op::Read };
            let hit = e.would_hit(page, op);
            let o = match e.access(page, op, i) {
                Ok(o) => o,
                Err(crate::error::Error::OutOfMemory { .. }) => break,
                Err(x) => return Err(format!("{name}: {x}")),
            };
            if hit != o.is_hit() {
                return Err(format!("{name}: would_hit said {hit}, access said {o:?}"));
            }
            faults += o.fault.is_some() as u64;
            swap_reads += o.swap_reads as u64 + o.backing_reads as u64;
            file_reads += o.file_reads as u64;
            ev += o.evicted;
            e.check().map_err(|x| format!("{name} at {i}: {x}"))?;
            m = e.meters();
        }
        let want = (m.faults, m.swap_ins + m.swap_readahead, m.cold_file + m.file_rereads);
        if (faults, swap_reads, file_reads) != want {
            return Err(format!("{name}: outcomes say {:?}, meters {want:?}", (faults, swap_reads, file_reads)));
        }
        let evm = (m.swap_outs, m.write_backs, m.swap_cache_drops, m.file_drops);
        let evo = (ev.swap_writes as u64, ev.file_writes as u64, ev.swap_cache_drops as u64, ev.file_drops as u64);
        if evo != evm {
            return Err(format!("{name}: evictions say {evo:?}, meters {evm:?}"));
        }
        let v = e.view();
        if v.free + v.resident + v.zram_frames != v.frames {
            return Err(format!("{name}: view does not add up: {v:?}"));
        }
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn outcomes_add_up_to_the_meters_for_every_policy(
        seed in any::<u64>(),
        frames in 4usize..64,
        zram in prop::sample::select(vec![None, Some(2.5)]),
        read_around in 0u32..3,
        swap_full in any::<bool>(),
        writeback_every in prop::sample::select(vec![0u64, 50, 400]),
        swap_cache in any::<bool>(),
        first_touch_from_swap in any::<bool>(),
    ) {
        let swap_cap = if swap_full { 40 } else { u64::MAX };
        let semantics = SwapSemantics { swap_cache, first_touch_from_swap };
        let d = Drive { n: 200, frames, swap_cap, zram, read_around, writeback_every, semantics, seed, steps: 3000 };
        for name in policy::NAMES {
            if *name == "opt" {
                continue; // offline: needs the accesses to come
            }
            policy::dispatch(name, &d).unwrap().map_err(TestCaseError::fail)?;
        }
    }
}

#[test]
fn a_reclaim_says_why_it_fell_short() {
    // Every page dirty anon, swap of 0 slots: nothing can go, and the reclaim says swap is full.
    let kinds = vec![1u8; 8];
    let space = PageSpace { pages: 8, kinds: Some(&kinds), future: None };
    let setup = PolicySetup::new(4, space, IoCosts::default());
    let mut e = Engine::new(crate::policy::lru::Lru::new(&setup, Default::default()).unwrap(), space, 4, 0, false);
    for p in 0..4 {
        let o = e.access(p, Op::Write, p as usize).unwrap();
        assert_eq!(o.fault, Some(Fault::ZeroFill));
    }
    let r = e.reclaim(2, 4).unwrap();
    assert_eq!((r.evicted.pages(), r.short), (0, Some(Shortfall::SwapFull)));
    // An empty engine has nothing to offer.
    let mut e = Engine::new(crate::policy::lru::Lru::new(&setup, Default::default()).unwrap(), space, 4, 10, false);
    assert_eq!(e.reclaim(1, 0).unwrap().short, Some(Shortfall::Nothing));
}

/// Vetoes the odd pages: a per-page admission for the contract test.
struct OddOut;
impl SwapAdmission for OddOut {
    fn scope(&self) -> Scope {
        Scope::PerPage
    }
    fn admits(&self, page: PageId, _: &Owners) -> bool {
        page % 2 == 0
    }
}

/// Anon pages written at random under a per-page admission: no vetoed page ever reaches swap, the
/// engine stays consistent, and a reclaim that finds only vetoed pages says so.
struct Vetoing {
    seed: u64,
    frames: usize,
}

impl PolicyVisitor for &Vetoing {
    type Output = std::result::Result<(), String>;
    fn visit<P: Policy>(self, name: &'static str) -> Self::Output {
        let n = 120u32;
        // Pages 0..80 anon, 80..120 file.
        let kinds: Vec<u8> = (0..n).map(|p| if p < 80 { 1 } else { 2 }).collect();
        let space = PageSpace { pages: n as usize, kinds: Some(&kinds), future: None };
        let setup = PolicySetup::new(self.frames, space, IoCosts::default());
        let policy = P::new(&setup, P::Params::default()).map_err(|e| e.to_string())?;
        let mut e = Engine::new(policy, space, self.frames, u64::MAX, false)
            .with_admission(Box::new(OddOut), Owners::default());
        let mut rng = Rng::new(self.seed);
        for i in 0..4000 {
            let page = rng.below(n as u64) as u32;
            let op = if page < 80 { Op::Write } else { Op::Read };
            match e.access(page, op, i) {
                Ok(_) => {}
                // All of memory vetoed anon pages: the fault cannot be served.
                Err(crate::error::Error::OutOfMemory { .. }) => break,
                Err(x) => return Err(format!("{name}: {x}")),
            }
            e.check().map_err(|x| format!("{name} at {i}: {x}"))?;
            if i % 500 == 499 {
                // The owners' state changed: parked pages go back to the policy.
                e.change_owners(i, |_| {});
            }
            if i % 700 == 699 {
                // A process dies: its pages leave, parked or not.
                for p in (i as u32 % 40)..(i as u32 % 40) + 6 {
                    e.release(p, ANON);
                }
            }
        }
        for p in (1..80).step_by(2) {
            if e.holds(p..p + 1).swapped > 0 {
                return Err(format!("{name}: vetoed page {p} was swapped out"));
            }
        }
        if e.meters().swap_vetoes == 0 {
            return Err(format!("{name}: the admission was never asked"));
        }
        Ok(())
    }
}

#[test]
fn a_per_page_admission_keeps_vetoed_pages_out_of_swap_for_every_policy() {
    for seed in 1..4 {
        for name in policy::NAMES {
            if *name == "opt" {
                continue;
            }
            policy::dispatch(name, &Vetoing { seed, frames: 30 }).unwrap().unwrap();
        }
    }
}

#[test]
fn vetoed_and_swap_full_are_distinct_shortfalls() {
    // Memory holds only dirty anon pages the admission vetoes (odd ones), and swap has room.
    let kinds = vec![1u8; 16];
    let space = PageSpace { pages: 16, kinds: Some(&kinds), future: None };
    let setup = PolicySetup::new(4, space, IoCosts::default());
    let lru = || crate::policy::lru::Lru::new(&setup, Default::default()).unwrap();
    let mut e = Engine::new(lru(), space, 4, 100, false).with_admission(Box::new(OddOut), Owners::default());
    for (i, p) in [1, 3, 5, 7].into_iter().enumerate() {
        e.access(p, Op::Write, i).unwrap();
    }
    let r = e.reclaim(1, 4).unwrap();
    assert_eq!((r.evicted.pages(), r.short), (0, Some(Shortfall::Vetoed)));
    assert!(e.meters().swap_vetoes >= 4);
    // The vetoed pages are parked: the next reclaim does not ask again, and says vetoed.
    let asked = e.meters().swap_vetoes;
    assert_eq!(e.reclaim(1, 4).unwrap().short, Some(Shortfall::Vetoed));
    assert_eq!(e.meters().swap_vetoes, asked);
    // Until the owners change: then they are offered, and vetoed, again.
    e.change_owners(4, |_| {});
    assert_eq!(e.reclaim(1, 4).unwrap().short, Some(Shortfall::Vetoed));
    assert!(e.meters().swap_vetoes >= asked + 4);
    // An admitted page among them goes; then only vetoed ones are left.
    e.release(7, ANON);
    e.access(2, Op::Write, 5).unwrap();
    let r = e.reclaim(2, 6).unwrap();
    assert_eq!((r.evicted.swap_writes, r.short), (1, Some(Shortfall::Vetoed)));
    // Swap off (admits none): the policy never sees an anon page, and the reclaim says vetoed.
    let off = crate::swap::admission::build("off", &toml::Table::new()).unwrap().0;
    let mut e = Engine::new(lru(), space, 4, 0, false).with_admission(off, Owners::default());
    for p in 0..4 {
        e.access(p, Op::Write, p as usize).unwrap();
    }
    assert_eq!(e.reclaim(1, 4).unwrap().short, Some(Shortfall::Vetoed));
    assert_eq!(e.meters().swap_outs, 0);
}

#[test]
fn zram_writeback_takes_idle_copies_out_of_dram_and_reads_them_back_from_flash() {
    // 16 anon pages, 4 frames, zram at 2 pages per frame; writeback driven by the caller.
    let kinds = vec![1u8; 16];
    let space = PageSpace { pages: 16, kinds: Some(&kinds), future: None };
    let setup = PolicySetup::new(8, space, IoCosts::default());
    let lru = crate::policy::lru::Lru::new(&setup, Default::default()).unwrap();
    let mut e = Engine::new(lru, space, 8, u64::MAX, false)
        .with_zram(Some(2.0))
        .with_writeback(WritebackRounds::every(100, 3, false));
    for p in 0..10u32 {
        e.access(p, Op::Write, p as usize).unwrap();
    }
    let v = e.view();
    assert!(v.swap_used > 0 && v.zram_frames > 0, "{v:?}");
    let swapped = v.swap_used;
    // The first round finds nothing idle yet (every copy is younger than the first mark).
    let mut rounds = Vec::new();
    e.writeback_until(100, |t, n| rounds.push((t, n)));
    assert!(rounds.is_empty());
    // Read one copy back from zram: it is not idle at the next round; the others are, 3 a round.
    let o = e.access(0, Op::Read, 10).unwrap();
    assert_eq!((o.fault, o.swap_reads, o.backing_reads), (Some(Fault::SwapIn), 1, 0));
    let before = e.view();
    e.writeback_until(200, |t, n| rounds.push((t, n)));
    assert_eq!(rounds, vec![(200, 3)]);
    assert!(e.view().zram_frames < before.zram_frames, "written-back copies leave the pool");
    assert_eq!(e.meters().written_back, 3);
    e.check().unwrap();
    // Later rounds take the rest, within the limit; then quiet rounds are skipped, not looped.
    e.writeback_until(1_000_000_000, |t, n| rounds.push((t, n)));
    let total: u64 = rounds.iter().map(|r| r.1).sum();
    assert!(total >= swapped - 2 && rounds.iter().all(|r| r.1 <= 3), "{rounds:?}");
    assert!(rounds.len() < 10, "{rounds:?}");
    // A fault on a written-back page reads it from the backing device.
    let back = (0..16).find(|&p| e.holds(p..p + 1).swapped == 1 && !e.would_hit(p, Op::Read)).unwrap();
    let o = e.access(back, Op::Read, 11).unwrap();
    assert_eq!((o.swap_reads, o.backing_reads), (0, 1));
    assert_eq!(e.meters().backing_reads, 1);
    e.check().unwrap();
}

#[test]
fn writeback_rounds_are_bounded_by_the_copies_not_by_the_time_asked() {
    // A limit of 0 pages and a round every tick over a huge span: the rounds stop being run once
    // they find nothing (this looped once per tick before).
    let kinds = vec![1u8; 64];
    let space = PageSpace { pages: 64, kinds: Some(&kinds), future: None };
    let setup = PolicySetup::new(8, space, IoCosts::default());
    for limit in [0, 1] {
        let lru = crate::policy::lru::Lru::new(&setup, Default::default()).unwrap();
        let mut e = Engine::new(lru, space, 8, u64::MAX, false).with_writeback(WritebackRounds::every(1, limit, false));
        for p in 0..64u32 {
            e.access(p, Op::Write, p as usize).unwrap();
        }
        let mut rounds = 0u64;
        let t = std::time::Instant::now();
        e.writeback_until(u64::MAX / 2, |_, _| rounds += 1);
        assert!(t.elapsed().as_secs_f64() < 1.0, "limit {limit}: {:?}", t.elapsed());
        // With a limit of one page a round, each swapped copy takes a round; no more.
        assert_eq!(rounds, if limit == 0 { 0 } else { e.view().swap_used }, "limit {limit}");
        assert_eq!(e.meters().written_back, rounds * limit);
        e.check().unwrap();
    }
}

#[test]
fn swap_outs_are_counted_against_the_owner_of_each_page_swapped() {
    // Pages 0..8 belong to process 0, 8..16 to process 1; memory of 4 frames, all pages written
    // once in order: each swap-out is of an older page, so the counts are exact. Owners that change
    // later do not take the swap-outs made before.
    let kinds = vec![1u8; 16];
    let space = PageSpace { pages: 16, kinds: Some(&kinds), future: None };
    let setup = PolicySetup::new(4, space, IoCosts::default());
    let lru = crate::policy::lru::Lru::new(&setup, Default::default()).unwrap();
    let owners = Owners {
        of_page: (0..16).map(|p| p / 8).collect(),
        procs: vec![crate::swap::OwnerState::new(0, true); 2],
        ..Owners::default()
    };
    let mut e = Engine::new(lru, space, 4, 100, false)
        .with_owner_swap_outs()
        .with_admission(Box::new(crate::swap::admission::all::All), owners);
    for p in 0..12u32 {
        e.access(p, Op::Write, p as usize).unwrap();
    }
    // 12 pages through 4 frames: pages 0..8 went out, process 0's, counted before the owners swap.
    e.change_owners(12, |o| o.of_page.iter_mut().for_each(|x| *x = 1 - *x));
    for p in 12..16u32 {
        e.access(p, Op::Write, p as usize).unwrap();
    }
    // Pages 8..12 went out, now process 0's: 8 + 4 against 0, none moved from before.
    assert_eq!(e.owner_swap_outs(), &[12, 0]);
    assert_eq!(e.meters().swap_outs, 12);
}

#[test]
fn writeback_as_android_schedules_it_marks_once_starts_late_and_fills_the_partition_only() {
    // Android's ZramWriteback: a one-time idle marking, a late first round, then periodic ones;
    // the backing partition bounds what it holds.
    let kinds = vec![1u8; 16];
    let space = PageSpace { pages: 16, kinds: Some(&kinds), future: None };
    let setup = PolicySetup::new(8, space, IoCosts::default());
    let engine = |w: WritebackRounds| {
        let lru = crate::policy::lru::Lru::new(&setup, Default::default()).unwrap();
        let mut e = Engine::new(lru, space, 8, u64::MAX, false).with_zram(Some(2.0)).with_writeback(w);
        for p in 0..12u32 {
            e.access(p, Op::Write, p as usize).unwrap();
        }
        e
    };
    // Marking at 50, first round at 300: nothing before 300; at 300 every copy not read since the
    // marking goes.
    let mut e =
        engine(WritebackRounds { every: 100, first: 300, mark_at: 50, limit: 100, cap: u64::MAX, by_access: false });
    let swapped: Vec<u32> = (0..16).filter(|&p| e.holds(p..p + 1).swapped == 1).collect();
    assert!(swapped.len() >= 6, "{swapped:?}");
    let mut seen = Vec::new();
    e.writeback_until(299, |t, n| seen.push((t, n)));
    assert!(seen.is_empty() && e.meters().written_back == 0, "{seen:?}");
    e.set_now(100);
    // Read after the marking: not idle at 300; nor is a copy its fault writes.
    e.access(swapped[0], Op::Read, 12).unwrap();
    e.writeback_until(300, |t, n| seen.push((t, n)));
    assert_eq!(seen, vec![(300, swapped.len() as u64 - 1)]);
    e.check().unwrap();
    // Rounds from the start, 4 a round, 6 on the partition in all: 4, 2, then nothing.
    let mut e =
        engine(WritebackRounds { every: 100, first: 100, mark_at: u64::MAX, limit: 4, cap: 6, by_access: false });
    let mut seen = Vec::new();
    e.writeback_until(10_000, |t, n| seen.push((t, n)));
    assert_eq!(seen, vec![(200, 4), (300, 2)]);
    assert_eq!(e.meters().written_back, 6);
    e.check().unwrap();
}

#[test]
fn zram_by_class_prices_each_copy_at_its_class_ratio() {
    // 16 anon pages, 12 frames; hot pages 0–3, warm 4–7, cold the rest; a hot copy takes a whole
    // frame, a warm one half, a cold one a quarter. Copies are freed at swap-in (zram).
    use crate::swap::{COLD, HOT, WARM};
    let kinds = vec![1u8; 16];
    let space = PageSpace { pages: 16, kinds: Some(&kinds), future: None };
    let setup = PolicySetup::new(12, space, IoCosts::default());
    let lru = crate::policy::lru::Lru::new(&setup, Default::default()).unwrap();
    let hotness: Vec<u8> = (0..16).map(|p| [HOT, WARM, COLD, COLD][p / 4]).collect();
    let owners = Owners { hotness: hotness.clone(), ..Owners::default() };
    let mut e = Engine::new(lru, space, 12, u64::MAX, false)
        .with_zram(Some(4.0))
        .with_swap_semantics(SwapSemantics { swap_cache: false, ..SwapSemantics::LINUX })
        .with_admission(Box::new(crate::swap::admission::all::All), owners);
    e.pages.keep_pool_classes([4.0, 2.0, 1.0]);
    assert!(e.keeps_hotness());
    for p in 0..16u32 {
        e.access(p, Op::Write, p as usize).unwrap();
    }
    let swapped: Vec<u32> = (0..16).filter(|&p| e.holds(p..p + 1).swapped == 1).collect();
    assert!(!swapped.is_empty());
    for &p in &swapped {
        assert_eq!(e.zram_class(p), Some(hotness[p as usize]), "page {p}");
    }
    let n = e.take_compressed();
    assert_eq!(n.iter().sum::<u64>(), e.meters().swap_outs);
    assert_eq!(e.take_compressed(), [0; 3], "taken once");
    let frames = |n: [u64; 3]| (n[0] as f64 / 4.0 + n[1] as f64 / 2.0 + n[2] as f64).ceil() as u64;
    assert_eq!(e.view().zram_frames, frames(n));
    e.check().unwrap();
    // Reading a hot copy back frees its whole frame's share; its class is gone with the copy.
    let hot = *swapped.iter().find(|&&p| hotness[p as usize] == HOT).unwrap();
    e.access(hot, Op::Read, 16).unwrap();
    assert_eq!(e.zram_class(hot), None);
    let mut left = n;
    left[HOT as usize] -= 1;
    left[COLD as usize] += e.take_compressed()[COLD as usize]; // what the swap-in pushed out
    assert_eq!(e.view().zram_frames, frames(left));
    e.check().unwrap();
    // A touch warms a cold page, and only a cold one.
    e.warm(8);
    e.warm(0);
    assert_eq!((e.owners().hotness[8], e.owners().hotness[0]), (WARM, HOT));
}
