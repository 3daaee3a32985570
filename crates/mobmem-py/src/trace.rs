//! Traces: reading, generating, saving, and the formats and workloads the core knows.

use crate::{detach, json_err, to_py};
use mobmem_core::system::categories as app_categories;
use mobmem_core::trace::{formats, gen, hybrid_gen, Compression};
use mobmem_core::{ReadOptions, Trace as CoreTrace};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// A trace loaded in memory (dense page ids, 4 bytes per access).
#[pyclass(module = "mobmem._core", frozen)]
pub(crate) struct Trace {
    pub(crate) inner: Arc<CoreTrace>,
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
    /// Locality (code and written shares, concentration, sequential share) as JSON.
    fn locality_json(&self, py: Python<'_>) -> PyResult<String> {
        let t = self.inner.clone();
        let l = detach(py, move || Ok(mobmem_core::trace::locality(&t)))?;
        serde_json::to_string(&l).map_err(|e| json_err(py, e))
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

/// Adds this module's functions to `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Trace>()?;
    m.add_function(wrap_pyfunction!(open_trace, m)?)?;
    m.add_function(wrap_pyfunction!(trace_from_pages, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(generate_category, m)?)?;
    m.add_function(wrap_pyfunction!(generate_hybrid, m)?)?;
    m.add_function(wrap_pyfunction!(hybrid_workloads, m)?)?;
    m.add_function(wrap_pyfunction!(categories, m)?)?;
    m.add_function(wrap_pyfunction!(preset_params, m)?)?;
    m.add_function(wrap_pyfunction!(preset_names, m)?)?;
    m.add_function(wrap_pyfunction!(default_gen_params, m)?)?;
    m.add_function(wrap_pyfunction!(trace_formats, m)?)?;
    m.add_function(wrap_pyfunction!(format_for_path, m)?)?;
    Ok(())
}
