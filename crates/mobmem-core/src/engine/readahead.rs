//! Reading ahead: the swapped neighbours of a swap fault (`page_cluster`) and a file's next pages,
//! into frames that are free; neither reclaims.

use super::{Engine, Fault};
use crate::error::Result;
use crate::policy::{Access, Policy};
use crate::trace::{Op, PageId};
use std::ops::Range;

impl<P: Policy> Engine<P> {
    /// A page-trace fault with read-around on (`page_cluster`): the fault, then its neighbours
    /// when it was a swap-in.
    #[cold]
    #[inline(never)]
    pub(super) fn fault_reading_around(&mut self, a: &Access) -> Result<()> {
        if self.fault(a)?.fault == Some(Fault::SwapIn) {
            self.read_around(a);
        }
        Ok(())
    }

    /// Brings the swapped neighbours of `a.page`'s slot into free frames as clean swap-cache pages
    /// (their slots stay valid). Read-around never reclaims: it uses frames that are free.
    /// Returns how many it read.
    #[cold]
    pub(super) fn read_around(&mut self, a: &Access) -> u32 {
        let Some(slots) = self.pages.take_slots() else { return 0 };
        let mut n = 0;
        for q in slots.neighbours(a.page, self.page_cluster) {
            if self.used() >= self.frames {
                break;
            }
            if !self.pages.read_ahead(q, true) {
                continue;
            }
            self.resident += 1;
            n += 1;
            let qa = Access { page: q, op: Op::Read, index: a.index, anon: true };
            self.policy.on_miss(&qa);
            self.policy.on_insert_unmapped(&qa);
        }
        self.pages.put_slots(slots);
        n
    }

    /// File readahead: the pages of `range` not in memory are read in, clean, into free frames
    /// (never reclaiming for them), as the kernel reads ahead of a sequential file fault. Returns
    /// how many were read.
    pub fn prefetch_file(&mut self, range: Range<PageId>, index: usize) -> u64 {
        let mut n = 0;
        for q in range {
            if self.used() >= self.frames {
                break;
            }
            if !self.pages.read_ahead(q, false) {
                continue;
            }
            self.resident += 1;
            n += 1;
            let qa = Access { page: q, op: Op::Read, index, anon: false };
            self.policy.on_miss(&qa);
            self.policy.on_insert_unmapped(&qa);
        }
        n
    }
}
