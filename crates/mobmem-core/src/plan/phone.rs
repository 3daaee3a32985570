//! A phone resolved once, as a page run is: its own settings checked and laid out in pages, its
//! swap device looked up, and the knobs both levels have resolved by `Common`, the code a page
//! run's `Resolved` uses. The phone's world (`system::sim::setup`) is built from this alone.

use super::Common;
use crate::config::AnonFirstTouch;
use crate::device::{Catalog, Device};
use crate::error::{Error, Result};
use crate::system::killer::{self, Killer, KillerSetup};
use crate::system::phone::{Layout, Phone};

/// What a phone resolves to.
pub struct PhonePlan {
    /// Its sizes in pages.
    pub layout: Layout,
    /// The swap device; `None`: swap off.
    pub swap: Option<Device>,
    pub common: Common,
    pub killer: Box<dyn Killer>,
    /// The killer's parameters, defaults filled in.
    pub killer_params: serde_json::Value,
}

impl PhonePlan {
    /// Checks and resolves `phone` against `catalog`.
    pub fn resolve(phone: &Phone, catalog: &Catalog) -> Result<PhonePlan> {
        phone.check_own()?;
        let layout = phone.layout()?;
        if crate::policy::needs_tiers(&phone.policy) || phone.policy == "opt" {
            return Err(Error::config(
                "policy",
                format!(
                    "{:?} cannot run at system level (hybrid tiers and offline OPT need a page trace)",
                    phone.policy
                ),
            ));
        }
        let swap = phone.swap.as_deref().map(|n| catalog.get(n, "swap").cloned()).transpose()?;
        // A phone's first touch of an anon page is zero-filled, as Linux's.
        let common = Common::resolve(&phone.shared(), swap.as_ref(), AnonFirstTouch::Zero, catalog)?;
        let setup = KillerSetup { dram_bytes: layout.dram_pages * phone.page_size, page_size: phone.page_size };
        let (killer, killer_params) = killer::build(&phone.killer, &setup, &phone.killer_params)?;
        Ok(PhonePlan { layout, swap, common, killer, killer_params })
    }
}

// Here, not in system/phone.rs: checking a phone is resolving it, and the plan is above the settings.
impl Phone {
    /// Checks everything a phone run resolves before it meets its usage.
    pub fn validate(&self, catalog: &Catalog) -> Result<()> {
        PhonePlan::resolve(self, catalog).map(|_| ())
    }
}
