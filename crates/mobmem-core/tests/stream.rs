//! Streamed runs: a trace replayed while it is read gives the counts and statistics of the same
//! trace replayed from memory, whatever its format; chunks put the accesses back together exactly;
//! what cannot stream says why. Runs that follow processes, in chunks: `replay/tests.rs`.

mod common;

use common::data;
use mobmem_core::trace::stream;
use mobmem_core::trace::{Compression, Trace};
use mobmem_core::{read_trace, simulate, simulate_stream, write_trace, Catalog, MemorySize, ReadOptions, SimConfig};
use std::path::{Path, PathBuf};

/// A directory of this test process's own, for the formats written here.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mobmem-stream-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn cfg(policy: &str, memory: &str) -> SimConfig {
    SimConfig { policy: policy.into(), ..SimConfig::new(memory.parse::<MemorySize>().unwrap()) }
}

/// Committed traces in each readable format: text, Lackey, and the start of a generated app's
/// trace (kinds, a process) as CSV and binary.
fn traces(dir: &Path) -> Vec<PathBuf> {
    let mut t = read_trace(&data("corpus/social-feed.txt.zst"), &ReadOptions::default()).unwrap();
    t.accesses.truncate(300_000);
    let (csv, bin) = (dir.join("social.csv"), dir.join("social.mobt"));
    write_trace(&t, &csv, "csv", Compression::None).unwrap();
    write_trace(&t, &bin, "binary", Compression::None).unwrap();
    vec![data("sqlite_60k.txt.zst"), data("lackey_true.txt.zst"), csv, bin]
}

#[test]
fn chunks_put_the_accesses_back_together() {
    let dir = scratch("chunks");
    for path in traces(&dir) {
        let whole = read_trace(&path, &ReadOptions::default()).unwrap();
        for chunk in [1, 999, 1 << 20] {
            let mut got: Vec<u32> = Vec::new();
            let mut firsts = Vec::new();
            let (meta, n) = stream::read(&path, &ReadOptions::default(), chunk, &mut |w, first| {
                firsts.push(first);
                got.extend_from_slice(w);
                Ok(())
            })
            .unwrap();
            assert_eq!(got, &whole.accesses[..], "{} in chunks of {chunk}", path.display());
            assert!(meta.accesses.is_empty() && meta.times.is_none() && n == whole.len() as u64);
            assert_eq!((meta.page_numbers, meta.page_kinds), (whole.page_numbers.clone(), whole.page_kinds.clone()));
            assert!(firsts.windows(2).all(|f| f[1] - f[0] == chunk.min(whole.len()) as u64), "{chunk}");
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

fn same_run(path: &Path, c: &SimConfig) {
    let t: Trace = read_trace(path, &ReadOptions::default()).unwrap();
    let whole = simulate(&t, &t.stats(c.page_size), c, &Catalog::builtin()).unwrap();
    let streamed = simulate_stream(path, &ReadOptions::default(), c, &Catalog::builtin()).unwrap();
    assert_eq!(streamed.meters, whole.meters, "{} {} {}", path.display(), c.policy, c.memory);
    assert_eq!(streamed.trace, whole.trace, "{}", path.display());
}

#[test]
fn a_streamed_run_counts_what_a_run_from_memory_counts() {
    let dir = scratch("runs");
    for path in traces(&dir) {
        for &policy in mobmem_core::policy::NAMES.iter().filter(|&&p| p != "opt") {
            for memory in ["10%", "40%"] {
                same_run(&path, &cfg(policy, memory));
            }
        }
    }
    // Many chunks of 1 M accesses, with swap and a small area.
    let gzip = data("captures/gzip6_150k.txt.zst");
    for policy in ["clock", "linux-2q"] {
        let mut c = cfg(policy, "20%");
        c.swap_size = Some(MemorySize::Percent(50.0));
        same_run(&gzip, &c);
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn what_cannot_stream_says_why() {
    let path = data("sqlite_60k.txt.zst");
    let run = |c: &SimConfig| simulate_stream(&path, &ReadOptions::default(), c, &Catalog::builtin());
    let e = run(&cfg("opt", "10%")).unwrap_err().to_string();
    assert!(e.contains("opt looks ahead") && e.contains("60000 accesses") && e.contains("1 MiB"), "{e}");
    let mut a = cfg("clock", "10%");
    a.swap_admission = "a2s".into();
    // A2S streams, but decides by processes: a trace with no process table cannot run it.
    let e = run(&a).unwrap_err().to_string();
    assert!(e.contains("swap_admission") && e.contains("has no process table"), "{e}");
    let e = simulate_stream(&data("nope.txt"), &ReadOptions::default(), &cfg("clock", "10%"), &Catalog::builtin());
    assert!(e.unwrap_err().to_string().contains("nope.txt"));
}
