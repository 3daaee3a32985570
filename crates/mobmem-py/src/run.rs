//! Page-level runs: one, a grid, a streamed one, a run file, miss-ratio curves, and the swap energy model.

use crate::trace::Trace;
use crate::{catalog, detach, json_err, to_py};
use mobmem_core::error::Error;
use mobmem_core::{Catalog, ReadOptions, RunFile, SimConfig};
use pyo3::prelude::*;
use std::path::PathBuf;

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
#[pyo3(signature = (path, config_json, devices = None, format = None, skip_bad_lines = false, procs = None))]
fn simulate_stream(
    py: Python<'_>,
    path: PathBuf,
    config_json: &str,
    devices: Option<PathBuf>,
    format: Option<String>,
    skip_bad_lines: bool,
    procs: Option<PathBuf>,
) -> PyResult<String> {
    let cfg = parse_config(py, config_json)?;
    let cat = catalog(py, devices)?;
    let opts = ReadOptions { format, skip_bad_lines, procs, ..Default::default() };
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
#[pyo3(signature = (trace, method, config_json, sizes, rate = None, sample_size = None, seed = 0, reading = None, threads = 0, devices = None))]
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
    reading: Option<&str>,
    threads: usize,
    devices: Option<PathBuf>,
) -> PyResult<String> {
    use mobmem_core::mrc::{mini, shards, Reading, Sample, Sampling};
    let sampling = match (rate, sample_size) {
        (Some(r), None) => Sampling::Rate(r),
        (None, Some(s)) => Sampling::Size(s),
        _ => return Err(to_py(py, Error::config("sample", "give a rate or a sample size, not both"))),
    };
    let reading = match reading {
        Some(name) => Reading::parse(name).map_err(|e| to_py(py, e))?,
        None => Reading::default(),
    };
    let sample = Sample { sampling, seed, reading };
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

/// The speed guard's yardstick (bench/speed_guard.py): a bare loop over the trace's accesses;
/// returns the pages touched more than once and the loop's wall time in seconds.
#[pyfunction]
fn reference_loop(py: Python<'_>, trace: &Trace) -> (u64, f64) {
    let t = trace.inner.clone();
    py.detach(move || mobmem_core::reference_loop(&t))
}

/// A sample's readings by name, the default first.
#[pyfunction]
fn mrc_readings() -> Vec<&'static str> {
    mobmem_core::mrc::READINGS.to_vec()
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

/// Runs a whole TOML run file (trace, sim, devices) with `set` (`DOTTED.KEY=VALUE`) over it,
/// replaying the trace as it is read when `stream`; the result is JSON.
#[pyfunction]
#[pyo3(signature = (path, set = Vec::new(), stream = false))]
fn run_file(py: Python<'_>, path: PathBuf, set: Vec<String>, stream: bool) -> PyResult<String> {
    let r = detach(py, move || {
        let (rf, cat, opts) = RunFile::load_with(&path, &set)?;
        if stream {
            return mobmem_core::simulate_stream(&rf.trace.path, &opts, &rf.sim, &cat);
        }
        let t = mobmem_core::read_trace(&rf.trace.path, &opts)?;
        let stats = t.stats(rf.sim.page_size);
        mobmem_core::simulate(&t, &stats, &rf.sim, &cat)
    })?;
    serde_json::to_string(&r).map_err(|e| json_err(py, e))
}

/// Adds this module's functions to `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(swap_energy, m)?)?;
    m.add_function(wrap_pyfunction!(energy_models, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_stream, m)?)?;
    m.add_function(wrap_pyfunction!(mrc, m)?)?;
    m.add_function(wrap_pyfunction!(mrc_sampled, m)?)?;
    m.add_function(wrap_pyfunction!(mrc_exact, m)?)?;
    m.add_function(wrap_pyfunction!(mrc_readings, m)?)?;
    m.add_function(wrap_pyfunction!(reference_loop, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_grid, m)?)?;
    m.add_function(wrap_pyfunction!(parse_count, m)?)?;
    m.add_function(wrap_pyfunction!(parse_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(run_file, m)?)?;
    Ok(())
}
