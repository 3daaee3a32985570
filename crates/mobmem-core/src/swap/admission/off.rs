//! Admit nothing: swap is off. Anon pages stay in memory until their process dies; the engine
//! keeps them from the policy (see the contract in `mod.rs`).

use super::{Build, Owners, Scope, SwapAdmission};
use crate::error::Result;
use crate::params::NoParams;
use crate::trace::PageId;

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
