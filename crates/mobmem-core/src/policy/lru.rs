//! LRU: evict the least recently used page; every hit moves the page to the MRU end.

use super::{Access, Links, List, Policy, PolicySetup, ReclaimCtx};
use crate::error::Result;
use crate::trace::PageId;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {}

pub struct Lru {
    links: Links,
    q: List,
}

impl Policy for Lru {
    type Params = Params;

    fn new(s: &PolicySetup, _: Params) -> Result<Self> {
        Ok(Lru { links: Links::new(s.num_pages()), q: List::default() })
    }

    // A repeated hit moves the page to the front, where the hit before left it.
    const REPEAT_HIT_IS_NOOP: bool = true;

    #[inline(always)]
    fn on_hit(&mut self, a: &Access) {
        self.links.move_to_front(&mut self.q, a.page);
    }
    fn select_victim(&mut self, ctx: &ReclaimCtx) -> Option<PageId> {
        let v = self.links.last_where(&self.q, |p| ctx.evictable(p))?;
        self.links.remove(&mut self.q, v);
        Some(v)
    }
    #[inline(always)]
    fn on_insert(&mut self, a: &Access) {
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
    fn hand_computed() {
        // 3 frames: 1 2 3 miss; 1 hit → order [1,3,2] (MRU first); 4 evicts 2 → [4,1,3];
        // 2 evicts 3 → [2,4,1]; 3 evicts 1.
        let s = run::<Lru>(&[1, 2, 3, 1, 4, 2, 3], 3, Params {});
        assert_eq!(s.evicted, vec![2, 3, 1]);
        assert_eq!(s.misses, 6);
    }
}
