//! Python bindings of mobmem-core. Thin on purpose: argument conversion, error mapping, and the
//! GIL released around every replay. Results cross as JSON text (one record per run, never per
//! access), which the Python package turns into typed objects.

use mobmem_core::error::Error;
use mobmem_core::system::categories as app_categories;
use mobmem_core::system::{Library, PhoneJob, UsageSpec};
use mobmem_core::trace::{formats, gen, hybrid_gen, Compression};
use mobmem_core::{policy, Catalog, ReadOptions, RunFile, SimConfig, Trace as CoreTrace};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// Maps a core error to the exception class of the same name in `mobmem.errors`.
fn to_py(py: Python<'_>, e: Error) -> PyErr {
    let msg = e.to_string();
    let build = || -> PyResult<PyErr> {
        let m = py.import("mobmem.errors")?;
        let exc = match &e {
            Error::Config { field, .. } => m.getattr("ConfigError")?.call1((&msg, field))?,
            Error::TraceFormat { path, line, .. } => {
                m.getattr("TraceFormatError")?.call1((&msg, path.display().to_string(), *line))?
            }
            Error::NotFound { path } => m.getattr("TraceNotFoundError")?.call1((&msg, path.display().to_string()))?,
            Error::Io { .. } => m.getattr("MobmemIOError")?.call1((&msg,))?,
            Error::OutOfMemory { .. } => m.getattr("OutOfMemoryError")?.call1((&msg,))?,
            Error::Invariant(_) => m.getattr("InvariantError")?.call1((&msg,))?,
        };
        Ok(PyErr::from_value(exc))
    };
    build().unwrap_or_else(|_| PyRuntimeError::new_err(msg))
}

/// Runs core work with the GIL released; a panic (a bug) becomes an `InvariantError` instead of
/// crossing into Python as a `PanicException`.
fn detach<T: Send>(py: Python<'_>, f: impl FnOnce() -> mobmem_core::Result<T> + Send) -> PyResult<T> {
    py.detach(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|p| {
            let what = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            Err(Error::Invariant(format!("panic: {what}")))
        })
    })
    .map_err(|e| to_py(py, e))
}

fn json_err(py: Python<'_>, e: serde_json::Error) -> PyErr {
    to_py(py, Error::config("json", e.to_string()))
}

/// A trace loaded in memory (dense page ids, 4 bytes per access).
#[pyclass(module = "mobmem._core", frozen)]
struct Trace {
    inner: Arc<CoreTrace>,
}

#[pymethods]
impl Trace {
    fn __len__(&self) -> usize {
        self.inner.len()
    }
    #[getter]
    fn num_pages(&self) -> usize {
        self.inner.num_pages()
    }
    #[getter]
    fn path(&self) -> String {
        self.inner.path.display().to_string()
    }
    #[getter]
    fn format(&self) -> &'static str {
        self.inner.format
    }
    /// SHA-256 (hex) of the file's bytes as they were read, when opened with `digest`.
    #[getter]
    fn digest(&self) -> Option<String> {
        self.inner.digest.clone()
    }
    /// Statistics as JSON.
    #[pyo3(signature = (page_size = 4096))]
    fn stats_json(&self, py: Python<'_>, page_size: u64) -> PyResult<String> {
        let t = self.inner.clone();
        let s = detach(py, move || Ok(t.stats(page_size)))?;
        serde_json::to_string(&s).map_err(|e| json_err(py, e))
    }
    /// Writes the trace in a format with a writer; compression from the name (.gz, .zst).
    fn save(&self, py: Python<'_>, path: PathBuf, format: &str) -> PyResult<()> {
        let t = self.inner.clone();
        let format = format.to_string();
        py.detach(move || mobmem_core::write_trace(&t, &path, &format, Compression::from_name(&path)))
            .map_err(|e| to_py(py, e))
    }
    /// This trace with each page's backing from its accesses: written pages anon, others file.
    fn with_kinds_from_writes(&self, py: Python<'_>) -> PyResult<Trace> {
        let t = (*self.inner).clone();
        let t = detach(py, move || Ok(t.with_kinds_from_writes()))?;
        Ok(Trace { inner: Arc::new(t) })
    }
    /// The accesses to its anon pages only (declared kinds).
    fn anon_pages_only(&self, py: Python<'_>) -> PyResult<Trace> {
        let t = self.inner.clone();
        let t = detach(py, move || Ok(t.anon_pages_only()))?;
        Ok(Trace { inner: Arc::new(t) })
    }
    /// The accesses as (page number, op letter) pairs, from `start`, at most `limit` of them.
    #[pyo3(signature = (start = 0, limit = 1000))]
    fn head(&self, start: usize, limit: usize) -> Vec<(u64, char)> {
        let t = &self.inner;
        t.accesses
            .iter()
            .skip(start)
            .take(limit)
            .map(|&a| (t.page_numbers[(a >> 2) as usize], mobmem_core::trace::Op::from_bits(a).letter()))
            .collect()
    }
}

