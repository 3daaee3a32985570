//! Any flat policy on two tiers. The flat policy keeps ranking residency over all D + P frames
//! (its victims leave memory, from whichever tier they are in); placement is by recency: a
//! faulted page enters DRAM, a page hit in PCM moves back to DRAM, and DRAM's least recently used
//! page moves down to PCM when DRAM needs a frame. With PCM of size 0 the run is the flat policy
//! itself (same faults, same victims); with LRU it is one LRU stack whose top D pages are in DRAM.

use super::{Entry, Tier, TierAccess, TierPolicy, TierSetup};
use crate::error::Result;
use crate::policy::{Links, List, Policy, PolicySetup, ReclaimCtx};
use crate::trace::PageId;

pub struct Stacked<P> {
    inner: P,
    links: Links,
    /// DRAM's pages, most recently used first.
    dram: List,
    in_dram: Vec<bool>,
    dram_frames: usize,
    /// A PCM hit moves the page back to DRAM (`[sim.tiers] promote_on_hit`).
    promote: bool,
}

impl<P: Policy> TierPolicy for Stacked<P> {
    type Params = P::Params;

    fn new(s: &TierSetup, params: P::Params) -> Result<Self> {
        let inner = P::new(&PolicySetup::new(s.dram_frames + s.pcm_frames, s.space, s.costs), params)?;
        Ok(Stacked {
            inner,
            links: Links::new(s.num_pages()),
            dram: List::default(),
            in_dram: vec![false; s.num_pages()],
            dram_frames: s.dram_frames,
            promote: s.promote_on_hit,
        })
    }

    #[inline]
    fn place(&mut self, a: &TierAccess) -> Tier {
        self.inner.on_miss(&a.a);
        Tier::Dram
    }

    #[inline]
    fn on_hit(&mut self, a: &TierAccess, tier: Tier) -> bool {
        self.inner.on_hit(&a.a);
        match tier {
            Tier::Dram => {
                self.links.move_to_front(&mut self.dram, a.a.page);
                false
            }
            Tier::Pcm => self.promote && self.dram_frames > 0,
        }
    }

    #[inline]
    fn needs_room(&self) -> bool {
        self.inner.needs_room()
    }

    fn demote_victim(&mut self) -> Option<PageId> {
        let v = self.links.pop_back(&mut self.dram)?;
        self.in_dram[v as usize] = false;
        Some(v)
    }

    fn evict_victim(&mut self, _want: Tier, ctx: &ReclaimCtx) -> Option<PageId> {
        let v = self.inner.select_victim(ctx)?;
        if self.in_dram[v as usize] {
            self.links.remove(&mut self.dram, v);
            self.in_dram[v as usize] = false;
        }
        Some(v)
    }

    fn on_insert(&mut self, page: PageId, tier: Tier, entry: Entry, a: &TierAccess) {
        if entry == Entry::New {
            self.inner.on_insert(&a.a);
        }
        if tier == Tier::Dram {
            self.links.push_front(&mut self.dram, page);
            self.in_dram[page as usize] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{hsim, hsim_with};
    use super::*;
    use crate::policy::lru::Lru;
    use crate::policy::testutil::run;
    use crate::policy::twoq::TwoQ;
    use crate::trace::gen::Rng;
    use crate::trace::Op;

    fn pages(n: usize, range: u64, seed: u64) -> Vec<u32> {
        let mut r = Rng::new(seed);
        (0..n).map(|_| (r.below(range) as f64).sqrt() as u32 * 7 % range as u32).collect()
    }

    #[test]
    fn residency_is_the_flat_policys_whatever_the_split() {
        let seq = pages(4000, 300, 3);
        let flat = run::<TwoQ>(&seq, 40, Default::default());
        for dram in [0, 1, 10, 39, 40] {
            let mut h = hsim::<Stacked<TwoQ>>(300, dram, 40 - dram, Default::default());
            for &p in &seq {
                h.step(p, Op::Read, true);
            }
            assert_eq!(h.misses, flat.misses, "DRAM {dram}");
            assert_eq!(h.evicted, flat.evicted, "DRAM {dram}");
        }
    }

    #[test]
    fn without_promotion_a_pcm_hit_stays_in_pcm_and_residency_is_unchanged() {
        let seq = pages(4000, 300, 3);
        let flat = run::<TwoQ>(&seq, 40, Default::default());
        let mut h = hsim_with::<Stacked<TwoQ>>(300, 10, 30, Default::default(), false);
        for &p in &seq {
            h.step(p, Op::Read, true);
        }
        assert_eq!((h.misses, &h.evicted), (flat.misses, &flat.evicted));
        assert!(h.promoted.is_empty(), "{} promotions", h.promoted.len());
        assert!(!h.demoted.is_empty());
        let mut with = hsim::<Stacked<TwoQ>>(300, 10, 30, Default::default());
        for &p in &seq {
            with.step(p, Op::Read, true);
        }
        assert!(!with.promoted.is_empty() && with.demoted.len() > h.demoted.len());
    }

    #[test]
    fn lru_on_tiers_keeps_the_most_recent_pages_in_dram() {
        let seq = pages(3000, 200, 5);
        let mut h = hsim::<Stacked<Lru>>(200, 8, 24, Default::default());
        let mut last_use = vec![0usize; 200];
        for (i, &p) in seq.iter().enumerate() {
            h.step(p, Op::Read, true);
            last_use[p as usize] = i + 1;
            let mut resident: Vec<u32> = (0..200).filter(|&q| h.tier[q as usize].is_some()).collect();
            resident.sort_by_key(|&q| std::cmp::Reverse(last_use[q as usize]));
            for (rank, q) in resident.iter().enumerate() {
                let want = if rank < 8 { Tier::Dram } else { Tier::Pcm };
                assert_eq!(h.tier[*q as usize], Some(want), "page {q} of recency rank {rank} at access {i}");
            }
        }
        assert!(!h.promoted.is_empty() && !h.demoted.is_empty());
    }
}
