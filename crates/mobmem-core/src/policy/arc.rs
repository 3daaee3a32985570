//! ARC (Megiddo & Modha, FAST 2003), following the paper's pseudo-code and libCacheSim's `ARC`
//! step for step, so that miss counts agree exactly:
//! - T1 (seen once recently) and T2 (seen at least twice) hold resident pages, B1 and B2 their
//!   ghosts; `p` is the target size of T1, a real number in [0, c].
//! - A hit moves the page to T2's MRU end.
//! - A miss found in B1 grows p by max(|B2|/|B1|, 1); found in B2 shrinks it by max(|B1|/|B2|, 1);
//!   the page then enters T2 after REPLACE.
//! - REPLACE evicts T1's LRU to B1 when |T1| ≥ 1 and (|T1| > p, or |T1| = p and the miss was in
//!   B2), or when T2 is empty; otherwise T2's LRU to B2.
//! - A miss in no list (case IV): if |T1| + |B1| = c, drop B1's LRU and REPLACE, or, with B1
//!   empty, evict T1's LRU without a ghost; else when all four lists hold 2c pages drop B2's LRU,
//!   then REPLACE. The page enters T1.
//!
//! Ghost trimming happens only when a frame must be freed, as in libCacheSim (after warm-up memory
//! is always full, so this is the paper's behaviour).

use super::{Access, Links, List, Policy, PolicySetup, ReclaimCtx};
use crate::error::Result;
use crate::trace::PageId;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {}

const NONE: u8 = 0;
const T1: u8 = 1;
const T2: u8 = 2;
const B1: u8 = 3;
const B2: u8 = 4;

pub struct Arc {
    links: Links,
    t1: List,
    t2: List,
    b1: List,
    b2: List,
    loc: Vec<u8>,
    p: f64,
    c: usize,
    /// Where the current miss was found: NONE, B1 or B2.
    ghost_hit: u8,
}

impl Arc {
    fn list(&mut self, which: u8) -> &mut List {
        match which {
            T1 => &mut self.t1,
            T2 => &mut self.t2,
            B1 => &mut self.b1,
            _ => &mut self.b2,
        }
    }

    /// Detaches the first evictable page from the tail of `from`, remembering it in `ghost`.
    fn demote(&mut self, from: u8, ghost: u8, ctx: &ReclaimCtx) -> Option<PageId> {
        let l = *self.list(from);
        let v = self.links.last_where(&l, |x| ctx.evictable(x))?;
        let mut l = l;
        self.links.remove(&mut l, v);
        *self.list(from) = l;
        if ghost != NONE {
            let mut g = *self.list(ghost);
            self.links.push_front(&mut g, v);
            *self.list(ghost) = g;
        }
        self.loc[v as usize] = ghost;
        Some(v)
    }

    fn drop_ghost_tail(&mut self, which: u8) {
        let mut g = *self.list(which);
        if let Some(x) = self.links.pop_back(&mut g) {
            self.loc[x as usize] = NONE;
        }
        *self.list(which) = g;
    }

    fn replace(&mut self, ctx: &ReclaimCtx) -> Option<PageId> {
        let t1 = self.t1.len as f64;
        let from_t1 = (self.t1.len > 0 && (t1 > self.p || (t1 == self.p && self.ghost_hit == B2))) || self.t2.len == 0;
        let first = if from_t1 { (T1, B1) } else { (T2, B2) };
        let second = if from_t1 { (T2, B2) } else { (T1, B1) };
        // The second choice only matters when no page of the first list may be evicted.
        self.demote(first.0, first.1, ctx).or_else(|| self.demote(second.0, second.1, ctx))
    }
}

impl Policy for Arc {
    type Params = Params;

    fn new(s: &PolicySetup, _: Params) -> Result<Self> {
        let n = s.num_pages();
        Ok(Arc {
            links: Links::new(n),
            t1: List::default(),
            t2: List::default(),
            b1: List::default(),
            b2: List::default(),
            loc: vec![NONE; n],
            p: 0.0,
            c: s.frames,
            ghost_hit: NONE,
        })
    }

    // A repeated hit: the hit before moved the page to the front of T2, where this one would move it.

    const REPEAT_HIT_IS_NOOP: bool = true;

    #[inline]
    fn on_hit(&mut self, a: &Access) {
        let x = a.page;
        if self.loc[x as usize] == T1 {
            self.links.remove(&mut self.t1, x);
            self.links.push_front(&mut self.t2, x);
            self.loc[x as usize] = T2;
        } else {
            self.links.move_to_front(&mut self.t2, x);
        }
    }

