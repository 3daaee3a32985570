//! The access column of a trace: one word per access (`id << 2 | op`), held in memory or mapped
//! from a binary trace file (`ReadOptions::map`). A mapped column costs neither a copy nor fresh
//! zeroed pages: the 72 MB column of an 18 M-access trace loaded in 49–59 ms as a read, mostly the
//! kernel's copy and the first touch of the new pages, and in 10–12 ms mapped (BENCHMARKS.md).
//!
//! A mapped file must not change while the trace is alive: a file rewritten in place would bypass
//! the reader's checks, and a shrunk one stops the process when it touches a page past the new end
//! (SIGBUS), as for every program that maps its input. Hence mapping is asked for, by processes
//! that read a trace and end.

use memmap2::Mmap;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// The words of a trace, owned or mapped; reads as a `&[u32]`.
#[derive(Clone)]
pub struct Words(Store);

#[derive(Clone)]
enum Store {
    Owned(Vec<u32>),
    /// `len` words at byte `offset` of the map; `offset` is a multiple of 4 (checked when made).
    Mapped {
        map: Arc<Mmap>,
        offset: usize,
        len: usize,
    },
}

impl Words {
    pub const fn new() -> Words {
        Words(Store::Owned(Vec::new()))
    }

    /// The `len` words at byte `offset` of `map`, when they lie in it and are 4-byte aligned in
    /// memory; `None` otherwise (the caller copies them).
    pub fn mapped(map: Arc<Mmap>, offset: usize, len: usize) -> Option<Words> {
        let end = len.checked_mul(4)?.checked_add(offset)?;
        let bytes = map.get(offset..end)?;
        bytemuck::try_cast_slice::<u8, u32>(bytes).ok()?;
        Some(Words(Store::Mapped { map, offset, len }))
    }

    pub fn is_mapped(&self) -> bool {
        matches!(self.0, Store::Mapped { .. })
    }

    /// The words as a vector that can grow: a mapped column is copied first.
    fn owned(&mut self) -> &mut Vec<u32> {
        if let Store::Mapped { .. } = self.0 {
            self.copy_out();
        }
        match &mut self.0 {
            Store::Owned(v) => v,
            Store::Mapped { .. } => unreachable!("copied out above"),
        }
    }

    #[cold]
    fn copy_out(&mut self) {
        self.0 = Store::Owned(self.to_vec());
    }

    /// Appends a word; one predicted branch on the way to `Vec::push` (the generators push every
    /// access).
    #[inline(always)]
    pub fn push(&mut self, w: u32) {
        match &mut self.0 {
            Store::Owned(v) => v.push(w),
            Store::Mapped { .. } => self.owned().push(w),
        }
    }
    pub fn extend_from_slice(&mut self, w: &[u32]) {
        self.owned().extend_from_slice(w);
    }
    pub fn truncate(&mut self, n: usize) {
        match &mut self.0 {
            Store::Owned(v) => v.truncate(n),
            Store::Mapped { len, .. } => *len = (*len).min(n),
        }
    }
}

impl Default for Words {
    fn default() -> Words {
        Words::new()
    }
}

impl Deref for Words {
    type Target = [u32];
    #[inline]
    fn deref(&self) -> &[u32] {
        match &self.0 {
            Store::Owned(v) => v,
            // In bounds and aligned: checked in `mapped`, and a map never changes.
            Store::Mapped { map, offset, len } => bytemuck::cast_slice(&map[*offset..*offset + *len * 4]),
        }
    }
}

impl From<Vec<u32>> for Words {
    fn from(v: Vec<u32>) -> Words {
        Words(Store::Owned(v))
    }
}

impl FromIterator<u32> for Words {
    fn from_iter<I: IntoIterator<Item = u32>>(it: I) -> Words {
        Words(Store::Owned(it.into_iter().collect()))
    }
}

impl<'a> IntoIterator for &'a Words {
    type Item = &'a u32;
    type IntoIter = std::slice::Iter<'a, u32>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for Words {
    fn eq(&self, other: &Words) -> bool {
        **self == **other
    }
}

impl fmt::Debug for Words {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = if self.is_mapped() { "mapped" } else { "owned" };
        write!(f, "Words({} {how})", self.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A map of a file holding `bytes`, private to this test.
    fn map_of(bytes: &[u8]) -> Arc<Mmap> {
        let p = std::env::temp_dir().join(format!("mobmem-words-test-{}", std::process::id()));
        std::fs::File::create(&p).and_then(|mut f| f.write_all(bytes)).unwrap();
        // SAFETY: this test's own file, not changed while mapped.
        let m = Arc::new(unsafe { Mmap::map(&std::fs::File::open(&p).unwrap()) }.unwrap());
        std::fs::remove_file(&p).unwrap();
        m
    }

    #[test]
    fn a_mapped_column_reads_as_its_words_and_grows_as_a_copy() {
        let bytes: Vec<u8> = [7u32, 1, 2, 3, 4].iter().flat_map(|w| w.to_le_bytes()).collect();
        let m = map_of(&bytes);
        let mut w = Words::mapped(m.clone(), 4, 3).expect("aligned and in bounds");
        assert!(w.is_mapped());
        assert_eq!(&*w, &[1, 2, 3]);
        w.truncate(2);
        assert!(w.is_mapped());
        assert_eq!(&*w, &[1, 2]);
        w.push(9);
        assert!(!w.is_mapped());
        assert_eq!(&*w, &[1, 2, 9]);
        assert!(Words::mapped(m.clone(), 2, 1).is_none(), "misaligned");
        assert!(Words::mapped(m.clone(), 8, 4).is_none(), "past the end");
        assert!(Words::mapped(m, usize::MAX - 1, usize::MAX / 2).is_none(), "overflowing");
    }
}
