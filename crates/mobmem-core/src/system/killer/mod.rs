//! Process-level reclamation: the low memory killer. Each killer is one file behind the `Killer`
//! trait plus one line in the `killers!` table. A killer only decides *whether* to kill and the
//! lowest `oom_score_adj` it may kill; which process goes is common to all (`choose`): the highest
//! adj first, and within it the least recently used (or the largest) process. The foreground app
//! is never a candidate; a kill frees the process's anon frames and swap slots at once.

pub mod minfree;
pub mod psi;

use crate::error::{Error, Result};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// What a killer sees when it is asked (at each kswapd wake-up and each direct reclaim).
#[derive(Debug, Clone, Copy, Default)]
pub struct MemView {
    pub now_ns: f64,
    pub page_size: u64,
    /// Page frames of the usable memory.
    pub frames: u64,
    pub free_pages: u64,
    /// Resident file-backed pages (page cache).
    pub file_pages: u64,
    pub swap_on: bool,
    pub swap_total: u64,
    pub swap_used: u64,
    /// Time the foreground work stalled on memory (direct reclaim, swap-ins, refaults) over the
    /// last window, in ms per s of simulated time.
    pub stall_ms_per_s: f64,
}

/// A decision to kill: any process with adj ≥ `min_adj` may go; `reason` names the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kill {
    pub min_adj: i32,
    pub reason: &'static str,
}

/// What a killer is built from.
pub struct KillerSetup {
    /// DRAM of the phone in bytes (Android scales its levels by it).
    pub dram_bytes: u64,
    pub page_size: u64,
}

pub trait Killer: Sized + Send {
    type Params: Default + Serialize + DeserializeOwned;
    fn new(setup: &KillerSetup, params: Self::Params) -> Result<Self>;
    /// Whether to kill now, and down to which adj.
    fn check(&mut self, m: &MemView) -> Option<Kill>;
    /// How to break ties within an adj level.
    fn tie(&self) -> Tie {
        Tie::Lru
    }
    /// The levels in force, for the result's config echo: (adj, pages).
    fn levels(&self) -> Vec<(i32, u64)> {
        Vec::new()
    }
}

/// Within one adj level: the least recently used process, or the one holding the most pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tie {
    #[default]
    Lru,
    Largest,
}

/// A process the killer may pick.
#[derive(Debug, Clone, Copy)]
pub struct Candidate {
    pub pid: usize,
    pub adj: i32,
    pub last_used_ns: f64,
    /// Pages the process holds (resident anon + swapped).
    pub pages: u64,
}

/// The process to kill among `c` with adj ≥ `min_adj`: highest adj, then the tie rule, then the
/// lowest pid (so that runs are deterministic).
pub fn choose(c: &[Candidate], min_adj: i32, tie: Tie) -> Option<usize> {
    c.iter()
        .filter(|p| p.adj >= min_adj)
        .max_by(|a, b| {
            a.adj
                .cmp(&b.adj)
                .then_with(|| match tie {
                    Tie::Lru => b.last_used_ns.total_cmp(&a.last_used_ns),
                    Tie::Largest => a.pages.cmp(&b.pages),
                })
                .then_with(|| b.pid.cmp(&a.pid))
        })
        .map(|p| p.pid)
}

/// Something to do with a concrete killer type (monomorphised like the policies).
pub trait KillerVisitor {
    type Output;
    fn visit<K: Killer>(self, name: &'static str) -> Self::Output;
}

macro_rules! killers {
    ($( $name:literal => $ty:ty : $desc:literal ),* $(,)?) => {
        pub const NAMES: &[&str] = &[$($name),*];
        pub const DESCRIPTIONS: &[(&str, &str)] = &[$(($name, $desc)),*];
        pub fn dispatch<V: KillerVisitor>(name: &str, v: V) -> Result<V::Output> {
            match name {
                $($name => Ok(v.visit::<$ty>($name)),)*
                _ => Err(Error::config("killer", format!("unknown killer {name:?}; known: {}", NAMES.join(", ")))),
            }
        }
    };
}

killers! {
    "minfree" => minfree::Minfree : "Android's legacy lowmemorykiller: oom_score_adj levels paired with free-page levels (AOSP ProcessList)",
    "psi" => psi::Psi : "lmkd-style: kill on memory-stall pressure or nearly full swap, protecting adj ≤ 200 unless pressure is critical",
}

/// A killer's parameters with defaults filled in, as JSON (for the config echo).
pub fn resolved_params(name: &str, table: &toml::Table) -> Result<serde_json::Value> {
    struct V<'a>(&'a toml::Table);
    impl KillerVisitor for V<'_> {
        type Output = Result<serde_json::Value>;
        fn visit<K: Killer>(self, name: &'static str) -> Self::Output {
            let p: K::Params = crate::policy::parse_params(name, self.0).map_err(|e| match e {
                Error::Config { msg, .. } => Error::config(format!("killer_params ({name})"), msg),
                e => e,
            })?;
            serde_json::to_value(&p).map_err(|e| Error::Invariant(e.to_string()))
        }
    }
    dispatch(name, V(table))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choose_highest_adj_then_tie_rule() {
        let c = [
            Candidate { pid: 1, adj: 900, last_used_ns: 5.0, pages: 10 },
            Candidate { pid: 2, adj: 950, last_used_ns: 9.0, pages: 5 },
            Candidate { pid: 3, adj: 950, last_used_ns: 1.0, pages: 1 },
            Candidate { pid: 4, adj: 200, last_used_ns: 0.0, pages: 99 },
        ];
        assert_eq!(choose(&c, 0, Tie::Lru), Some(3));
        assert_eq!(choose(&c, 0, Tie::Largest), Some(2));
        assert_eq!(choose(&c, 960, Tie::Lru), None);
        assert_eq!(choose(&c[3..], 201, Tie::Lru), None);
        assert_eq!(choose(&c[3..], 200, Tie::Lru), Some(4));
        assert!(dispatch("nope", NoVisit).unwrap_err().to_string().contains("minfree"));
    }

    struct NoVisit;
    impl KillerVisitor for NoVisit {
        type Output = ();
        fn visit<K: Killer>(self, _: &'static str) {}
    }
}