fn catalog(py: Python<'_>, devices: Option<PathBuf>) -> PyResult<Catalog> {
    let mut c = Catalog::builtin();
    if let Some(p) = devices {
        c.load_file(&p).map_err(|e| to_py(py, e))?;
    }
    Ok(c)
}

/// Reads a trace file of any registered format (compression sniffed from its bytes); with `map`,
/// an uncompressed binary trace is mapped instead of read (`ReadOptions::map`); with `digest`, the
/// file's bytes are hashed as they are read (`Trace.digest`).
#[pyfunction]
#[pyo3(signature = (path, format = None, skip_bad_lines = false, procs = None, map = false, digest = false))]
fn open_trace(
    py: Python<'_>,
    path: PathBuf,
    format: Option<String>,
    skip_bad_lines: bool,
    procs: Option<PathBuf>,
    map: bool,
    digest: bool,
) -> PyResult<Trace> {
    let opts = ReadOptions { format, skip_bad_lines, procs, map, digest };
    let t = py.detach(move || mobmem_core::read_trace(&path, &opts)).map_err(|e| to_py(py, e))?;
    Ok(Trace { inner: Arc::new(t) })
}

/// A trace from in-memory columns: page numbers as little-endian u64 bytes, ops as bytes 0/1/2.
#[pyfunction]
fn trace_from_pages(py: Python<'_>, name: &str, pages: &[u8], ops: &[u8]) -> PyResult<Trace> {
    let pages: Vec<u64> = pages.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))).collect();
    let (name, ops) = (name.to_string(), ops.to_vec());
    let t = detach(py, move || CoreTrace::from_pages(&name, &pages, &ops))?;
    Ok(Trace { inner: Arc::new(t) })
}

/// Generates a synthetic trace from generator parameters given as JSON.
#[pyfunction]
fn generate(py: Python<'_>, params_json: &str) -> PyResult<Trace> {
    let p: gen::GenParams = mobmem_core::error::from_json("gen", params_json).map_err(|e| to_py(py, e))?;
    let t = detach(py, move || p.generate())?;
    Ok(Trace { inner: Arc::new(t) })
}

/// A DR. Swap Table III category as a round-robin multi-app trace (one pid per app).
#[pyfunction]
#[pyo3(signature = (name, rounds, accesses_per_turn, seed, anon_rw_share = app_categories::CATEGORY_ANON_RW_SHARE))]
fn generate_category(
    py: Python<'_>,
    name: &str,
    rounds: u32,
    accesses_per_turn: u64,
    seed: u64,
    anon_rw_share: f64,
) -> PyResult<Trace> {
    let w = app_categories::category(name, rounds, accesses_per_turn, seed, anon_rw_share).map_err(|e| to_py(py, e))?;
    let t = detach(py, move || w.generate())?;
    Ok(Trace { inner: Arc::new(t) })
}

