//! Streamed reads: a trace replayed chunk by chunk while it is read, in memory bounded by its
//! footprint instead of its length. Two passes over the file: the first (`survey`) gives the pages
//! their dense ids and keeps every per-page column and the statistics; the second (`read`) reads
//! the file again and hands each chunk of accesses on. Ids are given in first-touch order, so both
//! passes agree; a file that changed between them is an error.

use super::{formats, open_input, Drain, ReadOptions, Trace, TraceBuilder, TraceStats};
use crate::error::{Error, Result};
use std::path::Path;

/// Accesses per chunk: 4 MiB of words.
pub const CHUNK: usize = 1 << 20;

/// What the first pass finds: the trace without its accesses, and its statistics.
pub struct Survey {
    /// Every per-page column, the files and the process table; no accesses, no times.
    pub meta: Trace,
    pub accesses: u64,
    pub stats: TraceStats,
}

/// Reads `path` once, sending its accesses to `drain` in chunks of `chunk`; returns the trace
/// without them and how many there were.
pub fn read(path: &Path, opts: &ReadOptions, chunk: usize, drain: &mut Drain<'_>) -> Result<(Trace, u64)> {
    let (mut input, _compression) = open_input(path)?;
    let head = input.peek(64)?;
    let fmt = match &opts.format {
        Some(name) => formats::by_name(name)?,
        None => formats::sniff(&head),
    };
    let mut b = TraceBuilder::streaming(path, opts, drain, chunk);
    (fmt.read)(&mut input, &mut b)?;
    let n = b.accesses_read();
    let mut t = b.finish(fmt.name)?;
    if n == 0 {
        return Err(Error::format(path, input.line_no(), format!("no accesses: the {} trace is empty", fmt.name)));
    }
    super::after_read(&mut t, path, opts)?;
    Ok((t, n))
}

/// A streamed replay opens its input twice: it must be a file that reads again from the start.
/// A pipe, a FIFO or a terminal (`/dev/stdin` on a pipe) reads once: the first pass would take it
/// all and the second would wait for more forever, or find nothing.
fn rereadable(path: &Path) -> Result<()> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if meta.is_file() {
        return Ok(());
    }
    Err(Error::format(
        path,
        0,
        "not a regular file (a pipe, a FIFO or a device can be read only once), but a streamed replay reads \
         its input twice: write it to a file first, or replay it without streaming",
    ))
}

/// The first pass: ids, per-page columns and statistics, no accesses kept.
pub fn survey(path: &Path, opts: &ReadOptions, page_size: u64) -> Result<Survey> {
    rereadable(path)?;
    let mut counts = [0u64; 3];
    let mut per_page: Vec<u64> = Vec::new();
    let mut count = |w: &[u32], _: u64| {
        for (c, k) in counts.iter_mut().zip(super::op_counts(w)) {
            *c += k;
        }
        for &a in w {
            let p = (a >> 2) as usize;
            if p >= per_page.len() {
                per_page.resize(p + 1, 0); // ids come in first-touch order: one page at a time
            }
            per_page[p] += 1;
        }
        Ok(())
    };
    let (meta, accesses) = read(path, opts, CHUNK, &mut count)?;
    per_page.resize(meta.num_pages(), 0);
    let stats = meta.stats_of(page_size, accesses, counts, Some(&per_page));
    Ok(Survey { meta, accesses, stats })
}

/// The second pass: every chunk of `path`'s accesses to `each`, checked against the first pass.
pub fn replay(path: &Path, opts: &ReadOptions, survey: &Survey, chunk: usize, each: &mut Drain<'_>) -> Result<()> {
    let (t, n) = read(path, opts, chunk, each)?;
    if n != survey.accesses || t.page_numbers != survey.meta.page_numbers {
        return Err(Error::format(
            path,
            0,
            format!(
                "the trace changed while it was replayed: {n} accesses over {} pages, {} over {} before",
                t.num_pages(),
                survey.accesses,
                survey.meta.num_pages()
            ),
        ));
    }
    Ok(())
}
