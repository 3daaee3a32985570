//! Keep the pages of unimportant processes out of swap: a dirty anon page is admitted only if its
//! process's `oom_score_adj` is at most `max_adj`. Cached apps (adj 900–999) are the killer's
//! next victims; writing their pages to swap costs flash writes and swap space that the kill
//! throws away. Pages with no known owner are admitted.

use super::{Build, Owners, Scope, SwapAdmission};
use crate::error::{Error, Result};
use crate::trace::PageId;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Params {
    /// The least important adj whose pages may be swapped (899: all but cached apps).
    pub max_adj: i32,
}

impl Default for Params {
    fn default() -> Self {
        Params { max_adj: 899 }
    }
}

pub struct AdjLimit {
    max_adj: i32,
}

impl SwapAdmission for AdjLimit {
    fn scope(&self) -> Scope {
        Scope::PerPage
    }
    fn admits(&self, page: PageId, owners: &Owners) -> bool {
        owners.of(page).map_or(true, |o| o.adj <= self.max_adj)
    }
}

impl Build for AdjLimit {
    type Params = Params;
    fn new(p: Params) -> Result<Self> {
        if !(-1000..=1000).contains(&p.max_adj) {
            return Err(Error::config(
                "swap_admission_params.max_adj",
                format!("{} is not an adj (-1000–1000)", p.max_adj),
            ));
        }
        Ok(AdjLimit { max_adj: p.max_adj })
    }
}
