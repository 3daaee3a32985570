//! Python bindings of mobmem-core. Thin on purpose: argument conversion, error mapping, and the
//! GIL released around every replay. Results cross as JSON text (one record per run, never per
//! access), which the Python package turns into typed objects.

use mobmem_core::error::Error;
use mobmem_core::Catalog;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::path::PathBuf;

mod listings;
mod phone;
mod run;
mod trace;

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

fn catalog(py: Python<'_>, devices: Option<PathBuf>) -> PyResult<Catalog> {
    let mut c = Catalog::builtin();
    if let Some(p) = devices {
        c.load_file(&p).map_err(|e| to_py(py, e))?;
    }
    Ok(c)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    trace::register(m)?;
    run::register(m)?;
    phone::register(m)?;
    listings::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
