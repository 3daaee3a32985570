//! System level end to end: app-usage traces replayed on phones, with the conservation checks
//! switched on (the simulator verifies page states, swap slots and kills after every launch).

use mobmem_core::system::synthetic_usage::Rare;
use mobmem_core::system::{Library, PhoneJob, PhoneResult, UsageSpec};
use mobmem_core::Error;
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data").join(name)
}

fn job(phone: &str, overrides: &[(&str, toml::Value)], usage: UsageSpec, seed: u64) -> PhoneJob {
    let mut o = toml::Table::new();
    for (k, v) in overrides {
        o.insert(k.to_string(), v.clone());
    }
    PhoneJob { phone: phone.into(), overrides: o, usage, seed, checks: true }
}

fn run(phone: &str, overrides: &[(&str, toml::Value)], usage: UsageSpec, seed: u64) -> PhoneResult {
    Library::builtin().run(&job(phone, overrides, usage, seed)).unwrap()
}

fn emmc(random: bool) -> UsageSpec {
    UsageSpec::Rounds { apps: None, rounds: 3, random, seed: 7, gap_s: 0.0 }
}

fn real_window() -> UsageSpec {
    UsageSpec::File { path: data("usage_window_12apps.csv"), user: None }
}

/// Counts that must add up in every run.
fn consistent(r: &PhoneResult) {
    let m = &r.meters;
    assert_eq!(m.launches, r.launches.len() as u64);
    assert_eq!(m.cold + m.resumed, m.launches);
    assert_eq!(m.kills_total, m.kills.values().sum::<u64>());
    assert_eq!(m.ux.values().sum::<u64>(), m.launches);
    assert_eq!(m.apps.iter().map(|a| a.kills).sum::<u64>(), m.kills_total);
    assert_eq!(r.launches.iter().filter(|l| l.cold).count() as u64, m.cold);
    let distinct = r.usage.distinct_apps;
    // Every app's first launch is cold.
    assert!(m.cold >= distinct, "{} cold < {distinct} apps", m.cold);
    for l in &r.launches {
        let parts = l.cpu_ms + l.file_wait_ms + l.swap_wait_ms + l.reclaim_wait_ms + l.mapped_read_ms;
        assert!((l.latency_ms - parts).abs() < 1e-6 * l.latency_ms.max(1.0), "{l:?}");
        assert!(l.live_apps >= 1);
    }
    // Page counts seen by the system match the engine's, and every swap-out is some process's.
    assert_eq!(m.swap_out_pages, r.pages.swap_outs);
    assert_eq!(m.apps.iter().map(|a| a.swap_outs).sum::<u64>() + m.system_swap_outs, r.pages.swap_outs);
    assert_eq!(m.swap_in_pages, r.pages.swap_ins + r.pages.swap_readahead);
}

#[test]
fn conservation_across_policies_killers_and_swap() {
    let lib = Library::builtin();
    let mut jobs = Vec::new();
    // Every registered policy that can run on a phone (OPT needs a page trace) and every killer.
    for &policy in mobmem_core::policy::NAMES.iter().filter(|&&p| p != "opt") {
        // Every swap admission on flash swap; zram and swap off with the default.
        let swaps = mobmem_core::swap::admission::NAMES
            .iter()
            .map(|&a| ("emmc-gt-i9300", a))
            .chain([("zram-lz4", "all"), ("off", "all")]);
        for (swap, admission) in swaps {
            for &killer in mobmem_core::system::killer::NAMES {
                let o = [
                    ("policy", policy.into()),
                    ("params", toml::Table::new().into()),
                    ("swap", swap.into()),
                    ("swap_admission", admission.into()),
                    ("killer", killer.into()),
                    ("killer_params", toml::Table::new().into()),
                    ("reserved", "814MiB".into()),
                ];
                jobs.push(job("gt-i9300", &o, emmc(true), 3));
            }
        }
    }
    for r in lib.run_all(&jobs, 0) {
        let r = r.unwrap();
        consistent(&r);
        let reasons = ["minfree", "psi-pressure", "psi-critical", "swap-low", "cached-cap", "oom"];
        assert!(r.meters.kills.keys().all(|k| reasons.contains(&k.as_str())), "{:?}", r.meters.kills);
        if r.config.phone.swap.is_none() || r.config.phone.swap_admission == "off" {
            assert_eq!((r.meters.swap_in_pages, r.meters.swap_out_pages, r.pages.swap_outs), (0, 0, 0));
            assert_eq!(r.meters.flash_swap_write_bytes, 0);
        }
    }
}

