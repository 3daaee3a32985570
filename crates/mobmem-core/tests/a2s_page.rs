//! A2S at the page level: a page trace with processes (a Table III category, round robin, each
//! app foreground in its turn) under every registered flat policy. Its limits are the plain swap
//! and no swap-out; an app launched fewer than `t_launched` times is never swapped.

use mobmem_core::system::categories::{category, CATEGORY_ANON_RW_SHARE};
use mobmem_core::{simulate, Catalog, MemorySize, RunResult, SimConfig, Trace};

fn trace(rounds: u32) -> Trace {
    category("news", rounds, 20_000, 7, CATEGORY_ANON_RW_SHARE).unwrap().generate().unwrap()
}

fn run(t: &Trace, policy: &str, admission: &str, params: &str) -> mobmem_core::Result<RunResult> {
    let cfg = SimConfig {
        policy: policy.into(),
        swap_admission: admission.into(),
        swap_admission_params: toml::from_str(params).unwrap(),
        ..SimConfig::new(MemorySize::Percent(30.0))
    };
    simulate(t, &t.stats(4096), &cfg, &Catalog::builtin())
}

/// Flat policies (the hybrid ones need tiers).
fn policies() -> Vec<&'static str> {
    mobmem_core::policy::NAMES.iter().copied().filter(|p| !mobmem_core::policy::needs_tiers(p)).collect()
}

#[test]
fn with_both_parts_off_a2s_is_plain_swap_for_every_policy() {
    let t = trace(4);
    for p in policies() {
        let all = run(&t, p, "all", "").unwrap();
        let off = run(&t, p, "a2s", "t_live = 2147483647\nt_reuse = inf").unwrap();
        assert!(all.meters.swap_outs > 0, "{p}: the trace must swap");
        assert_eq!(off.meters.swap_vetoes, 0, "{p}");
        let m = |r: &RunResult| serde_json::to_value(&r.meters).unwrap();
        assert_eq!(m(&off), m(&all), "{p}");
    }
}

#[test]
fn t_live_zero_never_swaps_out_for_every_policy() {
    let t = trace(4);
    for p in policies() {
        let r = run(&t, p, "a2s", "t_live = 0").unwrap();
        assert_eq!(r.meters.swap_outs, 0, "{p}");
        assert!(r.meters.reclaims_swap_closed > 0, "{p}");
        // Anon pages filled memory: the OOM killer took background apps.
        assert!(r.meters.oom_kills > 0 && r.meters.oom_kill_pages > 0, "{p}");
    }
}

#[test]
fn apps_launched_fewer_than_t_launched_times_are_never_swapped() {
    // Two rounds: every app is launched twice, below the default t_launched of 3.
    let two = trace(2);
    let r = run(&two, "clock", "a2s", "t_live = 2147483647").unwrap();
    assert_eq!(r.meters.swap_outs, 0);
    assert!(r.meters.swap_vetoes > 0);
    // With t_launched = 2 they are, and their reuse distance (4 other launches) is below 64.
    let r = run(&two, "clock", "a2s", "t_live = 2147483647\nt_launched = 2").unwrap();
    assert!(r.meters.swap_outs > 0);
    // Their one distance is 4, so their current average, (4 + launches since) / 2, is never
    // below 2: at t_reuse = 2 LVSP keeps them again.
    let r = run(&two, "clock", "a2s", "t_live = 2147483647\nt_launched = 2\nt_reuse = 2.0").unwrap();
    assert_eq!(r.meters.swap_outs, 0);
}

#[test]
fn ess_counts_the_apps_alive_at_an_apps_adj() {
    // Five apps, all live from the fifth turn on (foreground, previous, three cached): ESS holds
    // at t_live = 5, not at 6.
    let t = trace(4);
    let five = run(&t, "clock", "a2s", "t_live = 5\nt_reuse = inf").unwrap();
    let six = run(&t, "clock", "a2s", "t_live = 6\nt_reuse = inf").unwrap();
    let all = run(&t, "clock", "all", "").unwrap();
    assert!(five.meters.reclaims_swap_closed > 0 && five.meters.swap_outs < all.meters.swap_outs);
    assert_eq!((six.meters.reclaims_swap_closed, six.meters.swap_outs), (0, all.meters.swap_outs));
}

#[test]
fn admissions_by_process_need_a_process_table_and_flat_memory() {
    let mut t = trace(1);
    t.procs = None;
    let e = run(&t, "clock", "a2s", "").unwrap_err().to_string();
    assert!(e.contains("swap_admission") && e.contains("process table") && e.contains("synthetic-apps"), "{e}");
    // `off` needs none.
    assert_eq!(run(&t, "clock", "off", "").map(|r| r.meters.swap_outs).unwrap_or(0), 0);
    let t = trace(1);
    let cfg = SimConfig {
        swap_admission: "a2s".into(),
        tiers: Some(Default::default()),
        policy: "clock".into(),
        ..SimConfig::default()
    };
    let e = simulate(&t, &t.stats(4096), &cfg, &Catalog::builtin()).unwrap_err().to_string();
    assert!(e.contains("swap_admission") && e.contains("tiers"), "{e}");
    let e = run(&t, "clock", "a2s", "t_reuse = -1.0").unwrap_err().to_string();
    assert!(e.contains("t_reuse"), "{e}");
    let e = run(&t, "clock", "nope", "").unwrap_err().to_string();
    assert!(e.contains("unknown swap admission"), "{e}");
}
