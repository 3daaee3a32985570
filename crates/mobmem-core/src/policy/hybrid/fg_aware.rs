//! The foreground-aware buffer cache for hybrid DRAM + PCM memory (Oh, Kang, Lee & Eom, IMCOM
//! 2016, section 3; `../shared/papers/hybrid-dram-pcm-foreground-aware-buffer-cache.txt`).
//!
//! Both tiers are LRU lists; every page has a reference count, +1 on each hit.
//! - A fault by a critical process (oom_score_adj ≤ 0) puts the page at DRAM's MRU end; by a
//!   non-critical one at PCM's MRU end.
//! - DRAM hit: a critical process's dirty page moves to DRAM's MRU end; a clean page stays where
//!   it is; a non-critical process's page never moves on DRAM hits (Fig. 2h).
//! - PCM hit: a dirty page whose count is above `hot_count` (2) migrates to DRAM's MRU end, for
//!   either class (Figs. 2d, 2g); any other PCM hit moves the page to PCM's MRU end (PCM is LRU).
//! - Choosing a page to leave a tier scans from its LRU end: a page with count > 0 has its count
//!   decremented and goes to the MRU end; the first page with count 0 leaves. DRAM's leaves for
//!   PCM's MRU end; PCM's for storage.
//! - With no free frame for a critical fault, PCM's victim is evicted first, then DRAM's moves
//!   down (Figs. 2j, 2i): the engine's order for a DRAM fault when both tiers are full.
//!
//! Choices where the paper is ambiguous (docs/HYBRID.md):
//! - Section 3.1 says a DRAM page is spared when its count is "bigger than one", then that the
//!   scan stops at the first page with count zero; a page with count 1 would be neither. The scan
//!   spares count > 0 (decrementing it), so it always ends.
//! - The count is incremented before the PCM-hit test ("more than two" → count ≥ 3 after this
//!   hit) and kept when a page migrates.
//! - "Dirty" is the page's state (written since it was read in), not the op of this access.
//! - A page's class is its process's at the time of the access; `adj` changes take effect at once.
//! - Eviction takes PCM's victim whenever PCM holds a page. With PCM of size 0 every page is in
//!   DRAM and DRAM's victim is evicted: the DRAM-only degenerate policy is an LRU list where
//!   dirty hits move to the MRU end, clean hits stay, and victims get a counted second chance.

use super::{Entry, Tier, TierAccess, TierPolicy, TierSetup};
use crate::error::{Error, Result};
use crate::policy::{Links, List, ReclaimCtx};
use crate::trace::PageId;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// A dirty page hit in PCM migrates to DRAM when its reference count exceeds this (paper: 2).
    pub hot_count: u8,
    /// Reference counts saturate here (a counter of this many values).
    pub max_count: u8,
}

impl Default for Params {
    fn default() -> Self {
        Params { hot_count: 2, max_count: 255 }
    }
}

pub struct FgAware {
    links: Links,
    /// LRU lists, most recently used first: [DRAM, PCM].
    lists: [List; 2],
    count: Vec<u8>,
    dram_frames: usize,
    p: Params,
}

impl FgAware {
    /// The counted second-chance scan from the LRU end of `t`'s list; `ok` says whether a page may
    /// leave now. Pages that may not stay put; gives up after a whole sweep without a decrement
    /// found none that may (decrements are finite, so the scan always ends).
    fn scan(&mut self, t: Tier, ok: impl Fn(PageId) -> bool) -> Option<PageId> {
        let l = &mut self.lists[t.idx()];
        let mut refused = 0;
        let mut x = l.tail;
        while x != crate::policy::NIL {
            if !ok(x) {
                refused += 1;
                if refused >= l.len {
                    return None;
                }
                x = self.links.prev(x);
                if x == crate::policy::NIL {
                    x = l.tail;
                }
                continue;
            }
            let c = &mut self.count[x as usize];
            if *c > 0 {
                *c -= 1;
                refused = 0;
                let prev = self.links.prev(x);
                self.links.move_to_front(l, x);
                x = if prev == crate::policy::NIL { l.tail } else { prev };
                continue;
            }
            self.links.remove(l, x);
            return Some(x);
        }
        None
    }
}

impl TierPolicy for FgAware {
    type Params = Params;

