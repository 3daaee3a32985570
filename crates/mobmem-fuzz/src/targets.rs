//! What is fuzzed: every reader of outside input, each as one target with its seed inputs. A
//! target gets a file holding the input and runs it as a user's command would: read it, and where
//! it reads whole, run a small simulation on what it read (an input that parses may still be
//! absurd). It returns the core's error when the input is refused. Trace readers are also read
//! streamed, which must agree with the whole read.

use mobmem_core::system::{AppCatalog, Phone, PhoneRun, Phones, UsageTrace};
use mobmem_core::trace::{stream, write_trace, Compression};
use mobmem_core::{read_trace, Catalog, Error, ReadOptions, Result, RunFile, SimConfig, Trace};
use std::path::Path;

/// One fuzz target: a name, the file name its input is written to, seeds, and how it runs.
pub struct Target {
    pub name: &'static str,
    pub file: &'static str,
    pub seeds: fn() -> Vec<Vec<u8>>,
    pub run: fn(&Path, &Ctx) -> Result<()>,
    /// Inputs are wrapped in gzip or zstd before running (the compressed-container target).
    pub compress: bool,
}

/// Files a target may need besides its input, made once per worker.
pub struct Ctx {
    /// A small trace with pids, for process tables.
    pub pid_trace: std::path::PathBuf,
    pub phones: Phones,
    pub apps: AppCatalog,
    pub devices: Catalog,
}

/// The registry: one line a target.
pub const TARGETS: &[Target] = &[
    Target { name: "text", file: "in.txt", seeds: text_seeds, run: |p, _| trace_as(p, Some("text")), compress: false },
    Target {
        name: "lackey",
        file: "in.lackey",
        seeds: lackey_seeds,
        run: |p, _| trace_as(p, Some("lackey")),
        compress: false,
    },
    Target { name: "csv", file: "in.csv", seeds: csv_seeds, run: |p, _| trace_as(p, Some("csv")), compress: false },
    Target {
        name: "binary",
        file: "in.mobt",
        seeds: binary_seeds,
        run: |p, _| trace_as(p, Some("binary")),
        compress: false,
    },
    Target {
        name: "compressed",
        file: "in.trace",
        seeds: all_trace_seeds,
        run: |p, _| trace_as(p, None),
        compress: true,
    },
    Target { name: "procs", file: "procs.csv", seeds: procs_seeds, run: procs, compress: false },
    Target { name: "usage", file: "usage.csv", seeds: usage_seeds, run: usage, compress: false },
    Target { name: "run-toml", file: "run.toml", seeds: run_seeds, run: run_file, compress: false },
    Target { name: "devices-toml", file: "devices.toml", seeds: devices_seeds, run: devices, compress: false },
    Target { name: "phones-toml", file: "phones.toml", seeds: phones_seeds, run: phones, compress: false },
    Target { name: "apps-toml", file: "apps.toml", seeds: apps_seeds, run: apps, compress: false },
];

pub fn by_name(name: &str) -> Option<usize> {
    TARGETS.iter().position(|t| t.name == name)
}

/// A phone small enough that a run on it takes milliseconds, and apps to match.
const FUZZ_PHONE: &str = r#"
[fuzzphone]
dram = "256MiB"
reserved = "32MiB"
swap = "zram-lz4"
swap_size = "64MiB"
policy = "linux-2q"
killer = "minfree"
max_cached = 4
session_s = 1.0
[[fuzzphone.system]]
name = "system"
adj = -900
anon_mib = 4.0
file_mib = 4.0
period_s = 1.0
pages = 8
"#;
const FUZZ_APPS: &str = r#"
[defaults]
size_mib = 4.0
fg_pages_per_s = 10.0
"#;

impl Ctx {
    pub fn new(dir: &Path) -> Result<Ctx> {
        let pid_trace = dir.join("pids.csv");
        std::fs::write(&pid_trace, "page,op,pid\n1,R,7\n2,W,8\n3,R,7\n1,W,9\n")
            .map_err(|e| Error::io(&pid_trace, e))?;
        let mut phones = Phones::builtin();
        phones.add_toml(FUZZ_PHONE, Path::new("<fuzz phone>"))?;
        let mut apps = AppCatalog::builtin();
        apps.add_toml(FUZZ_APPS, Path::new("<fuzz apps>"))?;
        Ok(Ctx { pid_trace, phones, apps, devices: Catalog::builtin() })
    }
}

/// Replays a trace that was read on a small memory: what `mobmem run` does next.
fn replay(t: &Trace) -> Result<()> {
    if t.len() > 2_000_000 {
        return Ok(());
    }
    let cfg: SimConfig = toml::from_str("memory = \"10%\"\npolicy = \"clock\"\nswap_size = \"100%\"")
        .map_err(|e| Error::Invariant(e.to_string()))?;
    let stats = t.stats(cfg.page_size);
    match mobmem_core::simulate(t, &stats, &cfg, &Catalog::builtin()) {
        Ok(_) | Err(Error::OutOfMemory { .. }) => Ok(()),
        Err(e) => Err(e),
    }
}

