//! Invariants on random traces, for every registered policy, and differential tests against naive
//! reference implementations (a Vec LRU, a Vec FIFO, a brute-force OPT).

mod common;

use mobmem_core::policy::NAMES;
use mobmem_core::trace::{gen::GenParams, Op};
use proptest::prelude::*;

fn ops() -> impl Strategy<Value = Vec<(u64, Op)>> {
    prop::collection::vec((0u64..40, prop_oneof![Just(Op::Instr), Just(Op::Read), Just(Op::Write)]), 1..400)
}

fn naive_lru(pages: &[u64], frames: usize) -> u64 {
    let mut mem: Vec<u64> = Vec::new(); // MRU at the end
    let mut faults = 0;
    for &p in pages {
        if let Some(i) = mem.iter().position(|&x| x == p) {
            mem.remove(i);
        } else {
            faults += 1;
            if mem.len() == frames {
                mem.remove(0);
            }
        }
        mem.push(p);
    }
    faults
}

fn naive_fifo(pages: &[u64], frames: usize) -> u64 {
    let mut mem: Vec<u64> = Vec::new();
    let mut faults = 0;
    for &p in pages {
        if !mem.contains(&p) {
            faults += 1;
            if mem.len() == frames {
                mem.remove(0);
            }
            mem.push(p);
        }
    }
    faults
}

