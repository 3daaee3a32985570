//! The fault semantics of DESIGN.md, on hand-made sequences.

mod common;

use common::{run, run_cfg, trace};
use mobmem_core::trace::{Kind, Op::*};
use mobmem_core::{simulate, Catalog, Error, MemorySize, SimConfig};

#[test]
fn cold_faults_split_by_kind() {
    // First read of a never-written page: a file read. First write: zero-fill (anon).
    let r = run(&trace(&[(1, Read), (2, Write), (3, Instr)]), "lru", 10);
    let m = &r.meters;
    assert_eq!((m.cold_file, m.cold_anon, m.file_reads), (2, 1, 2));
    assert_eq!(m.io.swap_write_ns, 0.0);
}

#[test]
fn dirty_anon_swaps_out_then_in_then_clean_drop() {
    // 1 frame. W1 (anon, dirty). R2 evicts 1 → swap-out. R1 evicts 2 (clean file → dropped),
    // 1 comes back by swap-in, now clean with a valid swap copy. R2 evicts 1 → swap-cache drop,
    // no I/O. R1 → swap-in again.
    let r = run(&trace(&[(1, Write), (2, Read), (1, Read), (2, Read), (1, Read)]), "lru", 1);
    let m = &r.meters;
    assert_eq!(m.swap_outs, 1);
    assert_eq!(m.swap_ins, 2);
    assert_eq!(m.swap_cache_drops, 1);
    assert_eq!(m.file_drops, 2);
    assert_eq!(m.file_rereads, 1);
    assert_eq!(m.peak_swap_pages, 1);
    let optane = Catalog::builtin().get("optane-m10", "swap").unwrap().clone();
    assert!((m.io.swap_read_ns - 2.0 * optane.read_ns).abs() < 1e-6);
    assert!((m.io.swap_write_ns - optane.write_ns).abs() < 1e-6);
}

#[test]
fn writing_a_swapped_in_page_frees_its_slot_and_swaps_out_again() {
    // W1, R2 (1 out), W1 (1 in, written: copy stale), R2 (1 out again: a second swap-out).
    let r = run(&trace(&[(1, Write), (2, Read), (1, Write), (2, Read)]), "lru", 1);
    assert_eq!(r.meters.swap_outs, 2);
    assert_eq!(r.meters.swap_cache_drops, 0);
    assert_eq!(r.meters.peak_swap_pages, 1);
}

#[test]
fn without_the_swap_cache_a_swapped_in_page_is_written_again() {
    // The sequence of the test above with reads only after the first write: W1, R2 (1 out),
    // R1 (1 in), R2 (1 evicted again), R1 (1 in again).
    let t = trace(&[(1, Write), (2, Read), (1, Read), (2, Read), (1, Read)]);
    let with = run(&t, "lru", 1);
    let without = run_cfg(&t, "lru", 1, |c| c.swap_cache = mobmem_core::config::SwapCache::Drop);
    // Linux keeps the copy: the second eviction is free. Without the swap cache it is a write.
    assert_eq!((with.meters.swap_outs, with.meters.swap_cache_drops), (1, 1));
    assert_eq!((without.meters.swap_outs, without.meters.swap_cache_drops), (2, 0));
    assert_eq!((without.meters.faults, without.meters.swap_ins), (with.meters.faults, with.meters.swap_ins));
    assert_eq!(without.meters.peak_swap_pages, 1, "the slot is given up at the swap-in");
    assert!(!without.config.swap_cache);
}

#[test]
fn first_touches_of_anon_pages_may_read_the_image_from_swap() {
    // W1, W2 (first touches of two anon pages), R3 (a file page): 3 frames, nothing evicted.
    let t = trace(&[(1, Write), (2, Write), (3, Read)]);
    let zero = run(&t, "lru", 3);
    let swap = run_cfg(&t, "lru", 3, |c| c.anon_first_touch = mobmem_core::config::AnonFirstTouch::Swap);
    assert_eq!((zero.meters.cold_anon, zero.meters.swap_ins), (2, 0));
    assert_eq!((swap.meters.cold_anon, swap.meters.swap_ins), (2, 2));
    assert_eq!(swap.meters.faults, zero.meters.faults);
    let read = swap.config.swap.read_ns;
    assert!((swap.meters.io.swap_read_ns - 2.0 * read).abs() < 1e-6);
    // A file page's first touch is a file read either way.
    assert_eq!(swap.meters.cold_file, 1);
}

