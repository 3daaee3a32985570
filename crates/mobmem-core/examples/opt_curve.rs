//! OPT's whole miss-ratio curve against one OPT run, side by side in one process (bench/, not a
//! test): the critical markers (`mrc::opt::markers`), Mattson's walk (`mrc::opt::walk`) and one
//! `simulate` with OPT at 10% of the footprint, best of three, alternated, on generated traces of
//! 20,000, 40,000, 100,000 and 1,000,000 pages and on the sqlite3 capture (655 pages).
//! (`mrc::opt::curve` takes the walk up to `WALK_MAX_PAGES`, the markers above.)
//!
//!     cargo run --release -p mobmem-core --example opt_curve [-- --walk-large]
//!
//! The walk is O(distance) per access: on the 1,000,000-page trace it takes hours, so it runs
//! there only with `--walk-large`.

use mobmem_core::mrc::opt;
use mobmem_core::trace::gen::GenParams;
use mobmem_core::{read_trace, simulate, Catalog, MemorySize, ReadOptions, SimConfig};
use std::path::Path;
use std::time::Instant;

fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut out = None;
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let start = Instant::now();
        let r = f();
        best = best.min(start.elapsed().as_secs_f64());
        out = Some(r);
    }
    (best, out.expect("at least one run"))
}

fn main() {
    let walk_large = std::env::args().any(|a| a == "--walk-large");
    println!("| trace | one OPT run at 10% (s) | critical markers (s) | markers ÷ run | walk (s) | walk ÷ markers |");
    println!("|---|---:|---:|---:|---:|---:|");
    let traces =
        [(0u64, 0u64), (20_000, 18_000_000), (40_000, 10_000_000), (100_000, 6_000_000), (1_000_000, 60_000_000)];
    for (pages, accesses) in traces {
        // (0, 0): the sqlite3 capture, whose distances are short.
        let (t, name) = if pages == 0 {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/captures/sqlite3_btree.txt.zst");
            (read_trace(&path, &ReadOptions::default()).unwrap(), "sqlite3_btree capture".to_string())
        } else {
            let t = GenParams { footprint_pages: pages, accesses, seed: 1, ..GenParams::default() }.generate().unwrap();
            (t, format!("generated {}M accesses, {pages} pages", accesses / 1_000_000))
        };
        let pages = t.num_pages() as u64;
        let stats = t.stats(4096);
        let cfg = SimConfig { policy: "opt".into(), ..SimConfig::new(MemorySize::Pages(pages / 10)) };
        let cat = Catalog::builtin();
        let walk = pages < 1_000_000 || walk_large;
        let (mut run_s, mut curve_s, mut walk_s) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
        for _ in 0..3 {
            let (s, r) = best(1, || simulate(&t, &stats, &cfg, &cat).unwrap());
            run_s = run_s.min(s);
            let (s, c) = best(1, || opt::markers(&t));
            curve_s = curve_s.min(s);
            assert_eq!(c.at(pages / 10), r.meters.faults, "the curve at 10% is the run's");
            if walk {
                let (s, w) = best(1, || opt::walk(&t));
                walk_s = walk_s.min(s);
                assert_eq!(w, c, "the walk and the critical markers agree");
            }
        }
        let (w, ratio) = if walk {
            (format!("{walk_s:.2}"), format!("{:.1}×", walk_s / curve_s))
        } else {
            ("—".into(), "—".into())
        };
        println!("| {name} | {run_s:.2} | {curve_s:.2} | {:.2}× | {w} | {ratio} |", curve_s / run_s);
    }
}
