//! Page-level reclamation policies. The engine owns residency (page table, frames, swap); a policy
//! keeps only what it needs to rank victims. Each policy is one file (typed params, builder,
//! implementation, unit tests) plus one line in the `policies!` table below, from which the list
//! of names, the parameter validation and the dispatch to a monomorphised engine are generated.

mod list;

pub mod arc;
pub mod clock;
pub mod fifo;
pub mod hybrid;
pub mod linux_2q;
pub mod lru;
pub mod mglru;
pub mod opt;
pub mod spo_clock;
mod tlb;
pub use tlb::MAX_ENTRIES as MAX_TLB_ENTRIES;
pub mod twoq;

pub use list::{Links, List, NIL};

use crate::error::{Error, Result};
use crate::trace::{Op, PageId, PageSpace};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// One access as a policy sees it.
#[derive(Debug, Clone, Copy)]
pub struct Access {
    pub page: PageId,
    pub op: Op,
    /// Position in the trace (offline policies look their annotations up by it).
    pub index: usize,
    /// Whether the page is swap-backed (anon) once this access is done: its partition for
    /// storage-aware policies (a fault on it reads swap, evicting it dirty writes swap). Under the
    /// DESIGN.md rules a write makes an undeclared page anon, so a write fault is an anon fault.
    pub anon: bool,
}

/// Per-page I/O latencies of the run's devices (ns, at the run's page size), for policies that
/// weigh victims by what re-fetching or writing them costs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IoCosts {
    pub swap_read_ns: f64,
    pub swap_write_ns: f64,
    pub file_read_ns: f64,
    pub file_write_ns: f64,
    /// Evicting an anon page not written since it came in: 0 with Linux's swap cache (its copy is
    /// still in swap), a swap write without one (`swap_cache = "drop"`, or zram).
    pub clean_anon_evict_ns: f64,
}

impl Default for IoCosts {
    /// All operations cost the same (unit costs), with a swap cache.
    fn default() -> Self {
        IoCosts {
            swap_read_ns: 1.0,
            swap_write_ns: 1.0,
            file_read_ns: 1.0,
            file_write_ns: 1.0,
            clean_anon_evict_ns: 0.0,
        }
    }
}

/// What a policy is built from.
pub struct PolicySetup<'a> {
    /// Page frames of memory.
    pub frames: usize,
    /// The pages: their count sizes per-page arrays; offline policies (OPT) pre-scan the
    /// accesses to come.
    pub space: PageSpace<'a>,
    /// Latencies of the swap and file devices.
    pub costs: IoCosts,
    /// The share of the pages this run sees: 1 for a real run, R for a miniature simulation of a
    /// trace sampled at rate R (`mrc::mini`). Its memory stands for `frames / R` frames, and counts
    /// of events are R times the real ones, so a policy with a constant in pages or events (Linux's
    /// inactive ratio from the memory's size, MGLRU's `MIN_LRU_BATCH`) scales it by this.
    pub sample_rate: f64,
}

impl<'a> PolicySetup<'a> {
    pub fn new(frames: usize, space: PageSpace<'a>, costs: IoCosts) -> PolicySetup<'a> {
        PolicySetup { frames, space, costs, sample_rate: 1.0 }
    }

    /// The frames of the memory this run stands for (`frames` in a real run).
    pub fn represented_frames(&self) -> f64 {
        self.frames as f64 / self.sample_rate
    }

    /// `n` events of a real run, in this run's events (at least 1).
    pub fn scaled_count(&self, n: u64) -> u64 {
        ((n as f64 * self.sample_rate).round() as u64).max(1)
    }

    pub fn num_pages(&self) -> usize {
        self.space.pages
    }
}

/// What the engine tells a policy while it picks a victim.
pub struct ReclaimCtx<'a> {
    /// Swap is full (or off): no dirty anon page can go.
    pub(crate) swap_full: bool,
    /// Pages that cannot be evicted now (dirty anon pages while swap is full, or vetoed by the swap
    /// admission) are flagged here; `None`: every page can go.
    pub(crate) unevictable: Option<&'a dyn Fn(PageId) -> bool>,
}

impl ReclaimCtx<'_> {
    /// Every page may be evicted.
    pub(crate) const ANY: ReclaimCtx<'static> = ReclaimCtx { swap_full: false, unevictable: None };

    /// Whether swap is full (or off): dirty anon pages cannot go, so policies that pick a type to
    /// scan may skip anon, as Linux's `get_scan_count` does with no swap space. Not set when the
    /// swap admission vetoes some pages: those are skipped one by one (`evictable`).
    #[inline(always)]
    pub fn swap_full(&self) -> bool {
        self.swap_full
    }

    /// Whether `page` may be reclaimed now.
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
/// `on_insert` (page not resident). The system level also reclaims ahead of need (kswapd between
/// watermarks), so `select_victim` may be called while frames are free, and a policy may be told
/// about only some of the resident pages (anon pages are withheld when there is no swap).
/// `select_victim` returns a resident page and detaches it from the policy's resident structures
/// (a ghost list may remember it); the engine then evicts it. `on_remove` is for removals the
/// policy did not choose (a process dying), and must not leave a ghost.
pub trait Policy: Sized + Send {
    /// Typed parameters, read from the run's `params` table (`deny_unknown_fields`).
    type Params: Default + Serialize + DeserializeOwned;