#[test]
fn the_paper_semantics_are_refused_with_tiers_and_named_when_wrong() {
    let t = trace(&[(1, Write)]);
    let mut cfg = SimConfig::new(MemorySize::Pages(4));
    cfg.swap_cache = mobmem_core::config::SwapCache::Drop;
    cfg.tiers = Some(Default::default());
    let e = simulate(&t, &t.stats(4096), &cfg, &Catalog::builtin()).unwrap_err().to_string();
    assert!(e.contains("swap_cache") && e.contains("tiers"), "{e}");
    let old: SimConfig = toml::from_str("memory = 4\nswap_cache = false").unwrap();
    assert_eq!(old.swap_cache, mobmem_core::config::SwapCache::Drop, "older run files' boolean");
    let e = toml::from_str::<SimConfig>("memory = 4\nswap_cache = \"sometimes\"").unwrap_err().to_string();
    assert!(e.contains("device, keep or drop") && e.contains("sometimes"), "{e}");
    let e = toml::from_str::<SimConfig>("anon_first_touch = \"disk\"").unwrap_err().to_string();
    assert!(e.contains("zero") && e.contains("swap"), "{e}");
}

#[test]
fn declared_file_pages_are_written_back_not_swapped() {
    let mut t = trace(&[(1, Write), (2, Read), (1, Read)]);
    t.page_kinds = Some(vec![Kind::File as u8, Kind::Unknown as u8]);
    let r = run(&t, "lru", 1);
    let m = &r.meters;
    assert_eq!((m.write_backs, m.swap_outs, m.cold_file, m.file_rereads), (1, 0, 2, 1));
    assert!(m.io.file_write_ns > 0.0);
}

#[test]
fn declared_anon_page_read_first_is_zero_filled() {
    let mut t = trace(&[(1, Read), (2, Read), (1, Read)]);
    t.page_kinds = Some(vec![Kind::Anon as u8, Kind::Unknown as u8]);
    let r = run(&t, "lru", 1);
    assert_eq!((r.meters.cold_anon, r.meters.swap_outs, r.meters.swap_ins), (1, 1, 1));
}

#[test]
fn swap_full_falls_back_to_file_pages() {
    // Swap holds 1 page. 1 frame... use 2 frames: W1 W2 fill; R3 evicts 1 (swap-out, swap now
    // full); R4 must not evict dirty 2: it evicts 3 (file) instead.
    let t = trace(&[(1, Write), (2, Write), (3, Read), (4, Read), (2, Read)]);
    let r = run_cfg(&t, "lru", 2, |c| c.swap_size = Some(MemorySize::Pages(1)));
    let m = &r.meters;
    assert_eq!(m.swap_outs, 1);
    assert_eq!(m.swap_full_at, Some(2));
    assert!(m.reclaims_while_swap_full >= 1);
    assert_eq!(m.hits, 1, "page 2 stayed resident");
}

#[test]
fn out_of_memory_is_an_error_not_a_panic() {
    let t = trace(&[(1, Write), (2, Write), (3, Write)]);
    let mut cfg = SimConfig::new(MemorySize::Pages(1));
    cfg.swap_size = Some(MemorySize::Pages(1));
    let e = simulate(&t, &t.stats(4096), &cfg, &Catalog::builtin()).unwrap_err();
    assert!(matches!(e, Error::OutOfMemory { access: 2, .. }), "{e}");
}

#[test]
fn memory_as_percentage_and_bytes() {
    let t = trace(&(0..200).map(|p| (p, Read)).collect::<Vec<_>>());
    assert_eq!(run_cfg(&t, "lru", 1, |c| c.memory = "10%".parse().unwrap()).config.frames, 20);
    assert_eq!(run_cfg(&t, "lru", 1, |c| c.memory = "64KiB".parse().unwrap()).config.frames, 16);
}

