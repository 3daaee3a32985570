//! Policies for main memory made of two tiers, DRAM and PCM. The tiered engine owns residency and
//! which tier each page is in; a hybrid policy decides where a faulted page goes, which hits
//! migrate, which DRAM page moves down to PCM, and which page leaves memory.
//!
//! Two kinds of policy run on tiers:
//! - the tier-aware ones registered below (`fg-aware`, `clock-dwf`), one file each;
//! - every flat policy (`lru`, `2q`, `clock`, …) through `Stacked`: the flat policy decides which
//!   pages stay in memory (all D + P frames), recency decides where — new pages and pages hit in
//!   PCM go to DRAM, DRAM's least recently used page moves to PCM. With LRU this is one LRU stack
//!   whose top D pages are in DRAM.

pub mod clock_dwf;
pub mod fg_aware;
mod stacked;

pub use stacked::Stacked;

use super::{Access, IoCosts, ReclaimCtx};
use crate::error::{Error, Result};
use crate::trace::{PageId, PageSpace};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// A memory tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Tier {
    Dram = 0,
    Pcm = 1,
}

impl Tier {
    #[inline(always)]
    pub fn other(self) -> Tier {
        match self {
            Tier::Dram => Tier::Pcm,
            Tier::Pcm => Tier::Dram,
        }
    }
    #[inline(always)]
    pub fn idx(self) -> usize {
        self as usize
    }
    #[inline(always)]
    pub fn from_idx(i: u8) -> Tier {
        if i == 0 {
            Tier::Dram
        } else {
            Tier::Pcm
        }
    }
}

/// One access as a hybrid policy sees it.
#[derive(Debug, Clone, Copy)]
pub struct TierAccess {
    pub a: Access,
    /// The page's process is critical now (oom_score_adj ≤ 0: system or foreground).
    pub critical: bool,
    /// The page is dirty once this access is done (modified since it was read in).
    pub dirty: bool,
}

/// How a page entered a tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// A fault brought it in (the access is its own).
    New,
    /// Migrated from PCM to DRAM.
    Promoted,
    /// Migrated from DRAM to PCM.
    Demoted,
}

/// What a hybrid policy is built from.
pub struct TierSetup<'a> {
    pub dram_frames: usize,
    pub pcm_frames: usize,
    pub space: PageSpace<'a>,
    pub costs: IoCosts,
    /// `[sim.tiers] promote_on_hit`, for flat policies on tiers (`Stacked`).
    pub promote_on_hit: bool,
}

impl TierSetup<'_> {
    pub fn num_pages(&self) -> usize {
        self.space.pages
    }
    pub fn frames(&self, t: Tier) -> usize {
        match t {
            Tier::Dram => self.dram_frames,
            Tier::Pcm => self.pcm_frames,
        }
    }
}

/// A policy over a DRAM and a PCM tier.
///
/// Contract, per access: a hit calls `on_hit`; if it returns true the page migrates to the other
/// tier (the policy has already detached it from its tier), the engine makes room there, then
/// calls `on_insert(.., Promoted | Demoted)`. A fault calls `place`, then makes room in that tier
/// (the other one if it has no frames): while the tier is full, if it is DRAM and PCM has a free
/// frame `demote_victim` names a DRAM page to move down (then `on_insert(.., Demoted)`), otherwise
/// `evict_victim` names a page to send to storage; then `needs_room`, then `on_insert(.., New)`.
/// Victims are resident, in the tier asked for (`demote_victim`: DRAM), and detached by the call.
/// A policy never asks to migrate into a tier with no frames.
pub trait TierPolicy: Sized + Send {
    type Params: Default + Serialize + DeserializeOwned;

    fn new(setup: &TierSetup, params: Self::Params) -> Result<Self>;

    /// The tier a faulted page should enter.
    fn place(&mut self, a: &TierAccess) -> Tier;

    /// A hit on `a.a.page`, which is in `tier`. True: migrate it to the other tier.
    fn on_hit(&mut self, a: &TierAccess, tier: Tier) -> bool;

