//! mobmem's own binary trace format, for fast re-runs (`mobmem convert IN OUT.mobt`). It stores the
//! trace already in dense ids, so loading it needs no hashing. All integers little-endian:
//!
//! ```text
//! magic "MOBMEMTR" | version u32 | flags u32 (1 pids, 2 kinds, 4 files, 8 times, 16 procs)
//! n_accesses u64 | n_pages u64 | n_files u64 (0 unless flag 4)
//! page_numbers u64 × n_pages | [pids u32 × n_pages] | [kinds u8 × n_pages]
//! [page_files u32 × n_pages | n_files × (len u32, UTF-8 bytes)]
//! accesses u32 × n_accesses (id << 2 | op) | [times u64 × n_accesses]
//! [n_initial u64 | (pid u32, adj i32) × n_initial | n_changes u64 | (at u64, pid u32, adj i32) × n_changes]
//! end magic "MOBMEMEN" | checksum u64 (version 3: XXH3-64 of every byte before it)
//! ```
//! Version 2 added the process table (flag 16), version 3 the checksum; versions 1 and 2 are still
//! read (they carry no checksum, so damage that keeps them well-formed cannot be seen).
//!
//! The reader trusts no count: a header may claim at most what the bytes left in the file can hold
//! (checked up front when the file is not compressed), and columns are filled as their bytes
//! arrive, never reserved from a count alone, so a corrupted count costs an error, not memory.
//! Every count, id and op, the end magic and the checksum are checked; a truncated file is an
//! error that says how far it got.

use super::FormatEntry;
use crate::error::{Error, Result};
use crate::trace::procs::{valid_adj, MAX_ADJ, MIN_ADJ};
use crate::trace::{
    AdjChange, LineReader, ProcTable, Trace, TraceBuilder, Words, MAX_FILE_NAME as MAX_NAME, MAX_PAGES,
};
use bytemuck::Pod;
use memmap2::Mmap;
use std::io::{self, Write};
use std::sync::Arc;
use xxhash_rust::xxh3::Xxh3;

pub const MAGIC: &[u8; 8] = b"MOBMEMTR";
const END_MAGIC: &[u8; 8] = b"MOBMEMEN";
pub const VERSION: u32 = 3;
const F_PIDS: u32 = 1;
const F_KINDS: u32 = 2;
const F_FILES: u32 = 4;
const F_TIMES: u32 = 8;
const F_PROCS: u32 = 16;
/// Values per read while a column fills (1 MiB of input at a time).
const CHUNK_BYTES: usize = 1 << 20;

pub const FORMAT: FormatEntry = FormatEntry {
    name: "binary",
    description: "mobmem binary trace (dense ids, 4 bytes per access, checksummed)",
    // A file shorter than the magic but equal to its start is a truncated binary trace.
    sniff: |head| head.starts_with(MAGIC) || (!head.is_empty() && head.len() < MAGIC.len() && MAGIC.starts_with(head)),
    read,
    write: Some(write),
    extensions: &[".mobt", ".bin"],
    examples: &[],
};

/// The `n` bytes at `offset` of a mapped file; `Err` when the file ends first, `None` when the
/// file is not mapped.
fn mapped(map: &Option<Arc<Mmap>>, offset: u64, n: usize) -> Option<std::result::Result<&[u8], ()>> {
    let map = map.as_ref()?;
    let start = usize::try_from(offset).ok();
    Some(start.and_then(|s| Some(s..s.checked_add(n)?)).and_then(|r| map.get(r)).ok_or(()))
}

fn check_adj(adj: i32) -> std::result::Result<(), String> {
    if valid_adj(adj) {
        Ok(())
    } else {
        Err(format!("process table holds adj {adj}, outside {MIN_ADJ}..={MAX_ADJ}"))
    }
}

