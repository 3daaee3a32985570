//! Admit every page (what Linux does): the default.

use super::{Build, Owners, Scope, SwapAdmission};
use crate::error::Result;
use crate::trace::PageId;

pub struct All;

impl SwapAdmission for All {
    fn scope(&self) -> Scope {
        Scope::All
    }
    fn admits(&self, _: PageId, _: &Owners) -> bool {
        true
    }
}

impl Build for All {
    type Params = crate::params::NoParams;
    fn new(_: Self::Params) -> Result<Self> {
        Ok(All)
    }
}