    /// After making room for a fault: whether one more page should leave memory first.
    #[inline(always)]
    fn needs_room(&self) -> bool {
        false
    }

    /// DRAM is full and PCM has a free frame: the DRAM page to move to PCM.
    fn demote_victim(&mut self) -> Option<PageId>;

    /// A page to evict to storage (any tier); `want` is the tier that needs the frame.
    fn evict_victim(&mut self, want: Tier, ctx: &ReclaimCtx) -> Option<PageId>;

    /// `page` entered `tier`; `a` is the access being served (not `page`'s unless `New`).
    fn on_insert(&mut self, page: PageId, tier: Tier, entry: Entry, a: &TierAccess);
}

/// The eviction search of the tier-aware policies: the victim leaves from PCM whenever PCM holds
/// pages (DRAM's pages are the ones worth keeping), else from DRAM; the other tier if none may go.
pub(crate) fn pcm_first(pcm_len: usize, mut find: impl FnMut(Tier) -> Option<PageId>) -> Option<PageId> {
    let t = if pcm_len > 0 { Tier::Pcm } else { Tier::Dram };
    find(t).or_else(|| find(t.other()))
}

/// Something to do with a concrete hybrid policy type (a monomorphised tiered replay).
pub trait TierPolicyVisitor {
    type Output;
    fn visit<P: TierPolicy>(self, name: &'static str) -> Self::Output;
}

macro_rules! tier_policies {
    ($( $name:literal => $ty:ty : $desc:literal ),* $(,)?) => {
        /// Names of the tier-aware policies (they need `[sim.tiers]`).
        pub const NAMES: &[&str] = &[$($name),*];
        pub const DESCRIPTIONS: &[(&str, &str)] = &[$(($name, $desc)),*];

        /// Calls `v` with the hybrid policy registered under `name`; `None` if it is not one.
        pub fn dispatch<V: TierPolicyVisitor>(name: &str, v: V) -> Option<V::Output> {
            match name {
                $($name => Some(v.visit::<$ty>($name)),)*
                _ => None,
            }
        }
    };
}

tier_policies! {
    "fg-aware" => fg_aware::FgAware : "foreground-aware hybrid buffer cache (Oh et al. 2016): critical processes' pages in DRAM, others in PCM, reference counts, dirty-hot migration",
    "clock-dwf" => clock_dwf::ClockDwf : "CLOCK-DWF (Lee, Bahn & Noh 2014): writes served in DRAM, DRAM clock by dirty bits and write frequency, PCM clock",
}

/// Parameters of a hybrid policy with defaults filled in, or `None` if `name` is not one.
pub fn resolved_params(name: &str, table: &toml::Table) -> Option<Result<serde_json::Value>> {
    struct V<'a>(&'a toml::Table);
    impl TierPolicyVisitor for V<'_> {
        type Output = Result<serde_json::Value>;
        fn visit<P: TierPolicy>(self, name: &'static str) -> Self::Output {
            let p: P::Params = crate::params::parse_params(name, self.0)?;
            serde_json::to_value(&p).map_err(|e| Error::Invariant(e.to_string()))
        }
    }
    dispatch(name, V(table))
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Drives a hybrid policy the way the tiered engine does, over page ids only, checking the
    //! contract (victims resident and in the right tier, tiers within capacity) at every step.
    use super::*;
    use crate::trace::Op;

    pub struct HSim<P: TierPolicy> {
        pub p: P,
        /// Tier of each page, or None when not resident.
        pub tier: Vec<Option<Tier>>,
        pub cap: [usize; 2],
        pub used: [usize; 2],
        pub misses: u64,
        pub evicted: Vec<PageId>,
        pub demoted: Vec<PageId>,
        pub promoted: Vec<PageId>,
        pub dirty: Vec<bool>,
        index: usize,
    }

    pub fn hsim<P: TierPolicy>(n_pages: u32, dram: usize, pcm: usize, params: P::Params) -> HSim<P> {
        hsim_with(n_pages, dram, pcm, params, true)
    }

    /// `hsim` with `[sim.tiers] promote_on_hit` as given.
    pub fn hsim_with<P: TierPolicy>(
        n_pages: u32,
        dram: usize,
        pcm: usize,
        params: P::Params,
        promote: bool,
    ) -> HSim<P> {
        let t = super::super::testutil::trace_of(&(0..n_pages).collect::<Vec<_>>());
        let p = P::new(
            &TierSetup {
                dram_frames: dram,
                pcm_frames: pcm,
                space: t.space(),
                costs: IoCosts::default(),
                promote_on_hit: promote,
            },
            params,
        )
        .unwrap();
        HSim {
            p,
            tier: vec![None; n_pages as usize],
            cap: [dram, pcm],
            used: [0, 0],
            misses: 0,
            evicted: vec![],
            demoted: vec![],
            promoted: vec![],
            dirty: vec![false; n_pages as usize],
            index: 0,
        }
    }

    impl<P: TierPolicy> HSim<P> {
        /// One access by a critical (`crit`) or non-critical process.
        pub fn step(&mut self, page: u32, op: Op, crit: bool) {
            let a = Access { page, op, index: self.index, anon: false };
            self.index += 1;
            let pg = page as usize;
            if op.is_write() {
                self.dirty[pg] = true;
            }
            let ta = TierAccess { a, critical: crit, dirty: self.dirty[pg] };
            if let Some(t) = self.tier[pg] {
                if self.p.on_hit(&ta, t) {
                    let to = t.other();
                    assert!(self.cap[to.idx()] > 0, "migration into a tier with no frames");
                    self.used[t.idx()] -= 1;
                    self.tier[pg] = None;
                    self.make_room(to, &ta);
                    self.enter(page, to, if to == Tier::Dram { Entry::Promoted } else { Entry::Demoted }, &ta);
                    if to == Tier::Dram {
                        self.promoted.push(page);
                    }
                }
            } else {
                self.misses += 1;
                let mut t = self.p.place(&ta);
                if self.cap[t.idx()] == 0 {
                    t = t.other();
                }
                self.make_room(t, &ta);
                if self.p.needs_room() {
                    self.evict(t);
                }
                self.enter(page, t, Entry::New, &ta);
            }
            assert!(self.used[0] <= self.cap[0] && self.used[1] <= self.cap[1], "over capacity: {:?}", self.used);
            let counted = [Tier::Dram, Tier::Pcm].map(|t| self.tier.iter().filter(|&&x| x == Some(t)).count());
            assert_eq!(counted, self.used, "tier counts drifted");
        }

        fn enter(&mut self, page: u32, t: Tier, e: Entry, ta: &TierAccess) {
            assert!(self.tier[page as usize].is_none(), "page {page} in two tiers");
            self.tier[page as usize] = Some(t);
            self.used[t.idx()] += 1;
            self.p.on_insert(page, t, e, ta);
        }

        fn evict(&mut self, want: Tier) {
            let v = self.p.evict_victim(want, &ReclaimCtx::ANY).expect("an eviction victim");
            let t = self.tier[v as usize].expect("victim resident");
            self.tier[v as usize] = None;
            self.dirty[v as usize] = false;
            self.used[t.idx()] -= 1;
            self.evicted.push(v);
        }

        fn make_room(&mut self, t: Tier, ta: &TierAccess) {
            while self.used[t.idx()] >= self.cap[t.idx()] {
                if t == Tier::Dram && self.used[1] < self.cap[1] {
                    let v = self.p.demote_victim().expect("a demotion victim");
                    assert_eq!(self.tier[v as usize], Some(Tier::Dram), "demoted page {v} not in DRAM");
                    self.tier[v as usize] = None;
                    self.used[0] -= 1;
                    self.demoted.push(v);
                    self.enter(v, Tier::Pcm, Entry::Demoted, ta);
                } else {
                    self.evict(t);
                }
            }
        }
    }
}
