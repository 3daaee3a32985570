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

/// Why a process was killed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum KillReason {
    /// The legacy killer's levels: free memory and page cache both below a level.
    Minfree,
    /// lmkd: memory stall above its threshold.
    PsiPressure,
    /// lmkd: critical stall; only the foreground is spared.
    PsiCritical,
    /// lmkd: swap nearly full and free memory low.
    SwapLow,
    /// More cached apps than the phone keeps (Android's cached-process limit).
    CachedCap,
    /// Nothing could be reclaimed for a fault: the kernel's OOM killer.
    Oom,
}

impl KillReason {
    pub const ALL: [KillReason; 6] = [
        KillReason::Minfree,
        KillReason::PsiPressure,
        KillReason::PsiCritical,
        KillReason::SwapLow,
        KillReason::CachedCap,
        KillReason::Oom,
    ];

    /// The name in results (`meters.kills`).
    pub fn as_str(self) -> &'static str {
        match self {
            KillReason::Minfree => "minfree",
            KillReason::PsiPressure => "psi-pressure",
            KillReason::PsiCritical => "psi-critical",
            KillReason::SwapLow => "swap-low",
            KillReason::CachedCap => "cached-cap",
            KillReason::Oom => "oom",
        }
    }
}

/// A decision to kill: any process with adj ≥ `min_adj` may go; `reason` names the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kill {
    pub min_adj: i32,
    pub reason: KillReason,
}

/// What a killer is built from.
pub struct KillerSetup {
    /// DRAM of the phone in bytes (Android scales its levels by it).
    pub dram_bytes: u64,
    pub page_size: u64,
}

/// A low memory killer. It acts at kswapd wake-ups and direct reclaims, not per access, so the
/// simulator holds it as a `Box<dyn Killer>`.
pub trait Killer: Send {
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

/// How a killer is built from its typed parameters.
pub trait Build: Killer + Sized + 'static {
    type Params: Default + Serialize + DeserializeOwned;
    fn new(setup: &KillerSetup, params: Self::Params) -> Result<Self>;
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

macro_rules! killers {
    ($( $name:literal => $ty:ty : $desc:literal ),* $(,)?) => {
        pub const NAMES: &[&str] = &[$($name),*];
        pub const DESCRIPTIONS: &[(&str, &str)] = &[$(($name, $desc)),*];

        /// The killer registered under `name`, built from its parameters, and the parameters
        /// with defaults filled in (as JSON, for the config echo).
        pub fn build(name: &str, setup: &KillerSetup, table: &toml::Table) -> Result<(Box<dyn Killer>, serde_json::Value)> {
            match name {
                $($name => {
                    let p: <$ty as Build>::Params = params(name, table)?;
                    let echo = serde_json::to_value(&p).map_err(|e| Error::Invariant(e.to_string()))?;
                    Ok((Box::new(<$ty>::new(setup, p)?), echo))
                })*
                _ => Err(Error::config("killer", format!("unknown killer {name:?}; known: {}", NAMES.join(", ")))),
            }
        }

        /// A killer's parameters with defaults filled in, as JSON (validation, the config echo).
        pub fn resolved_params(name: &str, table: &toml::Table) -> Result<serde_json::Value> {
            match name {
                $($name => {
                    let p: <$ty as Build>::Params = params(name, table)?;
                    serde_json::to_value(&p).map_err(|e| Error::Invariant(e.to_string()))
                })*
                _ => Err(Error::config("killer", format!("unknown killer {name:?}; known: {}", NAMES.join(", ")))),
            }
        }
    };
}

fn params<T: DeserializeOwned>(name: &str, table: &toml::Table) -> Result<T> {
    crate::params::parse_params(name, table).map_err(|e| match e {
        Error::Config { msg, .. } => Error::config(format!("killer_params ({name})"), msg),
        e => e,
    })
}

killers! {
    "minfree" => minfree::Minfree : "Android's legacy lowmemorykiller: oom_score_adj levels paired with free-page levels (AOSP ProcessList)",
    "psi" => psi::Psi : "lmkd-style: kill on memory-stall pressure or nearly full swap, protecting adj ≤ 200 unless pressure is critical",
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
        let setup = KillerSetup { dram_bytes: 1 << 30, page_size: 4096 };
        let e = build("nope", &setup, &toml::Table::new()).err().unwrap().to_string();
        assert!(e.contains("minfree"), "{e}");
        for name in NAMES {
            assert!(build(name, &setup, &toml::Table::new()).is_ok(), "{name}");
        }
        assert_eq!(KillReason::ALL.map(|r| r.as_str())[5], "oom");
    }
}
