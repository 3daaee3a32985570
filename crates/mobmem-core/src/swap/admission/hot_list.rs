//! Ariadne's hot list kept in DRAM (Liang et al., HPCA 2025, §4.2, its "EHL" variant): the data an
//! app's launch uses is its hot data, which the next relaunch will want again, so it is not
//! swapped; what the launch before left hot is warm, and everything else cold, both free to go.
//! The phone keeps the lists (`Owners::hotness`, `Sim::mark_hot`): when a launch ends, the pages it
//! touched that a relaunch touches again become hot (a resume's front: all a resume touches, and
//! of a cold start's pages the same front; the paper sizes the hot list "by offline profiling"),
//! the app's older hot pages warm; a starting app's pages are cold. Pages with no hotness (page
//! traces, processes no launch touched) are admitted.
//!
//! Readings: the paper swaps hot data "if absolutely necessary"; here a hot page never goes: when
//! only hot pages are left the reclaim falls short and the killer acts, and when the killer has
//! no one left to kill the run stops with an out-of-memory error. Warm and cold pages are alike to
//! the admission (the paper's cold-first order within them is left to the reclaim policy).

use super::{Build, Owners, Scope, SwapAdmission, HOT};
use crate::error::Result;
use crate::trace::PageId;

pub struct HotList;

impl SwapAdmission for HotList {
    fn scope(&self) -> Scope {
        Scope::PerPage
    }
    fn admits(&self, page: PageId, owners: &Owners) -> bool {
        owners.hotness.get(page as usize).map_or(true, |&h| h != HOT)
    }
    fn reads_hotness(&self) -> bool {
        true
    }
}

impl Build for HotList {
    type Params = crate::params::NoParams;
    fn new(_: Self::Params) -> Result<Self> {
        Ok(HotList)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swap::admission::{COLD, WARM};

    #[test]
    fn hot_pages_stay_and_warm_and_cold_ones_go() {
        let a = HotList::new(Default::default()).unwrap();
        let owners = Owners { hotness: vec![HOT, WARM, COLD], ..Owners::default() };
        assert_eq!((0..4).map(|p| a.admits(p, &owners)).collect::<Vec<_>>(), [false, true, true, true]);
        // No lists at all (a page trace): every page goes.
        assert!(a.admits(0, &Owners::default()) && a.reads_hotness() && a.scope() == Scope::PerPage);
    }
}
