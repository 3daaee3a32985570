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
//! - `closed` says that no page may go now (every `admits` would say no): the reclaim then skips
//!   anon pages as a type, as with swap full, and a shortfall is still `Vetoed`.
//! - `admits` sees the page and its owner (`Owners`: which process holds each page, with that
//!   process's state), nothing else; it must not change state (it may be asked many times).
//!
//! One file per admission plus one line in `admissions!`.

mod a2s;
mod adj_limit;
pub(crate) mod all;
mod hot_list;
mod off;

pub use crate::params::NoParams;

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
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OwnerState {
    /// Its importance (`oom_score_adj`): 0 foreground, 900+ cached.
    pub adj: i32,
    pub alive: bool,
    /// Its launch history, for a process the user launches (an app); `None` for the others
    /// (system processes, the home launcher, processes no framework assigned).
    pub reuse: Option<Reuse>,
}

impl OwnerState {
    /// A process with no launch history.
    pub fn new(adj: i32, alive: bool) -> Self {
        OwnerState { adj, alive, reuse: None }
    }
}

/// An app's launches so far and its *current* average reuse distance: the mean over its reuse
/// distances so far and one more, as if it were launched now (A2S's LVSP, section 4.2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reuse {
    pub launches: u32,
    /// By unit (`ReuseUnit as usize`): other launches in between; distinct other apps in between.
    pub now: [f64; 2],
}

/// How a reuse distance is counted: the A2S paper defines it in launches between two launches of
/// an app (section 4.2), while its Table 1 averages look like distinct apps between (the LRU stack
/// distance); both are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReuseUnit {
    Launches = 0,
    Apps = 1,
}

impl Reuse {
    /// The current average: `n` distances averaging `mean`, and `since` counted since the last
    /// launch, as if it were launched now: (n × mean + since) / (n + 1).
    pub fn current(n: u32, mean: f64, since: f64) -> f64 {
        (n as f64 * mean + since) / (n as f64 + 1.0)
    }
}

/// Whether a process alive at `adj` is a live app as Android counts them (the A2S paper's
/// N_live): foreground (0) to cached (999), the home launcher and services included, system
/// processes (negative adj) and processes not started (1000) not.
#[inline]
pub fn counts_as_live(adj: i32) -> bool {
    (0..1000).contains(&adj)
}

/// Tag of an `of_page` entry naming a set of owners (`Owners::sets`) rather than one process.
pub const SHARED: u32 = 1 << 31;

/// Which process owns each page, and each process's state. Empty at the page level unless the
/// trace says (pages then have no owner, and admissions treat them as their default).
#[derive(Debug, Clone, Default)]
pub struct Owners {
    /// The owning process of each page, or `SHARED | i`: the page is shared by `sets[i]`.
    pub of_page: Vec<u32>,
    pub procs: Vec<OwnerState>,
    /// Sets of processes sharing pages (each page released when all of them are gone).
    pub sets: Vec<Vec<u32>>,
    /// Live apps as Android counts them (foreground, previous, home, services, cached).
    pub live_apps: u32,
    /// Each page's hotness as its app's launches left it (`HOT`, `WARM`, `COLD`: the Ariadne
    /// paper's lists), kept by the phone only for an admission that reads it
    /// (`SwapAdmission::reads_hotness`); empty otherwise.
    pub hotness: Vec<u8>,
}

pub use super::hotness::{COLD, HOT, WARM};

impl Owners {
    /// The state of the process owning `page`, if known (the first of a shared page's owners).
    #[inline]
    pub fn of(&self, page: PageId) -> Option<&OwnerState> {
        self.owners_of(page).first().and_then(|&o| self.procs.get(o as usize))
    }

    /// The processes owning `page`: none if unknown, one, or a shared page's set.
    #[inline]
    pub fn owners_of(&self, page: PageId) -> &[u32] {
        match self.of_page.get(page as usize) {
            None => &[],
            Some(&o) if o & SHARED != 0 => self.sets.get((o & !SHARED) as usize).map_or(&[], |s| s.as_slice()),
            Some(o) => std::slice::from_ref(o),
        }
    }
}

/// A swap admission (see the module docs for the contract).
pub trait SwapAdmission: Send {
    fn scope(&self) -> Scope;
    /// Whether dirty anon `page` may be written to swap now.
    fn admits(&self, page: PageId, owners: &Owners) -> bool;
    /// Whether no page at all may be written now, whatever the page (A2S's ESS). The reclaim then
    /// runs as with swap off: anon pages are skipped as a type, not vetoed one by one (a veto of
    /// every page would cost a scan of every anon page per reclaim).
    fn closed(&self, _owners: &Owners) -> bool {
        false
    }
    /// Whether it reads `Owners::hotness` (the phone then keeps it up to date at each launch).
    fn reads_hotness(&self) -> bool {
        false
    }
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
                    let p: <$ty as Build>::Params = crate::params::parse_params(&field, params)?;
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
    "a2s" => a2s::A2s : "A2S (Kim et al.): no swap-out while t_live or more apps live (ESS); otherwise a page goes only if an owner's current average reuse distance is below t_reuse (LVSP)",
    "adj-limit" => adj_limit::AdjLimit : "pages of processes less important than max_adj stay resident: the killer will take them, swapping them only costs writes",
    "hot-list" => hot_list::HotList : "Ariadne's hot list in DRAM (EHL): what a relaunch of an app will touch (a resume's front) is not swapped; its other pages go",
}

/// The admission when none is named: every page may go (Linux).
pub const DEFAULT: &str = "all";

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
