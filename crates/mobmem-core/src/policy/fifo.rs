//! FIFO: evict the page that entered memory first; hits change nothing. As libCacheSim's FIFO.

use super::{Access, Links, List, Policy, PolicySetup, ReclaimCtx};
use crate::error::Result;
use crate::trace::PageId;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {}

pub struct Fifo {
    links: Links,
    q: List,
}

impl Policy for Fifo {
    type Params = Params;

    fn new(s: &PolicySetup, _: Params) -> Result<Self> {
        Ok(Fifo { links: Links::new(s.num_pages()), q: List::default() })
    }

    // A repeated hit does nothing.
    const REPEAT_HIT_IS_NOOP: bool = true;

    #[inline(always)]
    fn on_hit(&mut self, _: &Access) {}
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
    fn belady_anomaly_sequence() {
        // The classic sequence: FIFO faults 9 times with 3 frames and 10 times with 4.
        let seq = [1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5];
        assert_eq!(run::<Fifo>(&seq, 3, Params {}).misses, 9);
        assert_eq!(run::<Fifo>(&seq, 4, Params {}).misses, 10);
    }

    #[test]
    fn hits_do_not_reorder() {
        let s = run::<Fifo>(&[0, 1, 0, 2], 2, Params {});
        assert_eq!(s.evicted, vec![0]);
    }
}