#[test]
fn bad_configs_name_the_field() {
    let t = trace(&[(1, Read)]);
    let cat = Catalog::builtin();
    let mut cfg = SimConfig::new(MemorySize::Pages(1));
    cfg.policy = "lfu-nope".into();
    let e = simulate(&t, &t.stats(4096), &cfg, &cat).unwrap_err().to_string();
    assert!(e.contains("policy") && e.contains("lfu-nope") && e.contains("known"), "{e}");
    let mut cfg = SimConfig::new(MemorySize::Pages(1));
    cfg.params.insert("insert_referenced".into(), toml::Value::String("yes".into()));
    let e = simulate(&t, &t.stats(4096), &cfg, &cat).unwrap_err().to_string();
    assert!(e.contains("params (clock)"), "{e}");
    let mut cfg = SimConfig::new(MemorySize::Pages(1));
    cfg.params.insert("bogus".into(), toml::Value::Integer(1));
    let e = simulate(&t, &t.stats(4096), &cfg, &cat).unwrap_err().to_string();
    assert!(e.contains("bogus"), "{e}");
    let mut cfg = SimConfig::new(MemorySize::Bytes(100));
    let e = simulate(&t, &t.stats(4096), &cfg, &cat).unwrap_err().to_string();
    assert!(e.contains("memory"), "{e}");
    cfg.memory = MemorySize::Pages(1);
    cfg.swap = "floppy".into();
    let e = simulate(&t, &t.stats(4096), &cfg, &cat).unwrap_err().to_string();
    assert!(e.contains("swap") && e.contains("floppy"), "{e}");
}

#[test]
fn clock_parameter_changes_the_result() {
    // 2 frames, 0 1 2 1 3 2 (see clock.rs): bits clear on insert → 3 evicts 2, which faults
    // again (5 faults); bits set on insert → 3 evicts 1 and 2 hits (4 faults).
    let t = trace(&[(0, Read), (1, Read), (2, Read), (1, Read), (3, Read), (2, Read)]);
    assert_eq!(run(&t, "clock", 2).meters.faults, 5);
    let b = run_cfg(&t, "clock", 2, |c| {
        c.params.insert("insert_referenced".into(), toml::Value::Boolean(true));
    });
    assert_eq!(b.config.params["insert_referenced"], serde_json::Value::Bool(true));
    assert_eq!(b.meters.faults, 4);
}

#[test]
fn grid_runs_in_order_and_in_parallel() {
    let t = mobmem_core::trace::gen::GenParams { accesses: 20_000, footprint_pages: 500, ..Default::default() }
        .generate()
        .unwrap();
    let cfgs: Vec<SimConfig> = ["lru", "clock", "arc", "opt"]
        .iter()
        .flat_map(|p| {
            [20u64, 50, 100].map(|f| {
                let mut c = SimConfig::new(MemorySize::Pages(f));
                c.policy = p.to_string();
                c
            })
        })
        .collect();
    let stats = t.stats(4096);
    let out = mobmem_core::simulate_grid(&t, &stats, &cfgs, &Catalog::builtin(), 2);
    for (c, r) in cfgs.iter().zip(&out) {
        let r = r.as_ref().unwrap();
        assert_eq!((&r.config.given.policy, r.config.frames), (&c.policy, c.memory.to_pages(4096, 0)));
        assert_eq!(r.meters, run(&t, &c.policy, r.config.frames).meters);
    }
}

#[test]
fn direct_read_by_hand() {
    // 1 frame. W1 W2 (1 swapped out). R1: swap fault, DR maps 1 in place (no frame: 2 stays).
    // R1: served in place. W1: promotion, a real swap-in; 2 is swapped out. R2: mapped in place.
    let t = trace(&[(1, Write), (2, Write), (1, Read), (1, Read), (1, Write), (2, Read)]);
    let on = run_cfg(&t, "lru", 1, |c| c.direct_read = true);
    let m = &on.meters;
    assert_eq!((m.faults, m.hits, m.dr_hits), (5, 1, 1));
    assert_eq!((m.swap_faults, m.dr_maps, m.dr_promotions, m.swap_ins, m.swap_outs), (2, 2, 1, 1, 2));
    // Without DR: R1 copies 1 in (2 out), R1 and W1 hit, R2 copies 2 in (1, dirty, out).
    let off = run(&t, "lru", 1);
    let m = &off.meters;
    assert_eq!((m.faults, m.hits, m.swap_faults, m.swap_ins, m.swap_outs), (4, 2, 2, 2, 3));
}

#[test]
fn direct_read_needs_an_nvm_swap_device() {
    let t = trace(&[(1, Read)]);
    let mut cfg = SimConfig::new(MemorySize::Pages(1));
    cfg.direct_read = true;
    cfg.swap = "ufs31".into();
    let e = simulate(&t, &t.stats(4096), &cfg, &Catalog::builtin()).unwrap_err().to_string();
    assert!(e.contains("direct_read") && e.contains("NVM"), "{e}");
    cfg.swap = "optane-m10".into();
    assert!(simulate(&t, &t.stats(4096), &cfg, &Catalog::builtin()).is_ok());
}

