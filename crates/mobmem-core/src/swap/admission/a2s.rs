//! A2S, application-aware swapping (Kim, Jeong and Kim, TECS 2017; Algorithm 1), for the dirty
//! anon pages the reclaim policy offers:
//! - **ESS** (efficacy-based selective swapping): no page goes to swap while `t_live` or more apps
//!   are alive — killing the least recently used one then costs the user little, swapping costs
//!   writes. `Owners::live_apps` counts as the paper does (foreground, previous, home launcher,
//!   services, cached).
//! - **LVSP** (lifetime-aware victim page selection): a page goes only if one of its owners is a
//!   process that will outlive the swap copy: an app whose current average reuse distance (its
//!   mean so far and one more distance as if it were launched now, `Reuse::current`) is below
//!   `t_reuse`. Apps launched fewer than `t_launched` times count as infinitely distant; processes
//!   the user does not launch (system, home launcher) and pages with no known owner count as 0
//!   (always admitted). A shared page takes the smallest distance among its owners.
//!
//! Readings where the paper is loose (docs/SYSTEM.md, "A2S"):
//! - `t_launched`: Algorithm 1 skips owners with fewer than `t_launched` launches; the text says
//!   "more than T_launched" and does not give the value. Default 3 with Algorithm 1's test: the
//!   paper's "21 out of 36 apps are launched less than three times" are the apps it excludes.
//! - `reuse`: section 4.2 counts other launches between two launches of an app (`launches`, the
//!   default); Table 1's averages match distinct apps in between (`apps`). T_reuse = 64 was tuned
//!   on the paper's phone in its own unit, which the paper does not print.
//! - The running mean counts the reuse distances seen (n), as the paper's example does:
//!   (3 × 4 + 10) / (3 + 1) = 5.5.
//! - The paper turns each part off with INT_MAX: `t_live` ≥ the number of processes never vetoes,
//!   and `t_reuse` ≥ 2^31 − 1 (or `inf`) admits every page, the apps below `t_launched` included
//!   ("LVSP evicts inactive pages regardless of the average reuse distance").

use super::{Build, Owners, ReuseUnit, Scope, SwapAdmission};
use crate::error::{Error, Result};
use crate::trace::PageId;
use serde::{Deserialize, Serialize};

/// The paper's INT_MAX: a `t_reuse` this large turns LVSP off.
pub const T_REUSE_OFF: f64 = i32::MAX as f64;

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// ESS: no swap-out while this many apps or more are alive (paper: 18).
    pub t_live: u32,
    /// LVSP: a page may go if an owner's current average reuse distance is below this (paper: 64).
    pub t_reuse: f64,
    /// LVSP: apps launched fewer times count as infinitely distant (paper: not printed; 3).
    pub t_launched: u32,
    /// How reuse distances are counted: `launches` (section 4.2) or `apps` (Table 1).
    pub reuse: ReuseUnit,
}

impl Default for Params {
    fn default() -> Self {
        Params { t_live: 18, t_reuse: 64.0, t_launched: 3, reuse: ReuseUnit::Launches }
    }
}

pub struct A2s {
    p: Params,
}

impl A2s {
    /// LVSP's estimate of how long the page lives: the smallest current average reuse distance
    /// among its owners (0 for owners that are not apps, or when no owner is known).
    pub fn distance(&self, page: PageId, owners: &Owners) -> f64 {
        let ids = owners.owners_of(page);
        if ids.is_empty() {
            return 0.0;
        }
        let mut best = f64::INFINITY;
        for &o in ids {
            let d = match owners.procs.get(o as usize).and_then(|s| s.reuse) {
                None => 0.0,
                Some(r) if r.launches < self.p.t_launched => f64::INFINITY,
                Some(r) => r.now[self.p.reuse as usize],
            };
            best = best.min(d);
        }
        best
    }
}

impl SwapAdmission for A2s {
    fn scope(&self) -> Scope {
        Scope::PerPage
    }
    fn closed(&self, owners: &Owners) -> bool {
        owners.live_apps >= self.p.t_live // ESS
    }
    fn admits(&self, page: PageId, owners: &Owners) -> bool {
        if self.closed(owners) {
            return false;
        }
        self.p.t_reuse >= T_REUSE_OFF || self.distance(page, owners) < self.p.t_reuse
        // LVSP
    }
}