/// A hybrid DRAM+PCM paper workload (Table 2) as a multi-process buffer-cache trace.
#[pyfunction]
fn generate_hybrid(py: Python<'_>, params_json: &str) -> PyResult<Trace> {
    let g: hybrid_gen::HybridGen = mobmem_core::error::from_json("workload", params_json).map_err(|e| to_py(py, e))?;
    let t = detach(py, move || g.generate())?;
    Ok(Trace { inner: Arc::new(t) })
}

/// Table 2 of the hybrid paper: (workload, critical requests, non-critical requests, about).
#[pyfunction]
fn hybrid_workloads() -> Vec<(&'static str, u64, u64, &'static str)> {
    hybrid_gen::workloads().iter().map(|w| (w.name.as_str(), w.critical, w.non_critical, w.about.as_str())).collect()
}

/// Table III: category → [(app, size MiB)].
#[pyfunction]
fn categories() -> Vec<(String, Vec<(String, f64)>)> {
    app_categories::categories()
}

/// The DR. Swap paper's energy of a swap area (eqs. 1–14) as JSON.
#[pyfunction]
#[pyo3(signature = (model, n_rd, n_wr, t_total_s, swap_bytes, page_bytes = 4096, devices = None))]
#[allow(clippy::too_many_arguments)]
fn swap_energy(
    py: Python<'_>,
    model: &str,
    n_rd: u64,
    n_wr: u64,
    t_total_s: f64,
    swap_bytes: u64,
    page_bytes: u64,
    devices: Option<PathBuf>,
) -> PyResult<String> {
    if !(t_total_s > 0.0 && t_total_s.is_finite()) {
        return Err(to_py(py, Error::config("duration", format!("{t_total_s} is not a positive duration"))));
    }
    let c = catalog(py, devices)?;
    let m = c.model(model).map_err(|e| to_py(py, e))?;
    let e = m.evaluate(model, n_rd, n_wr, page_bytes, t_total_s, swap_bytes);
    serde_json::to_string(&e).map_err(|e| json_err(py, e))
}

/// The energy models (Table II presets) as JSON.
#[pyfunction]
fn energy_models(py: Python<'_>) -> PyResult<String> {
    let c = Catalog::builtin();
    let m: std::collections::BTreeMap<_, _> = c.models().collect();
    serde_json::to_string(&m).map_err(|e| json_err(py, e))
}

/// Generator parameters of a named preset, as JSON.
#[pyfunction]
fn preset_params(py: Python<'_>, name: &str) -> PyResult<String> {
    let p = gen::preset(name).map_err(|e| to_py(py, e))?;
    serde_json::to_string(&p.params()).map_err(|e| json_err(py, e))
}

#[pyfunction]
fn preset_names() -> Vec<&'static str> {
    gen::PRESETS.iter().map(|p| p.name).collect()
}

/// Default generator parameters, as JSON.
#[pyfunction]
fn default_gen_params() -> String {
    serde_json::to_string(&gen::GenParams::default()).unwrap_or_default()
}

fn parse_config(py: Python<'_>, json: &str) -> PyResult<SimConfig> {
    mobmem_core::error::from_json("config", json).map_err(|e| to_py(py, e))
}

/// Runs one simulation; the config and the result are JSON.
#[pyfunction]
#[pyo3(signature = (trace, config_json, devices = None))]
fn simulate(py: Python<'_>, trace: &Trace, config_json: &str, devices: Option<PathBuf>) -> PyResult<String> {
    let cfg = parse_config(py, config_json)?;
    let cat = catalog(py, devices)?;
    let t = trace.inner.clone();
    let r = detach(py, move || {
        let stats = t.stats(cfg.page_size);
        mobmem_core::simulate(&t, &stats, &cfg, &cat)
    })?;
    serde_json::to_string(&r).map_err(|e| json_err(py, e))
}