#[test]
fn swap_keeps_apps_alive_and_reloads_fast_under_pressure() {
    let on = run("gt-i9300", &[("reserved", "814MiB".into())], emmc(true), 1);
    let off = run("gt-i9300", &[("reserved", "814MiB".into()), ("swap", "off".into())], emmc(true), 1);
    consistent(&on);
    consistent(&off);
    assert!(off.meters.kills_total > on.meters.kills_total, "{:?} vs {:?}", off.meters.kills, on.meters.kills);
    assert!(on.meters.resumed > off.meters.resumed);
    assert!(on.meters.total_launch_ms < off.meters.total_launch_ms);
    assert!(on.meters.swap_out_pages > 0 && on.meters.flash_swap_write_bytes > 0);
    assert!(on.meters.apps.iter().any(|a| a.swap_outs > 0) && off.meters.apps.iter().all(|a| a.swap_outs == 0));
    // Swap writes flash: more bytes written with swap, and P/E cycles counted on the 3-bit MLC.
    assert!(on.meters.flash_write_bytes > off.meters.flash_write_bytes);
    assert!(on.meters.pe_cycles_used.unwrap() > 0.0);
    // Resumes are faster than cold starts.
    assert!(on.meters.mean_resume_ms.unwrap() < on.meters.mean_cold_ms.unwrap());
}

#[test]
fn zram_keeps_more_apps_than_no_swap_and_fewer_than_flash_swap() {
    let at = |swap: &str| run("gt-i9300", &[("reserved", "814MiB".into()), ("swap", swap.into())], emmc(true), 1);
    let (off, zram, flash) = (at("off"), at("zram-lz4"), at("emmc-gt-i9300"));
    for r in [&off, &zram, &flash] {
        consistent(r);
    }
    // Compressed pages stay in DRAM: more room than no swap, less than swap outside DRAM.
    let live = |r: &PhoneResult| r.meters.live_apps_mean;
    assert!(live(&off) < live(&zram) && live(&zram) < live(&flash), "{} {} {}", live(&off), live(&zram), live(&flash));
    let z = &zram.pages;
    assert!(z.swap_outs > 0 && z.peak_zram_frames > 0 && z.peak_zram_frames < zram.config.layout.frames);
    let ratio = zram.config.swap.as_ref().unwrap().compression_ratio.unwrap();
    assert_eq!(z.peak_zram_frames, (z.peak_swap_pages as f64 / ratio).ceil() as u64);
    assert_eq!(flash.pages.peak_zram_frames, 0);
    // No flash traffic for swap; the swap device's energy is the CPU's compression work.
    assert_eq!(zram.meters.flash_swap_write_bytes, 0);
    assert!(zram.meters.energy.swap_device_j > 0.0);
    // A swap-in is a decompression: resumed launches wait microseconds per page for it.
    let (waited, pages) = zram.launches.iter().fold((0.0, 0), |(w, n), l| (w + l.swap_wait_ms, n + l.swap_pages_read));
    let d = zram.config.swap.as_ref().unwrap();
    assert!(
        pages > 0 && (waited * 1e6 - pages as f64 * d.read_ns).abs() < 1e-3 * waited * 1e6,
        "{waited} ms for {pages}"
    );
}

