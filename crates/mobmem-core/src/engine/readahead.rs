//! Reading ahead: the swapped neighbours of a swap fault (`page_cluster`) and a file's next pages,
//! into frames that are free; neither reclaims.

use super::{pages, Engine};
use crate::policy::{Access, Policy};
use crate::trace::{Op, PageId};
use std::ops::Range;

impl<P: Policy> Engine<P> {
    /// Brings the swapped neighbours of `a.page`'s slot into free frames as clean swap-cache pages
    /// (their slots stay valid). Read-around never reclaims: it uses frames that are free.
    /// Returns how many it read.
    #[cold]
    pub(super) fn read_around(&mut self, a: &Access) -> u32 {
        let Some(slots) = self.pages.slots.take() else { return 0 };
        let mut n = 0;
        for q in slots.neighbours(a.page, self.page_cluster) {
            if self.used() >= self.frames {
                break;
            }
            let f = self.pages.flags[q as usize];
            if f & (pages::RESIDENT | pages::NVM_MAPPED | pages::BACKED) != 0 || f & pages::SWAP_VALID == 0 {
                continue;
            }
            self.pages.flags[q as usize] = f | pages::RESIDENT | pages::SEEN;
            self.pages.m.swap_readahead += 1;
            self.resident += 1;
            n += 1;
            let qa = Access { page: q, op: Op::Read, index: a.index, anon: true };
            self.policy.on_miss(&qa);
            self.policy.on_insert_unmapped(&qa);
        }
        self.pages.slots = Some(slots);
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
            let f = self.pages.flags[q as usize];
            if f & (pages::RESIDENT | pages::ANON) != 0 {
                continue;
            }
            self.pages.flags[q as usize] = f | pages::RESIDENT | pages::SEEN;
            self.pages.m.file_readahead += 1;
            self.pages.file_resident += 1;
            self.resident += 1;
            n += 1;
            let qa = Access { page: q, op: Op::Read, index, anon: false };
            self.policy.on_miss(&qa);
            self.policy.on_insert_unmapped(&qa);
        }
        n
    }
}
