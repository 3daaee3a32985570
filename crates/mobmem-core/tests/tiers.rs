//! Runs on DRAM + PCM tiers: accounting, equivalences with flat runs, the process table.

mod common;

use common::{data, run_cfg, trace};
use mobmem_core::config::TierConfig;
use mobmem_core::trace::{Op::*, ProcTable};
use mobmem_core::{read_trace, simulate, Catalog, Error, MemorySize, ReadOptions, SimConfig, Trace};
use std::io::Write;

fn tiers(share: f64, access_bytes: u64) -> Option<TierConfig> {
    Some(TierConfig { pcm_share: share, access_bytes, ..Default::default() })
}

fn sqlite() -> Trace {
    read_trace(&data("sqlite_60k.txt.zst"), &ReadOptions::default()).unwrap()
}

#[test]
fn flat_policies_on_dram_only_tiers_fault_like_flat_runs() {
    let t = sqlite();
    for &policy in mobmem_core::policy::NAMES {
        let flat = run_cfg(&t, policy, 300, |_| {});
        let tiered = run_cfg(&t, policy, 300, |c| c.tiers = tiers(0.0, 64));
        let (a, b) = (&flat.meters, &tiered.meters);
        assert_eq!(
            (a.faults, a.swap_outs, a.write_backs, a.swap_ins, a.file_reads),
            (b.faults, b.swap_outs, b.write_backs, b.swap_ins, b.file_reads),
            "{policy}"
        );
        assert_eq!(a.io, b.io, "{policy}");
        // With any split, residency is still the flat policy's.
        let split = run_cfg(&t, policy, 300, |c| c.tiers = tiers(0.9, 64));
        assert_eq!(split.meters.faults, a.faults, "{policy} at 90% PCM");
    }
}

#[test]
fn time_energy_and_counts_add_up() {
    let t = sqlite();
    // A flat policy stacked on the tiers, and every hybrid policy.
    for &policy in ["lru"].iter().chain(mobmem_core::policy::hybrid::NAMES) {
        let r = run_cfg(&t, policy, 400, |c| c.tiers = tiers(0.9, 64));
        let m = &r.meters;
        let tm = m.tiers.as_ref().unwrap();
        assert_eq!((tm.dram.frames, tm.pcm.frames), (40, 360), "{policy}");
        // Every access is served by a tier exactly once.
        let ops = tm.dram.reads + tm.dram.writes + tm.pcm.reads + tm.pcm.writes;
        assert_eq!(ops, m.accesses, "{policy}");
        assert_eq!(tm.dram.hits + tm.pcm.hits, m.hits, "{policy}");
        assert_eq!(tm.dram.fills + tm.pcm.fills, m.faults, "{policy}");
        assert_eq!(tm.critical.accesses + tm.non_critical.accesses, m.accesses);
        // No process table: everything is critical.
        assert!(!tm.process_table && tm.non_critical.accesses == 0);
        // The classes' elapsed time is all the memory and I/O time.
        let elapsed = tm.critical.elapsed_ns + tm.non_critical.elapsed_ns;
        let want = m.memory_ns + m.io.total_ns;
        assert!((elapsed - want).abs() <= 1e-6 * want, "{policy}: {elapsed} vs {want}");
        assert!((m.sim_time_ns - (m.cpu_ns + m.memory_ns + m.io.total_ns)).abs() < 1e-3);
        // Memory time from the counts: each access op, each page copy.
        let opp = tm.ops_per_page as f64;
        assert_eq!(opp, 64.0);
        let (dr, dw, pr, pw) = (50.0, 50.0, 100.0, 1000.0);
        let want_mem = tm.dram.reads as f64 * dr
            + tm.dram.writes as f64 * dw
            + tm.pcm.reads as f64 * pr
            + tm.pcm.writes as f64 * pw
            + opp * (tm.dram.fills as f64 * dw + tm.pcm.fills as f64 * pw)
            + opp * tm.demotions as f64 * (dr + pw)
            + opp * tm.promotions as f64 * (pr + dw);
        assert!((m.memory_ns - want_mem).abs() <= 1e-6 * want_mem, "{policy}");
        let e = &tm.energy;
        let sum = e.w_d_j + e.r_d_j + e.w_p_j + e.r_p_j + e.pm_d_j + e.pm_p_j + e.np_d_j + e.np_p_j;
        assert!((e.eq1_j - sum).abs() < 1e-12 && e.eq1_j > 0.0);
        // PCM has no static power in the preset; DRAM does.
        assert!(e.static_dram_j > 0.0 && e.static_pcm_j == 0.0);
        assert!(tm.pcm_write_bytes > 0 && tm.pcm_lifetime_years.unwrap() > 0.0);
    }
}