/// Runs one simulation of the trace at `path` while reading it (memory bounded by its footprint);
/// the config and the result are JSON.
#[pyfunction]
#[pyo3(signature = (path, config_json, devices = None, format = None, skip_bad_lines = false))]
fn simulate_stream(
    py: Python<'_>,
    path: PathBuf,
    config_json: &str,
    devices: Option<PathBuf>,
    format: Option<String>,
    skip_bad_lines: bool,
) -> PyResult<String> {
    let cfg = parse_config(py, config_json)?;
    let cat = catalog(py, devices)?;
    let opts = ReadOptions { format, skip_bad_lines, ..Default::default() };
    let r = detach(py, move || mobmem_core::simulate_stream(&path, &opts, &cfg, &cat))?;
    serde_json::to_string(&r).map_err(|e| json_err(py, e))
}

/// A policy's exact miss-ratio curve in one pass (faults at every size, 1 frame to the footprint),
/// as JSON.
#[pyfunction]
fn mrc(py: Python<'_>, trace: &Trace, policy: &str) -> PyResult<String> {
    let t = trace.inner.clone();
    let policy = policy.to_string();
    let c = detach(py, move || mobmem_core::mrc::exact(&t, &policy))?;
    serde_json::to_string(&c).map_err(|e| json_err(py, e))
}

/// A policy's miss-ratio curve estimated from a spatial sample of the pages, as JSON: `shards`
/// (LRU, every size) or `mini` (any flat policy under `config_json`, at `sizes`). Exactly one of
/// `rate` (0 < R ≤ 1) and `sample_size` (pages) is given.
#[pyfunction]
#[pyo3(signature = (trace, method, config_json, sizes, rate = None, sample_size = None, seed = 0, adjust = false, threads = 0, devices = None))]
#[allow(clippy::too_many_arguments)]
fn mrc_sampled(
    py: Python<'_>,
    trace: &Trace,
    method: &str,
    config_json: &str,
    sizes: Vec<u64>,
    rate: Option<f64>,
    sample_size: Option<u64>,
    seed: u64,
    adjust: bool,
    threads: usize,
    devices: Option<PathBuf>,
) -> PyResult<String> {
    use mobmem_core::mrc::{mini, shards, Sample, Sampling};
    let sampling = match (rate, sample_size) {
        (Some(r), None) => Sampling::Rate(r),
        (None, Some(s)) => Sampling::Size(s),
        _ => return Err(to_py(py, Error::config("sample", "give a rate or a sample size, not both"))),
    };
    let sample = Sample { sampling, seed, adjust };
    let cfg = parse_config(py, config_json)?;
    let cat = catalog(py, devices)?;
    let t = trace.inner.clone();
    let e = match method {
        "shards" if cfg.policy == "lru" => detach(py, move || shards::lru(&t, &sample))?,
        "shards" => {
            let why = format!("SHARDS estimates LRU only, not {:?}; use the miniature simulation (mini)", cfg.policy);
            return Err(to_py(py, Error::config("method", why)));
        }
        "mini" => detach(py, move || mini::curve(&t, &cfg, &cat, &sizes, &sample, threads))?,
        other => {
            return Err(to_py(py, Error::config("method", format!("unknown method {other:?}; known: shards, mini"))))
        }
    };
    serde_json::to_string(&e).map_err(|e| json_err(py, e))
}

/// Policies with an exact one-pass curve.
#[pyfunction]
fn mrc_exact() -> Vec<&'static str> {
    mobmem_core::mrc::EXACT.to_vec()
}

