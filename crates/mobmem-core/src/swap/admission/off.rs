//! Admit nothing: swap is off. Anon pages stay in memory until their process dies; the engine
//! keeps them from the policy (see the contract in `mod.rs`).

use super::{Build, Owners, Scope, SwapAdmission};
use crate::error::Result;
use crate::trace::PageId;
use serde::{Deserialize, Serialize};

/// No parameters (an empty table; any key is an error naming it).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

pub struct Off;

impl SwapAdmission for Off {
    fn scope(&self) -> Scope {
        Scope::None
    }
    fn admits(&self, _: PageId, _: &Owners) -> bool {
        false
    }
}

impl Build for Off {
    type Params = NoParams;
    fn new(_: Self::Params) -> Result<Self> {
        Ok(Off)
    }
}