#[test]
fn clock_dwf_serves_every_write_in_dram() {
    let t = sqlite();
    let r = run_cfg(&t, "clock-dwf", 400, |c| c.tiers = tiers(0.9, 64));
    let tm = r.meters.tiers.unwrap();
    assert_eq!(tm.pcm.writes, 0);
    assert!(tm.dram.writes > 0 && tm.promotions > 0);
}

fn write_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mobmem-tiers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::File::create(&p).unwrap().write_all(text.as_bytes()).unwrap();
    p
}

#[test]
fn process_classes_from_an_adj_column_and_from_a_side_file() {
    // pid 1 foreground until access 4, then background; pid 2 always background.
    let csv = "page,op,pid,adj\n1,R,1,0\n2,W,2,900\n1,R,1,\n3,R,1,\n1,R,1,700\n3,W,1,\n2,R,2,\n";
    let p = write_file("adj.csv", csv);
    let t = read_trace(&p, &ReadOptions::default()).unwrap();
    let procs = t.procs.clone().unwrap();
    assert_eq!(procs.initial.get(&1), Some(&0));
    assert_eq!(procs.adj_at(1, 3), Some(0));
    assert_eq!(procs.adj_at(1, 4), Some(700));
    let r = run_cfg(&t, "fg-aware", 4, |c| c.tiers = tiers(0.5, 64));
    let tm = r.meters.tiers.unwrap();
    assert!(tm.process_table);
    assert_eq!((tm.critical.accesses, tm.non_critical.accesses), (3, 4));

    // The same table as a side file.
    let plain = write_file("plain.csv", "page,op,pid\n1,R,1\n2,W,2\n1,R,1\n3,R,1\n1,R,1\n3,W,1\n2,R,2\n");
    let side = write_file("procs.csv", "pid,adj,access,name\n1,0,0,chrome\n2,900,,hangouts\n1,700,4,chrome\n");
    let opts = ReadOptions { procs: Some(side.clone()), ..Default::default() };
    let t2 = read_trace(&plain, &opts).unwrap();
    assert_eq!(t2.procs, Some(procs));
    // Written as CSV and as binary, the table survives.
    for ext in ["csv", "mobt"] {
        let out = std::env::temp_dir().join(format!("mobmem-tiers-{}.{ext}", std::process::id()));
        let fmt = if ext == "csv" { "csv" } else { "binary" };
        mobmem_core::write_trace(&t2, &out, fmt, mobmem_core::trace::Compression::None).unwrap();
        let back = read_trace(&out, &ReadOptions::default()).unwrap();
        for at in 0..7 {
            for pid in [1, 2] {
                assert_eq!(back.procs.as_ref().unwrap().adj_at(pid, at), t2.procs.as_ref().unwrap().adj_at(pid, at));
            }
        }
        std::fs::remove_file(out).ok();
    }
}