    fn new(setup: &PolicySetup, params: Self::Params) -> Result<Self>;

    fn on_hit(&mut self, a: &Access);

    /// Whether a hit that repeats the access just before it (same page, same op, that access a hit
    /// too) leaves the policy as it was: then the engine counts the hit without calling `on_hit`.
    /// True for policies whose hit sets a bit or moves the page to a place it is already in; false
    /// for OPT, whose hit reads the access's position.
    const REPEAT_HIT_IS_NOOP: bool = false;

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

    /// A page that enters memory with no fault mapping it: read around a swap fault, read ahead of
    /// a file fault, or a parked page put back. As `on_insert` unless the policy tells them apart
    /// (linux-2q: such a page is not young, as the kernel's are unmapped or mapped old).
    #[inline(always)]
    fn on_insert_unmapped(&mut self, a: &Access) {
        self.on_insert(a)
    }

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
                    format!("unknown policy {name:?}; known: {}, {}", NAMES.join(", "), hybrid::NAMES.join(", ")),
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
    "spo-clock" => spo_clock::SpoClock : "SPO-CLOCK (Yoon et al. 2022): read/write × file/anon CLOCK regions sized by cost-weighted ghost hits",
    "linux-2q" => linux_2q::Linux2q : "Linux active/inactive anon and file lists, swappiness, workingset refaults",
    "mglru" => mglru::Mglru : "multi-generational LRU (Linux 6.1+, Android): generations, aging walks, tiers, refault-balanced types",
    "opt" => opt::Opt : "Belady's OPT (offline; the fault-count floor)",
}

/// Whether `name` is a hybrid-memory policy (it needs `[sim.tiers]`).
pub fn needs_tiers(name: &str) -> bool {
    hybrid::NAMES.contains(&name)
}

/// `vm.swappiness` of the kernel models: 0 (file only) to 200 (anon only).
pub(crate) fn check_swappiness(v: u32) -> Result<()> {
    if v > 200 {
        return Err(Error::config("params.swappiness", format!("must be 0–200, got {v}")));
    }
    Ok(())
}

/// Parameters with their defaults filled in, as JSON (for the result's config echo).
pub fn resolved_params(name: &str, table: &toml::Table) -> Result<serde_json::Value> {
    if let Some(r) = hybrid::resolved_params(name, table) {
        return r;
    }
    struct V<'a>(&'a toml::Table);
    impl PolicyVisitor for V<'_> {
        type Output = Result<serde_json::Value>;
        fn visit<P: Policy>(self, name: &'static str) -> Self::Output {
            let p: P::Params = crate::params::parse_params(name, self.0)?;
            serde_json::to_value(&p).map_err(|e| Error::Invariant(e.to_string()))
        }
    }
    dispatch(name, V(table))?
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Drives a policy the way the engine does, over page ids only (no I/O), for unit tests.
    use super::*;
    use crate::trace::Trace;

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

    /// Replays `pages` (dense ids, all reads of file pages) with `frames` frames; returns misses and
    /// the eviction order.
    pub fn run<P: Policy>(pages: &[u32], frames: usize, params: P::Params) -> Sim<P> {
        let acc: Vec<(u32, Op, bool)> = pages.iter().map(|&p| (p, Op::Read, false)).collect();
        run_ops(&acc, frames, params)
    }

    /// Replays `(page, op, anon)` accesses the way the engine does (residency only, no I/O).
    pub fn run_ops<P: Policy>(acc: &[(u32, Op, bool)], frames: usize, params: P::Params) -> Sim<P> {
        let pages: Vec<u32> = acc.iter().map(|a| a.0).collect();
        let mut s = sim_of(&trace_of(&pages), frames, params);
        for (i, &(pg, op, anon)) in acc.iter().enumerate() {
            s.step(Access { page: pg, op, index: i, anon });
        }
        s
    }

    fn sim_of<P: Policy>(t: &Trace, frames: usize, params: P::Params) -> Sim<P> {
        let p = P::new(&PolicySetup::new(frames, t.space(), IoCosts::default()), params).unwrap();
        Sim { p, resident: vec![false; t.num_pages()], n: 0, frames, misses: 0, evicted: vec![] }
    }

    /// An online policy over pages `0..n_pages`, to be driven by `Sim::step`.
    pub fn sim<P: Policy>(n_pages: u32, frames: usize, params: P::Params) -> Sim<P> {
        sim_of(&trace_of(&(0..n_pages).collect::<Vec<_>>()), frames, params)
    }

    impl<P: Policy> Sim<P> {
        /// One access.
        pub fn step(&mut self, a: Access) {
            let pg = a.page;
            if self.resident[pg as usize] {
                self.p.on_hit(&a);
                return;
            }
            self.misses += 1;
            self.p.on_miss(&a);
            let ctx = ReclaimCtx::ANY;
            let full = self.n >= self.frames;
            for round in 0..2 {
                if (round == 0 && !full) || (round == 1 && !self.p.needs_room()) {
                    continue;
                }
                let v = self.p.select_victim(&ctx).expect("a victim");
                assert!(self.resident[v as usize], "victim {v} not resident");
                self.resident[v as usize] = false;
                self.n -= 1;
                self.evicted.push(v);
            }
            self.p.on_insert(&a);
            self.resident[pg as usize] = true;
            self.n += 1;
        }
    }
}
