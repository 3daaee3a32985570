//! Traces: how accesses come in. A trace is held in memory as dense page ids (4 bytes per access:
//! id << 2 | op), so that every policy can keep per-page state in a `Vec` instead of a hash map.
//! Readers stream their input (text is never loaded whole); compression is detected by magic bytes.
//! A run can also replay a trace while reading it, holding only its pages (`stream`).

mod builder;
pub mod formats;
pub mod gen;
pub mod hybrid_gen;
mod input;
mod locality;
mod pagemap;
pub mod procs;
pub mod round_robin;
pub mod stream;
mod subset;
pub mod table;
mod words;

use crate::error::{Error, Result};
use pagemap::PageMap;
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub use builder::{Drain, ReadOptions, Record, TraceBuilder};
pub use input::{open_input, open_input_with, write_atomically, Compression, LineReader};
pub use locality::{locality, Locality};
pub use procs::{is_critical, AdjChange, ProcTable};
pub use words::Words;

/// What an engine and its policy are built for: how many pages, their declared kinds, and — for
/// offline policies — the accesses to come. A page trace gives all three (`Trace::space`); the
/// system level, which generates its accesses as it goes, gives the first two.
#[derive(Debug, Clone, Copy)]
pub struct PageSpace<'a> {
    pub pages: usize,
    /// `Kind as u8` of each page, when declared.
    pub kinds: Option<&'a [u8]>,
    /// Every access to come (`id << 2 | op`), when known in advance.
    pub future: Option<&'a [u32]>,
}

/// Dense page id, assigned in order of first appearance.
pub type PageId = u32;

/// Longest file name a trace may give a page (Linux's PATH_MAX); the binary format holds no more.
pub const MAX_FILE_NAME: usize = 4096;

/// Largest number of distinct pages a trace may have (ids share a word with the 2-bit op).
pub const MAX_PAGES: usize = 1 << 30;

/// What the CPU did: instruction fetch, data read, data write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[repr(u8)]
pub enum Op {
    Instr = 0,
    Read = 1,
    Write = 2,
}

impl Op {
    #[inline(always)]
    pub fn from_bits(b: u32) -> Op {
        match b & 3 {
            0 => Op::Instr,
            1 => Op::Read,
            _ => Op::Write,
        }
    }
    #[inline(always)]
    pub fn is_write(self) -> bool {
        self == Op::Write
    }
    pub fn letter(self) -> char {
        match self {
            Op::Instr => 'I',
            Op::Read => 'R',
            Op::Write => 'W',
        }
    }
    /// Parses the op column of the text and CSV formats: `I`, `R`, `W` (any case) or the words
    /// `instr`, `read`, `write`.
    pub fn parse(s: &[u8]) -> Option<Op> {
        match s {
            b"I" | b"i" => Some(Op::Instr),
            b"R" | b"r" => Some(Op::Read),
            b"W" | b"w" => Some(Op::Write),
            _ => match std::str::from_utf8(s).ok()?.to_ascii_lowercase().as_str() {
                "instr" | "ifetch" | "instruction" => Some(Op::Instr),
                "read" | "load" => Some(Op::Read),
                "write" | "store" => Some(Op::Write),
                _ => None,
            },
        }
    }
}

/// Backing of a page as declared by the trace (CSV `kind` column). `Unknown` pages follow the
/// rule of DESIGN.md: written → anon from then on; never written → file-backed, clean.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[repr(u8)]
pub enum Kind {
    Unknown = 0,
    Anon = 1,
    File = 2,
}

impl Kind {
    pub fn from_u8(v: u8) -> Kind {
        match v {
            1 => Kind::Anon,
            2 => Kind::File,
            _ => Kind::Unknown,
        }
    }
}

/// Packs a page id and an op into one access word.
#[inline(always)]
pub fn pack(id: PageId, op: Op) -> u32 {
    (id << 2) | op as u32
}

/// Lines a reader passed over, by reason. Nothing is skipped silently: these are reported.
#[derive(Debug, Clone, Default, Serialize, PartialEq, schemars::JsonSchema)]
pub struct Skipped {
    /// Valgrind's `==pid==` banner and other non-access lines of Lackey output.
    pub banner_lines: u64,
    pub blank_lines: u64,
    /// Lines starting with `#`.
    pub comment_lines: u64,
    /// Malformed lines, skipped only under `skip_bad_lines`.
    pub bad_lines: u64,
    /// The first malformed line that was skipped, as `file:line: message`.
    pub first_bad_line: Option<String>,
}

