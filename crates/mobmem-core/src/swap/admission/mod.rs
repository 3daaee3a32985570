//! Swap admission (DESIGN.md): consulted for every dirty anon page a policy offers as a victim
//! while swap has room. It admits the page (it is written to swap) or vetoes it: the page stays
//! resident for this reclaim and the policy moves on to its next candidate. If every candidate is
//! vetoed the reclaim says so (`Shortfall::Vetoed`), and at the system level the killer acts.
//!
//! The contract, for every registered policy (tested in `engine::tests`):
//! - `scope` is fixed for a run. `All` never vetoes and is never asked (the default, no cost).
//!   `None` vetoes every anon page (swap off): the engine then keeps anon pages from the policy
//!   altogether, so that it does not scan them over and over (Linux does not scan anon lists
//!   without swap space). `PerPage` is asked page by page.
//! - A veto is not "swap is full": a policy that chooses which type to scan (linux-2q) still scans
//!   anon when swap has room, and only skips the vetoed pages.
//! - `admits` sees the page and its owner (`Owners`: which process holds each page, with that
//!   process's state), nothing else; it must not change state (it may be asked many times).
//!
//! One file per admission plus one line in `admissions!`.

mod adj_limit;
pub(crate) mod all;
mod off;

pub use off::NoParams;

use crate::error::{Error, Result};
use crate::trace::PageId;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Which pages an admission may veto.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Admits every page; never asked.
    All,
    /// Admits no page: swap is off.
    None,
    /// Asked for each page.
    PerPage,
}

/// What an admission knows of a process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OwnerState {
    /// Its importance (`oom_score_adj`): 0 foreground, 900+ cached.
    pub adj: i32,
    pub alive: bool,
}

/// Which process owns each page, and each process's state. Empty at the page level unless the
/// trace says (pages then have no owner, and admissions treat them as their default).
#[derive(Debug, Clone, Default)]
pub struct Owners {
    pub of_page: Vec<u32>,
    pub procs: Vec<OwnerState>,
}

impl Owners {
    /// The state of the process owning `page`, if known.
    #[inline]
    pub fn of(&self, page: PageId) -> Option<&OwnerState> {
        self.of_page.get(page as usize).and_then(|&o| self.procs.get(o as usize))
    }
}

/// A swap admission (see the module docs for the contract).
pub trait SwapAdmission: Send {
    fn scope(&self) -> Scope;
    /// Whether dirty anon `page` may be written to swap now.
    fn admits(&self, page: PageId, owners: &Owners) -> bool;
}

/// How an admission is built from its typed parameters.
pub trait Build: SwapAdmission + Sized + 'static {
    type Params: Default + Serialize + DeserializeOwned;
    fn new(params: Self::Params) -> Result<Self>;
}

macro_rules! admissions {
    ($( $name:literal => $ty:ty : $desc:literal ),* $(,)?) => {
        /// Names of the registered admissions, in registry order.
        pub const NAMES: &[&str] = &[$($name),*];
        /// One line describing each.
        pub const DESCRIPTIONS: &[(&str, &str)] = &[$(($name, $desc)),*];

        /// The admission registered under `name`, built from its parameters (as JSON, filled in
        /// with defaults, for the config echo).
        pub fn build(name: &str, params: &toml::Table) -> Result<(Box<dyn SwapAdmission>, serde_json::Value)> {
            match name {
                $($name => {
                    let field = format!("swap_admission_params ({name})");
                    let p: <$ty as Build>::Params = crate::policy::parse_params(&field, params)?;
                    let echo = serde_json::to_value(&p).map_err(|e| Error::Invariant(e.to_string()))?;
                    Ok((Box::new(<$ty>::new(p)?), echo))
                })*
                _ => Err(Error::config(
                    "swap_admission",
                    format!("unknown swap admission {name:?}; known: {}", NAMES.join(", ")),
                )),
            }
        }
    };
}

admissions! {
    "all" => all::All : "every dirty anon page a policy offers goes to swap (Linux)",
    "off" => off::Off : "no page goes to swap: swap is off (anon pages stay until their process dies)",
    "adj-limit" => adj_limit::AdjLimit : "pages of processes less important than max_adj stay resident: the killer will take them, swapping them only costs writes",
}

/// The admission to use: swap off admits nothing whatever was chosen.
pub fn effective(name: &str, swap_on: bool) -> &str {
    if swap_on {
        name
    } else {
        "off"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_builds_each_and_names_unknowns_and_bad_params() {
        for name in NAMES {
            let (a, _) = build(name, &toml::Table::new()).unwrap();
            let owners = Owners::default();
            // With no owner known every admission but "off" admits.
            assert_eq!(a.admits(0, &owners), *name != "off", "{name}");
        }
        let e = build("nope", &toml::Table::new()).err().unwrap().to_string();
        assert!(e.contains("adj-limit"), "{e}");
        let bad: toml::Table = toml::from_str("max_adjj = 3").unwrap();
        let e = build("adj-limit", &bad).err().unwrap().to_string();
        assert!(e.contains("max_adjj"), "{e}");
    }
}
