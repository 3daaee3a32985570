//! zram compressing by hotness class (the `ariadne` backend): a write batch is priced by the
//! classes its pages were compressed in, a read by its page's class, and PreDecomp decompresses
//! the page after a read ahead of use, on another core, into a FIFO buffer.

use super::io::{DevRef, Devices};
use super::Sim;
use crate::policy::Policy;
use crate::system::meters::SystemMeters;
use crate::trace::PageId;

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