    fn on_miss(&mut self, a: &Access) {
        let x = a.page;
        self.ghost_hit = NONE;
        match self.loc[x as usize] {
            B1 => {
                let delta = (self.b2.len as f64 / self.b1.len as f64).max(1.0);
                self.p = (self.p + delta).min(self.c as f64);
                self.links.remove(&mut self.b1, x);
                self.ghost_hit = B1;
            }
            B2 => {
                let delta = (self.b1.len as f64 / self.b2.len as f64).max(1.0);
                self.p = (self.p - delta).max(0.0);
                self.links.remove(&mut self.b2, x);
                self.ghost_hit = B2;
            }
            _ => {}
        }
        self.loc[x as usize] = NONE;
    }

    fn select_victim(&mut self, ctx: &ReclaimCtx) -> Option<PageId> {
        if self.ghost_hit != NONE {
            return self.replace(ctx);
        }
        if self.t1.len + self.b1.len >= self.c {
            if self.b1.len > 0 {
                self.drop_ghost_tail(B1);
                self.replace(ctx)
            } else {
                self.demote(T1, NONE, ctx).or_else(|| self.demote(T2, B2, ctx))
            }
        } else {
            if self.t1.len + self.b1.len + self.t2.len + self.b2.len >= 2 * self.c && self.b2.len > 0 {
                self.drop_ghost_tail(B2);
            }
            self.replace(ctx)
        }
    }

    #[inline]
    fn on_insert(&mut self, a: &Access) {
        let x = a.page;
        if self.ghost_hit != NONE {
            self.links.push_front(&mut self.t2, x);
            self.loc[x as usize] = T2;
        } else {
            self.links.push_front(&mut self.t1, x);
            self.loc[x as usize] = T1;
        }
        self.ghost_hit = NONE;
    }

    fn on_remove(&mut self, page: PageId) {
        match self.loc[page as usize] {
            T1 => self.links.remove(&mut self.t1, page),
            T2 => self.links.remove(&mut self.t2, page),
            _ => {}
        }
        self.loc[page as usize] = NONE;
    }
}

impl Arc {
    /// (|T1|, |T2|, |B1|, |B2|, p) — for tests.
    pub fn sizes(&self) -> (usize, usize, usize, usize, f64) {
        (self.t1.len, self.t2.len, self.b1.len, self.b2.len, self.p)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;
    use super::*;

    #[test]
    fn ghost_hit_in_b1_grows_p_and_enters_t2() {
        // c = 2. 0 1 fill T1. 2: case IV, |T1|+|B1| = 2 = c, B1 empty → T1's LRU (0) evicted
        // without a ghost. 3: |T1|+|B1| = 2, B1 empty → 1 evicted, no ghost. So far no ghosts.
        let s = run::<Arc>(&[0, 1, 2, 3], 2, Params {});
        assert_eq!(s.evicted, vec![0, 1]);
        assert_eq!(s.p.sizes(), (2, 0, 0, 0, 0.0));
        // 0 1 0: 0 moves to T2. 2: |T1|+|B1| = 1 < 2 → REPLACE: |T1| = 1 > p = 0 → 1 to B1.
        // 1: found in B1 → p = 1, REPLACE: |T1| = 1 = p, miss not in B2 → T2's LRU (0) to B2;
        // 1 enters T2.
        let s = run::<Arc>(&[0, 1, 0, 2, 1], 2, Params {});
        assert_eq!(s.evicted, vec![1, 0]);
        assert_eq!(s.p.sizes(), (1, 1, 0, 1, 1.0));
    }

    #[test]
    fn directory_never_exceeds_2c() {
        let mut x: u64 = 7;
        let seq: Vec<u32> = (0..5000)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((x >> 33) % 40) as u32
            })
            .collect();
        let s = run::<Arc>(&seq, 8, Params {});
        let (t1, t2, b1, b2, p) = s.p.sizes();
        assert!(t1 + t2 <= 8 && t1 + t2 + b1 + b2 <= 16 && t1 + b1 <= 8);
        assert!((0.0..=8.0).contains(&p));
        assert_eq!(s.p.links.to_vec(&s.p.t1).len() + s.p.links.to_vec(&s.p.t2).len(), t1 + t2);
        assert!(s.p.t1.head == super::super::NIL || s.p.loc[s.p.t1.head as usize] == T1);
    }
}