#[test]
fn zram_takes_frames_from_the_same_memory_by_hand() {
    // 4 frames, zram at 2 pages per frame. W1–W4 fill memory. W5: evicting 1 puts it in zram,
    // which takes a frame (⌈1/2⌉ = 1): still full, so 2 goes too (⌈2/2⌉ = 1), then 5 comes in.
    // W6: 3 goes (zram now 2 frames), still full, 4 goes (⌈4/2⌉ = 2), 6 comes in.
    let t = trace(&[(1, Write), (2, Write), (3, Write), (4, Write), (5, Write), (6, Write)]);
    let mut c = Catalog::builtin();
    c.add_toml("[z2]\nkind = \"zram\"\ncompression_ratio = 2\nread_ns = 3\nwrite_ns = 10\n", "z.toml".as_ref())
        .unwrap();
    let mut cfg = SimConfig::new(MemorySize::Pages(4));
    cfg.policy = "lru".into();
    cfg.swap = "z2".into();
    let z = simulate(&t, &t.stats(4096), &cfg, &c).unwrap();
    assert_eq!((z.meters.swap_outs, z.meters.peak_swap_pages, z.meters.peak_zram_frames), (4, 4, 2));
    assert!((z.meters.io.swap_write_ns - 4.0 * 10.0).abs() < 1e-9);
    // Swap outside DRAM: one eviction per fault, and no frames taken.
    let plain = run(&t, "lru", 4);
    assert_eq!((plain.meters.swap_outs, plain.meters.peak_zram_frames), (2, 0));
    // R1 then: zram holds 4 pages in 2 frames beside 5 and 6. zram frees 1's copy as it comes
    // back, so evicting 5 is enough (4 pages, 2 frames, beside 6 and 1): one swap-in.
    let t = trace(&[(1, Write), (2, Write), (3, Write), (4, Write), (5, Write), (6, Write), (1, Read)]);
    let z = simulate(&t, &t.stats(4096), &cfg, &c).unwrap();
    assert_eq!((z.meters.swap_ins, z.meters.swap_outs, z.meters.peak_zram_frames), (1, 5, 2));
    // With the copy kept (a swap cache on zram), 5 goes (⌈5/2⌉ = 3 frames) and 6 goes too.
    let mut keep = cfg.clone();
    keep.swap_cache = mobmem_core::config::SwapCache::Keep;
    let z = simulate(&t, &t.stats(4096), &keep, &c).unwrap();
    assert_eq!((z.meters.swap_ins, z.meters.swap_outs, z.meters.peak_zram_frames), (1, 6, 3));
    // One frame: the first swapped page's compressed copy takes it, and nothing is left.
    cfg.memory = MemorySize::Pages(1);
    let e = simulate(&t, &t.stats(4096), &cfg, &c).unwrap_err();
    assert!(matches!(e, Error::OutOfMemory { access: 1, .. }), "{e}");
    assert!(e.to_string().contains("frames taken by zram: 1,") && e.to_string().contains("unlimited"), "{e}");
}

#[test]
fn zram_devices_and_configs_are_checked() {
    let mut c = Catalog::builtin();
    let z = c.get("zram-lz4", "swap").unwrap();
    assert_eq!(z.kind, mobmem_core::device::DeviceKind::Zram);
    assert!(z.compression_ratio.unwrap() > 1.0);
    for (text, want) in [
        ("[z]\nkind = \"zram\"\nread_ns = 1\nwrite_ns = 1\n", "missing"),
        ("[z]\nkind = \"zram\"\ncompression_ratio = 0.5\nread_ns = 1\nwrite_ns = 1\n", "0.5"),
        ("[z]\nkind = \"flash\"\ncompression_ratio = 2\nread_ns = 1\nwrite_ns = 1\n", "only a zram"),
    ] {
        let e = c.add_toml(text, "u.toml".as_ref()).unwrap_err().to_string();
        assert!(e.contains("devices.z.compression_ratio") && e.contains(want), "{e}");
    }
    let bad = "[tiers.t]\nkind = \"zram\"\nread_ns = 1\nwrite_ns = 1\nread_nj_per_bit = 0\nwrite_nj_per_bit = 0\n";
    assert!(c.add_toml(bad, "u.toml".as_ref()).unwrap_err().to_string().contains("not zram"));
    let t = trace(&[(1, Write)]);
    let mut cfg = SimConfig::new(MemorySize::Pages(4));
    cfg.swap = "zram-lz4".into();
    cfg.tiers = Some(Default::default());
    let e = simulate(&t, &t.stats(4096), &cfg, &c).unwrap_err().to_string();
    assert!(e.contains("swap") && e.contains("zram"), "{e}");
    cfg.direct_read = true;
    cfg.tiers = None;
    assert!(simulate(&t, &t.stats(4096), &cfg, &c).unwrap_err().to_string().contains("NVM"));
}