    fn new(s: &TierSetup, p: Params) -> Result<Self> {
        if p.max_count <= p.hot_count {
            return Err(Error::config(
                "params.max_count",
                format!("{} must exceed hot_count {} (or no page ever migrates)", p.max_count, p.hot_count),
            ));
        }
        Ok(FgAware {
            links: Links::new(s.num_pages()),
            lists: [List::default(); 2],
            count: vec![0; s.num_pages()],
            dram_frames: s.dram_frames,
            p,
        })
    }

    #[inline]
    fn place(&mut self, a: &TierAccess) -> Tier {
        if a.critical {
            Tier::Dram
        } else {
            Tier::Pcm
        }
    }

    #[inline]
    fn on_hit(&mut self, a: &TierAccess, tier: Tier) -> bool {
        let pg = a.a.page;
        let c = &mut self.count[pg as usize];
        *c = c.saturating_add(1).min(self.p.max_count);
        match tier {
            Tier::Dram => {
                if a.critical && a.dirty {
                    self.links.move_to_front(&mut self.lists[0], pg);
                }
                false
            }
            Tier::Pcm => {
                if a.dirty && *c > self.p.hot_count && self.dram_frames > 0 {
                    self.links.remove(&mut self.lists[1], pg);
                    true
                } else {
                    self.links.move_to_front(&mut self.lists[1], pg);
                    false
                }
            }
        }
    }

    fn demote_victim(&mut self) -> Option<PageId> {
        self.scan(Tier::Dram, |_| true)
    }

    fn evict_victim(&mut self, _want: Tier, ctx: &ReclaimCtx) -> Option<PageId> {
        super::pcm_first(self.lists[1].len, |t| self.scan(t, |p| ctx.evictable(p)))
    }