/// Runs a grid of simulations in parallel (threads = 0: all cores); configs and results are JSON
/// lists in the same order. The first failing run raises.
#[pyfunction]
#[pyo3(signature = (trace, configs_json, devices = None, threads = 0))]
fn simulate_grid(
    py: Python<'_>,
    trace: &Trace,
    configs_json: &str,
    devices: Option<PathBuf>,
    threads: usize,
) -> PyResult<String> {
    let cfgs: Vec<SimConfig> = mobmem_core::error::from_json("configs", configs_json).map_err(|e| to_py(py, e))?;
    let cat = catalog(py, devices)?;
    let t = trace.inner.clone();
    let results = py.detach(move || {
        let page_size = cfgs.first().map_or(4096, |c| c.page_size);
        let stats = t.stats(page_size);
        mobmem_core::simulate_grid(&t, &stats, &cfgs, &cat, threads)
    });
    let ok: Vec<_> = results.into_iter().collect::<Result<_, _>>().map_err(|e| to_py(py, e))?;
    serde_json::to_string(&ok).map_err(|e| json_err(py, e))
}

/// Parses a count (`18M`, `2.5k`, `1000`) with the core's parser.
#[pyfunction]
fn parse_count(py: Python<'_>, field: &str, text: &str) -> PyResult<u64> {
    mobmem_core::units::parse_count(field, text).map_err(|e| to_py(py, e))
}

/// Parses a size in bytes (`128MiB`, `1GiB`, or pages of `page_bytes`) with the core's parser.
#[pyfunction]
#[pyo3(signature = (field, text, page_bytes = 4096))]
fn parse_bytes(py: Python<'_>, field: &str, text: &str, page_bytes: u64) -> PyResult<u64> {
    let size: mobmem_core::MemorySize = text.parse().map_err(|e| match e {
        Error::Config { msg, .. } => to_py(py, Error::config(field, msg)),
        e => to_py(py, e),
    })?;
    match size {
        mobmem_core::MemorySize::Bytes(b) => Ok(b),
        mobmem_core::MemorySize::Pages(p) => Ok(p * page_bytes),
        mobmem_core::MemorySize::Percent(_) => {
            Err(to_py(py, Error::config(field, format!("{text:?}: a percentage has no meaning here; give bytes"))))
        }
    }
}

/// Runs a whole TOML run file (trace, sim, devices); the result is JSON.
#[pyfunction]
fn run_file(py: Python<'_>, path: PathBuf) -> PyResult<String> {
    let r = detach(py, move || {
        let (rf, cat, opts) = RunFile::load(&path)?;
        let t = mobmem_core::read_trace(&rf.trace.path, &opts)?;
        let stats = t.stats(rf.sim.page_size);
        mobmem_core::simulate(&t, &stats, &rf.sim, &cat)
    })?;
    serde_json::to_string(&r).map_err(|e| json_err(py, e))
}

/// Registered policies as (name, description).
#[pyfunction]
fn policies() -> Vec<(&'static str, &'static str)> {
    policy::DESCRIPTIONS.to_vec()
}

/// Registered hybrid-memory policies (they need tiers) as (name, description).
#[pyfunction]
fn hybrid_policies() -> Vec<(&'static str, &'static str)> {
    policy::hybrid::DESCRIPTIONS.to_vec()
}

/// Memory tier models (presets plus an optional user file) as JSON.
#[pyfunction]
#[pyo3(signature = (devices = None))]
fn tiers(py: Python<'_>, devices: Option<PathBuf>) -> PyResult<String> {
    let c = catalog(py, devices)?;
    let all: Vec<_> = c.tiers().collect();
    serde_json::to_string(&all).map_err(|e| json_err(py, e))
}

/// Registered trace formats as (name, description, writable).
#[pyfunction]
fn trace_formats() -> Vec<(&'static str, &'static str, bool)> {
    formats::REGISTRY.iter().map(|f| (f.name, f.description, f.write.is_some())).collect()
}

/// The trace format a file name asks for when writing (from the formats' registered extensions).
#[pyfunction]
fn format_for_path(path: &str) -> &'static str {
    formats::for_path(path)
}

