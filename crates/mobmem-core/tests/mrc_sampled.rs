//! Sampled miss-ratio curves: a sample of every page is the exact curve (SHARDS equals the one-pass
//! LRU curve, a miniature simulation equals `simulate` for every policy), samples are deterministic
//! in the seed and hold their size, and at 10% of a 4,000-page trace every policy's curve is within
//! 0.02 of the exact one on average.

mod common;

use common::{data, run};
use mobmem_core::mrc::{exact, mini, shards, Sample, Sampling};
use mobmem_core::policy::NAMES;
use mobmem_core::trace::gen::GenParams;
use mobmem_core::{read_trace, Catalog, MemorySize, ReadOptions, SimConfig};

fn cfg(policy: &str) -> SimConfig {
    SimConfig { policy: policy.into(), ..SimConfig::new(MemorySize::Pages(1)) }
}

#[test]
fn a_whole_sample_is_the_exact_curve() {
    let t = read_trace(&data("sqlite_60k.txt.zst"), &ReadOptions::default()).unwrap();
    let lru = exact(&t, "lru").unwrap();
    let n = t.len() as f64;
    for sampling in [Sampling::Rate(1.0), Sampling::Size(t.num_pages() as u64)] {
        let e = shards::lru(&t, &Sample::new(sampling, 7)).unwrap();
        assert_eq!(e.rate, 1.0);
        assert_eq!(e.sampled_accesses, t.len() as u64);
        for (&s, &m) in e.sizes.iter().zip(&e.miss_ratio) {
            assert!((m * n - lru.at(s) as f64).abs() < 1e-6, "{sampling:?} at {s}: {} vs {}", m * n, lru.at(s));
        }
    }
    let sizes = mini::grid(t.num_pages() as u64, 7);
    for &policy in NAMES {
        let e = mini::curve(&t, &cfg(policy), &Catalog::builtin(), &sizes, &Sample::new(Sampling::Rate(1.0), 3), 2)
            .unwrap();
        for (&s, &m) in e.sizes.iter().zip(&e.miss_ratio) {
            let f = run(&t, policy, s).meters.faults;
            assert!((m * n - f as f64).abs() < 1e-6, "{policy} at {s}: {} vs {f}", m * n);
        }
    }
}

fn generated() -> mobmem_core::Trace {
    GenParams { footprint_pages: 4_000, accesses: 400_000, seed: 5, ..GenParams::default() }.generate().unwrap()
}

#[test]
fn samples_are_deterministic_and_hold_their_size() {
    let t = generated();
    let a = shards::lru(&t, &Sample::new(Sampling::Size(300), 1)).unwrap();
    assert_eq!(a, shards::lru(&t, &Sample::new(Sampling::Size(300), 1)).unwrap());
    assert!(a.sampled_pages <= 300 && a.rate < 300.0 / 4_000.0 * 1.5, "{} pages at {}", a.sampled_pages, a.rate);
    assert_ne!(
        a.miss_ratio,
        shards::lru(&t, &Sample::new(Sampling::Size(300), 2)).unwrap().miss_ratio,
        "the seed picks pages"
    );
    let sizes = mini::grid(t.num_pages() as u64, 10);
    let m =
        mini::curve(&t, &cfg("clock"), &Catalog::builtin(), &sizes, &Sample::new(Sampling::Size(300), 1), 1).unwrap();
    assert_eq!(m.sampled_pages, 300);
    let again =
        mini::curve(&t, &cfg("clock"), &Catalog::builtin(), &sizes, &Sample::new(Sampling::Size(300), 1), 2).unwrap();
    assert_eq!(m, again, "threads do not change the result");
}

#[test]
fn a_ten_percent_sample_is_close_for_every_policy() {
    let t = generated();
    let n = t.len() as f64;
    let sizes = mini::grid(t.num_pages() as u64, 10);
    let lru = exact(&t, "lru").unwrap();
    let e = shards::lru(&t, &Sample::new(Sampling::Rate(0.1), 0)).unwrap();
    let at: Vec<f64> = sizes.iter().map(|&s| e.miss_ratio[s as usize - 1]).collect();
    let mae = sizes.iter().zip(&at).map(|(&s, m)| (m - lru.at(s) as f64 / n).abs()).sum::<f64>() / sizes.len() as f64;
    assert!(mae < 0.02, "shards: {mae}");
    for &policy in NAMES {
        let e = mini::curve(&t, &cfg(policy), &Catalog::builtin(), &sizes, &Sample::new(Sampling::Rate(0.1), 0), 2)
            .unwrap();
        let mae = sizes
            .iter()
            .zip(&e.miss_ratio)
            .map(|(&s, m)| (m - run(&t, policy, s).meters.faults as f64 / n).abs())
            .sum::<f64>()
            / sizes.len() as f64;
        assert!(mae < 0.02, "{policy}: mean absolute error {mae}");
    }
}

#[test]
fn bad_samples_are_config_errors() {
    let t = generated();
    for s in [Sampling::Rate(0.0), Sampling::Rate(1.5), Sampling::Rate(f64::NAN), Sampling::Size(0)] {
        let e = shards::lru(&t, &Sample::new(s, 0)).unwrap_err().to_string();
        assert!(e.contains("sample"), "{e}");
    }
    let tiny = common::trace(&[(1, mobmem_core::trace::Op::Read), (2, mobmem_core::trace::Op::Read)]);
    let e = mini::curve(&tiny, &cfg("lru"), &Catalog::builtin(), &[1], &Sample::new(Sampling::Rate(1e-9), 0), 1)
        .unwrap_err();
    assert!(e.to_string().contains("keeps none"), "{e}");
    let e =
        mini::curve(&t, &cfg("lru"), &Catalog::builtin(), &[0], &Sample::new(Sampling::Rate(0.5), 0), 1).unwrap_err();
    assert!(e.to_string().contains("at least 1 frame"), "{e}");
}

#[test]
fn the_correction_lowers_the_error_over_seeds() {
    let t = generated();
    let n = t.len() as f64;
    let sizes = mini::grid(t.num_pages() as u64, 10);
    let exact: Vec<f64> = sizes.iter().map(|&s| run(&t, "lru", s).meters.faults as f64 / n).collect();
    let mae = |adjust: bool| {
        (0..6)
            .map(|seed| {
                let s = Sample { sampling: Sampling::Rate(0.1), seed, adjust };
                let e = mini::curve(&t, &cfg("lru"), &Catalog::builtin(), &sizes, &s, 2).unwrap();
                e.miss_ratio.iter().zip(&exact).map(|(a, b)| (a - b).abs()).sum::<f64>() / sizes.len() as f64
            })
            .sum::<f64>()
            / 6.0
    };
    let (with, without) = (mae(true), mae(false));
    assert!(with < without, "adjusted {with} vs drawn {without}");
}