struct Cursor<'a> {
    input: &'a mut LineReader,
    /// The whole file when it is mapped (a whole read of an uncompressed file): bytes come from
    /// here, and an aligned access column is used in place.
    map: Option<Arc<Mmap>>,
    offset: u64,
    /// Size of the file when it is not compressed: what a count may claim is bounded by it.
    size: Option<u64>,
    hash: Xxh3,
}

impl Cursor<'_> {
    fn bytes(&mut self, out: &mut [u8], what: &str) -> Result<()> {
        let map = self.map.clone();
        match mapped(&map, self.offset, out.len()) {
            Some(Ok(src)) => out.copy_from_slice(src),
            Some(Err(())) => return Err(self.truncated(what)),
            None if !self.input.read_exact_or_eof(out)? => return Err(self.truncated(what)),
            None => {}
        }
        self.hash.update(out);
        self.offset += out.len() as u64;
        Ok(())
    }

    fn truncated(&self, what: &str) -> Error {
        Error::format(
            self.input.path(),
            0,
            format!("truncated binary trace: ends inside {what} (at or after byte {})", self.offset),
        )
    }
    fn u32(&mut self, what: &str) -> Result<u32> {
        let mut b = [0u8; 4];
        self.bytes(&mut b, what)?;
        Ok(u32::from_le_bytes(b))
    }
    fn u64(&mut self, what: &str) -> Result<u64> {
        let mut b = [0u8; 8];
        self.bytes(&mut b, what)?;
        Ok(u64::from_le_bytes(b))
    }
    /// Errs when `n` values of `w` bytes cannot fit in what is left of an uncompressed file.
    fn fits(&self, n: u64, w: u64, what: &str) -> Result<()> {
        if let Some(size) = self.size {
            let left = size.saturating_sub(self.offset);
            if n.checked_mul(w).map_or(true, |b| b > left) {
                return Err(Error::format(
                    self.input.path(),
                    0,
                    format!("the header claims {n} values in {what}, but only {left} bytes are left in the file"),
                ));
            }
        }
        Ok(())
    }
    /// Reads `n` fixed-size little-endian values a chunk at a time, handing each chunk to `each`
    /// (with the index of its first value): memory holds one chunk whatever `n` says. The bytes are
    /// read straight into the chunk's values (`from_le` is the identity on little-endian machines).
    fn chunks<T: Pod>(
        &mut self,
        n: u64,
        what: &str,
        from_le: fn(T) -> T,
        mut each: impl FnMut(&[T], u64) -> Result<()>,
    ) -> Result<()> {
        let w = std::mem::size_of::<T>() as u64;
        self.fits(n, w, what)?;
        let per_chunk = CHUNK_BYTES as u64 / w;
        let mut values = Vec::new();
        let map = self.map.clone();
        let mut done = 0u64;
        while done < n {
            let k = (n - done).min(per_chunk) as usize;
            // In place from a map when aligned (the values are little-endian, as in the file).
            if cfg!(target_endian = "little") {
                if let Some(Ok(Ok(vals))) =
                    mapped(&map, self.offset, k * w as usize).map(|b| b.map(bytemuck::try_cast_slice))
                {
                    self.hash.update(bytemuck::cast_slice(vals));
                    self.offset += k as u64 * w;
                    each(vals, done)?;
                    done += k as u64;
                    continue;
                }
            }
            if values.is_empty() {
                values = vec![T::zeroed(); n.min(per_chunk) as usize];
            }
            let buf = &mut values[..k];
            self.bytes(bytemuck::cast_slice_mut(buf), what)?;
            buf.iter_mut().for_each(|x| *x = from_le(*x));
            each(buf, done)?;
            done += k as u64;
        }
        Ok(())
    }

    /// Reads `n` fixed-size little-endian values in chunks; memory grows with the bytes that
    /// actually arrive, so a count larger than the input ends in a "truncated" error.
    fn array<T: Pod>(&mut self, n: u64, what: &str, from_le: fn(T) -> T) -> Result<Vec<T>> {
        let per_chunk = CHUNK_BYTES as u64 / std::mem::size_of::<T>() as u64;
        self.fits(n, std::mem::size_of::<T>() as u64, what)?;
        // Exact when the file size vouches for `n` (and memory allows); otherwise one chunk, then
        // growth as data comes.
        let mut out = Vec::new();
        let want = if self.size.is_some() { n } else { n.min(per_chunk) };
        out.try_reserve_exact(want as usize).map_err(|_| {
            Error::format(
                self.input.path(),
                0,
                format!("{what} holds {n} values: more than this process can hold in memory"),
            )
        })?;
        self.chunks(n, what, from_le, |v, _| {
            out.extend_from_slice(v);
            Ok(())
        })?;
        Ok(out)
    }
}