#[test]
fn infinite_memory_kills_nothing_and_every_relaunch_resumes() {
    let o = [("dram", "64GiB".into()), ("max_cached", 1000.into()), ("swap", "off".into())];
    for usage in [emmc(false), real_window()] {
        let r = run("nexus5", &o, usage, 1);
        consistent(&r);
        assert_eq!(r.meters.kills_total, 0);
        assert_eq!(r.meters.cold, r.usage.distinct_apps);
        assert_eq!(r.meters.resumed, r.meters.launches - r.usage.distinct_apps);
        assert_eq!(r.meters.direct_reclaims, 0);
    }
}

#[test]
fn cached_cap_kills_the_oldest_cached_apps() {
    let o = [("dram", "64GiB".into()), ("max_cached", 2.into()), ("swap", "off".into())];
    let r = run("nexus5", &o, emmc(false), 1);
    consistent(&r);
    // In order over ten apps, with two cached apps kept (plus the previous and the foreground
    // one), every relaunch finds its app killed.
    assert_eq!(r.meters.resumed, 0);
    assert!(r.meters.kills.get("cached-cap").copied().unwrap_or(0) > 0);
    assert!(
        r.launches.iter().all(|l| l.live_apps <= 4),
        "{:?}",
        r.launches.iter().map(|l| l.live_apps).collect::<Vec<_>>()
    );
}

#[test]
fn same_seed_same_result() {
    let o = [("reserved", "814MiB".into())];
    let a = run("gt-i9300", &o, real_window(), 5);
    let b = run("gt-i9300", &o, real_window(), 5);
    let c = run("gt-i9300", &o, real_window(), 6);
    let j = |r: &PhoneResult| serde_json::to_string(&(&r.meters, &r.launches, &r.pages)).unwrap();
    assert!(j(&a) == j(&b), "same seed, different results");
    assert!(j(&a) != j(&c), "the seed changes nothing");
}

#[test]
fn read_around_makes_fewer_larger_swap_reads() {
    let base = [("reserved", "814MiB".into())];
    let with = run("gt-i9300", &base, emmc(true), 1);
    let mut none = base.to_vec();
    none.push(("page_cluster", 0.into()));
    let without = run("gt-i9300", &none, emmc(true), 1);
    assert_eq!(without.pages.swap_readahead, 0);
    assert_eq!(without.meters.swap_read_requests, without.meters.swap_in_pages);
    assert!(with.pages.swap_readahead > 0);
    assert!(with.meters.swap_read_requests < with.meters.swap_in_pages);
}

#[test]
fn nvm_swap_and_direct_read_switch_faster_than_flash() {
    let o = |swap: &str, dr: bool| {
        vec![
            ("swap", toml::Value::from(swap)),
            ("swap_size", "256MiB".into()),
            ("reserved", "1700MiB".into()),
            ("direct_read", dr.into()),
        ]
    };
    let usage = || UsageSpec::Rounds {
        apps: Some(["Google Chrome", "Firefox", "Opera", "Dolphin Browser", "Next Browser"].map(String::from).to_vec()),
        rounds: 3,
        random: false,
        seed: 1,
        gap_s: 60.0,
    };
    let flash = run("nexus5", &o("emmc-inand", false), usage(), 1);
    let nvm = run("nexus5", &o("lpddr2-pcm", false), usage(), 1);
    let dr = run("nexus5", &o("lpddr2-pcm", true), usage(), 1);
    consistent(&flash);
    assert!(flash.meters.swap_in_pages > 0, "no swapping: the scenario needs memory pressure");
    assert!(nvm.meters.mean_resume_ms.unwrap() < flash.meters.mean_resume_ms.unwrap());
    assert!(dr.pages.dr_maps > 0);
    assert!(dr.meters.swap_in_pages < nvm.meters.swap_in_pages);
    // A touch served in place costs the device's mapped_read_ns (lpddr2-pcm: 1,337 ns), in the launch.
    let served: u64 = dr.launches.iter().map(|l| l.mapped_reads).sum();
    assert!(served > 0, "no resume read a page mapped in place");
    for l in &dr.launches {
        assert!((l.mapped_read_ms - l.mapped_reads as f64 * 1337e-6).abs() < 1e-9, "{l:?}");
    }
    // The same NVM with reads in place free: the old model.
    let mut lib = Library::builtin();
    let free_pcm = "[pcm-free]\nkind = \"nvm\"\nread_ns = 2674\nwrite_ns = 39024\n";
    lib.devices.add_toml(free_pcm, std::path::Path::new("t.toml")).unwrap();
    let free = lib.run(&job("nexus5", &o("pcm-free", true), usage(), 1)).unwrap();
    assert!(free.launches.iter().map(|l| l.mapped_reads).sum::<u64>() > 0);
    assert!(free.launches.iter().all(|l| l.mapped_read_ms == 0.0));
}

