//! CLOCK (second chance, Corbató 1968), as libCacheSim's `Clock` with its default 1-bit counter.
//! Pages sit in a queue in order of (re)insertion; the hand is the queue's tail. A hit sets the
//! page's reference bit (nothing else: hits cost one store). To reclaim, the hand looks at the
//! tail: referenced → clear the bit and move the page to the head (its second chance);
//! unreferenced → victim. A new page enters at the head with its bit clear, as in libCacheSim;
//! `insert_referenced = true` sets it instead (the variant in which a page must be passed over
//! once before it can go).

use super::{Access, Links, List, Policy, PolicySetup, ReclaimCtx};
use crate::error::Result;
use crate::trace::PageId;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// Set the reference bit of a newly inserted page.
    pub insert_referenced: bool,
}

pub struct Clock {
    links: Links,
    q: List,
    referenced: Vec<bool>,
    insert_referenced: bool,
}

impl Policy for Clock {
    type Params = Params;

    fn new(s: &PolicySetup, p: Params) -> Result<Self> {
        Ok(Clock {
            links: Links::new(s.num_pages()),
            q: List::default(),
            referenced: vec![false; s.num_pages()],
            insert_referenced: p.insert_referenced,
        })
    }

    // A repeated hit sets the reference bit, which the hit before set.
    const REPEAT_HIT_IS_NOOP: bool = true;

    #[inline(always)]
    fn on_hit(&mut self, a: &Access) {
        self.referenced[a.page as usize] = true;
    }
    fn select_victim(&mut self, ctx: &ReclaimCtx) -> Option<PageId> {
        // Every page is passed at most twice (once to clear its bit, once more) before we give up.
        let mut budget = 2 * self.q.len + 1;
        while budget > 0 {
            budget -= 1;
            let t = self.q.tail;
            if t == super::NIL {
                return None;
            }
            let r = &mut self.referenced[t as usize];
            if *r || !ctx.evictable(t) {
                *r = false;
                self.links.move_to_front(&mut self.q, t);
                continue;
            }
            self.links.remove(&mut self.q, t);
            return Some(t);
        }
        None
    }
    #[inline(always)]
    fn on_insert(&mut self, a: &Access) {
        self.referenced[a.page as usize] = self.insert_referenced;
        self.links.push_front(&mut self.q, a.page);
    }
    fn on_remove(&mut self, page: PageId) {
        self.links.remove(&mut self.q, page);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;
    use super::*;

    #[test]
    fn second_chance_by_hand() {
        // 3 frames. 0 1 2 fill (bits clear). 0 hit sets 0's bit. 3: tail 0 referenced → cleared,
        // moved to head; tail 1 unreferenced → evicted. 4: tail 2 → evicted. 1: tail 0 (bit clear
        // now) → evicted.
        let s = run::<Clock>(&[0, 1, 2, 0, 3, 4, 1], 3, Params::default());
        assert_eq!(s.evicted, vec![1, 2, 0]);
    }

    #[test]
    fn insert_referenced_changes_the_victim() {
        // 2 frames, 0 1 2 1 3. Bits clear on insert: 2 evicts 0; 1's hit sets its bit; 3: tail 1
        // referenced → cleared, moved; tail 2 unreferenced → evicted.
        let s = run::<Clock>(&[0, 1, 2, 1, 3], 2, Params::default());
        assert_eq!(s.evicted, vec![0, 2]);
        // Bits set on insert: 2 sweeps 0 and 1 (clearing both) and evicts 0; 2 enters referenced;
        // 1's hit sets its bit again; 3: 1 cleared and moved, 2 cleared and moved, 1 evicted.
        let s = run::<Clock>(&[0, 1, 2, 1, 3], 2, Params { insert_referenced: true });
        assert_eq!(s.evicted, vec![0, 1]);
    }
}
