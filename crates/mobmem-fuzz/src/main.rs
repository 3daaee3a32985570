//! `mobmem-fuzz`: the fuzzing harness of mobmem's readers.
//!
//! ```text
//! mobmem-fuzz run [--seconds N] [--targets a,b] [--jobs J] [--seed S] [--out DIR]
//!                 [--memory-mib M] [--timeout-s T]     mutate seeds, keep what fails in DIR
//! mobmem-fuzz replay DIR [--memory-mib M] [--timeout-s T]   every kept input must pass
//! mobmem-fuzz targets                                        the targets and their seeds
//! ```
//! An input fails when its worker aborts or dies (over the address-space limit: "memory"),
//! answers nothing within the time limit ("hang"), panics, reports a broken invariant, or refuses
//! a malformed file without naming it. Why a mutation harness of our own and not `cargo fuzz`:
//! cargo fuzz needs a nightly compiler for its sanitizer flags and a C++ libFuzzer build, neither
//! of which this project's machines and CI have; this one runs on the stable toolchain, checks the
//! three failure classes the project defines (crash, > 10 s, > 1 GiB) in one process tree with
//! real limits, and its mutations know the formats (header words, number tokens at the edges of
//! their types, checksums fixed up so damage reaches the fields behind them).

mod mutate;
mod targets;
mod worker;

use mutate::{compress, mutate, Rng};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use targets::TARGETS;
use worker::{Verdict, Worker};

struct Opts {
    seconds: f64,
    targets: Vec<usize>,
    jobs: usize,
    seed: u64,
    out: Option<PathBuf>,
    corpus: Vec<PathBuf>,
    memory_mib: u64,
    timeout: Duration,
}

fn usage() -> ! {
    eprintln!(
        "usage: mobmem-fuzz run [--seconds N] [--targets a,b] [--jobs J] [--seed S] [--out DIR] [--corpus DIR] \
         [--memory-mib M] [--timeout-s T]\n       mobmem-fuzz replay DIR [--memory-mib M] [--timeout-s T]\n       \
         mobmem-fuzz targets"
    );
    std::process::exit(2)
}

fn parse(args: &[String]) -> (Vec<String>, Opts) {
    let mut o = Opts {
        seconds: 60.0,
        targets: (0..TARGETS.len()).collect(),
        jobs: 2,
        seed: 1,
        out: None,
        corpus: Vec::new(),
        memory_mib: 1024,
        timeout: Duration::from_secs(10),
    };
    let mut pos = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().unwrap_or_else(|| usage());
        let num = |s: String| s.parse::<f64>().ok().filter(|v| *v >= 0.0 && v.is_finite()).unwrap_or_else(|| usage());
        match a.as_str() {
            "--seconds" => o.seconds = num(val()),
            "--jobs" => o.jobs = (num(val()) as usize).max(1),
            "--seed" => o.seed = num(val()) as u64,
            "--memory-mib" => o.memory_mib = num(val()) as u64,
            "--timeout-s" => o.timeout = Duration::from_secs_f64(num(val())),
            "--out" => o.out = Some(val().into()),
            "--corpus" => o.corpus.push(val().into()),
            "--targets" => {
                o.targets = val()
                    .split(',')
                    .map(|n| {
                        targets::by_name(n.trim()).unwrap_or_else(|| {
                            eprintln!("mobmem-fuzz: unknown target {n:?}");
                            usage()
                        })
                    })
                    .collect()
            }
            s if s.starts_with("--") => usage(),
            s => pos.push(s.to_string()),
        }
    }
    (pos, o)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (pos, opts) = parse(&args);
    let code = match pos.first().map(String::as_str) {
        Some("worker") => match worker::serve() {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("mobmem-fuzz worker: {e}");
                1
            }
        },
        Some("run") => run(&opts),
        Some("replay") if pos.len() == 2 => replay(Path::new(&pos[1]), &opts),
        Some("targets") => {
            for t in TARGETS.iter() {
                println!("{:<14} {} seeds, input written as {}", t.name, (t.seeds)().len(), t.file);
            }
            0
        }
        _ => usage(),
    };
    std::process::exit(code)
}

/// Seeds of each target: its own, plus every file kept under DIR/<target>/ of the corpus folders.
fn corpus(opts: &Opts) -> Vec<Vec<Vec<u8>>> {
    TARGETS
        .iter()
        .map(|t| {
            let mut seeds = (t.seeds)();
            for dir in &opts.corpus {
                for f in files(&dir.join(t.name)) {
                    let Ok(b) = std::fs::read(f) else { continue };
                    // Kept inputs of a compressing target are compressed: mutate what they hold.
                    let plain = t.compress.then(|| mutate::decompress(&b)).flatten();
                    seeds.push(plain.unwrap_or(b));
                }
            }
            seeds
        })
        .collect()
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// The worker in `w`, started if there is none (`None`, said on stderr, when it cannot start).
fn running<'a>(w: &'a mut Option<Worker>, opts: &Opts, err: &Path) -> Option<&'a mut Worker> {
    if w.is_none() {
        match Worker::start(opts.memory_mib << 20, err.to_path_buf()) {
            Ok(wk) => *w = Some(wk),
            Err(e) => {
                eprintln!("mobmem-fuzz: cannot start a worker: {e}");
                return None;
            }
        }
    }
    w.as_mut()
}

#[derive(Default)]
struct Tally {
    execs: AtomicU64,
    refused: AtomicU64,
    failed: AtomicU64,
}

