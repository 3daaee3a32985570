//! The knobs both levels have (`config::Shared`: the policy, the file store, the admission, what a
//! swap-in keeps, the read-around, the page size, Direct Read), resolved once for both: a page
//! run's `Resolved` and a phone's `PhonePlan` take them from here, and the engine's `Setup` is
//! filled from the result (`Setup::with_plan`).

use super::swap::{SwapPlan, SwapSettings};
use crate::config::{check_direct_read, check_page_size, AnonFirstTouch, Shared, SwapCache};
use crate::device::{Catalog, Device};
use crate::error::{Error, Result};
use crate::policy;
use crate::swap::{admission, SwapAdmission};

/// What the shared knobs resolve to.
pub struct Common {
    /// The swap device's backend, the file store, what a swap-in keeps, the costs a policy weighs
    /// and the read-around.
    pub swap: SwapPlan,
    /// The policy's parameters, defaults filled in.
    pub params: serde_json::Value,
    /// The swap admission the engine runs (none is admitted with swap off), and the parameters
    /// of the one given, defaults filled in.
    pub admission: Box<dyn SwapAdmission>,
    pub admission_params: serde_json::Value,
    /// The knobs as given, checked: a knob the engine takes as it is (Direct Read, zram's pool
    /// in memory) is read from here, so adding one is its declaration and its use.
    pub given: Shared,
}

impl Common {
    /// Resolves `s` with swap on `swap` (`None`: off) against `catalog`.
    pub fn resolve(
        s: &Shared,
        swap: Option<&Device>,
        first_touch: AnonFirstTouch,
        catalog: &Catalog,
    ) -> Result<Common> {
        check_page_size(s.page_size)?;
        let params = policy::resolved_params(&s.policy, &s.params)?;
        let storage = catalog.get(&s.storage, "storage")?;
        check_direct_read(s.direct_read, swap)?;
        // The admission given is checked and echoed with swap off too; the engine runs none then.
        let (given, admission_params) = admission::build(&s.swap_admission, &s.swap_admission_params)?;
        let admission = match admission::effective(&s.swap_admission, swap.is_some()) {
            name if name == s.swap_admission => given,
            name => admission::build(name, &s.swap_admission_params)?.0,
        };
        let settings = SwapSettings {
            swap,
            storage,
            page_size: s.page_size,
            swap_cache: s.swap_cache,
            anon_first_touch: first_touch,
            page_cluster: s.page_cluster,
        };
        let swap = SwapPlan::resolve(&settings, catalog)?;
        check_meaningful(s, &swap)?;
        Ok(Common { swap, params, admission, admission_params, given: s.clone() })
    }
}

/// A knob the rest of the run makes meaningless is refused by name, never silently a no-op.
fn check_meaningful(s: &Shared, swap: &SwapPlan) -> Result<()> {
    let device = swap.backend.as_ref().map(|b| b.device().name.clone());
    if !s.zram_in_memory && swap.effects.compression_ratio.is_none() {
        let why = match &device {
            None => "false, but swap is off: there is no zram pool to keep outside memory".to_string(),
            Some(d) => format!("false, but {d:?} is not zram: there is no zram pool to keep outside memory"),
        };
        return Err(Error::config("zram_in_memory", why));
    }
    if device.is_none() && s.swap_cache != SwapCache::Device {
        let given = if s.swap_cache == SwapCache::Keep { "keep" } else { "drop" };
        let why = format!("{given:?}, but swap is off: no page has a swap copy to keep or drop");
        return Err(Error::config("swap_cache", why));
    }
    Ok(())
}
