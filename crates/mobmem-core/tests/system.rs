//! System level end to end: app-usage traces replayed on phones.

use mobmem_core::system::usage::EMMC_APPS;
use mobmem_core::system::{simulate_phone, AppCatalog, PhoneResult, PhoneRun, Phones, UsageTrace};
use mobmem_core::Catalog;

fn run_with(phone: &str, overrides: &[(&str, toml::Value)], usage: &UsageTrace, seed: u64) -> PhoneResult {
    let phones = Phones::builtin();
    let mut o = toml::Table::new();
    for (k, v) in overrides {
        o.insert(k.to_string(), v.clone());
    }
    let p = phones.get(phone, &o).unwrap();
    let apps = AppCatalog::builtin();
    let devices = Catalog::builtin();
    simulate_phone(&PhoneRun {
        phone_name: phone,
        phone: &p,
        usage,
        apps: &apps,
        devices: &devices,
        seed,
        checks: true,
    })
    .unwrap()
}

fn emmc(random: bool) -> UsageTrace {
    UsageTrace::rounds(&EMMC_APPS, 3, random, 7, 30.0).unwrap()
}

#[test]
fn explore() {
    let reserved = std::env::var("RES").unwrap_or("564MiB".into());
    for random in [true, false] {
        for swap in ["emmc-gt-i9300", "off"] {
            let r = run_with("gt-i9300", &[("swap", swap.into()), ("reserved", reserved.clone().into())], &emmc(random), 1);
            let m = &r.meters;
            println!(
                "random={random} swap={swap}: total {:.1} s, cold {} resumed {}, kills {:?}, live mean {:.1}, first-round {:.1} s, swap out {} MB in {} MB, file {} MB, wall {:.2}s",
                m.total_launch_ms / 1e3,
                m.cold,
                m.resumed,
                m.kills,
                m.live_apps_mean,
                r.launches[..10].iter().map(|l| l.latency_ms).sum::<f64>() / 1e3,
                m.swap_out_pages * 4096 / 1_000_000,
                m.swap_in_pages * 4096 / 1_000_000,
                m.file_read_pages * 4096 / 1_000_000,
                r.wall_time_s
            );
        }
    }
}

#[test]
fn explore_policies() {
    for pol in ["clock", "lru", "linux-2q", "mglru"] {
        let r = run_with(
            "gt-i9300",
            &[("swap", "off".into()), ("policy", pol.into()), ("params", toml::Table::new().into())],
            &emmc(false),
            1,
        );
        println!(
            "{pol}: wall {:.2}s kswapd {} throttled {} direct {} touches {}",
            r.wall_time_s, r.meters.kswapd_wakes, r.meters.kswapd_throttled, r.meters.direct_reclaims, r.meters.touches
        );
    }
}