#[test]
fn zram_frees_the_copy_at_swap_in_by_default_and_a_block_device_keeps_it() {
    // The sequence of the swap-cache test: W1, R2 (1 out), R1 (1 in), R2 (1 evicted again), R1.
    // zram is a synchronous-I/O device: Linux frees the slot at swap-in (do_swap_page), so the
    // second eviction is a second swap-out; `keep` forces the swap cache back.
    let t = trace(&[(1, Write), (2, Read), (1, Read), (2, Read), (1, Read)]);
    let zram = |c: &mut SimConfig| {
        c.swap = "zram-lz4".into();
        c.zram_in_memory = false;
    };
    let dropped = run_cfg(&t, "lru", 1, zram);
    assert_eq!((dropped.meters.swap_outs, dropped.meters.swap_cache_drops), (2, 0));
    assert!(!dropped.config.swap_cache);
    let kept = run_cfg(&t, "lru", 1, |c| {
        zram(c);
        c.swap_cache = mobmem_core::config::SwapCache::Keep;
    });
    assert_eq!((kept.meters.swap_outs, kept.meters.swap_cache_drops), (1, 1));
    let block = run(&t, "lru", 1);
    assert!(block.config.swap_cache && block.meters.swap_cache_drops == 1);
}

#[test]
fn a_zram_pool_outside_memory_takes_no_frames() {
    // 2 frames, anon pages 1..=4 written in turn twice: with the pool in memory, swapped pages take
    // frames (at 2.5 per frame) and more is evicted than with the pool outside (a cgroup's limit).
    let seq: Vec<_> = (0..2).flat_map(|_| (1..=4).map(|p| (p, Write))).collect();
    let t = trace(&seq);
    let inside = run_cfg(&t, "lru", 3, |c| c.swap = "zram-lz4".into());
    let outside = run_cfg(&t, "lru", 3, |c| {
        c.swap = "zram-lz4".into();
        c.zram_in_memory = false;
    });
    assert_eq!(outside.meters.peak_zram_frames, 0);
    assert!(inside.meters.peak_zram_frames > 0);
    assert!(
        inside.meters.swap_outs > outside.meters.swap_outs,
        "{} vs {}",
        inside.meters.swap_outs,
        outside.meters.swap_outs
    );
    assert!(!outside.config.given.zram_in_memory);
}

#[test]
fn kinds_from_writes_make_a_read_then_written_page_anon_from_its_first_touch() {
    // R1 then W1 (a `+=`), R2 only: page 1 is anon (zero-fill at the first touch), page 2 file.
    let t = trace(&[(1, Read), (1, Write), (2, Read)]).with_kinds_from_writes();
    assert_eq!(t.page_kinds.as_deref(), Some(&[Kind::Anon as u8, Kind::File as u8][..]));
    let m = run(&t, "lru", 4).meters;
    assert_eq!((m.cold_anon, m.cold_file), (1, 1));
}

#[test]
fn a_reclaim_batch_frees_that_many_pages_when_memory_is_full() {
    // 4 frames, LRU, anon pages 1–4 written, then 5: batch 1 evicts page 1 only; batch 3 evicts
    // 1, 2 and 3 at once, so 2 and 3 come back by swap-in while 4 and 5 stay resident.
    let acc = [(1, Write), (2, Write), (3, Write), (4, Write), (5, Write), (2, Read), (3, Read), (4, Read)];
    let t = trace(&acc);
    let one = run(&t, "lru", 4);
    assert_eq!((one.meters.swap_outs, one.meters.swap_ins), (1, 0));
    assert_eq!(one.config.given.reclaim_batch, 1);
    let three = run_cfg(&t, "lru", 4, |c| c.reclaim_batch = 3);
    assert_eq!((three.meters.swap_outs, three.meters.swap_ins), (3, 2));
    assert_eq!(three.config.given.reclaim_batch, 3);
    // 2 and 3 came back into the two frames the batch left free: no more reclaim.
    assert_eq!(common::resident_at_end(&three), 4);
}