fn keep(out: &Option<PathBuf>, target: usize, kind: &str, input: &[u8]) -> String {
    let Some(dir) = out else { return String::new() };
    let t = &TARGETS[target];
    let ext = Path::new(&t.file).extension().and_then(|e| e.to_str()).unwrap_or("bin");
    let path = dir.join(t.name).join(format!("{kind}-{:016x}.{ext}", xxhash_rust::xxh3::xxh3_64(input)));
    let _ = std::fs::create_dir_all(path.parent().expect("has a parent"));
    let _ = std::fs::write(&path, input);
    format!(" (kept as {})", path.display())
}

fn run(opts: &Opts) -> i32 {
    let seeds = corpus(opts);
    let tallies: Vec<Tally> = TARGETS.iter().map(|_| Tally::default()).collect();
    let stop = AtomicBool::new(false);
    let log = Mutex::new(());
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(opts.seconds);
    std::thread::scope(|s| {
        for job in 0..opts.jobs {
            let (seeds, tallies, stop, log) = (&seeds, &tallies, &stop, &log);
            s.spawn(move || {
                let mut rng = Rng::new(opts.seed.wrapping_mul(1000).wrapping_add(job as u64));
                let err = std::env::temp_dir().join(format!("mobmem-fuzz-{}-{job}.stderr", std::process::id()));
                let mut w: Option<Worker> = None;
                let mut i = job;
                while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
                    let target = opts.targets[i % opts.targets.len()];
                    i += 1;
                    let pool = &seeds[target];
                    if pool.is_empty() {
                        continue;
                    }
                    let (a, b) = (&pool[rng.below(pool.len())], &pool[rng.below(pool.len())]);
                    let mut input = mutate(&mut rng, a, b);
                    if TARGETS[target].compress {
                        input = compress(&mut rng, &input);
                    }
                    let Some(wk) = running(&mut w, opts, &err) else {
                        stop.store(true, Ordering::Relaxed);
                        return;
                    };
                    let (mut verdict, alive) = wk.run(target, &input, opts.timeout);
                    if !alive || matches!(verdict, Verdict::Failed { .. }) {
                        w = None;
                    }
                    if let Verdict::Failed { kind: "hang" | "memory" | "crash", .. } = verdict {
                        // Confirmed on a fresh worker: not leftover state, nor a machine busy elsewhere.
                        if let Ok(mut fresh) = Worker::start(opts.memory_mib << 20, err.clone()) {
                            verdict = fresh.run(target, &input, opts.timeout).0;
                        }
                    }
                    let t = &tallies[target];
                    t.execs.fetch_add(1, Ordering::Relaxed);
                    match verdict {
                        Verdict::Accepted => {}
                        Verdict::Refused(_) => {
                            t.refused.fetch_add(1, Ordering::Relaxed);
                        }
                        Verdict::Failed { kind, detail } => {
                            t.failed.fetch_add(1, Ordering::Relaxed);
                            let kept = keep(&opts.out, target, kind, &input);
                            let _g = log.lock();
                            eprintln!("FAIL {} {kind}: {detail}{kept}", TARGETS[target].name);
                        }
                    }
                }
            });
        }
    });
    let secs = start.elapsed().as_secs_f64();
    let (mut execs, mut failed) = (0, 0);
    for (t, tally) in TARGETS.iter().zip(&tallies) {
        let (e, r, f) = (
            tally.execs.load(Ordering::Relaxed),
            tally.refused.load(Ordering::Relaxed),
            tally.failed.load(Ordering::Relaxed),
        );
        if e > 0 {
            println!("{:<14} {e:>9} inputs, {r:>9} refused with a clear error, {f} failed", t.name);
        }
        execs += e;
        failed += f;
    }
    println!(
        "fuzz: {execs} inputs in {secs:.0} s ({:.0} execs/s, {} jobs), {failed} failed; \
         limits {} MiB and {} s per input; largest worker RSS {} MiB",
        execs as f64 / secs.max(1e-9),
        opts.jobs,
        opts.memory_mib,
        opts.timeout.as_secs_f64(),
        worker::peak_child_rss() >> 20
    );
    i32::from(failed > 0)
}

/// Runs every file under DIR/<target>/ once; each must be accepted or refused cleanly.
fn replay(dir: &Path, opts: &Opts) -> i32 {
    let err = std::env::temp_dir().join(format!("mobmem-fuzz-replay-{}.stderr", std::process::id()));
    let (mut n, mut failed) = (0, 0);
    let mut w: Option<Worker> = None;
    for (ti, t) in TARGETS.iter().enumerate() {
        for f in files(&dir.join(t.name)) {
            let Ok(input) = std::fs::read(&f) else { continue };
            let Some(wk) = running(&mut w, opts, &err) else { return 1 };
            let t0 = Instant::now();
            let (verdict, alive) = wk.run(ti, &input, opts.timeout);
            if !alive || matches!(verdict, Verdict::Failed { .. }) {
                w = None;
            }
            n += 1;
            let ms = t0.elapsed().as_secs_f64() * 1e3;
            match verdict {
                Verdict::Failed { kind, detail } => {
                    failed += 1;
                    println!("FAIL {} {kind}: {detail}", f.display());
                }
                Verdict::Refused(m) => {
                    println!("ok   {} ({ms:.0} ms) refused: {}", f.display(), m.lines().next().unwrap_or(""))
                }
                Verdict::Accepted => println!("ok   {} ({ms:.0} ms) accepted", f.display()),
            }
        }
    }
    drop(w);
    println!(
        "replay: {n} inputs, {failed} failed (limits {} MiB, {} s); largest worker RSS {} MiB",
        opts.memory_mib,
        opts.timeout.as_secs_f64(),
        worker::peak_child_rss() >> 20
    );
    i32::from(failed > 0 || n == 0)
}
