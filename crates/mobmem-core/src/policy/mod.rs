//! Page-level reclamation policies. The engine owns residency (page table, frames, swap); a policy
//! keeps only what it needs to rank victims. Each policy is one file (typed params, builder,
//! implementation, unit tests) plus one line in the `policies!` table below, from which the list
//! of names, the parameter validation and the dispatch to a monomorphised engine are generated.

mod list;

pub mod arc;
pub mod clock;
pub mod fifo;
pub mod lru;
pub mod opt;
pub mod twoq;

pub use list::{Links, List, NIL};

use crate::error::{Error, Result};
use crate::trace::{Op, PageId, Trace};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// One access as a policy sees it.
#[derive(Debug, Clone, Copy)]
pub struct Access {
    pub page: PageId,
    pub op: Op,
    /// Position in the trace (offline policies look their annotations up by it).
    pub index: usize,
}

/// What a policy is built from.
pub struct PolicySetup<'a> {
    /// Page frames of memory.
    pub frames: usize,
    /// The trace to be replayed: its page count sizes per-page arrays; offline policies (OPT)
    /// pre-scan it.
    pub trace: &'a Trace,
}

impl PolicySetup<'_> {
    pub fn num_pages(&self) -> usize {
        self.trace.num_pages()
    }
}

/// What the engine tells a policy while it picks a victim.
pub struct ReclaimCtx<'a> {
    /// Pages that could not be evicted now (dirty anon pages while swap is full) are flagged here.
    pub(crate) unevictable: Option<&'a dyn Fn(PageId) -> bool>,
}

impl ReclaimCtx<'_> {
    /// Whether `page` may be reclaimed now. Always true unless swap is full.
    #[inline(always)]
    pub fn evictable(&self, page: PageId) -> bool {
        match self.unevictable {
            None => true,
            Some(f) => !f(page),
        }
    }
}

/// A page-replacement policy.
///
/// Contract: for every access the engine calls either `on_hit` (page resident), or `on_miss`, then
/// `select_victim` if memory is full, then `select_victim` once more if `needs_room` says so, then
/// `on_insert` (page not resident).
/// `select_victim` returns a resident page and detaches it from the policy's resident structures
/// (a ghost list may remember it); the engine then evicts it. `on_remove` is for removals the
/// policy did not choose (a process dying), and must not leave a ghost.
pub trait Policy: Sized + Send {
    /// Typed parameters, read from the run's `params` table (`deny_unknown_fields`).
    type Params: Default + Serialize + DeserializeOwned;

    fn new(setup: &PolicySetup, params: Self::Params) -> Result<Self>;

    fn on_hit(&mut self, a: &Access);

    /// A fault on `a.page`, before any victim is chosen.
    #[inline(always)]
    fn on_miss(&mut self, _a: &Access) {}

    /// Asked after memory-full reclaim: whether the policy wants one more page reclaimed before the
    /// insert even though a frame is free (2Q caps its Am queue).
    #[inline(always)]
    fn needs_room(&self) -> bool {
        false
    }

    fn select_victim(&mut self, ctx: &ReclaimCtx) -> Option<PageId>;

    fn on_insert(&mut self, a: &Access);

    fn on_remove(&mut self, page: PageId);
}