#[test]
fn a_reclaim_batch_stops_when_nothing_more_can_go_and_is_refused_at_zero_or_with_tiers() {
    // 2 frames, a batch larger than memory: the fault empties what it can and runs on.
    let t = trace(&[(1, Write), (2, Write), (3, Write), (1, Read)]);
    let r = run_cfg(&t, "lru", 2, |c| c.reclaim_batch = 1_000_000_000);
    assert_eq!((r.meters.swap_outs, r.meters.swap_ins), (2, 1));
    let mut cfg = SimConfig::new(MemorySize::Pages(2));
    cfg.reclaim_batch = 0;
    let e = simulate(&t, &t.stats(4096), &cfg, &Catalog::builtin()).unwrap_err().to_string();
    assert!(e.contains("reclaim_batch") && e.contains("at least 1"), "{e}");
    let mut cfg = SimConfig::new(MemorySize::Pages(2));
    cfg.reclaim_batch = 32;
    cfg.tiers = Some(Default::default());
    let e = simulate(&t, &t.stats(4096), &cfg, &Catalog::builtin()).unwrap_err().to_string();
    assert!(e.contains("reclaim_batch") && e.contains("tiers"), "{e}");
}

#[test]
fn page_cluster_reads_the_swapped_neighbours_in_on_a_block_device_only() {
    // 3 frames, a reclaim batch of 2, LRU. W1–W3 fill memory; W4 evicts 1 and 2 (slots 0 and 1);
    // W5 takes the free frame; R1 evicts 3 and 4 and swaps 1 in. With clusters of 2 slots (order
    // 1) page 2, in the same cluster, comes in with it and R2 hits; without, R2 is a swap fault.
    let t = trace(&[(1, Write), (2, Write), (3, Write), (4, Write), (5, Write), (1, Read), (2, Read)]);
    let cluster = |order: u32| {
        move |c: &mut SimConfig| {
            c.reclaim_batch = 2;
            c.page_cluster = order.try_into().unwrap();
        }
    };
    let off = run_cfg(&t, "lru", 3, cluster(0));
    let on = run_cfg(&t, "lru", 3, cluster(1));
    assert_eq!((off.meters.faults, off.meters.swap_ins, off.meters.swap_readahead), (7, 2, 0));
    assert_eq!((on.meters.faults, on.meters.swap_ins, on.meters.swap_readahead), (6, 1, 1));
    // The page read around is charged one page read, as the swap-in is.
    assert!((on.meters.io.swap_read_ns - 2.0 * on.config.swap.read_ns).abs() < 1e-6);
    assert!((on.meters.io.swap_read_ns - off.meters.io.swap_read_ns).abs() < 1e-6);
    // zram, a synchronous-I/O device, reads no neighbours (Linux bypasses the swap cache): a
    // cluster there would be a silent no-op, so it is refused by name.
    let mut zram = SimConfig { policy: "lru".into(), memory: MemorySize::Pages(3), ..SimConfig::default() };
    cluster(1)(&mut zram);
    zram.swap = "zram-lz4".into();
    let e = simulate(&t, &t.stats(4096), &zram, &Catalog::builtin()).unwrap_err().to_string();
    assert!(e.contains("page_cluster") && e.contains("synchronous-I/O"), "{e}");
    // The knob is in the config echo, and a cluster Linux would not read is refused by name.
    assert_eq!(serde_json::to_value(&on.config).unwrap()["page_cluster"], 1);
    let e = mobmem_core::error::from_toml::<SimConfig>("run.toml".as_ref(), "page_cluster = 11").unwrap_err();
    assert!(e.to_string().contains("page_cluster") && e.to_string().contains("≤ 10"), "{e}");
}

#[test]
fn a_page_cluster_that_a_reclaim_batch_of_one_leaves_no_room_for_is_refused() {
    // Read-around reads into free frames; a batch of 1 frees only the faulting page's frame.
    let t = trace(&[(1, Write), (2, Write), (3, Write), (1, Read)]);
    let cfg = |batch: u64| {
        let mut c = SimConfig::new(MemorySize::Pages(2));
        c.page_cluster = 2u32.try_into().unwrap();
        c.reclaim_batch = batch;
        c
    };
    let e = simulate(&t, &t.stats(4096), &cfg(1), &Catalog::builtin()).unwrap_err().to_string();
    assert!(e.contains("page_cluster") && e.contains("reclaim_batch"), "{e}");
    simulate(&t, &t.stats(4096), &cfg(2), &Catalog::builtin()).unwrap();
}