/// A whole trace in memory, in dense ids.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    pub path: PathBuf,
    pub format: &'static str,
    /// One word per access: `id << 2 | op` (mapped from an uncompressed binary trace read with
    /// `ReadOptions::map`).
    pub accesses: Words,
    /// Simulated time of each access in ns, when the trace carries it.
    pub times: Option<Vec<u64>>,
    /// Original page number of each id.
    pub page_numbers: Vec<u64>,
    /// Owner process of each id, when the trace carries pids.
    pub page_pids: Option<Vec<u32>>,
    /// Declared kind of each id (`Kind as u8`), when the trace carries kinds.
    pub page_kinds: Option<Vec<u8>>,
    /// File of each file page (index into `files`, `u32::MAX` for none), when the trace names files.
    pub page_files: Option<Vec<u32>>,
    pub files: Vec<String>,
    /// `oom_score_adj` of the processes over the trace, when the trace or a side file gives it.
    pub procs: Option<ProcTable>,
    pub skipped: Skipped,
    /// SHA-256 (hex) of the file's bytes as they were read, when asked for (`ReadOptions::digest`).
    pub digest: Option<String>,
}

impl Trace {
    pub fn len(&self) -> usize {
        self.accesses.len()
    }
    pub fn is_empty(&self) -> bool {
        self.accesses.is_empty()
    }
    /// Distinct pages (the footprint in pages).
    pub fn num_pages(&self) -> usize {
        self.page_numbers.len()
    }
    /// The pages this trace's accesses name, their kinds and the accesses themselves.
    pub fn space(&self) -> PageSpace<'_> {
        PageSpace { pages: self.num_pages(), kinds: self.page_kinds.as_deref(), future: Some(&self.accesses) }
    }
    /// This trace with each page's backing declared from its own accesses, as the kernel sees a
    /// captured program: a page the trace ever writes is anon from its first touch (heap, stack and
    /// data pages: zero-filled, or copied on write), any other page is file-backed (program text,
    /// read-only data, mapped files). Without it, a page read before its first write (a `+=`)
    /// would start as a clean file page and sit on the file lists.
    pub fn with_kinds_from_writes(mut self) -> Trace {
        let mut kinds = vec![Kind::File as u8; self.num_pages()];
        for &a in self.accesses.iter() {
            if Op::from_bits(a).is_write() {
                kinds[(a >> 2) as usize] = Kind::Anon as u8;
            }
        }
        self.page_kinds = Some(kinds);
        // Not the file's trace any more: a store must not file it under the file's digest.
        self.digest = None;
        self
    }
    /// The accesses to its anon pages only (`Kind::Anon`): a captured program's trace without the
    /// file pages (program text, libraries) that a memory cgroup does not hold when another cgroup
    /// brought them into the page cache (docs/CALIBRATION.md).
    pub fn anon_pages_only(&self) -> Trace {
        let keep: Vec<bool> = (0..self.num_pages()).map(|id| self.kind_of(id as PageId) == Kind::Anon).collect();
        self.subset(&keep)
    }
    pub fn kind_of(&self, id: PageId) -> Kind {
        match &self.page_kinds {
            Some(k) => Kind::from_u8(k[id as usize]),
            None => Kind::Unknown,
        }
    }

    pub fn stats(&self, page_size: u64) -> TraceStats {
        let counts = op_counts(&self.accesses);
        // Accesses per page, only when there are processes to sum them by.
        let per_page = self.page_pids.as_ref().map(|_| {
            let mut n = vec![0u64; self.num_pages()];
            for &a in &self.accesses {
                n[(a >> 2) as usize] += 1;
            }
            n
        });
        self.stats_of(page_size, self.len() as u64, counts, per_page.as_deref())
    }

    /// The statistics from counts taken elsewhere (a streamed read): accesses, accesses by op
    /// (instruction, read, write) and, when the trace has pids, accesses per page.
    pub fn stats_of(&self, page_size: u64, accesses: u64, counts: [u64; 3], per_page: Option<&[u64]>) -> TraceStats {
        let mut per_pid: HashMap<u32, (u64, u64)> = HashMap::new();
        if let (Some(pids), Some(n)) = (&self.page_pids, per_page) {
            for (&p, &k) in pids.iter().zip(n) {
                let e = per_pid.entry(p).or_default();
                e.0 += k;
                e.1 += 1;
            }
        }
        let mut pids: Vec<PidStats> =
            per_pid.into_iter().map(|(pid, (accesses, pages))| PidStats { pid, accesses, pages }).collect();
        pids.sort_by_key(|p| p.pid);
        let [instr, reads, writes] = counts;
        let duration_ns = self.times.as_ref().and_then(|t| Some(t.last()? - t.first()?));
        TraceStats {
            path: self.path.display().to_string(),
            format: self.format.to_string(),
            accesses,
            instr,
            reads,
            writes,
            read_write_ratio: if writes > 0 { Some(reads as f64 / writes as f64) } else { None },
            distinct_pages: self.num_pages() as u64,
            footprint_kib: self.num_pages() as u64 * page_size / 1024,
            duration_ns,
            pids,
            skipped: self.skipped.clone(),
        }
    }
}