fn trace_as(path: &Path, format: Option<&str>) -> Result<()> {
    // The whole read maps the file where it can, as the command line does; the streamed read never
    // maps. The streamed read (in chunks of 7, to cross many boundaries) must agree with the whole
    // one: the same accesses, or an error both ways.
    let opts = ReadOptions { format: format.map(String::from), map: true, ..Default::default() };
    let whole = read_trace(path, &opts);
    let mut got = Vec::new();
    let streamed = stream::read(path, &opts, 7, &mut |w, _| {
        got.extend_from_slice(w);
        Ok(())
    });
    match (&whole, &streamed) {
        (Ok(t), Ok((_, n))) if t.accesses[..] == got[..] && *n == t.len() as u64 => {}
        (Err(_), Err(_)) => {}
        _ => {
            let (a, b) = (whole.as_ref().map(Trace::len), streamed.as_ref().map(|s| s.1));
            return Err(Error::Invariant(format!("a streamed read disagrees with a whole one: {a:?}, {b:?}")));
        }
    }
    replay(&whole?)
}

fn procs(path: &Path, ctx: &Ctx) -> Result<()> {
    let opts = ReadOptions { procs: Some(path.to_path_buf()), ..Default::default() };
    read_trace(&ctx.pid_trace, &opts).map(|_| ())
}

fn run_phone(ctx: &Ctx, name: &str, phones: &Phones, apps: &AppCatalog, usage: &UsageTrace) -> Result<()> {
    let phone: Phone = phones.get(name, &toml::Table::new())?;
    let r = PhoneRun { phone_name: name, phone: &phone, usage, apps, devices: &ctx.devices, seed: 1, checks: true };
    match mobmem_core::system::simulate_phone(&r) {
        Ok(_) | Err(Error::OutOfMemory { .. }) => Ok(()),
        Err(e) => Err(e),
    }
}

fn usage(path: &Path, ctx: &Ctx) -> Result<()> {
    let u = UsageTrace::load(path, None)?;
    run_phone(ctx, "fuzzphone", &ctx.phones, &ctx.apps, &u)
}

fn small_usage() -> Result<UsageTrace> {
    UsageTrace::rounds(&["a", "b", "c"], 1, false, 1, 2.0)
}

fn phones(path: &Path, ctx: &Ctx) -> Result<()> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let mut phones = Phones::builtin();
    let before: Vec<String> = phones.names().cloned().collect();
    phones.add_toml(&text, path)?;
    let names: Vec<String> =
        phones.names().filter(|n| !before.contains(n) || text.contains(n.as_str())).cloned().collect();
    let u = small_usage()?;
    for n in names.iter().take(4) {
        run_phone(ctx, n, &phones, &ctx.apps, &u)?;
    }
    Ok(())
}

fn apps(path: &Path, ctx: &Ctx) -> Result<()> {
    let mut apps = ctx.apps.clone();
    apps.load_file(path)?;
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    // Launch the apps the file names (quoted keys), else three unknown ones.
    let named: Vec<String> = text.split('"').skip(1).step_by(2).take(3).map(String::from).collect();
    let names: Vec<&str> =
        if named.len() >= 2 { named.iter().map(|s| s.as_str()).collect() } else { vec!["a", "b", "c"] };
    let u = UsageTrace::rounds(&names, 1, false, 1, 2.0)?;
    run_phone(ctx, "fuzzphone", &ctx.phones, &apps, &u)
}

fn run_file(path: &Path, _: &Ctx) -> Result<()> {
    RunFile::load(path).map(|_| ())
}

fn devices(path: &Path, _: &Ctx) -> Result<()> {
    Catalog::builtin().load_file(path)
}

fn bytes(v: &[&str]) -> Vec<Vec<u8>> {
    v.iter().map(|s| s.as_bytes().to_vec()).collect()
}

fn text_seeds() -> Vec<Vec<u8>> {
    bytes(&[
        "# a trace\n1 R\n2 W\n3 I\n1 R\n",
        "5 I\n6 r\n7\tw\n18446744073709551615 W\n",
        "1 R\r\n2 R\r\n\n# x\n4 W\n",
    ])
}

fn lackey_seeds() -> Vec<Vec<u8>> {
    bytes(&[
        "==123== Lackey\nI  04000000,3\n L 1ffefff000,8\n S 1ffefff008,8\n M 0402a000,4\n",
        "I  0400fff,4\n L 0fff,2\n M 1ffe,4096\n",
        "--1-- banner\n\nI  0,1\n",
    ])
}