/// Something to do with a concrete policy type: the engine implements it to get a monomorphised
/// replay loop for each policy (no virtual call per access).
pub trait PolicyVisitor {
    type Output;
    fn visit<P: Policy>(self, name: &'static str) -> Self::Output;
}

macro_rules! policies {
    ($( $name:literal => $ty:ty : $desc:literal ),* $(,)?) => {
        /// Names of the registered policies, in registry order.
        pub const NAMES: &[&str] = &[$($name),*];
        /// One line describing each registered policy.
        pub const DESCRIPTIONS: &[(&str, &str)] = &[$(($name, $desc)),*];

        /// Calls `v` with the policy type registered under `name`.
        pub fn dispatch<V: PolicyVisitor>(name: &str, v: V) -> Result<V::Output> {
            match name {
                $($name => Ok(v.visit::<$ty>($name)),)*
                _ => Err(Error::config(
                    "policy",
                    format!("unknown policy {name:?}; known: {}", NAMES.join(", ")),
                )),
            }
        }
    };
}

policies! {
    "fifo" => fifo::Fifo : "first in, first out",
    "lru" => lru::Lru : "least recently used",
    "clock" => clock::Clock : "CLOCK (second chance), new pages unreferenced",
    "arc" => arc::Arc : "Adaptive Replacement Cache (Megiddo & Modha 2003)",
    "2q" => twoq::TwoQ : "2Q (Johnson & Shasha 1994): A1in FIFO 25%, A1out ghost 50%, Am LRU",
    "opt" => opt::Opt : "Belady's OPT (offline; the fault-count floor)",
}

/// Reads a policy's typed parameters from a TOML table; unknown keys are errors naming the key.
pub fn parse_params<T: DeserializeOwned>(policy: &str, table: &toml::Table) -> Result<T> {
    toml::Value::Table(table.clone())
        .try_into()
        .map_err(|e| Error::config(format!("params ({policy})"), e.to_string().trim().to_string()))
}

/// Parameters with their defaults filled in, as JSON (for the result's config echo).
pub fn resolved_params(name: &str, table: &toml::Table) -> Result<serde_json::Value> {
    struct V<'a>(&'a toml::Table);
    impl PolicyVisitor for V<'_> {
        type Output = Result<serde_json::Value>;
        fn visit<P: Policy>(self, name: &'static str) -> Self::Output {
            let p: P::Params = parse_params(name, self.0)?;
            serde_json::to_value(&p).map_err(|e| Error::Invariant(e.to_string()))
        }
    }
    dispatch(name, V(table))?
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Drives a policy the way the engine does, over page ids only (no I/O), for unit tests.
    use super::*;

    pub struct Sim<P: Policy> {
        pub p: P,
        pub resident: Vec<bool>,
        pub n: usize,
        pub frames: usize,
        pub misses: u64,
        pub evicted: Vec<PageId>,
    }

    pub fn trace_of(pages: &[u32]) -> Trace {
        let n = pages.iter().copied().max().map_or(0, |m| m as usize + 1);
        Trace {
            accesses: pages.iter().map(|&p| crate::trace::pack(p, Op::Read)).collect(),
            page_numbers: (0..n as u64).collect(),
            ..Default::default()
        }
    }

    /// Replays `pages` (dense ids) with `frames` frames; returns misses and the eviction order.
    pub fn run<P: Policy>(pages: &[u32], frames: usize, params: P::Params) -> Sim<P> {
        let t = trace_of(pages);
        let p = P::new(&PolicySetup { frames, trace: &t }, params).unwrap();
        let mut s = Sim { p, resident: vec![false; t.num_pages()], n: 0, frames, misses: 0, evicted: vec![] };
        let ctx = ReclaimCtx { unevictable: None };
        for (i, &pg) in pages.iter().enumerate() {
            let a = Access { page: pg, op: Op::Read, index: i };
            if s.resident[pg as usize] {
                s.p.on_hit(&a);
                continue;
            }
            s.misses += 1;
            s.p.on_miss(&a);
            let full = s.n >= s.frames;
            for round in 0..2 {
                if (round == 0 && !full) || (round == 1 && !s.p.needs_room()) {
                    continue;
                }
                let v = s.p.select_victim(&ctx).expect("a victim");
                assert!(s.resident[v as usize], "victim {v} not resident");
                s.resident[v as usize] = false;
                s.n -= 1;
                s.evicted.push(v);
            }
            s.p.on_insert(&a);
            s.resident[pg as usize] = true;
            s.n += 1;
        }
        s
    }
}
