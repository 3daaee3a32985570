//! How a reader builds a `Trace`: `ReadOptions`, the `Record` of one parsed line, and
//! `TraceBuilder`, which maps page numbers to dense ids, keeps the optional columns (pids, times,
//! kinds, files, adj) and counts what was skipped; also `Trace::from_pages` (in-memory columns).

use super::*;

/// Options of a trace read.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// A registered format name; `None` sniffs the content.
    pub format: Option<String>,
    /// Count and skip malformed lines instead of failing on the first.
    pub skip_bad_lines: bool,
    /// A process table side file (pid → `oom_score_adj` over time); see `procs`.
    pub procs: Option<PathBuf>,
    /// Map an uncompressed binary trace and use its access column where it lies, instead of
    /// reading it in: no copy (the 72 MB column of an 18 M-access trace loads in 10 ms instead of
    /// 50), but the file must not change while the trace is in use (`Words`). For a process that
    /// reads a trace and ends (the command line); a trace kept for long, as in a notebook, is
    /// better read.
    pub map: bool,
    /// Hash the file's bytes as they are read (`Trace::digest`): the content a run replayed, which
    /// keys it in a results store. A digested trace is read, never mapped.
    pub digest: bool,
}

/// One access with every optional column (the CSV reader's record).
pub struct Record<'a> {
    pub pid: u32,
    pub page: u64,
    pub op: Op,
    pub time: Option<u64>,
    pub kind: Kind,
    pub file: Option<&'a str>,
    /// The process's `oom_score_adj` from this access on (CSV `adj` column).
    pub adj: Option<i32>,
}

/// Where a streamed read sends its accesses: a chunk of words and the index of its first access.
pub type Drain<'a> = dyn FnMut(&[u32], u64) -> Result<()> + 'a;

/// Builds a `Trace` from parsed records: assigns dense ids, keeps the per-page columns. With a
/// drain (`stream`), the accesses go out in chunks as they are read and only the per-page columns
/// stay: memory bounded by the footprint, not the trace.
pub struct TraceBuilder<'a> {
    path: PathBuf,
    map: PageMap,
    trace: Trace,
    pids: Vec<u32>,
    kinds: Vec<u8>,
    page_files: Vec<u32>,
    times: Vec<u64>,
    file_index: HashMap<String, u32>,
    has_pids: bool,
    has_kinds: bool,
    has_files: bool,
    has_times: bool,
    procs: Option<ProcTable>,
    /// Current adj of each pid given one (for change detection).
    adj_now: HashMap<u32, i32>,
    skip_bad_lines: bool,
    /// Whether an uncompressed binary trace may be mapped (`ReadOptions::map`).
    map_input: bool,
    /// The accesses read (a whole read), or the chunk being filled (a streamed one). A mapped
    /// column goes straight to the trace instead (`install_words`).
    acc: Vec<u32>,
    drain: Option<&'a mut Drain<'a>>,
    /// Accesses sent to the drain so far.
    drained: u64,
    /// Accesses per chunk sent to the drain.
    chunk: usize,
}

impl<'a> TraceBuilder<'a> {
    pub fn new(path: &Path, opts: &ReadOptions) -> Self {
        TraceBuilder {
            path: path.to_path_buf(),
            map: PageMap::new(),
            trace: Trace { path: path.to_path_buf(), ..Default::default() },
            pids: Vec::new(),
            kinds: Vec::new(),
            page_files: Vec::new(),
            times: Vec::new(),
            file_index: HashMap::new(),
            has_pids: false,
            has_kinds: false,
            has_files: false,
            has_times: false,
            procs: None,
            adj_now: HashMap::new(),
            skip_bad_lines: opts.skip_bad_lines,
            map_input: opts.map,
            acc: Vec::new(),
            drain: None,
            drained: 0,
            chunk: usize::MAX,
        }
    }

    /// A builder that sends its accesses to `drain` in chunks of `chunk` (the last one shorter)
    /// and keeps none of them, nor their times.
    pub fn streaming(path: &Path, opts: &ReadOptions, drain: &'a mut Drain<'a>, chunk: usize) -> Self {
        TraceBuilder { drain: Some(drain), chunk: chunk.max(1), ..TraceBuilder::new(path, opts) }
    }

    /// Accesses read so far (sent to a drain or held).
    pub fn accesses_read(&self) -> u64 {
        self.drained + (self.acc.len() + self.trace.accesses.len()) as u64
    }

