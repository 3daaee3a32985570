//! Byte input of trace readers: a file, decompressed when its first bytes say gzip or zstd, read
//! through one reusable buffer, line by line (text formats) or as raw bytes (binary format).

use crate::error::{Error, Result};
use memmap2::{Mmap, MmapOptions};
use sha2::{Digest as _, Sha256};
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
const UTF8_BOM: [u8; 3] = [0xef, 0xbb, 0xbf];
const BUF_SIZE: usize = 1 << 20;
/// A line longer than this is not a trace line: stop instead of growing without bound.
const MAX_LINE: usize = 64 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
}

impl Compression {
    /// The compression a file name asks for when writing (`.gz`, `.zst`).
    pub fn from_name(path: &Path) -> Compression {
        match path.extension().and_then(|e| e.to_str()) {
            Some("gz") => Compression::Gzip,
            Some("zst" | "zstd") => Compression::Zstd,
            _ => Compression::None,
        }
    }
}

/// A decompressed byte stream with a line counter.
pub struct LineReader {
    path: PathBuf,
    compression: Compression,
    inner: Box<dyn Read + Send>,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    eof: bool,
    line: u64,
    /// Length of the file when it is read as it is (not compressed).
    raw_size: Option<u64>,
    /// The file itself when it is read as it is and is a regular file: it can be mapped.
    file: Option<File>,
    /// Whether any byte has been consumed (peeking is not consuming).
    consumed: bool,
    /// The content hash of the raw bytes as they are read, when asked for (`open_input_with`).
    digest: Option<Digest>,
}

/// SHA-256 of a file's raw bytes (before decompression), taken as the reader reads them — so that
/// it is the hash of what was read, not of what the file holds at some other moment — and of the
/// rest of the file when the reader is done (`rest` shares the reader's file position).
struct Digest {
    hasher: Arc<Mutex<Sha256>>,
    rest: File,
}

/// A reader that feeds every byte it passes on to a hasher.
struct Hashing<R> {
    inner: R,
    hasher: Arc<Mutex<Sha256>>,
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.lock().unwrap_or_else(|e| e.into_inner()).update(&buf[..n]);
        Ok(n)
    }
}

/// Opens `path`, sniffing gzip/zstd magic bytes (not the file name).
pub fn open_input(path: &Path) -> Result<(LineReader, Compression)> {
    open_input_with(path, false)
}