/// The built-in device and tier presets as TOML text, as written.
#[pyfunction]
fn device_presets() -> &'static str {
    mobmem_core::device::PRESETS
}

/// The device catalog (presets plus an optional user file) as JSON.
#[pyfunction]
#[pyo3(signature = (devices = None))]
fn devices(py: Python<'_>, devices: Option<PathBuf>) -> PyResult<String> {
    let c = catalog(py, devices)?;
    let all: Vec<_> = c.all().collect();
    serde_json::to_string(&all).map_err(|e| json_err(py, e))
}

/// Resolved parameters (defaults filled in) of a policy, as JSON; raises on unknown keys.
#[pyfunction]
#[pyo3(signature = (name, params_json = "{}"))]
fn policy_params(py: Python<'_>, name: &str, params_json: &str) -> PyResult<String> {
    let table: toml::Table = mobmem_core::error::from_json("params", params_json).map_err(|e| to_py(py, e))?;
    let v = policy::resolved_params(name, &table).map_err(|e| to_py(py, e))?;
    Ok(v.to_string())
}

/// The phones, apps and devices system-level jobs may name: built-ins plus optional user files.
fn library(
    py: Python<'_>,
    phones: Option<PathBuf>,
    apps: Option<PathBuf>,
    devices: Option<PathBuf>,
) -> PyResult<Library> {
    let mut lib = Library::builtin();
    lib.devices = catalog(py, devices)?;
    if let Some(p) = phones {
        let text = std::fs::read_to_string(&p).map_err(|e| to_py(py, Error::io(&p, e)))?;
        lib.phones.add_toml(&text, &p).map_err(|e| to_py(py, e))?;
    }
    if let Some(p) = apps {
        lib.apps.load_file(&p).map_err(|e| to_py(py, e))?;
    }
    Ok(lib)
}

/// Runs system-level jobs (JSON list of PhoneJob) in parallel; results as a JSON list.
#[pyfunction]
#[pyo3(signature = (jobs_json, phones = None, apps = None, devices = None, threads = 0))]
fn simulate_phones(
    py: Python<'_>,
    jobs_json: &str,
    phones: Option<PathBuf>,
    apps: Option<PathBuf>,
    devices: Option<PathBuf>,
    threads: usize,
) -> PyResult<String> {
    let jobs: Vec<PhoneJob> = mobmem_core::error::from_json("jobs", jobs_json).map_err(|e| to_py(py, e))?;
    let lib = library(py, phones, apps, devices)?;
    let results = detach(py, move || lib.run_all(&jobs, threads).into_iter().collect::<Result<Vec<_>, _>>())?;
    serde_json::to_string(&results).map_err(|e| json_err(py, e))
}

/// Phone presets (plus an optional user file), resolved, as JSON {name: phone}.
#[pyfunction]
#[pyo3(signature = (phones = None))]
fn phones(py: Python<'_>, phones: Option<PathBuf>) -> PyResult<String> {
    let lib = library(py, phones, None, None)?;
    let mut out = serde_json::Map::new();
    for n in lib.phones.names() {
        let p = lib.phones.get(n, &toml::Table::new()).map_err(|e| to_py(py, e))?;
        out.insert(n.clone(), serde_json::to_value(&p).map_err(|e| json_err(py, e))?);
    }
    Ok(serde_json::Value::Object(out).to_string())
}

/// The app catalog (plus an optional user file), every app resolved, as a JSON list.
#[pyfunction]
#[pyo3(signature = (apps = None))]
fn apps(py: Python<'_>, apps: Option<PathBuf>) -> PyResult<String> {
    let lib = library(py, None, apps, None)?;
    let all: Vec<_> = lib.apps.names().map(|n| lib.apps.get(n)).collect::<Result<_, _>>().map_err(|e| to_py(py, e))?;
    serde_json::to_string(&all).map_err(|e| json_err(py, e))
}