    /// Sends the held accesses to the drain, if there is one.
    fn flush(&mut self) -> Result<()> {
        if let Some(d) = self.drain.as_mut() {
            if !self.acc.is_empty() {
                d(&self.acc, self.drained)?;
            }
            self.drained += self.acc.len() as u64;
            self.acc.clear();
            // Only the last time is kept: the next must not go back before it.
            let n = self.times.len();
            self.times.drain(..n.saturating_sub(1));
        }
        Ok(())
    }

    #[inline(always)]
    fn pushed(&mut self) -> Result<()> {
        if self.acc.len() >= self.chunk {
            self.flush()?;
        }
        Ok(())
    }

    /// Appends access words already in dense ids (the binary reader, which has checked them).
    pub fn push_words(&mut self, mut words: &[u32]) -> Result<()> {
        while !words.is_empty() {
            // Up to the end of the chunk being filled, so every chunk but the last is whole.
            let room = self.chunk.saturating_sub(self.acc.len()).max(1);
            let (part, rest) = words.split_at(room.min(words.len()));
            self.acc.extend_from_slice(part);
            self.pushed()?;
            words = rest;
        }
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
    pub fn skipped(&mut self) -> &mut Skipped {
        &mut self.trace.skipped
    }
    pub fn reserve(&mut self, accesses: usize) {
        if self.drain.is_none() {
            self.acc.reserve(accesses);
        }
    }
    /// Declares which optional columns the reader provides (before the first access).
    pub fn set_columns(&mut self, pids: bool, kinds: bool, files: bool, times: bool) {
        self.has_pids = pids;
        self.has_kinds = kinds;
        self.has_files = files;
        self.has_times = times;
    }

    /// A malformed line: an error, or under `skip_bad_lines` a counted skip.
    pub fn bad_line(&mut self, line: u64, msg: String) -> Result<()> {
        if !self.skip_bad_lines {
            return Err(Error::format(&self.path, line, msg));
        }
        let s = &mut self.trace.skipped;
        s.bad_lines += 1;
        if s.first_bad_line.is_none() {
            s.first_bad_line = Some(format!("{}:{line}: {msg}", self.path.display()));
        }
        Ok(())
    }

    /// Looks up or assigns the id of `(pid, page)`.
    #[inline]
    pub fn page_id(&mut self, line: u64, pid: u32, page: u64) -> Result<PageId> {
        let next = self.trace.page_numbers.len() as u32;
        let id = self.map.get_or_insert(page, pid, next);
        if id == next {
            if self.trace.page_numbers.len() >= MAX_PAGES {
                return Err(Error::format(&self.path, line, format!("more than {MAX_PAGES} distinct pages")));
            }
            self.trace.page_numbers.push(page);
            if self.has_pids {
                self.pids.push(pid);
            }
            if self.has_kinds {
                self.kinds.push(Kind::Unknown as u8);
            }
            if self.has_files {
                self.page_files.push(u32::MAX);
            }
        }
        Ok(id)
    }

    /// Appends one access of the plain formats (no optional columns).
    #[inline]
    pub fn push(&mut self, line: u64, page: u64, op: Op) -> Result<()> {
        let id = self.page_id(line, 0, page)?;
        self.acc.push(pack(id, op));
        self.pushed()
    }

    /// Appends an access with the optional columns. A page's kind and file are fixed by their
    /// first declaration; a later contradiction is a format error.
    pub fn push_full(&mut self, line: u64, r: Record<'_>) -> Result<()> {
        let Record { pid, page, op, time, kind, file, adj } = r;
        let id = self.page_id(line, pid, page)?;
        if let Some(a) = adj {
            if self.adj_now.insert(pid, a) != Some(a) {
                let at = self.accesses_read();
                self.procs.get_or_insert_with(ProcTable::default).set(at, pid, a);
            }
        }
        if self.has_kinds && kind != Kind::Unknown {
            let k = self.kinds[id as usize];
            if k == Kind::Unknown as u8 {
                self.kinds[id as usize] = kind as u8;
            } else if k != kind as u8 {
                let was = Kind::from_u8(k);
                return self.bad_line(line, format!("page {page} (pid {pid}) declared {was:?} earlier, {kind:?} here"));
            }
        }
        if let (true, Some(f)) = (self.has_files, file) {
            if f.len() > MAX_FILE_NAME {
                return self.bad_line(line, format!("file name of {} bytes (at most {MAX_FILE_NAME})", f.len()));
            }
            let n = self.file_index.len() as u32;
            let fid = *self.file_index.entry(f.to_string()).or_insert(n);
            if fid == n {
                self.trace.files.push(f.to_string());
            }
            let slot = &mut self.page_files[id as usize];
            if *slot == u32::MAX {
                *slot = fid;
            } else if *slot != fid {
                let was = &self.trace.files[*slot as usize];
                return self.bad_line(line, format!("page {page} belonged to file {was:?} earlier, {f:?} here"));
            }
        }
        if self.has_times {
            let t = time.unwrap_or(0);
            if let Some(&prev) = self.times.last() {
                if t < prev {
                    return self.bad_line(line, format!("time_ns {t} goes back in time (previous {prev})"));
                }
            }
            self.times.push(t);
        }
        self.acc.push(pack(id, op));
        self.pushed()
    }

    /// Installs whole columns at once (the binary reader); accesses held in `trace` go through
    /// `push_words`' path, so a drain gets them too.
    pub fn install(&mut self, mut trace: Trace) -> Result<()> {
        let skipped = std::mem::take(&mut self.trace.skipped);
        let accesses = std::mem::take(&mut trace.accesses);
        self.trace = trace;
        self.trace.skipped = skipped;
        self.trace.path = self.path.clone();
        self.push_words(&accesses)
    }

    /// The whole access column at once (a mapped binary trace's, checked by its reader).
    pub fn install_words(&mut self, words: Words) {
        debug_assert!(self.drain.is_none() && self.acc.is_empty(), "a whole read, before any access");
        self.trace.accesses = words;
    }

    /// Makes room for `n` more accesses when they are kept; false if memory cannot hold them.
    pub fn try_reserve(&mut self, n: u64) -> bool {
        self.drain.is_some() || self.acc.try_reserve_exact(n as usize).is_ok()
    }

    /// Whether a binary reader may map its file: a whole read that asked for it.
    pub fn maps_input(&self) -> bool {
        self.drain.is_none() && self.map_input
    }

    /// Whether the accesses are kept (no drain): columns per access are worth building.
    pub fn keeps_accesses(&self) -> bool {
        self.drain.is_none()
    }

    /// Columns that come after the accesses in the binary format.
    pub fn install_late(&mut self, times: Option<Vec<u64>>, procs: Option<ProcTable>) {
        self.trace.times = times;
        self.trace.procs = procs;
    }

    /// The trace read; when streaming, its accesses (and times) have gone to the drain.
    pub fn finish(mut self, format: &'static str) -> Result<Trace> {
        self.flush()?;
        let streaming = self.drain.is_some();
        if !self.trace.accesses.is_mapped() {
            self.trace.accesses = std::mem::take(&mut self.acc).into();
        } else if !self.acc.is_empty() {
            // Not done by any reader (a mapped column is the whole column), but never lost.
            self.trace.accesses.extend_from_slice(&self.acc);
        }
        self.trace.format = format;
        if self.has_pids {
            self.trace.page_pids = Some(self.pids);
        }
        if self.has_kinds {
            self.trace.page_kinds = Some(self.kinds);
        }
        if self.has_files {
            self.trace.page_files = Some(self.page_files);
        }
        if self.has_times && !streaming {
            self.trace.times = Some(self.times);
        }
        if self.procs.is_some() {
            self.trace.procs = self.procs;
        }
        Ok(self.trace)
    }
}

impl Trace {
    /// A trace from in-memory columns (a notebook's arrays): page numbers and ops (0 = instruction
    /// fetch, 1 = read, 2 = write), one each per access; `name` stands for the path in results.
    pub fn from_pages(name: &str, pages: &[u64], ops: &[u8]) -> Result<Trace> {
        if pages.len() != ops.len() {
            return Err(Error::config(
                "ops",
                format!("{} pages but {} ops: one op per access", pages.len(), ops.len()),
            ));
        }
        if pages.is_empty() {
            return Err(Error::config("pages", "no accesses"));
        }
        let path = PathBuf::from(name);
        let mut b = TraceBuilder::new(&path, &ReadOptions::default());
        b.reserve(pages.len());
        for (i, (&page, &op)) in pages.iter().zip(ops).enumerate() {
            let op = match op {
                0 => Op::Instr,
                1 => Op::Read,
                2 => Op::Write,
                v => return Err(Error::config("ops", format!("op {v} at access {i} (0 = I, 1 = R, 2 = W)"))),
            };
            b.push(i as u64 + 1, page, op).map_err(|e| match e {
                Error::TraceFormat { msg, .. } => Error::config("pages", msg),
                e => e,
            })?;
        }
        b.finish("memory")
    }
}
