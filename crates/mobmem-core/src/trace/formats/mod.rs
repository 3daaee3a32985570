//! Trace formats. Each format is one file exporting a `FORMAT` entry; adding one is a file plus
//! its name in `formats!` below. Sniffing tries the entries in that order; `text` is the fallback.

/// Declares each format's module and lists its entry in `REGISTRY`, from one list of names.
macro_rules! formats {
    ($($name:ident),* $(,)?) => {
        $(mod $name;)*
        /// The registry, in sniffing order.
        pub const REGISTRY: &[FormatEntry] = &[$($name::FORMAT),*];
    };
}

formats!(binary, lackey, csv, text);

use super::{LineReader, Trace, TraceBuilder};
use crate::error::{Error, Result};
use std::io::{self, Write};

pub use binary::{MAGIC as BINARY_MAGIC, VERSION as BINARY_VERSION};

/// Writes a whole trace in one format.
pub type WriteFn = fn(&Trace, &mut dyn Write) -> io::Result<()>;

/// One trace format: how to recognise it, read it and (optionally) write it.
pub struct FormatEntry {
    pub name: &'static str,
    pub description: &'static str,
    /// True when the first decompressed bytes look like this format.
    pub sniff: fn(&[u8]) -> bool,
    pub read: fn(&mut LineReader, &mut TraceBuilder) -> Result<()>,
    pub write: Option<WriteFn>,
    /// File name endings that ask for this format when writing (`Trace.save`, `mobmem convert`).
    pub extensions: &'static [&'static str],
    /// Small inputs in this format, each a case the reader must take (a test reads every one; the
    /// fuzzer starts from them). A format whose files no one writes by hand (binary) has none: the
    /// fuzzer writes the other formats' examples in it.
    pub examples: &'static [&'static str],
}

/// The format a file name asks for when writing (`x.mobt.zst` → binary): its extension before any
/// `.gz` / `.zst`; binary when none matches.
pub fn for_path(path: &str) -> &'static str {
    let lower = path.to_ascii_lowercase();
    let name = [".gz", ".zst", ".zstd"].iter().find_map(|c| lower.strip_suffix(c)).unwrap_or(&lower);
    REGISTRY
        .iter()
        .find(|f| f.write.is_some() && f.extensions.iter().any(|e| name.ends_with(e)))
        .map_or("binary", |f| f.name)
}

pub fn by_name(name: &str) -> Result<&'static FormatEntry> {
    REGISTRY.iter().find(|f| f.name == name).ok_or_else(|| {
        let names: Vec<_> = REGISTRY.iter().map(|f| f.name).collect();
        Error::config("format", format!("unknown trace format {name:?}; known: {}", names.join(", ")))
    })
}

pub fn sniff(head: &[u8]) -> &'static FormatEntry {
    REGISTRY.iter().find(|f| (f.sniff)(head)).unwrap_or(&text::FORMAT)
}

pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|f| f.name).collect()
}

/// Parses an unsigned decimal number; `None` on an empty field, a non-digit or overflow.
#[inline]
pub(crate) fn parse_dec(s: &[u8]) -> Option<u64> {
    if s.is_empty() || s.len() > 20 {
        return None;
    }
    let mut v: u64 = 0;
    for &c in s {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v.checked_mul(10)?.checked_add(d as u64)?;
    }
    Some(v)
}

/// Parses an unsigned hexadecimal number (no prefix); `None` on bad digits or overflow.
#[inline]
pub(crate) fn parse_hex(s: &[u8]) -> Option<u64> {
    if s.is_empty() || s.len() > 16 {
        return None;
    }
    let mut v: u64 = 0;
    for &c in s {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => return None,
        };
        v = (v << 4) | d as u64;
    }
    Some(v)
}

/// A line shown in an error message: lossy UTF-8, cut to a readable length.
pub(crate) fn show(line: &[u8]) -> String {
    let s = String::from_utf8_lossy(line);
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(80).collect::<String>())
    } else {
        s.into_owned()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_file_name_asks_for_a_format_by_its_registered_extension() {
        let cases = [
            ("a.mobt", "binary"),
            ("a.BIN.zst", "binary"),
            ("a.csv.gz", "csv"),
            ("a.txt", "text"),
            ("a.trace.zstd", "text"),
            ("noext", "binary"),
        ];
        for (path, want) in cases {
            assert_eq!(super::for_path(path), want, "{path}");
        }
        // Every writable format has an extension, and no two share one.
        let exts: Vec<&str> = super::REGISTRY.iter().flat_map(|f| f.extensions.iter().copied()).collect();
        assert!(super::REGISTRY.iter().filter(|f| f.write.is_some()).all(|f| !f.extensions.is_empty()));
        assert!(exts.iter().all(|e| exts.iter().filter(|x| *x == e).count() == 1));
    }
}
