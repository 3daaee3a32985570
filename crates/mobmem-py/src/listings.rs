//! What the core has registered and its defaults, for the CLI's listings and Python's `Config`.

use crate::{catalog, json_err, to_py};
use mobmem_core::policy;
use pyo3::prelude::*;
use std::path::PathBuf;

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

/// The page-level run's knobs: [{name, default, help}] (JSON), from the core's config.
#[pyfunction]
fn sim_config_schema() -> String {
    mobmem_core::config::schema().to_string()
}

/// A phone's knobs: {fields: [{name, default, help, shared}]} (JSON), from the core's phone.
#[pyfunction]
fn phone_schema() -> String {
    mobmem_core::system::phone::schema().to_string()
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

/// The JSON schemas of the result records (`RunResult`, `PhoneResult`) the typed Python records
/// are generated from.
#[pyfunction]
fn result_schemas() -> String {
    mobmem_core::records::schemas().to_string()
}

/// Adds this module's functions to `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(policies, m)?)?;
    m.add_function(wrap_pyfunction!(hybrid_policies, m)?)?;
    m.add_function(wrap_pyfunction!(tiers, m)?)?;
    m.add_function(wrap_pyfunction!(device_presets, m)?)?;
    m.add_function(wrap_pyfunction!(devices, m)?)?;
    m.add_function(wrap_pyfunction!(policy_params, m)?)?;
    m.add_function(wrap_pyfunction!(sim_config_schema, m)?)?;
    m.add_function(wrap_pyfunction!(phone_schema, m)?)?;
    m.add_function(wrap_pyfunction!(swap_admissions, m)?)?;
    m.add_function(wrap_pyfunction!(swap_backends, m)?)?;
    m.add_function(wrap_pyfunction!(result_schemas, m)?)?;
    Ok(())
}