fn read(input: &mut LineReader, b: &mut TraceBuilder<'_>) -> Result<()> {
    let path = input.path().to_path_buf();
    let bad = |msg: String| Error::format(&path, 0, msg);
    let size = input.raw_size();
    // A whole read that asked for it maps the file when it can; a streamed read keeps its memory
    // to a chunk.
    let map = if b.maps_input() { input.map() } else { None };
    let mut c = Cursor { input, map, offset: 0, size, hash: Xxh3::new() };
    let mut magic = [0u8; 8];
    c.bytes(&mut magic, "the header")?;
    if &magic != MAGIC {
        return Err(bad("not a mobmem binary trace (bad magic)".into()));
    }
    let version = c.u32("the header")?;
    if !(1..=VERSION).contains(&version) {
        return Err(bad(format!("binary trace version {version}; this mobmem reads versions 1 to {VERSION}")));
    }
    let flags = c.u32("the header")?;
    if flags & !(F_PIDS | F_KINDS | F_FILES | F_TIMES | F_PROCS) != 0 || (version < 2 && flags & F_PROCS != 0) {
        return Err(bad(format!("unknown flags {flags:#x} in header")));
    }
    let n_acc = c.u64("the header")?;
    let n_pages = c.u64("the header")?;
    let n_files = c.u64("the header")?;
    if n_pages as usize > MAX_PAGES || n_acc > (u32::MAX as u64) * 64 {
        return Err(bad(format!("implausible header: {n_acc} accesses, {n_pages} pages")));
    }
    if version >= 3 && flags & F_FILES == 0 && n_files != 0 {
        return Err(bad(format!("header counts {n_files} files but the file-table flag is clear")));
    }
    // The smallest file this header can describe: every column it announces must fit.
    let col = |f: u32, w: u64| if flags & f != 0 { w } else { 0 };
    let per_page = 8 + col(F_PIDS, 4) + col(F_KINDS, 1) + col(F_FILES, 4);
    let per_access = 4 + col(F_TIMES, 8);
    let need = n_pages.checked_mul(per_page).zip(n_acc.checked_mul(per_access)).and_then(|(a, b)| a.checked_add(b));
    c.fits(need.unwrap_or(u64::MAX), 1, "the page and access columns")?;
    let mut t = Trace { page_numbers: c.array(n_pages, "the page table", u64::from_le)?, ..Default::default() };
    if flags & F_PIDS != 0 {
        t.page_pids = Some(c.array(n_pages, "the pid table", u32::from_le)?);
    }
    if flags & F_KINDS != 0 {
        let kinds = c.array(n_pages, "the kind table", |b: u8| b)?;
        if let Some(i) = kinds.iter().position(|&k| k > 2) {
            return Err(bad(format!("page {i} has kind {} (0–2 allowed)", kinds[i])));
        }
        t.page_kinds = Some(kinds);
    }
    if flags & F_FILES != 0 {
        let pf = c.array(n_pages, "the page-file table", u32::from_le)?;
        // Every file is some page's: a file table longer than the page table is damage.
        if n_files > n_pages {
            return Err(bad(format!("implausible file count {n_files} for {n_pages} pages")));
        }
        c.fits(n_files, 4, "the file names")?;
        for _ in 0..n_files {
            let len = c.u32("the file names")? as usize;
            if len > MAX_NAME {
                return Err(bad(format!("file name of {len} bytes (at most {MAX_NAME})")));
            }
            let mut name = vec![0u8; len];
            c.bytes(&mut name, "the file names")?;
            t.files.push(String::from_utf8(name).map_err(|_| bad("file name is not UTF-8".into()))?);
        }
        if let Some(i) = pf.iter().position(|&f| f != u32::MAX && f as u64 >= n_files) {
            return Err(bad(format!("page {i} names file {} of {n_files}", pf[i])));
        }
        t.page_files = Some(pf);
    }
    // The columns go in first; the accesses follow a chunk at a time (a streamed read hands them
    // on as they come; a whole read is checked to the end before the trace is used).
    let procs_flag = flags & F_PROCS != 0;
    b.install(std::mem::take(&mut t))?;
    // A mapped, aligned column is used where it lies, once checked; any other is copied in.
    // (Little-endian machines only: the words are used as the file stores them.)
    let in_place = c
        .map
        .clone()
        .filter(|_| cfg!(target_endian = "little"))
        .and_then(|m| Words::mapped(m, c.offset as usize, usize::try_from(n_acc).ok()?));
    // A whole read takes the column at once when the file's size vouches for the count.
    if in_place.is_none() && c.size.is_some() && !b.try_reserve(n_acc) {
        return Err(bad(format!("the access records hold {n_acc} values: more than this process can hold")));
    }
    let copy = in_place.is_none();
    c.chunks(n_acc, "the access records", u32::from_le, |acc, first| {
        // Checked in one pass the compiler vectorises (the highest id, and op 3 seen), then
        // searched for the record to name only when something is wrong.
        let (top, op3) = acc.iter().fold((0u32, 0u32), |(t, o), &a| (t.max(a >> 2), o | ((a & 3) + 1) & 4));
        if top as u64 >= n_pages || op3 != 0 {
            let j = acc.iter().position(|&a| (a >> 2) as u64 >= n_pages || a & 3 == 3).unwrap_or(0);
            let (i, a) = (first + j as u64, acc[j]);
            return Err(Error::format(
                &path,
                i + 1,
                format!("access record {} is {a:#x}: page id {} of {n_pages}, op {}", i + 1, a >> 2, a & 3),
            ));
        }
        if copy {
            b.push_words(acc)?;
        }
        Ok(())
    })?;
    if let Some(words) = in_place {
        b.install_words(words);
    }
    if flags & F_TIMES != 0 {
        let mut last = 0u64;
        let mut times = b.keeps_accesses().then(Vec::new);
        c.chunks(n_acc, "the time column", u64::from_le, |ts, first| {
            for (j, &x) in ts.iter().enumerate() {
                if x < last {
                    return Err(Error::format(&path, first + j as u64 + 1, "time_ns goes back in time"));
                }
                last = x;
            }
            if let Some(v) = times.as_mut() {
                v.extend_from_slice(ts);
            }
            Ok(())
        })?;
        t.times = times;
    }
    if procs_flag {
        let what = "the process table";
        let mut procs = ProcTable::default();
        let n = c.u64(what)?;
        c.fits(n, 8, what)?;
        for _ in 0..n {
            let pid = c.u32(what)?;
            let adj = c.u32(what)? as i32;
            check_adj(adj).map_err(&bad)?;
            procs.initial.insert(pid, adj);
        }
        let n = c.u64(what)?;
        c.fits(n, 16, what)?;
        let mut prev = 0;
        for _ in 0..n {
            let at = c.u64(what)?;
            let pid = c.u32(what)?;
            let adj = c.u32(what)? as i32;
            check_adj(adj).map_err(&bad)?;
            if at < prev || at >= n_acc {
                return Err(bad(format!("process table change at access {at} is out of order or past the end")));
            }
            prev = at;
            procs.changes.push(AdjChange { at, pid, adj });
        }
        t.procs = Some(procs);
    }
    let mut end = [0u8; 8];
    c.bytes(&mut end, "the end marker")?;
    if &end != END_MAGIC {
        return Err(bad("bad end marker: the file is corrupt".into()));
    }
    if version >= 3 {
        let computed = c.hash.digest();
        let stored = c.u64("the checksum")?;
        if stored != computed {
            return Err(bad(format!(
                "checksum mismatch (stored {stored:#018x}, computed {computed:#018x}): the file is corrupt"
            )));
        }
    }
    let at_end = match &c.map {
        Some(m) => c.offset == m.len() as u64,
        None => c.input.at_end()?,
    };
    if !at_end {
        return Err(bad("bytes after the end marker: the file is corrupt".into()));
    }
    b.install_late(t.times, t.procs);
    Ok(())
}