/// `open_input`, and with `digest` the SHA-256 of the file's bytes as they are read
/// (`LineReader::finish_digest`); such a reader is never mapped (its bytes must pass the hasher).
pub fn open_input_with(path: &Path, digest: bool) -> Result<(LineReader, Compression)> {
    let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
    if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(Error::format(path, 0, "is a directory, not a trace file"));
    }
    let mut magic = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match file.read(&mut magic[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    // Only a regular file's size says how many bytes will come (a pipe reports 0).
    let len = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    let mappable = if digest { None } else { len.and_then(|_| file.try_clone().ok()) };
    let (raw, digest): (Box<dyn Read + Send>, Option<Digest>) = if digest {
        let mut h = Sha256::new();
        h.update(&magic[..got]);
        let hasher = Arc::new(Mutex::new(h));
        let rest = file.try_clone().map_err(|e| Error::io(path, e))?;
        (Box::new(Hashing { inner: file, hasher: hasher.clone() }), Some(Digest { hasher, rest }))
    } else {
        (Box::new(file), None)
    };
    let head = io::Cursor::new(magic[..got].to_vec()).chain(raw);
    let (compression, inner): (Compression, Box<dyn Read + Send>) = if got >= 4 && magic == ZSTD_MAGIC {
        let d = zstd::stream::read::Decoder::new(head).map_err(|e| Error::io(path, e))?;
        (Compression::Zstd, Box::new(d))
    } else if got >= 2 && magic[..2] == GZIP_MAGIC {
        (Compression::Gzip, Box::new(flate2::read::MultiGzDecoder::new(head)))
    } else {
        (Compression::None, Box::new(head))
    };
    let mut r = LineReader {
        path: path.to_path_buf(),
        compression,
        inner,
        buf: vec![0; BUF_SIZE],
        pos: 0,
        end: 0,
        eof: false,
        line: 0,
        raw_size: if compression == Compression::None { len } else { None },
        file: if compression == Compression::None { mappable } else { None },
        consumed: false,
        digest,
    };
    // A UTF-8 byte-order mark (as spreadsheet programs write) is not part of the first line.
    if r.peek(3)? == UTF8_BOM {
        r.pos += 3;
        r.raw_size = r.raw_size.map(|n| n.saturating_sub(3));
    }
    Ok((r, compression))
}

impl LineReader {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes the input holds from the current start when the file is not compressed (none for
    /// compressed input, whose size is known only once it is read).
    pub fn raw_size(&self) -> Option<u64> {
        self.raw_size
    }

    /// The whole file mapped into memory, when it is a regular, uncompressed file of which nothing
    /// has been consumed yet (peeking is not consuming): byte 0 of the map is the next byte. `None`
    /// otherwise, or when the system will not map it; the caller then reads as usual.
    pub fn map(&self) -> Option<Arc<Mmap>> {
        if self.pos != 0 || self.consumed {
            return None;
        }
        // SAFETY: the map is only read. The reader checks its bytes (bounds, ids, checksum) as it
        // checks read ones, but only as they are when read: a file changed later is seen changed,
        // unchecked, and a shrunk one stops the process. That is why mapping is asked for
        // (`ReadOptions::map`) by processes that read a trace and end (documented in `Words`).
        let map = unsafe { MmapOptions::new().populate().map(self.file.as_ref()?) }.ok()?;
        (map.len() as u64 == self.raw_size?).then(|| Arc::new(map))
    }

    /// The SHA-256 (hex) of every byte of the file, when the reader was opened with `digest`: the
    /// bytes read so far as they were read, then the rest of the file. Call once reading is done.
    pub fn finish_digest(&mut self) -> Result<Option<String>> {
        let Some(d) = self.digest.take() else { return Ok(None) };
        // The reader may still hold the hasher (inside a decoder): go on from a copy of its state.
        let mut h = d.hasher.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let mut rest = d.rest;
        let mut buf = vec![0u8; 1 << 16];
        loop {
            match rest.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => h.update(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::io(&self.path, e)),
            }
        }
        Ok(Some(h.finalize().iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// Number of the last line returned (1-based).
    pub fn line_no(&self) -> u64 {
        self.line
    }

    fn stream_error(&self, e: io::Error) -> Error {
        match self.compression {
            Compression::None => Error::io(&self.path, e),
            c => Error::format(
                &self.path,
                self.line + 1,
                format!("cannot decompress ({c:?}): the file is truncated or corrupt: {e}"),
            ),
        }
    }

    /// Reads more bytes after the unread ones; returns how many arrived (0 at end of input).
    fn refill(&mut self) -> Result<usize> {
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
        }
        if self.end == self.buf.len() {
            if self.buf.len() >= MAX_LINE {
                return Err(Error::format(
                    &self.path,
                    self.line + 1,
                    format!("line longer than {MAX_LINE} bytes: not a trace"),
                ));
            }
            self.buf.resize(self.buf.len() * 2, 0);
        }
        loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(0);
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.stream_error(e)),
            }
        }
    }

    /// Up to `n` bytes from the start of the unread input, without consuming them.
    pub fn peek(&mut self, n: usize) -> Result<Vec<u8>> {
        while self.end - self.pos < n && !self.eof {
            self.refill()?;
        }
        let k = n.min(self.end - self.pos);
        Ok(self.buf[self.pos..self.pos + k].to_vec())
    }

    /// The next line without its `\n` / `\r\n`, with its 1-based number; `None` at the end.
    #[inline]
    pub fn next_line(&mut self) -> Result<Option<(u64, &[u8])>> {
        self.consumed = true;
        loop {
            if let Some(i) = memchr::memchr(b'\n', &self.buf[self.pos..self.end]) {
                let start = self.pos;
                self.pos = start + i + 1;
                self.line += 1;
                let mut l = &self.buf[start..start + i];
                if let [rest @ .., b'\r'] = l {
                    l = rest;
                }
                return Ok(Some((self.line, l)));
            }
            if self.eof {
                if self.pos < self.end {
                    let start = self.pos;
                    self.pos = self.end;
                    self.line += 1;
                    let mut l = &self.buf[start..self.end];
                    if let [rest @ .., b'\r'] = l {
                        l = rest;
                    }
                    return Ok(Some((self.line, l)));
                }
                return Ok(None);
            }
            self.refill()?;
        }
    }

    /// Fills `out` completely; `Ok(false)` if the input ends first (nothing or part was read).
    pub fn read_exact_or_eof(&mut self, out: &mut [u8]) -> Result<bool> {
        self.consumed |= !out.is_empty();
        let mut done = 0;
        while done < out.len() {
            if self.pos == self.end {
                if self.eof {
                    return Ok(false);
                }
                // Large reads bypass the buffer.
                if out.len() - done >= self.buf.len() {
                    match self.inner.read(&mut out[done..]) {
                        Ok(0) => {
                            self.eof = true;
                            return Ok(false);
                        }
                        Ok(n) => done += n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(self.stream_error(e)),
                    }
                    continue;
                }
                self.refill()?;
                continue;
            }
            let k = (self.end - self.pos).min(out.len() - done);
            out[done..done + k].copy_from_slice(&self.buf[self.pos..self.pos + k]);
            self.pos += k;
            done += k;
        }
        Ok(true)
    }

    /// True when no byte is left.
    pub fn at_end(&mut self) -> Result<bool> {
        if self.pos < self.end {
            return Ok(false);
        }
        if self.eof {
            return Ok(true);
        }
        Ok(self.refill()? == 0 && self.pos == self.end)
    }
}

