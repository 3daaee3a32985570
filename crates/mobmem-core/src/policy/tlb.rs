//! The translation cache as x86's accessed bit sees it. x86 clears a page's accessed bit without
//! flushing its TLB entry (`ptep_clear_flush_young`: "clearing the accessed bit without a TLB flush
//! doesn't cause data corruption"), and the CPU sets the bit only when it walks the page table. A
//! page touched through a cached translation stays not accessed until its entry leaves the TLB:
//! replaced by another, or flushed when the page is unmapped (reclaim of a one-CPU process flushes
//! that page's entry alone). arm64 flushes the entry when it clears the bit, so every later touch
//! sets it there: no TLB (`tlb_entries = 0`, linux-2q's default).
//!
//! Fully associative, `entries` translations, replaced by CLOCK (a used bit per entry, set by every
//! touch through it); the hardware's sets and its pseudo-LRU are not modelled. The bits live in the
//! policy's per-page flag byte, so a touch through the TLB writes one byte, as a touch did before.

use super::NIL;
use crate::error::{Error, Result};
use crate::trace::PageId;

/// Flag bits the TLB owns in the policy's per-page byte: the page's translation is cached, and was
/// used since the clock hand last passed it. Clearing them (as unmapping a page clears its flags)
/// flushes the entry.
pub const IN_TLB: u8 = 0x40;
pub const TLB_USED: u8 = 0x80;

/// More translations than any CPU's TLB caches: a larger number is a mistake, not a TLB.
pub const MAX_ENTRIES: u32 = 1 << 20;

pub struct Tlb {
    /// Page per entry (NIL: empty). An entry whose page no longer has IN_TLB, or whose page was
    /// cached again in another entry, is free.
    slots: Vec<PageId>,
    /// Entry per page, valid while the page has IN_TLB.
    slot_of: Vec<u32>,
    hand: usize,
}

impl Tlb {
    /// A TLB of `entries` translations for `pages` pages; none for 0.
    pub fn new(entries: u32, pages: usize) -> Result<Option<Tlb>> {
        if entries > MAX_ENTRIES {
            let msg = format!("must be 0 (none) to {MAX_ENTRIES} translations, got {entries}");
            return Err(Error::config("params.tlb_entries", msg));
        }
        Ok((entries > 0).then(|| Tlb { slots: vec![NIL; entries as usize], slot_of: vec![0; pages], hand: 0 }))
    }

    /// A touch of `p`: through its cached translation (its used bit set), or by a page-table walk
    /// that caches it. Returns whether the walk happened: only then does the CPU set the page's
    /// accessed bit.
    #[inline(always)]
    pub fn touch(&mut self, flags: &mut [u8], p: PageId) -> bool {
        let f = &mut flags[p as usize];
        if *f & IN_TLB != 0 {
            *f |= TLB_USED;
            return false;
        }
        self.fill(flags, p);
        true
    }

    /// Caches `p`'s translation (a walk), replacing the first entry the clock hand finds unused.
    pub fn fill(&mut self, flags: &mut [u8], p: PageId) {
        let n = self.slots.len();
        loop {
            let s = self.hand;
            self.hand = if s + 1 == n { 0 } else { s + 1 };
            let q = self.slots[s];
            if q != NIL && self.slot_of[q as usize] == s as u32 && flags[q as usize] & IN_TLB != 0 {
                if flags[q as usize] & TLB_USED != 0 {
                    flags[q as usize] &= !TLB_USED;
                    continue;
                }
                flags[q as usize] &= !IN_TLB;
            }
            self.slots[s] = p;
            self.slot_of[p as usize] = s as u32;
            // The walk's touch used the entry: a repeated touch changes nothing.
            flags[p as usize] |= IN_TLB | TLB_USED;
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_touch_walks_only_when_the_translation_is_not_cached() {
        let mut flags = vec![0u8; 8];
        let mut t = Tlb::new(2, 8).unwrap().unwrap();
        assert!(t.touch(&mut flags, 0), "first touch walks");
        assert!(!t.touch(&mut flags, 0), "then it is cached");
        assert!(t.touch(&mut flags, 1));
        // 2 replaces the first entry the hand finds unused: both were used (the hand clears their
        // bits), then 0 goes; 1 is used again first.
        assert!(!t.touch(&mut flags, 1));
        assert!(t.touch(&mut flags, 2));
        assert_eq!(flags[0] & IN_TLB, 0);
        assert!(t.touch(&mut flags, 0), "0 was replaced: a walk again");
        assert_eq!(flags[1] & IN_TLB, 0, "0's walk replaced 1");
        assert!(!t.touch(&mut flags, 0));
        assert!(t.touch(&mut flags, 1), "1 was replaced: a walk again");
        // Unmapping a page clears its flags: its entry is flushed, and its next touch walks.
        flags[1] = 0;
        assert!(t.touch(&mut flags, 1));
        assert!(t.touch(&mut flags, 3));
        assert!(t.touch(&mut flags, 4));
        assert_eq!((0..8).filter(|&q| flags[q] & IN_TLB != 0).count(), 2, "two entries");
    }

    #[test]
    fn none_without_entries_and_an_absurd_size_refused() {
        assert!(Tlb::new(0, 8).unwrap().is_none());
        let e = Tlb::new(MAX_ENTRIES + 1, 8).err().unwrap().to_string();
        assert!(e.contains("params.tlb_entries") && e.contains("1048577"), "{e}");
    }
}
