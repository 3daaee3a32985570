//! Sampled miss-ratio curves: a sample of every page is the exact curve (SHARDS equals the one-pass
//! LRU curve, a miniature simulation equals `simulate` for every policy), samples are deterministic
//! in the seed and hold their size, and at 10% of a 4,000-page trace every policy's curve is within
//! 0.02 of the exact one on average.

mod common;

use common::{data, run};
use mobmem_core::mrc::{exact, mini, shards, Reading, Sample, Sampling};
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
    assert_eq!(a.sampled_pages, 300, "the heap keeps exactly the size (the hash is one-to-one)");
    assert_eq!(a.rate, 300.0 / t.num_pages() as f64, "realized: the sample's share of the pages");
    assert!(a.nominal_rate > a.rate * 0.5 && a.nominal_rate < a.rate * 2.0, "R = {}", a.nominal_rate);
    let p = t.num_pages() as u64;
    for (size, pages) in [(1, 1), (p - 1, p - 1), (p, p), (p + 10, p)] {
        let e = shards::lru(&t, &Sample::new(Sampling::Size(size), 3)).unwrap();
        assert_eq!(e.sampled_pages, pages, "a sample of {size} pages");
        assert!(e.miss_ratio.iter().all(|m| (0.0..=1.0).contains(m)), "size {size}");
    }
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
    // Averaged over six seeds: one sample of 400 pages can draw a hot or cold share of them.
    const SEEDS: u64 = 6;
    let t = generated();
    let n = t.len() as f64;
    let sizes = mini::grid(t.num_pages() as u64, 10);
    let mae =
        |est: &[f64], exact: &[f64]| est.iter().zip(exact).map(|(a, b)| (a - b).abs()).sum::<f64>() / est.len() as f64;
    let lru = exact(&t, "lru").unwrap();
    let lru_at: Vec<f64> = sizes.iter().map(|&s| lru.at(s) as f64 / n).collect();
    let shards_mae = (0..SEEDS)
        .map(|seed| {
            let e = shards::lru(&t, &Sample::new(Sampling::Rate(0.1), seed)).unwrap();
            let at: Vec<f64> = sizes.iter().map(|&s| e.miss_ratio[s as usize - 1]).collect();
            mae(&at, &lru_at)
        })
        .sum::<f64>()
        / SEEDS as f64;
    assert!(shards_mae < 0.02, "shards: {shards_mae}");
    for &policy in NAMES {
        let runs: Vec<f64> = sizes.iter().map(|&s| run(&t, policy, s).meters.faults as f64 / n).collect();
        let m = (0..SEEDS)
            .map(|seed| {
                let s = Sample::new(Sampling::Rate(0.1), seed);
                mae(&mini::curve(&t, &cfg(policy), &Catalog::builtin(), &sizes, &s, 2).unwrap().miss_ratio, &runs)
            })
            .sum::<f64>()
            / SEEDS as f64;
        assert!(m < 0.02, "{policy}: mean absolute error {m}");
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
fn the_readings_differ_only_in_their_rate_and_divisor() {
    let t = generated();
    let n = t.len() as f64;
    let sizes = mini::grid(t.num_pages() as u64, 10);
    for sampling in [Sampling::Rate(0.1), Sampling::Size(500)] {
        let at = |reading| Sample { reading, ..Sample::new(sampling, 4) };
        let run = |reading| mini::curve(&t, &cfg("lru"), &Catalog::builtin(), &sizes, &at(reading), 2).unwrap();
        let (real, adj, drawn) = (run(Reading::Realized), run(Reading::Adjusted), run(Reading::Drawn));
        assert_eq!(real, run(Reading::default()), "realized is the default");
        let k = real.sampled_pages as f64;
        assert!((real.rate - k / t.num_pages() as f64).abs() < 1e-12, "realized: the sample's share of the pages");
        assert_eq!(adj.rate, adj.nominal_rate);
        assert_ne!(real.rate, adj.rate, "the seed drew exactly R·P pages: pick another");
        // The same sizes (adjusted and drawn both scale by R): misses over R·N or over those drawn.
        let share = drawn.sampled_accesses as f64 / (n * drawn.rate);
        for (a, d) in adj.miss_ratio.iter().zip(&drawn.miss_ratio) {
            assert!((a - (d * share).min(1.0)).abs() < 1e-12, "{a} vs {d} × {share}");
        }
        // SHARDS under each reading is LRU's miniature simulation at every size.
        for (reading, m) in [(Reading::Realized, &real), (Reading::Adjusted, &adj), (Reading::Drawn, &drawn)] {
            let e = shards::lru(&t, &at(reading)).unwrap();
            for (&s, &r) in m.sizes.iter().zip(&m.miss_ratio) {
                assert!((e.miss_ratio[s as usize - 1] - r).abs() < 1e-12, "{reading:?} at {s}");
            }
        }
    }
}

#[test]
fn the_footprint_stands_for_the_whole_sample() {
    // A loop over 1,000 pages: with 1,000 frames every access after the first round hits, with
    // fewer every one misses. A sample of 100 pages is a loop over 100 slots, which the realized
    // reading maps to sizes 1 + (c − 1)·99/999 frames: 100 at c = 1,000, 99 at c = 989.
    let n_pages = 1_000u64;
    let accesses: Vec<(u64, mobmem_core::trace::Op)> =
        (0..20 * n_pages).map(|i| (i % n_pages, mobmem_core::trace::Op::Read)).collect();
    let t = common::trace(&accesses);
    for seed in 0..5 {
        let s = Sample::new(Sampling::Size(100), seed);
        let e = shards::lru(&t, &s).unwrap();
        assert!((e.rate - 0.1).abs() < 1e-12, "100 of 1,000 pages");
        let cold = 100.0 / (t.len() as f64 * e.rate);
        assert!((e.miss_ratio[999] - cold).abs() < 1e-12, "seed {seed}: {}", e.miss_ratio[999]);
        assert_eq!(e.miss_ratio[988], 1.0, "below the loop's size every access misses");
        let m = mini::curve(&t, &cfg("clock"), &Catalog::builtin(), &[989, n_pages], &s, 1).unwrap();
        assert_eq!(m.miss_ratio, vec![1.0, cold], "clock on either side of the loop's size");
    }
}

#[test]
fn the_realized_reading_errs_least() {
    // At 5% of a 4,000-page trace (about 200 pages), averaged over eight seeds: reading the sample
    // at its own share of the pages errs by less than three quarters of either reading at the
    // nominal rate (about half, measured).
    let t = generated();
    let lru = exact(&t, "lru").unwrap();
    let n = t.len() as f64;
    let sizes = mini::grid(t.num_pages() as u64, 20);
    let truth: Vec<f64> = sizes.iter().map(|&s| lru.at(s) as f64 / n).collect();
    let error = |reading| {
        (0..8)
            .map(|seed| {
                let e = shards::lru(&t, &Sample { reading, ..Sample::new(Sampling::Rate(0.05), seed) }).unwrap();
                sizes.iter().zip(&truth).map(|(&s, x)| (e.miss_ratio[s as usize - 1] - x).abs()).sum::<f64>()
                    / sizes.len() as f64
            })
            .sum::<f64>()
            / 8.0
    };
    let (real, adj, drawn) = (error(Reading::Realized), error(Reading::Adjusted), error(Reading::Drawn));
    assert!(real < 0.75 * adj.min(drawn), "realized {real}, adjusted {adj}, drawn {drawn}");
}