#[test]
fn adj_limit_keeps_cached_apps_out_of_swap() {
    // A2S-style usage on a 1 GiB phone with flash swap and the psi killer: swap-outs of cached
    // apps' pages are vetoed, so fewer pages are written to flash than when all are admitted.
    let usage = UsageSpec::Synthetic { apps: 23, launches: 256, reuse: 4.56, seed: 1, gap_s: 5.0, rare: Rare::NONE };
    let base = [
        ("dram", "1GiB".into()),
        ("reserved", "400MiB".into()),
        ("swap", "emmc-inand".into()),
        ("swap_size", "512MiB".into()),
        ("killer", "psi".into()),
    ];
    let with = |a: &str| {
        let mut o = base.to_vec();
        o.push(("swap_admission", a.into()));
        run("nexus5", &o, usage.clone(), 1)
    };
    let (all, limited) = (with("all"), with("adj-limit"));
    consistent(&limited);
    assert_eq!(all.pages.swap_vetoes, 0);
    assert!(all.pages.swap_outs > 0, "the scenario must swap");
    assert!(limited.pages.swap_vetoes > 0);
    assert!(limited.pages.swap_outs < all.pages.swap_outs, "{} vs {}", limited.pages.swap_outs, all.pages.swap_outs);
    assert_eq!(limited.config.swap_admission_params["max_adj"], 899);
    // Unknown admissions and parameters are errors naming them.
    let lib = Library::builtin();
    let e = lib.run(&job("nexus5", &[("swap_admission", "nope".into())], emmc(true), 1)).unwrap_err().to_string();
    assert!(e.contains("swap_admission") && e.contains("adj-limit"), "{e}");
    let p: toml::Table = toml::from_str("max_adj = 5000").unwrap();
    let o = [("swap_admission", "adj-limit".into()), ("swap_admission_params", p.into())];
    let e = lib.run(&job("nexus5", &o, emmc(true), 1)).unwrap_err().to_string();
    assert!(e.contains("max_adj") && e.contains("5000"), "{e}");
}

