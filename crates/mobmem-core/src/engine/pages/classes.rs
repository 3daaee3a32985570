//! zram whose copies are compressed by hotness class (the Ariadne paper's hot / warm / cold
//! lists, `crate::swap::HOT`…), each class in its own chunk size and so at its own ratio: the
//! pool is the sum over classes of their copies over their ratio. Kept only for a backend that
//! compresses by class (`SwapBackend::classes`).

use super::Pages;
use crate::trace::PageId;

/// No zram copy.
const NONE: u8 = u8::MAX;

pub struct PoolClasses {
    /// The class each page's zram copy was compressed in (`NONE`: no copy).
    of: Vec<u8>,
    /// zram copies of each class now.
    n: [u64; 3],
    /// Pages per DRAM frame of each class.
    ratio: [f64; 3],
    /// Pages compressed in each class since the caller last took the counts.
    compressed: [u64; 3],
}

impl PoolClasses {
    /// Frames the copies take, rounded up to whole frames as one pool.
    fn frames(&self) -> usize {
        let bytes: f64 = self.n.iter().zip(&self.ratio).map(|(&n, &r)| n as f64 / r).sum();
        bytes.ceil() as usize
    }
}

impl Pages {
    /// Compresses each class at its own ratio (pages per frame, indexed by class).
    pub fn keep_pool_classes(&mut self, ratio: [f64; 3]) {
        self.classes =
            Some(Box::new(PoolClasses { of: vec![NONE; self.flags.len()], n: [0; 3], ratio, compressed: [0; 3] }));
        self.note_extras();
    }

    /// Whether copies are compressed by class.
    #[inline(always)]
    pub fn has_pool_classes(&self) -> bool {
        self.classes.is_some()
    }

    /// Page `v`, just swapped out, was compressed in `class`: its share of the pool follows.
    #[cold]
    #[inline(never)]
    pub fn compressed_in(&mut self, v: PageId, class: u8) {
        if let Some(c) = &mut self.classes {
            let class = class.min(2);
            debug_assert_eq!(c.of[v as usize], NONE, "a page's earlier copy was freed first");
            c.of[v as usize] = class;
            c.n[class as usize] += 1;
            c.compressed[class as usize] += 1;
            self.resize_pool();
        }
    }

    /// The class page `id`'s zram copy was compressed in, if it has one.
    pub fn zram_class(&self, id: PageId) -> Option<u8> {
        self.classes.as_ref().and_then(|c| c.of.get(id as usize).copied()).filter(|&k| k != NONE)
    }

    /// Pages compressed in each class since the last call.
    pub fn take_compressed(&mut self) -> [u64; 3] {
        self.classes.as_mut().map_or([0; 3], |c| std::mem::take(&mut c.compressed))
    }

    /// Page `id`'s copy is gone: its class leaves the pool.
    pub(super) fn unclassify(&mut self, id: usize) {
        if let Some(c) = &mut self.classes {
            if let Some(k) = c.of.get_mut(id).filter(|k| **k != NONE) {
                c.n[*k as usize] -= 1;
                *k = NONE;
            }
        }
    }

    /// Whether each copy has a class and each class's count is its copies' (`Some`: what is off).
    pub fn check_classes(&self) -> Option<String> {
        let c = self.classes.as_ref()?;
        let mut n = [0u64; 3];
        for (id, &k) in c.of.iter().enumerate() {
            let copy = self.flags[id] & super::SWAP_VALID != 0;
            if (k != NONE) != copy {
                return Some(format!("page {id}: class {k}, zram copy {copy}"));
            }
            if k != NONE {
                n[k as usize] += 1;
            }
        }
        (n != c.n).then(|| format!("copies by class {n:?}, counted {:?}", c.n))
    }

    /// Frames the classes' copies take (`None`: copies are not compressed by class).
    pub(super) fn class_frames(&self) -> Option<usize> {
        self.classes.as_ref().map(|c| c.frames())
    }
}