fn naive_opt(pages: &[u64], frames: usize) -> u64 {
    let mut mem: Vec<u64> = Vec::new();
    let mut faults = 0;
    for (i, &p) in pages.iter().enumerate() {
        if mem.contains(&p) {
            continue;
        }
        faults += 1;
        if mem.len() == frames {
            let next = |x: u64| pages[i + 1..].iter().position(|&y| y == x).unwrap_or(usize::MAX);
            let (k, _) = mem.iter().enumerate().max_by_key(|&(_, &x)| next(x)).unwrap();
            mem.remove(k);
        }
        mem.push(p);
    }
    faults
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn conservation_for_every_policy(acc in ops(), frames in 1u64..30) {
        let t = common::trace(&acc);
        for &p in NAMES {
            let r = common::run(&t, p, frames);
            let m = &r.meters;
            prop_assert_eq!(m.hits + m.faults, m.accesses, "{}", p);
            prop_assert_eq!(m.faults, m.cold_anon + m.cold_file + m.swap_faults + m.file_rereads + m.dr_promotions, "{}", p);
            prop_assert_eq!(m.swap_ins, m.swap_faults - m.dr_maps + m.dr_promotions, "{}", p);
            prop_assert!(m.faults >= t.num_pages() as u64, "{}: fewer faults than distinct pages", p);
            let resident = common::resident_at_end(&r);
            prop_assert!(resident <= frames, "{}: {} resident > {} frames", p, resident, frames);
            // All policies but 2Q keep memory full once it filled (2Q caps Am).
            if p != "2q" {
                prop_assert_eq!(resident, frames.min(t.num_pages() as u64), "{}", p);
            }
        }
    }

    #[test]
    fn opt_is_the_floor(acc in ops(), frames in 1u64..30) {
        let t = common::trace(&acc);
        let opt = common::run(&t, "opt", frames).meters.faults;
        for &p in NAMES {
            prop_assert!(opt <= common::run(&t, p, frames).meters.faults, "{} beat OPT", p);
        }
    }

    #[test]
    fn lru_and_opt_faults_never_rise_with_memory(acc in ops(), frames in 1u64..30) {
        let t = common::trace(&acc);
        for p in ["lru", "opt"] {
            let small = common::run(&t, p, frames).meters.faults;
            let big = common::run(&t, p, frames + 1).meters.faults;
            prop_assert!(big <= small, "{}: {} frames {} faults, {} frames {}", p, frames, small, frames + 1, big);
        }
    }

    #[test]
    fn matches_naive_references(acc in ops(), frames in 1usize..30) {
        let t = common::trace(&acc);
        let pages: Vec<u64> = acc.iter().map(|a| a.0).collect();
        prop_assert_eq!(common::run(&t, "lru", frames as u64).meters.faults, naive_lru(&pages, frames));
        prop_assert_eq!(common::run(&t, "fifo", frames as u64).meters.faults, naive_fifo(&pages, frames));
        prop_assert_eq!(common::run(&t, "opt", frames as u64).meters.faults, naive_opt(&pages, frames));
    }

    #[test]
    fn direct_read_keeps_the_books_and_never_adds_copies(acc in ops(), frames in 1u64..30) {
        let t = common::trace(&acc);
        for &p in NAMES {
            let off = common::run(&t, p, frames);
            prop_assert_eq!((off.meters.dr_maps, off.meters.dr_promotions, off.meters.dr_hits), (0, 0, 0));
            prop_assert_eq!(off.meters.swap_ins, off.meters.swap_faults);
            let on = common::run_cfg(&t, p, frames, |c| c.direct_read = true);
            let m = &on.meters;
            prop_assert_eq!(m.hits + m.faults, m.accesses, "{}", p);
            prop_assert_eq!(m.faults, m.cold_anon + m.cold_file + m.swap_faults + m.file_rereads + m.dr_promotions);
            prop_assert_eq!(m.swap_ins, m.swap_faults - m.dr_maps + m.dr_promotions);
            prop_assert!(m.dr_hits <= m.hits && m.dr_promotions <= m.dr_maps);
            prop_assert!(common::resident_at_end(&on) <= frames);
            if p == "lru" || p == "opt" {
                prop_assert!(m.swap_ins <= off.meters.swap_ins, "{}: DR made {} copies, without {}", p, m.swap_ins, off.meters.swap_ins);
            }
        }
    }

    #[test]
    fn direct_read_changes_nothing_without_reads_of_swapped_pages(pages in prop::collection::vec(0u64..40, 1..300), frames in 1u64..30) {
        // Only writes: no read fault ever hits a swapped page, so DR on = DR off.
        let t = common::trace(&pages.iter().map(|&p| (p, Op::Write)).collect::<Vec<_>>());
        for &p in NAMES {
            let off = common::run(&t, p, frames);
            let on = common::run_cfg(&t, p, frames, |c| c.direct_read = true);
            prop_assert_eq!(&on.meters, &off.meters, "{}", p);
        }
    }

    #[test]
    fn same_seed_same_result(seed in 0u64..1000) {
        let p = GenParams { accesses: 5_000, footprint_pages: 300, seed, ..Default::default() };
        let a = p.generate().unwrap();
        let b = p.generate().unwrap();
        for pol in ["clock", "arc", "2q"] {
            let ra = common::run(&a, pol, 50);
            let rb = common::run(&b, pol, 50);
            prop_assert_eq!(&ra.meters, &rb.meters);
        }
    }

    #[test]
    fn swap_slots_never_exceed_capacity(acc in ops(), frames in 1u64..20, cap in 1u64..10) {
        let t = common::trace(&acc);
        for &p in NAMES {
            let cfg = |c: &mut mobmem_core::SimConfig| c.swap_size = Some(mobmem_core::MemorySize::Pages(cap));
            let mut c = mobmem_core::SimConfig::new(mobmem_core::MemorySize::Pages(frames));
            c.policy = p.to_string();
            cfg(&mut c);
            match mobmem_core::simulate(&t, &t.stats(4096), &c, &mobmem_core::Catalog::builtin()) {
                Ok(r) => prop_assert!(r.meters.peak_swap_pages <= cap, "{}", p),
                // Running out of memory is legitimate with a tiny swap; anything else is not.
                Err(mobmem_core::Error::OutOfMemory { .. }) => {}
                Err(e) => prop_assert!(false, "{}: {}", p, e),
            }
        }
    }

    #[test]
    fn zram_keeps_the_books_and_only_takes_memory(acc in ops(), frames in 1u64..30, ratio in 1.0f64..4.0) {
        let t = common::trace(&acc);
        let mut c = mobmem_core::Catalog::builtin();
        let z = format!("[z]\nkind = \"zram\"\ncompression_ratio = {ratio}\nread_ns = 3\nwrite_ns = 10\n");
        c.add_toml(&z, "z.toml".as_ref()).unwrap();
        for &p in NAMES {
            let mut cfg = mobmem_core::SimConfig::new(mobmem_core::MemorySize::Pages(frames));
            cfg.policy = p.to_string();
            cfg.swap = "z".into();
            let r = match mobmem_core::simulate(&t, &t.stats(4096), &cfg, &c) {
                Ok(r) => r,
                // Compressed pages need frames too: a tiny memory can run out. Nothing else may fail.
                Err(mobmem_core::Error::OutOfMemory { .. }) => continue,
                Err(e) => return Err(TestCaseError::fail(format!("{p}: {e}"))),
            };
            let m = &r.meters;
            prop_assert_eq!(m.hits + m.faults, m.accesses, "{}", p);
            prop_assert_eq!(m.faults, m.cold_anon + m.cold_file + m.swap_faults + m.file_rereads, "{}", p);
            prop_assert_eq!(m.peak_zram_frames, (m.peak_swap_pages as f64 / ratio).ceil() as u64, "{}", p);
            prop_assert!(common::resident_at_end(&r) <= frames, "{}", p);
            prop_assert!(m.peak_zram_frames < frames, "{}: zram took {} of {} frames", p, m.peak_zram_frames, frames);
            // LRU keeps the most recent pages whatever memory it has left, so less memory never
            // means fewer faults than swap outside DRAM.
            if p == "lru" {
                prop_assert!(m.faults >= common::run(&t, p, frames).meters.faults);
            }
        }
    }
}
