//! System-level runs: phones, apps and usage traces, and jobs run in parallel.

use crate::{catalog, detach, json_err, to_py};
use mobmem_core::error::Error;
use mobmem_core::system::{Library, PhoneJob, UsageSpec};
use pyo3::prelude::*;
use std::path::PathBuf;

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

/// Adds this module's functions to `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(simulate_phones, m)?)?;
    m.add_function(wrap_pyfunction!(phones, m)?)?;
    m.add_function(wrap_pyfunction!(apps, m)?)?;
    m.add_function(wrap_pyfunction!(killers, m)?)?;
    m.add_function(wrap_pyfunction!(usage, m)?)?;
    Ok(())
}