/// Writes `path` through a temporary file in the same directory, renamed into place only once
/// every byte is written and synced: a run killed half-way leaves no truncated file that would read
/// back as a valid, shorter trace. `f` gets a buffered (and compressed, if asked) writer; zstd
/// output carries its content checksum and gzip its CRC, which the readers verify.
pub fn with_output(
    path: &Path,
    compression: Compression,
    f: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    write_atomically(path, |file| {
        let w = BufWriter::with_capacity(1 << 20, file);
        let file = match compression {
            Compression::None => {
                let mut w = w;
                f(&mut w)?;
                w.into_inner().map_err(|e| e.into_error())?
            }
            Compression::Gzip => {
                let mut enc = flate2::write::GzEncoder::new(w, flate2::Compression::default());
                f(&mut enc)?;
                enc.finish()?.into_inner().map_err(|e| e.into_error())?
            }
            Compression::Zstd => {
                let mut enc = zstd::stream::write::Encoder::new(w, 3)?;
                enc.include_checksum(true)?;
                f(&mut enc)?;
                enc.finish()?.into_inner().map_err(|e| e.into_error())?
            }
        };
        Ok(file)
    })
}

/// Creates a temporary sibling of `path`, lets `f` write it, syncs it and renames it over `path`;
/// on any failure the temporary file is removed and `path` is left as it was.
pub fn write_atomically(path: &Path, f: impl FnOnce(File) -> io::Result<File>) -> Result<()> {
    // A device or pipe (/dev/null, /dev/stdout) is written as it is: there is nothing to replace.
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        let file = std::fs::OpenOptions::new().write(true).open(path).map_err(|e| Error::io(path, e))?;
        return f(file).map(|_| ()).map_err(|e| Error::io(path, e));
    }
    let name =
        path.file_name().ok_or_else(|| Error::config("output", format!("{}: not a file name", path.display())))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let tmp = dir.join(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id()));
    let file = File::create(&tmp).map_err(|e| Error::io(path, e))?;
    let done = f(file).and_then(|file| file.sync_all()).and_then(|_| std::fs::rename(&tmp, path));
    done.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })
}
