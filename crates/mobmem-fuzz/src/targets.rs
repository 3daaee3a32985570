//! What is fuzzed: every reader of outside input, each as one target with its seed inputs. A
//! target gets a file holding the input and runs it as a user's command would: read it, and where
//! it reads whole, run a small simulation on what it read (an input that parses may still be
//! absurd). It returns the core's error when the input is refused. Trace readers are also read
//! streamed, which must agree with the whole read.

use mobmem_core::system::{AppCatalog, Phone, PhoneRun, Phones, UsageTrace};
use mobmem_core::trace::formats::{self, FormatEntry};
use mobmem_core::trace::{stream, write_trace, Compression};
use mobmem_core::{read_trace, Catalog, Error, ReadOptions, Result, RunFile, SimConfig, Trace};
use std::path::Path;
use std::sync::LazyLock;

/// How a target runs an input: the core's error when it is refused.
pub type RunFn = Box<dyn Fn(&Path, &Ctx) -> Result<()> + Send + Sync + std::panic::RefUnwindSafe>;

/// One fuzz target: a name, the file name its input is written to, seeds, and how it runs.
pub struct Target {
    pub name: &'static str,
    pub file: String,
    pub seeds: Box<dyn Fn() -> Vec<Vec<u8>> + Send + Sync>,
    pub run: RunFn,
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

/// The registry: a target for each trace format of the core's registry (a new format is fuzzed
/// with no line here), then one line a reader of another kind.
pub static TARGETS: LazyLock<Vec<Target>> = LazyLock::new(|| {
    let mut targets: Vec<Target> = formats::REGISTRY.iter().map(format_target).collect();
    let mut add = |name, file: &str, seeds: fn() -> Vec<Vec<u8>>, run: fn(&Path, &Ctx) -> Result<()>| {
        targets.push(Target { name, file: file.into(), seeds: Box::new(seeds), run: Box::new(run), compress: false });
    };
    add("procs", "procs.csv", procs_seeds, procs);
    add("usage", "usage.csv", usage_seeds, usage);
    add("run-toml", "run.toml", run_seeds, run_file);
    add("devices-toml", "devices.toml", devices_seeds, devices);
    add("phones-toml", "phones.toml", phones_seeds, phones);
    add("apps-toml", "apps.toml", apps_seeds, apps);
    targets.insert(
        formats::REGISTRY.len(),
        Target {
            name: "compressed",
            file: "in.trace".into(),
            seeds: Box::new(all_trace_seeds),
            run: Box::new(|p, _| trace_as(p, None)),
            compress: true,
        },
    );
    targets
});

/// A trace format's target: its input named by its first extension, its seeds the format's
/// examples (or, for a format with none, the other formats' examples written in it).
fn format_target(f: &'static FormatEntry) -> Target {
    let ext = f.extensions.first().map_or(f.name, |e| e.trim_start_matches('.'));
    Target {
        name: f.name,
        file: format!("in.{ext}"),
        seeds: Box::new(move || format_seeds(f)),
        run: Box::new(move |p, _| trace_as(p, Some(f.name))),
        compress: false,
    }
}

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

fn format_seeds(f: &FormatEntry) -> Vec<Vec<u8>> {
    if !f.examples.is_empty() || f.write.is_none() {
        return bytes(f.examples);
    }
    // Written by the writer itself, from the other formats' examples (so every column is present).
    let dir = std::env::temp_dir().join(format!("mobmem-fuzz-seeds-{}-{}", f.name, std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let mut out = Vec::new();
    let others = formats::REGISTRY.iter().filter(|o| o.name != f.name);
    for (i, (o, s)) in others.flat_map(|o| o.examples.iter().map(move |s| (o, s))).enumerate() {
        let src = dir.join(format!("s{i}.in"));
        let dst = dir.join(format!("s{i}.out"));
        if std::fs::write(&src, s).is_err() {
            continue;
        }
        let opts = ReadOptions { format: Some(o.name.into()), ..Default::default() };
        if let Ok(t) = read_trace(&src, &opts) {
            if write_trace(&t, &dst, f.name, Compression::None).is_ok() {
                out.extend(std::fs::read(&dst).ok());
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    out
}

fn all_trace_seeds() -> Vec<Vec<u8>> {
    formats::REGISTRY.iter().flat_map(format_seeds).collect()
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
