//! Small CSV side files with a header (process tables, app-usage traces), read whole: columns are
//! found by name (with aliases), unknown and repeated columns are errors, every row is checked for
//! its field count; blank lines and `#` comments are skipped. Errors name the file and line.
//! (Page traces, which are large, stream through `formats/csv.rs` instead.)

use super::open_input_with;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

pub struct Table {
    pub path: PathBuf,
    /// Position of each requested column in the file, if present.
    pos: Vec<Option<usize>>,
    /// (line number, trimmed fields).
    rows: Vec<(u64, Vec<String>)>,
    /// Line number after the last line (for "no rows" errors).
    pub end_line: u64,
    /// SHA-256 (hex) of the file's bytes as they were read.
    pub digest: String,
}

/// One data row.
pub struct Row<'a> {
    pub line: u64,
    t: &'a Table,
    fields: &'a [String],
}

impl Row<'_> {
    /// Field of requested column `c`; empty when the file lacks the column.
    pub fn get(&self, c: usize) -> &str {
        self.t.pos[c].map_or("", |i| self.fields[i].as_str())
    }
    /// A format error at this row.
    pub fn bad(&self, msg: impl Into<String>) -> Error {
        Error::format(&self.t.path, self.line, msg)
    }
}

impl Table {
    /// Reads `path` (a `what`, for messages). `columns` lists each column's accepted names (the
    /// first is the one shown); those in `required` must be present.
    pub fn read(path: &Path, what: &str, columns: &[&[&str]], required: &[usize]) -> Result<Table> {
        let (mut input, _) = open_input_with(path, true)?;
        let Some((_, header)) = input.next_line()? else {
            return Err(Error::format(path, 1, format!("empty {what}: no header line")));
        };
        let names: Vec<String> =
            String::from_utf8_lossy(header).split(',').map(|s| s.trim().to_ascii_lowercase()).collect();
        let mut pos = vec![None; columns.len()];
        for (i, n) in names.iter().enumerate() {
            let Some(k) = columns.iter().position(|alts| alts.contains(&n.as_str())) else {
                let known: Vec<&str> = columns.iter().flat_map(|a| a.iter().copied()).collect();
                return Err(Error::format(path, 1, format!("unknown column {n:?}; known: {}", known.join(", "))));
            };
            if pos[k].replace(i).is_some() {
                return Err(Error::format(path, 1, format!("column {n:?} appears twice")));
            }
        }
        for &k in required {
            if pos[k].is_none() {
                return Err(Error::format(path, 1, format!("header lacks the required column {:?}", columns[k][0])));
            }
        }
        let mut rows = Vec::new();
        while let Some((n, line)) = input.next_line()? {
            let text = String::from_utf8_lossy(line);
            if text.trim().is_empty() || text.starts_with('#') {
                continue;
            }
            let fields: Vec<String> = text.split(',').map(|f| f.trim().to_string()).collect();
            if fields.len() != names.len() {
                return Err(Error::format(path, n, format!("expected {} fields, got {}", names.len(), fields.len())));
            }
            rows.push((n, fields));
        }
        let end_line = input.line_no();
        let digest = input.finish_digest()?.unwrap_or_default();
        Ok(Table { path: path.to_path_buf(), pos, rows, end_line, digest })
    }

    pub fn has(&self, c: usize) -> bool {
        self.pos[c].is_some()
    }

    pub fn rows(&self) -> impl Iterator<Item = Row<'_>> {
        self.rows.iter().map(|(line, fields)| Row { line: *line, t: self, fields })
    }

    /// A format error about the header.
    pub fn bad_header(&self, msg: impl Into<String>) -> Error {
        Error::format(&self.path, 1, msg)
    }
}
