//! Errors of the core. Every variant names what went wrong and where, so that the binding can map
//! each to its own Python exception and a user sees file, line and value.

use std::path::{Path, PathBuf};

/// All errors the core can return.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An impossible or unknown configuration value; `field` is the path of the setting.
    #[error("config error in {field}: {msg}")]
    Config { field: String, msg: String },

    /// A malformed trace: `line` is 1-based for text formats and the record number for binary.
    #[error("{}:{line}: {msg}", path.display())]
    TraceFormat { path: PathBuf, line: u64, msg: String },

    /// A file that does not exist.
    #[error("{}: no such file", path.display())]
    NotFound { path: PathBuf },

    /// Any other I/O failure, with the file it happened on.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// Memory could not be reclaimed (for example: swap full and no file page left).
    #[error("out of memory at access {access}: {msg}")]
    OutOfMemory { access: u64, msg: String },

    /// A broken internal invariant: a bug in mobmem, reported instead of panicking.
    #[error("internal invariant broken: {0}")]
    Invariant(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn config(field: impl Into<String>, msg: impl Into<String>) -> Self {
        Error::Config { field: field.into(), msg: msg.into() }
    }

    pub fn format(path: &Path, line: u64, msg: impl Into<String>) -> Self {
        Error::TraceFormat { path: path.to_path_buf(), line, msg: msg.into() }
    }

    /// A TOML parse error of `text` (read from `path`), with the line it points at.
    pub fn toml(path: &Path, text: &str, e: toml::de::Error) -> Self {
        Error::format(path, line_of(text, e.span()), keyed(text, e.span(), ".", e.message().trim()))
    }

    /// Wraps an I/O error; a missing file becomes `NotFound`, and a compressed stream that ends
    /// early becomes a `TraceFormat` error ("truncated") rather than a bare I/O message.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        match source.kind() {
            std::io::ErrorKind::NotFound => Error::NotFound { path: path.to_path_buf() },
            _ => Error::Io { path: path.to_path_buf(), source },
        }
    }
}

/// The 1-based line a byte span starts on (0 when there is none), counted in bytes so that a span
/// inside a multi-byte character cannot split it.
fn line_of(text: &str, span: Option<std::ops::Range<usize>>) -> u64 {
    span.map_or(0, |s| text.as_bytes()[..s.start.min(text.len())].iter().filter(|&&c| c == b'\n').count() as u64 + 1)
}

/// Parses TOML text read from `path`; an error names the file, the line and the key's path
/// (`sim.swap_size: unknown unit …`).
pub fn from_toml<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T> {
    serde_path_to_error::deserialize(toml::Deserializer::new(text)).map_err(|e| {
        let key = e.path().to_string();
        let inner = e.into_inner();
        let line = line_of(text, inner.span());
        Error::format(path, line, keyed(text, inner.span(), &key, inner.message().trim()))
    })
}

/// A TOML error's message with the key's path in front. Errors the parser finds before any key is
/// known (`key == "."`: a number too large for TOML's 64-bit integers) take it from the
/// `key = value` line the error points at and its table header, with the value.
fn keyed(text: &str, span: Option<std::ops::Range<usize>>, key: &str, msg: &str) -> String {
    if key != "." {
        return format!("{key}: {msg}");
    }
    match span.and_then(|s| key_at(text, s.start)) {
        Some((k, v)) if msg.contains("too large") => {
            format!("{k}: {v} is too large (a TOML integer is at most {})", i64::MAX)
        }
        Some((k, _)) => format!("{k}: {msg}"),
        None => msg.to_string(),
    }
}

/// The dotted key of the `key = value` line byte `at` is on, under its `[table]` header, and the
/// value's text.
fn key_at(text: &str, at: usize) -> Option<(String, String)> {
    let b = text.as_bytes();
    let at = at.min(b.len());
    let start = b[..at].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
    let end = b[at..].iter().position(|&c| c == b'\n').map_or(b.len(), |i| at + i);
    let line = std::str::from_utf8(&b[start..end]).ok()?;
    let (k, v) = line.split_once('=')?;
    let k = k.trim().trim_matches('"');
    if k.is_empty() || k.starts_with('[') {
        return None;
    }
    let before = std::str::from_utf8(&b[..start]).ok()?;
    let table = before.lines().rev().map(str::trim).find(|l| l.starts_with('['));
    let table = table.map(|h| h.trim_matches(|c| c == '[' || c == ']').trim()).filter(|t| !t.is_empty());
    let value = v.split('#').next().unwrap_or("").trim().to_string();
    Some((table.map_or_else(|| k.to_string(), |t| format!("{t}.{k}")), value))
}

/// Parses a JSON document the binding built from a caller's arguments (not a file anyone wrote):
/// an error is a config error of the field it names, with no position in that internal document.
/// `what` names the document (the field when the error is about the whole of it).
pub fn from_json<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let key = e.path().to_string();
        // A list of configs: `[3].swap_size` is the field `swap_size` of the fourth.
        let key = match key.strip_prefix('[').and_then(|k| k.split_once("].")) {
            Some((_, rest)) => rest.to_string(),
            None => key,
        };
        let msg = e.into_inner().to_string();
        let msg = msg.rsplit_once(" at line ").map_or(msg.as_str(), |(m, _)| m).to_string();
        Error::config(if key == "." || key.starts_with('[') { what.to_string() } else { key }, msg)
    })
}

#[cfg(test)]
mod toml_key_tests {
    use super::*;

    #[test]
    fn a_number_too_large_for_toml_names_its_key_and_value() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Sim {
            swap_size: Option<u64>,
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct File {
            sim: Sim,
        }
        let text = "# a run\n[sim]\nswap_size = 99999999999999999999 # bytes\n";
        let e = from_toml::<File>(Path::new("r.toml"), text).unwrap_err().to_string();
        assert!(e.contains("r.toml:3"), "{e}");
        assert!(e.contains("sim.swap_size: 99999999999999999999 is too large"), "{e}");
        let e = Error::toml(Path::new("p.toml"), text, toml::from_str::<toml::Table>(text).unwrap_err()).to_string();
        assert!(e.contains("sim.swap_size: 99999999999999999999 is too large"), "{e}");
    }
}