/// Registered killers as (name, description).
#[pyfunction]
fn killers() -> Vec<(&'static str, &'static str)> {
    mobmem_core::system::killer::DESCRIPTIONS.to_vec()
}

/// The page-level run's knobs: [{name, default, help}] (JSON), from the core's config.
#[pyfunction]
fn sim_config_schema() -> String {
    mobmem_core::config::schema().to_string()
}

/// Registered swap admissions as (name, description).
#[pyfunction]
fn swap_admissions() -> Vec<(&'static str, &'static str)> {
    mobmem_core::swap::admission::DESCRIPTIONS.to_vec()
}

/// Registered swap backends as (name, description).
#[pyfunction]
fn swap_backends() -> Vec<(&'static str, &'static str)> {
    mobmem_core::swap::backend::DESCRIPTIONS.to_vec()
}

/// A usage spec (JSON) loaded: its apps, launches as (time_s, app index), and statistics.
#[pyfunction]
fn usage(py: Python<'_>, spec_json: &str) -> PyResult<String> {
    let spec: UsageSpec = mobmem_core::error::from_json("usage", spec_json).map_err(|e| to_py(py, e))?;
    let u = detach(py, move || spec.load())?;
    let v = serde_json::json!({
        "path": u.path.display().to_string(),
        "apps": u.apps,
        "launches": u.launches.iter().map(|l| (l.time_s, l.app)).collect::<Vec<_>>(),
        "merged": u.merged,
        "stats": u.stats(),
    });
    Ok(v.to_string())
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Trace>()?;
    m.add_function(wrap_pyfunction!(open_trace, m)?)?;
    m.add_function(wrap_pyfunction!(mrc, m)?)?;
    m.add_function(wrap_pyfunction!(mrc_exact, m)?)?;
    m.add_function(wrap_pyfunction!(mrc_sampled, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_stream, m)?)?;
    m.add_function(wrap_pyfunction!(trace_from_pages, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(preset_params, m)?)?;
    m.add_function(wrap_pyfunction!(preset_names, m)?)?;
    m.add_function(wrap_pyfunction!(generate_category, m)?)?;
    m.add_function(wrap_pyfunction!(categories, m)?)?;
    m.add_function(wrap_pyfunction!(swap_energy, m)?)?;
    m.add_function(wrap_pyfunction!(energy_models, m)?)?;
    m.add_function(wrap_pyfunction!(default_gen_params, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_grid, m)?)?;
    m.add_function(wrap_pyfunction!(parse_count, m)?)?;
    m.add_function(wrap_pyfunction!(parse_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(run_file, m)?)?;
    m.add_function(wrap_pyfunction!(policies, m)?)?;
    m.add_function(wrap_pyfunction!(hybrid_policies, m)?)?;
    m.add_function(wrap_pyfunction!(tiers, m)?)?;
    m.add_function(wrap_pyfunction!(generate_hybrid, m)?)?;
    m.add_function(wrap_pyfunction!(hybrid_workloads, m)?)?;
    m.add_function(wrap_pyfunction!(trace_formats, m)?)?;
    m.add_function(wrap_pyfunction!(devices, m)?)?;
    m.add_function(wrap_pyfunction!(device_presets, m)?)?;
    m.add_function(wrap_pyfunction!(policy_params, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_phones, m)?)?;
    m.add_function(wrap_pyfunction!(phones, m)?)?;
    m.add_function(wrap_pyfunction!(apps, m)?)?;
    m.add_function(wrap_pyfunction!(killers, m)?)?;
    m.add_function(wrap_pyfunction!(swap_admissions, m)?)?;
    m.add_function(wrap_pyfunction!(swap_backends, m)?)?;
    m.add_function(wrap_pyfunction!(sim_config_schema, m)?)?;
    m.add_function(wrap_pyfunction!(format_for_path, m)?)?;
    m.add_function(wrap_pyfunction!(usage, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