#[test]
fn zram_writeback_moves_idle_copies_to_flash() {
    // The real 12-app window on a 1 GiB phone: hours-long gaps let zram copies go idle.
    let o = |swap: &str| {
        let base = [("dram", "1GiB".into()), ("reserved", "400MiB".into()), ("swap_size", "512MiB".into())];
        let mut v = base.to_vec();
        v.push(("swap", swap.into()));
        run("nexus5", &v, real_window(), 1)
    };
    let (zram, wb) = (o("zram-lz4"), o("zram-writeback"));
    consistent(&wb);
    let (m, z) = (&wb.meters, &zram.meters);
    assert_eq!((z.written_back_pages, z.backing_read_pages, z.flash_swap_write_bytes), (0, 0, 0));
    assert!(m.written_back_pages > 0 && m.backing_read_pages > 0, "{m:?}");
    // The system's and the engine's counts agree; written-back pages are flash swap writes.
    assert_eq!(m.written_back_pages, wb.pages.written_back);
    assert_eq!(m.backing_read_pages, wb.pages.backing_reads);
    assert_eq!(m.flash_swap_write_bytes, m.written_back_pages * 4096);
    // Copies on flash take no DRAM: the compressed pool peaks lower.
    assert!(wb.pages.peak_zram_frames < zram.pages.peak_zram_frames);
    // A backing device that is not flash or NVM, or unknown, is an error naming the field.
    let dir = std::env::temp_dir().join(format!("mobmem-wb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("dev.toml");
    let text = "[wb]\nkind = \"zram\"\nbackend = \"zram-writeback\"\ncompression_ratio = 2.0\nread_ns = 1\nwrite_ns = 1\n\n[wb.backend_params]\nbacking = \"zram-lz4\"\n";
    std::fs::write(&f, text).unwrap();
    let mut lib = Library::builtin();
    lib.devices.load_file(&f).unwrap();
    let e = lib.run(&job("nexus5", &[("swap", "wb".into())], emmc(true), 1)).unwrap_err().to_string();
    assert!(e.contains("devices.wb.backend_params.backing") && e.contains("zram"), "{e}");
}

#[test]
fn errors_name_file_field_and_app() {
    let lib = Library::builtin();
    let e = lib.run(&job("pixel", &[], emmc(true), 1)).unwrap_err().to_string();
    assert!(e.contains("gt-i9300"), "{e}");
    let dir = std::env::temp_dir().join(format!("mobmem-sys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("usage.csv");
    std::fs::write(&bad, "time_s,app\n1,a\nx,b\n").unwrap();
    let e = lib.run(&job("nexus5", &[], UsageSpec::File { path: bad.clone(), user: None }, 1)).unwrap_err();
    assert!(matches!(e, Error::TraceFormat { line: 3, .. }), "{e}");
    assert!(e.to_string().contains("usage.csv:3"), "{e}");
    std::fs::write(&bad, "time_s,app\n").unwrap();
    let e = lib.run(&job("nexus5", &[], UsageSpec::File { path: bad, user: None }, 1)).unwrap_err().to_string();
    assert!(e.contains("no launches"), "{e}");
    // An app that cannot fit, with swap off: out of memory, naming it.
    let o = [("dram", "256MiB".into()), ("reserved", "200MiB".into()), ("swap", "off".into())];
    let u = UsageSpec::Rounds {
        apps: Some(vec!["TaoBao".into(), "Amazon".into()]),
        rounds: 1,
        random: false,
        seed: 0,
        gap_s: 0.0,
    };
    let e = lib.run(&job("nexus5", &o, u, 1)).unwrap_err();
    assert!(matches!(e, Error::OutOfMemory { .. }) && e.to_string().contains("TaoBao"), "{e}");
    let e = lib.run(&job("nexus5", &[("policy", "opt".into())], emmc(true), 1)).unwrap_err().to_string();
    assert!(e.contains("policy"), "{e}");
    let e = lib.run(&job("nexus5", &[("swap_size", "10%".into())], emmc(true), 1)).unwrap_err().to_string();
    assert!(e.contains("swap_size"), "{e}");
    let sys: toml::Value = toml::from_str::<toml::Table>(
        "s = [{ name = \"system\", adj = -900, anon_mib = 8.0, file_mib = 8.0, write_share = 1.5 }]",
    )
    .unwrap()["s"]
        .clone();
    let e = lib.run(&job("nexus5", &[("fs_meta_write_kib", (1i64 << 21).into())], emmc(true), 1));
    assert!(e.unwrap_err().to_string().contains("fs_meta_write_kib"));
    let e = lib.run(&job("nexus5", &[("system", sys)], emmc(true), 1)).unwrap_err().to_string();
    assert!(e.contains("system[0].write_share") && e.contains("1.5"), "{e}");
}

#[test]
fn real_usage_window_on_every_phone() {
    for phone in ["nexus5", "gt-i9300"] {
        let r = run(phone, &[], real_window(), 1);
        consistent(&r);
        assert_eq!(r.usage.launches, 256);
        assert_eq!(r.meters.defaulted_apps, r.usage.distinct_apps, "the window's apps are package names");
        assert!(r.meters.sim_time_s > 0.0);
        assert!(r.meters.energy.total_j > 0.0);
    }
}

/// A usage file of `apps` distinct apps, each launched once, `gap_s` apart.
fn usage_file(name: &str, apps: usize, gap_s: f64) -> UsageSpec {
    let dir = std::env::temp_dir().join(format!("mobmem-sys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let mut text = String::from("time_s,app\n");
    for i in 0..apps {
        text += &format!("{},app{i}\n", i as f64 * gap_s);
    }
    std::fs::write(&p, text).unwrap();
    UsageSpec::File { path: p, user: None }
}

#[test]
fn idle_time_costs_rounds_not_seconds() {
    // Five launches nine years apart: the system server's 1 s background work would be 2.8e8
    // rounds of 64 pages per gap; the budget makes each gap cost at most `max_bg_touches` touches.
    let gap = 9.0 * 365.25 * 86400.0 / 4.0;
    let lim = toml::Value::Integer(64_000);
    let r = run("nexus5", &[("max_bg_touches", lim)], usage_file("idle.csv", 5, gap), 1);
    consistent(&r);
    // The system process hits the cap in each of the four gaps and after the last launch's session.
    assert_eq!(r.meters.bg_rounds_capped, 4);
    assert!(r.meters.touches < 5 * 1000 * 64 + 5_000_000, "{} touches", r.meters.touches);
    // Below the cap nothing changes: a gap of 100 s runs its 100 rounds either way.
    let short = |cap: i64| {
        let r = run("nexus5", &[("max_bg_touches", toml::Value::Integer(cap))], usage_file("s.csv", 5, 100.0), 1);
        (r.meters.bg_rounds_capped, r.pages.accesses, r.pages.faults)
    };
    let (capped, acc, faults) = short(1 << 22);
    assert_eq!(capped, 0);
    assert_eq!(short(200 * 64), (0, acc, faults));
}

#[test]
fn memory_is_bounded_by_what_can_be_alive_not_by_apps_ever_seen() {
    // 300 distinct apps of the default size: 64 ranges are laid out (more than the 16 cached apps
    // plus foreground and previous that can be alive); later apps take dead apps' ranges.
    let r = run("nexus5", &[], usage_file("many.csv", 300, 30.0), 1);
    consistent(&r);
    assert_eq!(r.meters.cold, 300);
    assert_eq!(r.meters.ranges_reused, 300 - 64);
    assert!(r.meters.live_apps_max <= 16 + 2);
    // Page ids: the system processes (nexus5: 48 + 160 + 24 + 16 MiB) plus 64 apps' ranges, not 300.
    assert_eq!(r.meters.page_ids, (248 + 64 * 40) * 256);
}

#[test]
fn slow_foreground_apps_still_advance() {
    // One touch per second is slower than the 100 ms steps background work interleaves with: the
    // session must still advance a touch at a time (it once looped forever here).
    let mut lib = Library::builtin();
    lib.apps.add_toml("[defaults]\nfg_pages_per_s = 1.0\n", std::path::Path::new("<test>")).unwrap();
    let j = job("nexus5", &[("session_s", toml::Value::Float(30.0))], usage_file("slow.csv", 3, 100.0), 1);
    let r = lib.run(&j).unwrap();
    consistent(&r);
    // Three sessions of 30 s at one touch per second (the last launch's session is whole too).
    let fg: u64 = r.meters.touches;
    assert!(fg > 0);
    let again = lib.run(&j).unwrap();
    assert_eq!(again.meters.touches, fg, "deterministic");
}

/// A usage CSV of `n` distinct apps, each launched twice (round robin), one a minute.
fn many_apps(n: usize) -> UsageSpec {
    let dir = std::env::temp_dir().join(format!("mobmem-many-apps-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("apps{n}.csv"));
    let mut text = String::from("time_s,app\n");
    for i in 0..2 * n {
        text.push_str(&format!("{},app{}\n", i * 60, i % n));
    }
    std::fs::write(&p, text).unwrap();
    UsageSpec::File { path: p, user: None }
}

#[test]
fn a_launch_costs_the_same_however_many_distinct_apps_the_usage_names() {
    // Every per-launch step walks the apps alive (a few dozen), not every app ever named, and the
    // launch history's distances cost O(log launches): eight times the apps, about eight times
    // the time. (Quadratic per-launch walks made it 60 times or more.) The best of two runs each;
    // the margin is three times, for a noisy machine.
    let lib = Library::builtin();
    let time = |n: usize| {
        let j = PhoneJob { checks: false, ..job("nexus5", &[], many_apps(n), 1) };
        (0..2).map(|_| lib.run(&j).unwrap().wall_time_s).fold(f64::INFINITY, f64::min)
    };
    let (small, large) = (time(500), time(4000));
    assert!(large / small < 24.0, "500 apps {small:.3} s, 4000 apps {large:.3} s: {:.1}x", large / small);
}

#[test]
fn launches_asked_for_are_checked_against_the_memory_there_is() {
    let u = UsageSpec::Rounds { apps: None, rounds: 1_000_000_000, random: true, seed: 1, gap_s: 0.0 };
    let e = Library::builtin().run(&job("gt-i9300", &[], u, 1)).unwrap_err();
    assert!(matches!(&e, Error::Config { field, .. } if field == "rounds"), "{e}");
    assert!(e.to_string().contains("10000000010 launches need"), "{e}");
}

#[test]
fn an_idle_phone_replays_the_launches_with_no_page_touched() {
    // `activity = 0`: the fidelity scoreboard's idle workload. Launches still happen and take
    // their CPU time; no page is touched, so nothing faults, swaps or is killed for memory.
    let r = run("nexus5", &[("activity", 0.0.into())], real_window(), 1);
    consistent(&r);
    assert_eq!(r.meters.launches, r.launches.len() as u64);
    assert!(r.meters.launches > 100);
    assert_eq!((r.pages.swap_outs, r.pages.swap_ins, r.meters.flash_write_bytes), (0, 0, 0));
    assert!(r.launches.iter().all(|l| l.file_pages_read == 0 && l.swap_pages_read == 0));
    let busy = run("nexus5", &[("activity", 1.0.into())], real_window(), 1);
    assert!(busy.pages.faults > 0 && r.pages.faults == 0, "{} {}", busy.pages.faults, r.pages.faults);
    let e = Library::builtin().run(&job("nexus5", &[("activity", 1.5.into())], real_window(), 1)).unwrap_err();
    assert!(e.to_string().contains("activity"), "{e}");
}

#[test]
fn the_subject_test_idles_the_apps_or_the_system_processes_alone() {
    // `apps_activity = 0`: the apps touch no page, the system processes work as before — a
    // number that stays is not the apps'. `system_activity = 0`: the other way round.
    let apps_idle = run("nexus5", &[("apps_activity", 0.0.into())], real_window(), 1);
    consistent(&apps_idle);
    assert!(apps_idle.launches.iter().all(|l| l.file_pages_read == 0 && l.swap_pages_read == 0));
    assert!(apps_idle.meters.apps.iter().all(|a| a.swap_faults == 0));
    assert!(apps_idle.pages.faults > 0, "the system processes still touch their pages");
    let sys_idle = run("nexus5", &[("system_activity", 0.0.into())], real_window(), 1);
    consistent(&sys_idle);
    assert_eq!(sys_idle.meters.system_swap_faults, 0);
    assert!(sys_idle.launches.iter().any(|l| l.file_pages_read > 0), "the apps still load");
    let e = Library::builtin().run(&job("nexus5", &[("apps_activity", (-0.5).into())], real_window(), 1)).unwrap_err();
    assert!(e.to_string().contains("apps_activity"), "{e}");
}