fn csv_seeds() -> Vec<Vec<u8>> {
    bytes(&[
        "page,op\n1,R\n2,W\n1,I\n",
        "pid,page,op,time_ns,kind,file,adj\n1,10,R,5,file,a.so,0\n1,11,W,7,anon,,0\n2,10,I,9,,,900\n2,12,W,11,anon,,-900\n",
        "page,op,pid,adj\n1,R,7,0\n2,W,8,900\n3,R,7,200\n",
    ])
}

fn binary_seeds() -> Vec<Vec<u8>> {
    // Written by the writer itself, from the text and CSV seeds (so every column is present).
    let dir = std::env::temp_dir().join(format!("mobmem-fuzz-seeds-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let mut out = Vec::new();
    for (i, s) in text_seeds().into_iter().chain(csv_seeds()).enumerate() {
        let src = dir.join(format!("s{i}.{}", if s.contains(&b',') { "csv" } else { "txt" }));
        let dst = dir.join(format!("s{i}.mobt"));
        if std::fs::write(&src, &s).is_err() {
            continue;
        }
        if let Ok(t) = read_trace(&src, &ReadOptions::default()) {
            if write_trace(&t, &dst, "binary", Compression::None).is_ok() {
                out.extend(std::fs::read(&dst).ok());
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    out
}

fn all_trace_seeds() -> Vec<Vec<u8>> {
    [text_seeds(), lackey_seeds(), csv_seeds(), binary_seeds()].concat()
}

fn procs_seeds() -> Vec<Vec<u8>> {
    bytes(&[
        "pid,adj\n7,0\n8,900\n9,-900\n",
        "pid,adj,access\n7,0,0\n7,900,2\n8,200,1\n",
        "pid,adj,time_ns,name\n7,0,0,app\n",
    ])
}

fn usage_seeds() -> Vec<Vec<u8>> {
    bytes(&[
        "time_s,app\n0,chrome\n30,youtube\n60,chrome\n90,maps\n",
        "timestamp_seconds,app\n1700000000,a\n1700000100,b\n1700003600,a\n1700090000,c\n",
        "user,time_s,app\nx,0,a\nx,10,b\n",
    ])
}

fn run_seeds() -> Vec<Vec<u8>> {
    bytes(&[
        "[trace]\npath = \"t.txt\"\n\n[sim]\nmemory = \"10%\"\npolicy = \"clock\"\nswap = \"optane-m10\"\nswap_size = \"64MiB\"\n",
        "[trace]\npath = \"t.csv\"\nformat = \"csv\"\nskip_bad_lines = true\n[sim]\nmemory = 16\npolicy = \"2q\"\nparams = { ain_ratio = 0.3 }\n[sim.tiers]\npcm_share = 0.9\n[devices.mine]\nkind = \"nvm\"\nread_ns = 100\nwrite_ns = 300\nread_nj = 1\nwrite_nj = 2\nbackground_mw = 1\n",
    ])
}

fn devices_seeds() -> Vec<Vec<u8>> {
    bytes(&[
        "[mine]\nkind = \"flash\"\nread_ns = 100000\nwrite_ns = 200000\nread_nj = 1000\nwrite_nj = 2000\nbackground_mw = 1\ncapacity_bytes = 1000000000\nendurance_cycles = 3000\n",
        "[z]\nkind = \"zram\"\ncompression_ratio = 2.5\nread_ns = 3000\nwrite_ns = 10000\nread_nj = 3\nwrite_nj = 10\nbackground_mw = 0\n[tiers.t]\nkind = \"dram\"\nread_ns = 50\nwrite_ns = 50\nread_nj_per_bit = 0.01\nwrite_nj_per_bit = 0.01\nstatic_mw_per_gib = 10\n",
    ])
}

fn phones_seeds() -> Vec<Vec<u8>> {
    vec![FUZZ_PHONE.as_bytes().to_vec(), b"[p2]\ndram = \"1GiB\"\nreserved = \"512MiB\"\nswap = \"emmc-gt-i9300\"\nswap_size = \"128MiB\"\nkiller = \"psi\"\nmax_cached = 2\nsession_s = 0.5\n".to_vec()]
}

fn apps_seeds() -> Vec<Vec<u8>> {
    bytes(&[
        "[apps.\"a\"]\nsize_mib = 3.0\n[apps.\"b\"]\ncategory = \"game\"\nsize_mib = 5.0\nbg_period_s = 1.0\nbg_pages = 4\n",
        "[categories.tiny]\nsize_mib = 2.0\n[apps.\"x\"]\ncategory = \"tiny\"\n[apps.\"y\"]\ncategory = \"tiny\"\nanon_share = 0.9\n",
    ])
}
