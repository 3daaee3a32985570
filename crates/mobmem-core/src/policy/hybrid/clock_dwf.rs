//! CLOCK-DWF, "CLOCK with Dirty bits and Write Frequency" (Lee, Bahn & Noh, IEEE Transactions on
//! Computers 63(9), 2014), the write-history-aware baseline for hybrid PCM + DRAM memory. Its
//! aim is to serve every write in DRAM and to keep the pages written most often there:
//! - a write fault loads the page into DRAM, a read fault into PCM;
//! - a write hit on a PCM page migrates it to DRAM (PCM is never written by a hit);
//! - DRAM is a CLOCK over write history only (reads do not count): each page has a dirty
//!   (write-reference) bit and a write-frequency counter, both raised by write hits. The hand
//!   clears a set bit (recency), lowers a counter above 0 (aging), and takes the first page with a
//!   clear bit and a zero counter, which moves down to PCM;
//! - PCM is a plain CLOCK (reference bit, set by reads); its victim is evicted to storage.
//!
//! The model is reconstructed from the paper's description (the full text was not at hand):
//! the counter's width is the `max_frequency` parameter (default 3, a two-bit counter) and its
//! exact update rule is the one above; docs/HYBRID.md says so beside the results.

use super::{Entry, Tier, TierAccess, TierPolicy, TierSetup};
use crate::error::{Error, Result};
use crate::policy::{Links, List, ReclaimCtx, NIL};
use crate::trace::PageId;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// Write-frequency counters saturate here.
    pub max_frequency: u8,
}

impl Default for Params {
    fn default() -> Self {
        Params { max_frequency: 3 }
    }
}

pub struct ClockDwf {
    links: Links,
    /// Clock rings as lists: the hand is at the tail, a page it passes goes to the head. [DRAM, PCM]
    rings: [List; 2],
    /// DRAM: the dirty (write-reference) bit; PCM: the reference bit.
    bit: Vec<bool>,
    freq: Vec<u8>,
    dram_frames: usize,
    p: Params,
}

impl ClockDwf {
    /// Sweeps `t`'s ring; `ok` says whether a page may leave now (pages that may not are passed
    /// over). Gives up after a whole sweep with no bit cleared and no counter lowered.
    fn sweep(&mut self, t: Tier, ok: impl Fn(PageId) -> bool) -> Option<PageId> {
        let ring = &mut self.rings[t.idx()];
        let mut idle = 0;
        while ring.tail != NIL && idle <= ring.len {
            let x = ring.tail;
            let i = x as usize;
            if self.bit[i] {
                self.bit[i] = false;
                idle = 0;
            } else if t == Tier::Dram && self.freq[i] > 0 {
                self.freq[i] -= 1;
                idle = 0;
            } else if ok(x) {
                self.links.remove(ring, x);
                return Some(x);
            } else {
                idle += 1;
            }
            self.links.move_to_front(ring, x);
        }
        None
    }
}

impl TierPolicy for ClockDwf {
    type Params = Params;

    fn new(s: &TierSetup, p: Params) -> Result<Self> {
        if p.max_frequency == 0 {
            return Err(Error::config("params.max_frequency", "must be at least 1"));
        }
        Ok(ClockDwf {
            links: Links::new(s.num_pages()),
            rings: [List::default(); 2],
            bit: vec![false; s.num_pages()],
            freq: vec![0; s.num_pages()],
            dram_frames: s.dram_frames,
            p,
        })
    }

    #[inline]
    fn place(&mut self, a: &TierAccess) -> Tier {
        if a.a.op.is_write() {
            Tier::Dram
        } else {
            Tier::Pcm
        }
    }

    #[inline]
    fn on_hit(&mut self, a: &TierAccess, tier: Tier) -> bool {
        let pg = a.a.page;
        let w = a.a.op.is_write();
        match tier {
            Tier::Dram => {
                if w {
                    self.bit[pg as usize] = true;
                    self.freq[pg as usize] = (self.freq[pg as usize] + 1).min(self.p.max_frequency);
                }
                false
            }
            Tier::Pcm if w && self.dram_frames > 0 => {
                self.links.remove(&mut self.rings[1], pg);
                true
            }
            Tier::Pcm => {
                self.bit[pg as usize] = true;
                false
            }
        }
    }

    fn demote_victim(&mut self) -> Option<PageId> {
        self.sweep(Tier::Dram, |_| true)
    }

    fn evict_victim(&mut self, _want: Tier, ctx: &ReclaimCtx) -> Option<PageId> {
        super::pcm_first(self.rings[1].len, |t| self.sweep(t, |p| ctx.evictable(p)))
    }

    fn on_insert(&mut self, page: PageId, tier: Tier, entry: Entry, a: &TierAccess) {
        let i = page as usize;
        match tier {
            Tier::Dram => {
                // In DRAM because of a write (a write fault or a promoted write hit), or, when PCM
                // has no frames, any fault: the bit records whether this access wrote.
                self.bit[i] = entry == Entry::Promoted || (entry == Entry::New && a.a.op.is_write());
                if entry == Entry::New {
                    self.freq[i] = 0;
                }
            }
            Tier::Pcm => {
                self.bit[i] = false;
                self.freq[i] = 0;
            }
        }
        self.links.push_front(&mut self.rings[tier.idx()], page);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::hsim;
    use super::*;
    use crate::trace::gen::Rng;
    use crate::trace::Op::{Read as R, Write as W};

    #[test]
    fn writes_go_to_dram_reads_to_pcm() {
        let mut h = hsim::<ClockDwf>(10, 2, 4, Params::default());
        h.step(0, W, true);
        h.step(1, R, true);
        assert_eq!(h.tier[0], Some(Tier::Dram));
        assert_eq!(h.tier[1], Some(Tier::Pcm));
        h.step(1, R, true);
        assert_eq!(h.tier[1], Some(Tier::Pcm));
        h.step(1, W, true); // a write hit on PCM migrates
        assert_eq!(h.tier[1], Some(Tier::Dram));
        assert_eq!(h.promoted, vec![1]);
    }

    #[test]
    fn dram_keeps_frequently_written_pages() {
        let mut h = hsim::<ClockDwf>(10, 2, 8, Params::default());
        h.step(0, W, true);
        h.step(1, W, true);
        for _ in 0..3 {
            h.step(0, W, true);
            h.step(1, R, true); // reads do not count in DRAM
        }
        // Sweep: both bits cleared, 0's frequency (3 write hits) lowered, 1 (none) taken.
        h.step(2, W, true);
        assert_eq!(h.demoted.first(), Some(&1));
    }

    #[test]
    fn reads_in_dram_do_not_protect_a_page() {
        let mut h = hsim::<ClockDwf>(10, 1, 8, Params::default());
        h.step(0, W, true);
        for _ in 0..10 {
            h.step(0, R, true);
        }
        h.step(1, W, true);
        assert_eq!(h.demoted, vec![0]);
    }

    #[test]
    fn random_mixes_keep_the_contract() {
        for (seed, dram, pcm) in [(1, 3, 9), (2, 1, 1), (3, 0, 8), (4, 8, 0)] {
            let mut r = Rng::new(seed);
            let mut h = hsim::<ClockDwf>(80, dram, pcm, Params::default());
            for _ in 0..4000 {
                let p = (r.below(80) as f64 * r.f64()) as u32;
                h.step(p, if r.below(3) == 0 { W } else { R }, true);
            }
            assert!(h.misses > 0);
        }
    }
}