    fn on_insert(&mut self, page: PageId, tier: Tier, entry: Entry, _a: &TierAccess) {
        if entry == Entry::New {
            self.count[page as usize] = 0;
        }
        self.links.push_front(&mut self.lists[tier.idx()], page);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{hsim, HSim};
    use super::*;
    use crate::trace::gen::Rng;
    use crate::trace::Op::{Read as R, Write as W};

    fn order(h: &HSim<FgAware>, t: Tier) -> Vec<u32> {
        h.p.links.to_vec(&h.p.lists[t.idx()])
    }

    #[test]
    fn critical_pages_enter_dram_others_pcm() {
        let mut h = hsim::<FgAware>(10, 2, 4, Params::default());
        h.step(0, R, true);
        h.step(1, R, false);
        h.step(2, W, true);
        assert_eq!(order(&h, Tier::Dram), vec![2, 0]);
        assert_eq!(order(&h, Tier::Pcm), vec![1]);
    }

    #[test]
    fn dram_hits_move_dirty_critical_pages_only() {
        let mut h = hsim::<FgAware>(10, 3, 3, Params::default());
        for p in [0, 1, 2] {
            h.step(p, R, true);
        }
        // Clean hit: stays (Fig. 2b); count +1.
        h.step(0, R, true);
        assert_eq!(order(&h, Tier::Dram), vec![2, 1, 0]);
        assert_eq!(h.p.count[0], 1);
        // Dirty hit: to MRU (Fig. 2a).
        h.step(1, W, true);
        assert_eq!(order(&h, Tier::Dram), vec![1, 2, 0]);
        // A non-critical process's dirty page in DRAM does not move (Fig. 2h).
        h.step(0, W, false);
        assert_eq!(order(&h, Tier::Dram), vec![1, 2, 0]);
        assert_eq!(h.p.count[0], 2);
    }

    #[test]
    fn dram_full_demotes_by_counted_second_chance() {
        let mut h = hsim::<FgAware>(10, 3, 3, Params::default());
        for p in [0, 1, 2] {
            h.step(p, R, true);
        }
        h.step(0, R, true); // count 1, stays at the LRU end
        h.step(3, R, true); // DRAM full: 0 spared (count → 0, to MRU), 1 demoted
        assert_eq!(h.demoted, vec![1]);
        assert_eq!(order(&h, Tier::Dram), vec![3, 0, 2]);
        assert_eq!(h.p.count[0], 0);
        assert_eq!(order(&h, Tier::Pcm), vec![1]); // PCM's MRU end (Fig. 2c)
    }

    #[test]
    fn pcm_hits_migrate_only_hot_dirty_pages() {
        let mut h = hsim::<FgAware>(10, 2, 4, Params::default());
        h.step(5, W, false); // dirty, in PCM
        h.step(6, R, false); // clean, in PCM
        for _ in 0..5 {
            h.step(6, R, true); // clean: never migrates (Fig. 2e)
        }
        assert_eq!(h.tier[6], Some(Tier::Pcm));
        h.step(5, W, false); // count 1
        h.step(5, R, false); // count 2
        assert_eq!(h.tier[5], Some(Tier::Pcm));
        assert_eq!(order(&h, Tier::Pcm), vec![5, 6]); // PCM hits go to PCM's MRU end (Fig. 2f)
        h.step(5, R, false); // count 3 > 2 and dirty: to DRAM (Fig. 2g)
        assert_eq!(h.tier[5], Some(Tier::Dram));
        assert_eq!(h.promoted, vec![5]);
        assert_eq!(h.p.count[5], 3);
    }

    #[test]
    fn full_memory_evicts_pcm_first_then_demotes() {
        let mut h = hsim::<FgAware>(10, 2, 2, Params::default());
        h.step(0, R, true);
        h.step(1, R, true);
        h.step(2, R, false);
        h.step(3, R, false);
        h.step(2, R, false); // PCM: 2 has count 1
        h.step(4, R, true); // no free frame: PCM scan spares 2, evicts 3; then DRAM's 0 moves down
        assert_eq!(h.evicted, vec![3]);
        assert_eq!(h.demoted, vec![0]);
        assert_eq!(order(&h, Tier::Dram), vec![4, 1]);
        assert_eq!(order(&h, Tier::Pcm), vec![0, 2]);
        h.step(5, R, false); // non-critical: PCM's scan spares 2 (count 1 → 0), evicts 0; no demotion
        assert_eq!(h.evicted, vec![3, 0]);
        assert_eq!(h.demoted, vec![0]);
    }

    #[test]
    fn pcm_of_size_zero_is_the_documented_dram_only_policy() {
        // Reference: an LRU list, dirty hits to MRU, clean hits stay, counted second chance.
        let mut r = Rng::new(11);
        let mut h = hsim::<FgAware>(60, 12, 0, Params::default());
        let mut list: Vec<u32> = vec![]; // MRU first
        let mut count = [0u8; 60];
        let mut dirty = [false; 60];
        let mut evicted = vec![];
        for _ in 0..5000 {
            let p = (r.below(60) as f64 * r.f64()) as u32;
            let op = if r.below(3) == 0 { W } else { R };
            h.step(p, op, true);
            if op == W {
                dirty[p as usize] = true;
            }
            if let Some(i) = list.iter().position(|&x| x == p) {
                count[p as usize] = count[p as usize].saturating_add(1);
                if dirty[p as usize] {
                    list.remove(i);
                    list.insert(0, p);
                }
            } else {
                if list.len() == 12 {
                    loop {
                        let t = *list.last().unwrap();
                        if count[t as usize] > 0 {
                            count[t as usize] -= 1;
                            list.pop();
                            list.insert(0, t);
                        } else {
                            list.pop();
                            evicted.push(t);
                            dirty[t as usize] = false;
                            break;
                        }
                    }
                }
                count[p as usize] = 0;
                list.insert(0, p);
            }
        }
        assert_eq!(h.evicted, evicted);
        assert_eq!(order(&h, Tier::Dram), list);
        assert!(h.demoted.is_empty() && h.promoted.is_empty());
    }

    #[test]
    fn random_mixes_keep_the_contract() {
        // HSim asserts capacity, single residency and victim tiers at every step.
        for (seed, dram, pcm) in [(1, 3, 9), (2, 1, 1), (3, 0, 8), (4, 8, 0), (5, 5, 20)] {
            let mut r = Rng::new(seed);
            let mut h = hsim::<FgAware>(80, dram, pcm, Params::default());
            for _ in 0..4000 {
                let p = (r.below(80) as f64 * r.f64()) as u32;
                h.step(p, if r.below(4) == 0 { W } else { R }, r.below(3) != 0);
            }
            assert!(h.misses > 0);
        }
    }

    #[test]
    fn bad_params() {
        let t = crate::policy::testutil::trace_of(&[0]);
        let s = TierSetup {
            dram_frames: 1,
            pcm_frames: 1,
            space: t.space(),
            costs: Default::default(),
            promote_on_hit: true,
        };
        assert!(FgAware::new(&s, Params { hot_count: 5, max_count: 5 }).is_err());
    }
}