/// Passes bytes on and hashes them (the checksum of version 3).
struct Hashing<'a> {
    inner: &'a mut dyn Write,
    hash: Xxh3,
}

impl Write for Hashing<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

fn write(t: &Trace, out: &mut dyn Write) -> io::Result<()> {
    let mut h = Hashing { inner: out, hash: Xxh3::new() };
    let w = &mut h;
    let mut flags = 0;
    if t.page_pids.is_some() {
        flags |= F_PIDS;
    }
    if t.page_kinds.is_some() {
        flags |= F_KINDS;
    }
    if t.page_files.is_some() {
        flags |= F_FILES;
    }
    if t.times.is_some() {
        flags |= F_TIMES;
    }
    if t.procs.is_some() {
        flags |= F_PROCS;
    }
    w.write_all(MAGIC)?;
    w.write_all(&VERSION.to_le_bytes())?;
    w.write_all(&flags.to_le_bytes())?;
    w.write_all(&(t.accesses.len() as u64).to_le_bytes())?;
    w.write_all(&(t.page_numbers.len() as u64).to_le_bytes())?;
    w.write_all(&(t.files.len() as u64).to_le_bytes())?;
    let mut buf = Vec::with_capacity(1 << 20);
    macro_rules! dump {
        ($iter:expr) => {
            for v in $iter {
                buf.extend_from_slice(&v.to_le_bytes());
                if buf.len() >= (1 << 20) - 16 {
                    w.write_all(&buf)?;
                    buf.clear();
                }
            }
            w.write_all(&buf)?;
            buf.clear();
        };
    }
    dump!(t.page_numbers.iter());
    if let Some(p) = &t.page_pids {
        dump!(p.iter());
    }
    if let Some(k) = &t.page_kinds {
        w.write_all(k)?;
    }
    if let Some(f) = &t.page_files {
        dump!(f.iter());
        for name in &t.files {
            w.write_all(&(name.len() as u32).to_le_bytes())?;
            w.write_all(name.as_bytes())?;
        }
    }
    dump!(t.accesses.iter());
    if let Some(ts) = &t.times {
        dump!(ts.iter());
    }
    if let Some(p) = &t.procs {
        w.write_all(&(p.initial.len() as u64).to_le_bytes())?;
        for (&pid, &adj) in &p.initial {
            w.write_all(&pid.to_le_bytes())?;
            w.write_all(&adj.to_le_bytes())?;
        }
        w.write_all(&(p.changes.len() as u64).to_le_bytes())?;
        for c in &p.changes {
            w.write_all(&c.at.to_le_bytes())?;
            w.write_all(&c.pid.to_le_bytes())?;
            w.write_all(&c.adj.to_le_bytes())?;
        }
    }
    w.write_all(END_MAGIC)?;
    let sum = h.hash.digest();
    h.inner.write_all(&sum.to_le_bytes())
}