#[test]
fn process_table_errors_name_file_line_and_value() {
    let plain = write_file("p2.csv", "page,op,pid\n1,R,1\n2,W,2\n");
    let cases = [
        ("pid,adj\n1,0\n", "pid 2"),
        ("pid,adj\n1,0\n2,abc\n", ":3: adj \"abc\""),
        ("pid,adj\n1,0\n2,5000\n", "5000"),
        ("pid,adj,colour\n", "unknown column \"colour\""),
        ("pid,adj,time_ns\n1,0,5\n", "needs a trace with times"),
        ("adj\n0\n", "required column \"pid\""),
        ("pid,adj\n1,0,7\n", ":2: expected 2 fields"),
        ("", "empty process table"),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let side = write_file(&format!("bad{i}.csv"), text);
        let opts = ReadOptions { procs: Some(side.clone()), ..Default::default() };
        let e = read_trace(&plain, &opts).unwrap_err().to_string();
        assert!(e.contains(want), "{text:?}: {e}");
    }
    let bad = write_file("badadj.csv", "page,op,pid,adj\n1,R,1,x\n");
    let e = read_trace(&bad, &ReadOptions::default()).unwrap_err().to_string();
    assert!(e.contains("badadj.csv:2") && e.contains("\"x\""), "{e}");
    // An adj column that misses a pid.
    let partial = write_file("partial.csv", "page,op,pid,adj\n1,R,1,0\n2,R,2,\n");
    let e = read_trace(&partial, &ReadOptions::default()).unwrap_err().to_string();
    assert!(e.contains("pid 2"), "{e}");
    // A table in the trace and a side file: ambiguous.
    let both = write_file("both.csv", "page,op,pid,adj\n1,R,1,0\n");
    let side = write_file("side.csv", "pid,adj\n1,0\n");
    let e = read_trace(&both, &ReadOptions { procs: Some(side), ..Default::default() }).unwrap_err().to_string();
    assert!(e.contains("one place"), "{e}");
}

#[test]
fn bad_tier_configs_are_errors() {
    let t = trace(&[(1, Read), (2, Write)]);
    let cat = Catalog::builtin();
    let go = |f: &dyn Fn(&mut SimConfig)| {
        let mut c = SimConfig::new(MemorySize::Pages(4));
        f(&mut c);
        simulate(&t, &t.stats(4096), &c, &cat).unwrap_err()
    };
    let e = go(&|c| c.policy = "fg-aware".into());
    assert!(matches!(&e, Error::Config { field, .. } if field == "policy"), "{e}");
    let e = go(&|c| c.tiers = tiers(1.5, 64));
    assert!(e.to_string().contains("tiers.pcm_share"), "{e}");
    let e = go(&|c| c.tiers = tiers(0.5, 100));
    assert!(e.to_string().contains("tiers.access_bytes"), "{e}");
    let e = go(&|c| {
        c.tiers = Some(TierConfig { pcm: "nope".into(), ..Default::default() });
    });
    assert!(e.to_string().contains("unknown memory tier"), "{e}");
    let e = go(&|c| {
        c.tiers = tiers(0.5, 64);
        c.swap = "lpddr2-pcm".into();
        c.direct_read = true;
    });
    assert!(e.to_string().contains("direct_read"), "{e}");
    let e = go(&|c| {
        c.tiers = tiers(0.5, 64);
        c.policy = "fg-aware".into();
        c.params.insert("hot_count".into(), toml::Value::Integer(-1));
    });
    assert!(e.to_string().contains("params"), "{e}");
}

#[test]
fn user_tiers_from_a_devices_file() {
    let mut cat = Catalog::builtin();
    let text = "[tiers.slow-pcm]\nkind = \"nvm\"\nread_ns = 200\nwrite_ns = 4000\nread_nj_per_bit = 0.2\n\
                write_nj_per_bit = 2\n";
    cat.add_toml(text, std::path::Path::new("mine.toml")).unwrap();
    assert_eq!(cat.tier("slow-pcm", "tiers.pcm").unwrap().write_ns, 4000.0);
    let e = cat
        .add_toml(
            "[tiers.x]\nkind = \"flash\"\nread_ns = 1\nwrite_ns = 1\nread_nj_per_bit = 0\nwrite_nj_per_bit = 0\n",
            std::path::Path::new("m.toml"),
        )
        .unwrap_err();
    assert!(e.to_string().contains("tiers.x.kind"), "{e}");
    let _ = ProcTable::default();
}
