//! What zram compressing by hotness class keeps (the `ariadne` backend): each class's costs, the
//! pages compressed and read back in each, and PreDecomp's buffer. The devices hold it
//! (`io::Devices::classes`); `zram.rs` prices reads and writes with it.

use crate::swap::backend::ZramClasses;
use crate::system::meters::SystemMeters;
use crate::trace::PageId;
use std::collections::VecDeque;

/// The classes' costs, what was compressed in each, and PreDecomp's buffer.
pub(super) struct Classes {
    pub c: ZramClasses,
    /// Pages compressed in each class (indexed by `crate::swap::COLD`…), and read back (by a
    /// fault's own decompression, not PreDecomp's).
    pub compressed: [u64; 3],
    pub decompressed: [u64; 3],
    /// Pages decompressed ahead, and faults that found theirs in the buffer.
    pub predecomp: u64,
    pub predecomp_used: u64,
    /// PreDecomp's buffer: pages decompressed ahead and when each is ready (ns), oldest first.
    pub(super) buf: VecDeque<(PageId, f64)>,
}

impl Classes {
    pub fn new(c: ZramClasses) -> Classes {
        Classes { c, compressed: [0; 3], decompressed: [0; 3], predecomp: 0, predecomp_used: 0, buf: VecDeque::new() }
    }

    /// No pages moved, an empty buffer (launches start on an idle phone).
    pub fn reset(&mut self) {
        let c = self.c.clone();
        *self = Classes::new(c);
    }

    /// Drops the pages of `range` decompressed ahead (their owner died: the copies are gone).
    pub fn forget(&mut self, range: std::ops::Range<PageId>) {
        self.buf.retain(|(p, _)| !range.contains(p));
    }

    /// Pages compressed over the DRAM frames they took, by class (`None`: none compressed).
    pub fn ratio(&self) -> Option<f64> {
        let n: u64 = self.compressed.iter().sum();
        let frames: f64 = self.compressed.iter().zip(&self.c.ratio).map(|(&k, &r)| k as f64 / r).sum();
        (n > 0).then(|| n as f64 / frames)
    }

    /// Copies the counts into the run's meters.
    pub fn report(&self, m: &mut SystemMeters) {
        use crate::swap::{COLD, HOT, WARM};
        m.compressed_hot_pages = self.compressed[HOT as usize];
        m.compressed_warm_pages = self.compressed[WARM as usize];
        m.compressed_cold_pages = self.compressed[COLD as usize];
        m.decompressed_hot_pages = self.decompressed[HOT as usize];
        m.decompressed_warm_pages = self.decompressed[WARM as usize];
        m.decompressed_cold_pages = self.decompressed[COLD as usize];
        m.zram_ratio = self.ratio();
        m.predecomp_pages = self.predecomp;
        m.predecomp_used = self.predecomp_used;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_apps_pages_leave_the_buffer_and_reset_keeps_the_costs() {
        let c = ZramClasses {
            ratio: [4.0, 3.0, 2.0],
            compress_ns: [1.0; 3],
            decompress_ns: [2.0; 3],
            chunk: [16384, 2048, 1024],
            predecomp_pages: 4,
        };
        let mut k = Classes::new(c);
        k.buf.extend([(3, 1.0), (10, 2.0), (11, 3.0), (20, 4.0)]);
        k.forget(10..20);
        assert_eq!(k.buf.iter().map(|e| e.0).collect::<Vec<_>>(), [3, 20]);
        k.compressed = [3, 0, 2];
        // 5 pages over 3/4 + 2/2 frames.
        assert!((k.ratio().unwrap() - 5.0 / 1.75).abs() < 1e-12);
        k.reset();
        assert!(k.buf.is_empty() && k.ratio().is_none() && k.c.predecomp_pages == 4);
    }
}
