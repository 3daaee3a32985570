//! zram compressing by hotness class (the `ariadne` backend): a write batch is priced by the
//! classes its pages were compressed in, a read by its page's class, and PreDecomp decompresses
//! the page after a read ahead of use, on another core, into a FIFO buffer.

use super::io::{DevRef, Devices};
use super::Sim;
use crate::policy::Policy;
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
    buf: VecDeque<(PageId, f64)>,
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

impl Devices {
    /// A batch of pages compressed at `t`, `n` of each class: the compressing task's CPU time.
    pub fn compress_classes(&mut self, n: [u64; 3], t: f64, m: &mut SystemMeters) -> f64 {
        let Some(k) = &mut self.classes else { return t };
        let ns: f64 = n.iter().zip(&k.c.compress_ns).map(|(&p, &c)| p as f64 * c).sum();
        for (total, p) in k.compressed.iter_mut().zip(n) {
            *total += p;
        }
        self.serve(DevRef::Swap, true, n.iter().sum(), ns, t, m)
    }
}

impl<P: Policy> Sim<'_, P> {
    /// The page after `page` (its app's next page id) decompressed ahead at `t`, in a launch, if it
    /// is in zram, the same app's, in a chunk no larger than a page, and not in the buffer already.
    fn predecompress(&mut self, page: PageId, t: f64) {
        if !self.w.launching {
            return; // the paper's locality is a relaunch's (Section 3, Insight 3)
        }
        let next = page + 1;
        let owners = &self.e.owners().of_page;
        let same_app = owners.get(next as usize).is_some_and(|o| Some(o) == owners.get(page as usize));
        let Some(class) = self.e.zram_class(next).filter(|_| same_app) else { return };
        let Some(k) = &mut self.w.io.classes else { return };
        // A page of a larger chunk would need its whole chunk: "one compressed page" it is not.
        if k.c.predecomp_pages == 0 || k.c.chunk[class as usize] > 4096 || k.buf.iter().any(|&(p, _)| p == next) {
            return;
        }
        let ns = k.c.decompress_ns[class as usize];
        k.predecomp += 1;
        k.buf.push_back((next, t + ns));
        if k.buf.len() > k.c.predecomp_pages as usize {
            k.buf.pop_front(); // Out of the FIFO unused: the work was wasted.
        }
        self.w.io.decompress_ns += ns;
    }

    /// A fault at `t` reads `page` back from zram, where it was compressed in `class`; returns when
    /// it is in. A page PreDecomp decompressed ahead waits only for what is left of that.
    pub(super) fn zram_read(&mut self, page: PageId, class: u8, t: f64) -> f64 {
        let Some(k) = &mut self.w.io.classes else { return t };
        let ahead = k.buf.iter().position(|&(p, _)| p == page).and_then(|i| k.buf.remove(i));
        let (ns, ready) = match ahead {
            Some((_, ready)) => {
                k.predecomp_used += 1;
                (0.0, ready)
            }
            None => {
                k.decompressed[class as usize] += 1;
                (k.c.decompress_ns[class as usize], t)
            }
        };
        let end = self.w.io.serve(DevRef::Swap, false, 1, ns, t, &mut self.w.m).max(ready);
        self.predecompress(page, t);
        end
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