impl Build for A2s {
    type Params = Params;
    fn new(p: Params) -> Result<Self> {
        if p.t_reuse.is_nan() || p.t_reuse < 0.0 {
            return Err(Error::config(
                "swap_admission_params.t_reuse",
                format!("{:?} is not a reuse distance ≥ 0 (inf or 2147483647 turns LVSP off)", p.t_reuse),
            ));
        }
        Ok(A2s { p })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swap::{OwnerState, Reuse, SHARED};

    fn app(launches: u32, now: f64) -> OwnerState {
        OwnerState { adj: 900, alive: true, reuse: Some(Reuse { launches, now: [now, now / 2.0] }) }
    }

    /// Pages 0..n, page i owned by process i.
    fn owners(procs: Vec<OwnerState>, live: u32) -> Owners {
        Owners { of_page: (0..procs.len() as u32).collect(), procs, live_apps: live, ..Owners::default() }
    }

    fn a2s(t_live: u32, t_reuse: f64) -> A2s {
        A2s::new(Params { t_live, t_reuse, ..Params::default() }).unwrap()
    }

    #[test]
    fn current_average_is_the_papers_example() {
        // Three distances averaging 4, ten launches since the last: (3 × 4 + 10) / 4 = 5.5.
        assert_eq!(Reuse::current(3, 4.0, 10.0), 5.5);
        assert_eq!(Reuse::current(0, 0.0, 7.0), 7.0);
    }

    #[test]
    fn ess_vetoes_exactly_when_enough_apps_live() {
        let o = |live| owners(vec![OwnerState::new(-900, true)], live);
        for live in 0..30 {
            assert_eq!(a2s(18, 64.0).admits(0, &o(live)), live < 18, "{live} live");
            assert_eq!(a2s(18, 64.0).closed(&o(live)), live >= 18, "{live} live");
        }
        // T_live = 0: nothing ever goes.
        assert!(!a2s(0, T_REUSE_OFF).admits(0, &o(0)));
    }

    #[test]
    fn lvsp_admits_apps_that_come_back_soon() {
        let o = owners(vec![app(5, 10.0), app(5, 64.0), app(5, 100.0), app(2, 1.0), OwnerState::new(-900, true)], 3);
        let a = a2s(18, 64.0);
        let got: Vec<bool> = (0..5).map(|p| a.admits(p, &o)).collect();
        // Below t_reuse; at it (not below); above; launched twice (< t_launched = 3); a system process.
        assert_eq!(got, [true, false, false, false, true]);
        // The unit chosen: in distinct apps the second (now 32) and third (50) are below 64.
        let apps = A2s::new(Params { reuse: ReuseUnit::Apps, ..Params::default() }).unwrap();
        assert_eq!((0..5).map(|p| apps.admits(p, &o)).collect::<Vec<_>>(), [true, true, true, false, true]);
        // A page with no known owner counts as 0.
        assert!(a.admits(99, &o));
        // LVSP off (the paper's INT_MAX): every page, the rarely launched app's too.
        assert!((0..5).all(|p| a2s(18, T_REUSE_OFF).admits(p, &o)));
        assert!(a2s(18, f64::INFINITY).admits(3, &o));
    }

    #[test]
    fn a_shared_page_takes_its_nearest_owner() {
        let mut o = owners(vec![app(5, 100.0), app(5, 10.0), app(1, 1.0)], 3);
        o.sets = vec![vec![0, 2], vec![0, 1, 2]];
        o.of_page = vec![SHARED, SHARED | 1];
        let a = a2s(18, 64.0);
        assert_eq!(a.distance(0, &o), 100.0);
        assert!(!a.admits(0, &o));
        assert_eq!(a.distance(1, &o), 10.0);
        assert!(a.admits(1, &o));
    }

    #[test]
    fn a_negative_threshold_is_refused() {
        let e = A2s::new(Params { t_reuse: -1.0, ..Params::default() }).err().unwrap().to_string();
        assert!(e.contains("t_reuse"), "{e}");
        assert!(A2s::new(Params { t_reuse: f64::NAN, ..Params::default() }).is_err());
    }
}
