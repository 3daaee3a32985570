//! A2S (ESS + LVSP) on a phone, end to end, with the conservation checks on: its limits are the
//! plain swap (nothing vetoed) and no swap-out at all, and in between it writes less.

use mobmem_core::system::synthetic_usage::Rare;
use mobmem_core::system::{Library, PhoneJob, PhoneResult, UsageSpec};

fn run(admission: &str, params: &str) -> PhoneResult {
    let mut o = toml::Table::new();
    // The paper's Large-like usage on its phone: 1.5 GB, a 1 GB swap file on flash.
    for (k, v) in [("dram", "1536MiB"), ("swap", "emmc-inand"), ("swap_size", "1GiB"), ("swap_admission", admission)] {
        o.insert(k.into(), v.into());
    }
    o.insert("swap_admission_params".into(), toml::from_str::<toml::Table>(params).unwrap().into());
    let usage = UsageSpec::Synthetic { apps: 36, launches: 256, reuse: 6.10, seed: 3, gap_s: 23.0, rare: Rare::NONE };
    Library::builtin().run(&PhoneJob { phone: "nexus5".into(), overrides: o, usage, seed: 3, checks: true }).unwrap()
}

fn same_run(a: &PhoneResult, b: &PhoneResult) {
    let j = |x: &PhoneResult| {
        let mut v = serde_json::to_value(x).unwrap();
        for k in ["config", "wall_time_s", "accesses_per_s"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    assert_eq!(j(a), j(b));
}

#[test]
fn with_both_parts_off_a2s_is_plain_swap() {
    // The paper's INT_MAX for both thresholds: ESS never fires, LVSP admits every page.
    let off = run("a2s", "t_live = 2147483647\nt_reuse = 2147483647.0");
    let all = run("all", "");
    assert!(all.pages.swap_outs > 0, "the scenario must swap");
    assert_eq!(off.pages.swap_vetoes, 0);
    same_run(&off, &all);
}

#[test]
fn t_live_zero_never_swaps_out() {
    let r = run("a2s", "t_live = 0");
    assert_eq!(r.pages.swap_outs, 0);
    assert!(r.pages.reclaims_swap_closed > 0);
}

#[test]
fn a2s_writes_less_than_plain_swap() {
    let (a2s, all) = (run("a2s", ""), run("all", ""));
    eprintln!(
        "a2s: {} swap-outs, {} vetoes, {} closed reclaims, {} resumes; all: {} swap-outs, {} resumes",
        a2s.pages.swap_outs,
        a2s.pages.swap_vetoes,
        a2s.pages.reclaims_swap_closed,
        a2s.meters.resumed,
        all.pages.swap_outs,
        all.meters.resumed
    );
    assert!(a2s.pages.swap_vetoes + a2s.pages.reclaims_swap_closed > 0);
    assert!(a2s.pages.swap_outs < all.pages.swap_outs, "{} vs {}", a2s.pages.swap_outs, all.pages.swap_outs);
    assert_eq!(a2s.config.swap_admission_params["t_live"], 18);
    assert_eq!(a2s.config.swap_admission_params["reuse"], "launches");
}

#[test]
fn each_part_alone_vetoes_and_bad_params_are_named() {
    let ess = run("a2s", "t_reuse = inf");
    let lvsp = run("a2s", "t_live = 2147483647");
    assert!(ess.pages.reclaims_swap_closed > 0 && ess.pages.swap_vetoes == 0);
    assert!(lvsp.pages.swap_vetoes > 0 && lvsp.pages.reclaims_swap_closed == 0);
    let mut o = toml::Table::new();
    o.insert("swap_admission".into(), "a2s".into());
    o.insert("swap_admission_params".into(), toml::from_str::<toml::Table>("t_reuse = -2.0").unwrap().into());
    let usage = UsageSpec::Synthetic { apps: 12, launches: 20, reuse: 2.0, seed: 1, gap_s: 23.0, rare: Rare::NONE };
    let e = Library::builtin()
        .run(&PhoneJob { phone: "nexus5".into(), overrides: o, usage, seed: 1, checks: false })
        .unwrap_err()
        .to_string();
    assert!(e.contains("t_reuse") && e.contains("-2"), "{e}");
}

#[test]
fn every_slot_written_ends_with_a_lifetime_or_is_valid_at_the_end() {
    for r in [run("all", ""), run("a2s", "t_live = 2147483647")] {
        let l = &r.meters.swap_lifetimes;
        assert_eq!(l.written, r.pages.swap_outs);
        assert_eq!(l.ended + l.valid_at_end, l.written);
        assert!(l.died <= l.ended && l.died > 0, "{} died of {}", l.died, l.ended);
        assert!(l.cdf_owner_death.iter().zip(&l.cdf).all(|(d, a)| d.0 == a.0 && d.1 <= a.1));
        assert!(l.ended > 0, "the scenario must free slots");
        assert!(l.cdf.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1), "{:?}", l.cdf);
        let last = l.cdf.last().unwrap().1;
        assert!(last <= l.ended as f64 / l.written as f64 + 1e-12);
        // A slot lives no longer than the run.
        assert!(l.mean_ended_s.unwrap() <= r.meters.sim_time_s);
        // CPU: the system time is its parts, user time the launches' CPU.
        let c = &r.meters.cpu;
        assert!((c.system_s - (c.swap_s + c.reclaim_s + c.fault_s + c.kill_s)).abs() < 1e-9);
        let user: f64 = r.launches.iter().map(|l| l.cpu_ms).sum::<f64>() / 1e3;
        assert!((c.user_s - user).abs() < 1e-9 && c.swap_s > 0.0);
    }
}