/// Accesses by op (instruction, read, write) in `words`. Counted in blocks with narrow counters, a
/// loop the compiler vectorises: a histogram indexed by op took seven times as long (24 against
/// 3 ms on 18 M accesses), each count waiting on the last.
pub(crate) fn op_counts(words: &[u32]) -> [u64; 3] {
    let (mut reads, mut writes) = (0u64, 0u64);
    for block in words.chunks(1 << 16) {
        let (mut r, mut w) = (0u32, 0u32);
        for &a in block {
            r += (a & 3 == 1) as u32;
            w += (a & 3 == 2) as u32;
        }
        reads += r as u64;
        writes += w as u64;
    }
    [words.len() as u64 - reads - writes, reads, writes]
}

#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct PidStats {
    pub pid: u32,
    pub accesses: u64,
    pub pages: u64,
}

/// What `mobmem stats` prints. The read:write ratio is data reads over data writes (instruction
/// fetches excluded), as in Table 1 of the SPO-CLOCK paper (3.50:1 for Angrybirds).
#[derive(Debug, Clone, Serialize, PartialEq, schemars::JsonSchema)]
pub struct TraceStats {
    pub path: String,
    pub format: String,
    pub accesses: u64,
    pub instr: u64,
    pub reads: u64,
    pub writes: u64,
    pub read_write_ratio: Option<f64>,
    pub distinct_pages: u64,
    pub footprint_kib: u64,
    pub duration_ns: Option<u64>,
    pub pids: Vec<PidStats>,
    pub skipped: Skipped,
}

/// Opens and reads a whole trace of any registered format, compressed or not.
pub fn read_trace(path: &Path, opts: &ReadOptions) -> Result<Trace> {
    let (mut input, _compression) = open_input_with(path, opts.digest)?;
    let head = input.peek(64)?;
    let fmt = match &opts.format {
        Some(name) => formats::by_name(name)?,
        None => formats::sniff(&head),
    };
    let mut b = TraceBuilder::new(path, opts);
    (fmt.read)(&mut input, &mut b)?;
    let mut t = b.finish(fmt.name)?;
    if t.is_empty() {
        return Err(Error::format(path, input.line_no(), format!("no accesses: the {} trace is empty", fmt.name)));
    }
    t.digest = input.finish_digest()?;
    after_read(&mut t, path, opts)?;
    Ok(t)
}

/// What every read does once the accesses are in (or streamed): the process table checked, or
/// loaded from its side file.
pub(crate) fn after_read(t: &mut Trace, path: &Path, opts: &ReadOptions) -> Result<()> {
    if let Some(p) = &t.procs {
        p.check_covers(t, &format!("the adj column of {}", path.display()))?;
    }
    if let Some(side) = &opts.procs {
        if t.procs.is_some() {
            return Err(Error::config(
                "procs",
                format!("{} has an adj column already; give the process table in one place", path.display()),
            ));
        }
        t.procs = Some(ProcTable::load(side, t)?);
    }
    Ok(())
}

/// Writes a trace in a registered format that has a writer (`binary`, `text`, `csv`).
pub fn write_trace(trace: &Trace, path: &Path, format: &str, compression: Compression) -> Result<()> {
    let fmt = formats::by_name(format)?;
    let write = fmt.write.ok_or_else(|| Error::config("format", format!("format {format:?} cannot be written")))?;
    input::with_output(path, compression, |w| write(trace, w))
}
