//! 2Q (Johnson & Shasha, VLDB 1994, the "full version"), as libCacheSim's `TwoQ` with its defaults:
//! - A1in: FIFO of pages seen once, target Kin = ⌊25% of memory⌋; a hit in A1in changes nothing.
//! - A1out: FIFO ghost of pages pushed out of A1in, Kout = ⌊50% of memory⌋ entries.
//! - Am: LRU of pages re-referenced after leaving A1in, capped at memory − Kin.
//! - A fault on a page in A1out puts it in Am; any other fault puts it in A1in.
//! - Reclaim: if |A1in| > Kin, A1in's tail goes to A1out; else Am's LRU page is evicted.
//! - Entering a full Am evicts Am's LRU page first, even when a frame is free (libCacheSim's Am is
//!   a cache of its own size); `needs_room` asks the engine for that extra reclaim.

use super::{Access, Links, List, Policy, PolicySetup, ReclaimCtx};
use crate::error::{Error, Result};
use crate::trace::PageId;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// A1in's share of memory (Kin).
    pub ain_ratio: f64,
    /// A1out's size as a share of memory (Kout).
    pub aout_ratio: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params { ain_ratio: 0.25, aout_ratio: 0.5 }
    }
}

const NONE: u8 = 0;
const AIN: u8 = 1;
const AM: u8 = 2;
const AOUT: u8 = 3;

pub struct TwoQ {
    links: Links,
    ain: List,
    am: List,
    aout: List,
    loc: Vec<u8>,
    kin: usize,
    kout: usize,
    am_cap: usize,
    frames: usize,
    ghost_hit: bool,
}

impl TwoQ {
    fn evict_from(&mut self, which: u8, ctx: &ReclaimCtx) -> Option<PageId> {
        let l = if which == AIN { self.ain } else { self.am };
        let v = self.links.last_where(&l, |x| ctx.evictable(x))?;
        if which == AIN {
            self.links.remove(&mut self.ain, v);
            self.loc[v as usize] = NONE;
            if self.kout > 0 {
                if self.aout.len >= self.kout {
                    if let Some(g) = self.links.pop_back(&mut self.aout) {
                        self.loc[g as usize] = NONE;
                    }
                }
                self.links.push_front(&mut self.aout, v);
                self.loc[v as usize] = AOUT;
            }
        } else {
            self.links.remove(&mut self.am, v);
            self.loc[v as usize] = NONE;
        }
        Some(v)
    }
}

impl Policy for TwoQ {
    type Params = Params;

    fn new(s: &PolicySetup, p: Params) -> Result<Self> {
        for (field, v) in [("ain_ratio", p.ain_ratio), ("aout_ratio", p.aout_ratio)] {
            if !(0.0..=1.0).contains(&v) {
                return Err(Error::config(format!("params (2q).{field}"), format!("{v} is not in [0, 1]")));
            }
        }
        let n = s.num_pages();
        // Truncation as libCacheSim (int64 = size * ratio).
        let kin = (s.frames as f64 * p.ain_ratio) as usize;
        let kout = (s.frames as f64 * p.aout_ratio) as usize;
        Ok(TwoQ {
            links: Links::new(n),
            ain: List::default(),
            am: List::default(),
            aout: List::default(),
            loc: vec![NONE; n],
            kin,
            kout,
            am_cap: s.frames - kin,
            frames: s.frames,
            ghost_hit: false,
        })
    }

    // A repeated hit: A1in does not move a page on a hit; Am moves it to the front, where it is.

    const REPEAT_HIT_IS_NOOP: bool = true;

    #[inline]
    fn on_hit(&mut self, a: &Access) {
        if self.loc[a.page as usize] == AM {
            self.links.move_to_front(&mut self.am, a.page);
        }
    }

    fn on_miss(&mut self, a: &Access) {
        self.ghost_hit = self.loc[a.page as usize] == AOUT;
        if self.ghost_hit {
            self.links.remove(&mut self.aout, a.page);
            self.loc[a.page as usize] = NONE;
        }
    }

    /// Entering a full Am displaces its LRU page — judged after memory-full reclaim, which may
    /// already have taken a page from Am (libCacheSim's Am->get checks Am's size at insert time).
    fn needs_room(&self) -> bool {
        self.ghost_hit && self.am.len >= self.am_cap && self.am_cap > 0
    }

    fn select_victim(&mut self, ctx: &ReclaimCtx) -> Option<PageId> {
        if self.ain.len + self.am.len < self.frames && self.needs_room() {
            // The extra reclaim asked for by needs_room: Am is at its cap.
            return self.evict_from(AM, ctx).or_else(|| self.evict_from(AIN, ctx));
        }
        // Memory full, or reclaim ahead of need (the system level's kswapd).
        let first = if self.ain.len > self.kin { AIN } else { AM };
        let other = if first == AIN { AM } else { AIN };
        self.evict_from(first, ctx).or_else(|| self.evict_from(other, ctx))
    }

    #[inline]
    fn on_insert(&mut self, a: &Access) {
        if self.ghost_hit {
            self.links.push_front(&mut self.am, a.page);
            self.loc[a.page as usize] = AM;
        } else {
            self.links.push_front(&mut self.ain, a.page);
            self.loc[a.page as usize] = AIN;
        }
        self.ghost_hit = false;
    }

    fn on_remove(&mut self, page: PageId) {
        match self.loc[page as usize] {
            AIN => self.links.remove(&mut self.ain, page),
            AM => self.links.remove(&mut self.am, page),
            _ => {}
        }
        self.loc[page as usize] = NONE;
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;
    use super::*;

    #[test]
    fn hand_computed() {
        // 4 frames: Kin = 1, Kout = 2, Am cap = 3.
        // 0 1 2 3 fill A1in. 4: |A1in| = 4 > 1 → 0 to A1out. 5 → 1 to A1out. 0 is found in
        // A1out and taken out of it; memory is full and |A1in| = 4 > 1 → 2 to A1out, so
        // A1out = [2, 1]; 0 enters Am.
        let s = run::<TwoQ>(&[0, 1, 2, 3, 4, 5, 0], 4, Params::default());
        assert_eq!(s.evicted, vec![0, 1, 2]);
        assert_eq!(s.p.links.to_vec(&s.p.aout), vec![2, 1]);
        assert_eq!(s.p.links.to_vec(&s.p.am), vec![0]);
        // A hit in A1in does not promote: 3 stays in A1in and is next out.
        let s = run::<TwoQ>(&[0, 1, 2, 3, 3, 3, 4], 4, Params::default());
        assert_eq!(s.evicted, vec![0]);
        let s = run::<TwoQ>(&[0, 1, 2, 3, 4, 5, 6], 4, Params::default());
        assert_eq!(s.p.links.to_vec(&s.p.aout), vec![2, 1], "A1out holds Kout = 2 ghosts");
    }

    #[test]
    fn am_cap_forces_extra_reclaim() {
        // 4 frames, Am cap 3. Build Am = {a, b, c} via A1out hits, then one more A1out hit must
        // displace Am's LRU even with a frame free.
        let seq = [0, 1, 2, 3, 4, 5, 6, 0, 1, 7, 8, 2, 9, 10, 3];
        let s = run::<TwoQ>(&seq, 4, Params::default());
        assert!(s.p.am.len <= 3);
        assert!(s.n <= 4);
    }
}
