//! Building an engine: both ways in fill one `Setup` from the knobs they share, resolved once
//! (`plan::Common`, `Setup::with_plan`) — a page-level run from its `plan::Plan` (`crate::replay`),
//! a phone from its `plan::PhonePlan` (`system::sim::setup`) — and `Engine::build` turns it into an
//! engine. What a swap
//! backend means for the engine is decided here, once.

use super::pages::Pages;
use super::{Engine, SwapSemantics, WritebackSchedule};
use crate::plan::Common;
use crate::policy::Policy;
use crate::swap::backend::SwapEffects;
use crate::swap::backend::Ticks;
use crate::swap::backend::WritebackRounds;
use crate::swap::Scope;
use crate::swap::{Owners, SwapAdmission};
use crate::trace::PageSpace;

/// What an engine is made of besides its policy and its pages.
pub(crate) struct Setup {
    pub frames: usize,
    /// Swap slots; `u64::MAX`: unlimited.
    pub swap_cap: u64,
    /// DR. Swap's Direct Read: read faults on swapped pages map the NVM page in place.
    pub direct_read: bool,
    pub semantics: SwapSemantics,
    /// Frames one reclaim frees when a fault finds memory full (at least 1).
    pub reclaim_batch: u64,
    /// zram's pages per frame, when its pool takes frames of memory.
    pub zram: Option<f64>,
    /// zram compressing by hotness class: pages per frame of each class (`SwapBackend::classes`).
    pub zram_classes: Option<[f64; 3]>,
    /// Swap-in read-around: clusters of `2^page_cluster` slots (0: off).
    pub page_cluster: u32,
    /// zram writeback rounds: every so many ticks, at most `limit` pages each; `by_access`: the
    /// ticks are accesses and the engine runs the rounds (page traces), else the caller does.
    pub writeback: Option<WritebackRounds>,
    /// A swap admission other than `all`, and the owners it sees.
    pub admission: Option<(Box<dyn SwapAdmission>, Owners)>,
    /// Swap-entry lifetimes tallied at these marks (ticks the caller sets with `set_now`).
    pub lifetimes: Option<Vec<u64>>,
    /// Page traces with processes: the OOM killer takes a process when nothing can be reclaimed.
    pub oom_kill: bool,
    /// Count the swap-outs of each owner's pages (the admission's owners).
    pub owner_swap_outs: bool,
}

impl Setup {
    /// `frames` frames and `swap_cap` slots on `backend` (`None`: swap off), as Linux runs them:
    /// zram's pool takes frames of memory, and a synchronous-I/O device (zram) frees a swap-in's
    /// copy where a block device keeps it in the swap cache. The rest is off.
    pub fn new(frames: usize, swap_cap: u64, effects: &SwapEffects) -> Setup {
        let synchronous = effects.synchronous_io;
        Setup {
            frames,
            swap_cap,
            direct_read: false,
            semantics: SwapSemantics { swap_cache: !synchronous, ..SwapSemantics::LINUX },
            reclaim_batch: 1,
            zram: effects.compression_ratio,
            zram_classes: effects.classes.as_ref().map(|c| c.ratio),
            page_cluster: 0,
            writeback: None,
            admission: None,
            lifetimes: None,
            oom_kill: false,
            owner_swap_outs: false,
        }
    }
}

impl Setup {
    /// `frames` frames and `swap_cap` slots with the resolved shared knobs `plan`: the swap
    /// backend, what a swap-in keeps, the read-around, writeback's rounds in `ticks` and Direct
    /// Read. Both ways in start here.
    pub fn with_plan(frames: usize, swap_cap: u64, plan: &Common, page_size: u64, ticks: Ticks) -> Setup {
        let swap = &plan.swap;
        let mut s = Setup::new(frames, swap_cap, &swap.effects);
        s.semantics = swap.semantics;
        s.page_cluster = swap.page_cluster;
        s.writeback = swap.writeback_rounds(page_size, ticks);
        s.direct_read = plan.given.direct_read;
        if !plan.given.zram_in_memory {
            // Outside memory (a memory cgroup's limit), zram's pool takes no frames; copies
            // compressed by class still keep their class (their reads are priced by it).
            s.zram = None;
        }
        s
    }
}

impl<P: Policy> Engine<P> {
    /// The engine of `setup` over `space`, ordered by `policy`.
    pub fn build(policy: P, space: PageSpace, setup: Setup) -> Self {
        let mut e = Engine::new(policy, space, setup.frames, setup.swap_cap, setup.direct_read)
            .with_zram(setup.zram)
            .with_swap_semantics(setup.semantics)
            .with_reclaim_batch(setup.reclaim_batch);
        if let Some(ratio) = setup.zram_classes {
            // A backend compressing by class has no writeback (it takes no backing device).
            debug_assert!(setup.writeback.is_none());
            e.pages.keep_pool_classes(ratio);
        }
        if setup.page_cluster > 0 {
            e = e.with_read_around(setup.page_cluster);
        }
        if let Some(w) = setup.writeback {
            e = e.with_writeback(w);
        }
        if let Some((admission, owners)) = setup.admission {
            e = e.with_admission(admission, owners);
        }
        if let Some(marks) = setup.lifetimes {
            e = e.with_lifetimes(&marks);
        }
        if setup.oom_kill {
            e = e.with_oom_kill();
        }
        if setup.owner_swap_outs {
            e = e.with_owner_swap_outs();
        }
        e
    }

    pub fn new(policy: P, space: PageSpace, frames: usize, swap_cap: u64, direct_read: bool) -> Self {
        Engine {
            policy,
            direct_read,
            pages: Pages::new(space, swap_cap),
            resident: 0,
            frames,
            page_cluster: 0,
            room_until: frames,
            admission: Box::new(crate::swap::admission::all::All),
            scope: Scope::All,
            owners: Owners::default(),
            owner_swap_outs: Vec::new(),
            wb: WritebackSchedule::OFF,
            wb_due_access: u64::MAX,
            parked: Vec::new(),
            parked_list: Vec::new(),
            parked_n: 0,
            vetoed: Vec::new(),
            oom_kill: false,
        }
    }

    /// zram writeback: at each round, copies left in zram unread since the last marking are
    /// written back to the backing device, at most `limit` a round (Android's `writeback_limit`)
    /// and `cap` on it in all, then every copy is marked idle. With `by_access` the ticks are
    /// accesses and the engine runs the rounds itself (page traces); otherwise the caller runs them
    /// with `writeback_until`.
    pub fn with_writeback(mut self, w: WritebackRounds) -> Self {
        self.pages.keep_idle_marks();
        let every = w.every.max(1);
        self.wb = WritebackSchedule { every, next: w.first, mark_at: w.mark_at, limit: w.limit, cap: w.cap };
        if w.by_access {
            self.wb_due_access = self.wb.next.min(self.wb.mark_at);
        }
        self
    }

    /// Records swap-entry lifetimes in the ticks the caller gives with `set_now`, tallied at
    /// `marks` (ticks, ascending): how many lifetimes were at most each.
    pub fn with_lifetimes(mut self, marks: &[u64]) -> Self {
        self.pages.keep_lifetimes(marks);
        self
    }

    /// Consults `admission` for the dirty anon pages a policy offers; `owners` is what it may see
    /// (the caller keeps the processes' states current through `change_owners`).
    pub fn with_admission(mut self, admission: Box<dyn SwapAdmission>, owners: Owners) -> Self {
        self.scope = admission.scope();
        if self.scope == Scope::PerPage {
            self.parked = vec![false; self.pages.len()];
        }
        self.admission = admission;
        self.owners = owners;
        self
    }

    /// Counts the swap-outs of each owner's pages (`owner_swap_outs`); the owners are those given
    /// with the admission, before or after this.
    pub fn with_owner_swap_outs(mut self) -> Self {
        self.owner_swap_outs = vec![0; self.owners.procs.len()];
        self.pages.keep_swap_journal();
        self
    }

    /// Places swapped pages in numbered slots and reads clusters of `2^order` around each swap fault.
    pub fn with_read_around(mut self, order: u32) -> Self {
        self.page_cluster = order;
        self.pages.number_slots();
        self
    }

    /// What a swap-in keeps and what a first touch of an anon page reads (Linux's by default).
    pub fn with_swap_semantics(mut self, semantics: SwapSemantics) -> Self {
        self.pages.set_semantics(semantics);
        self
    }

    /// A fault that finds memory full reclaims `n` pages (at least the room it needs).
    pub fn with_reclaim_batch(mut self, n: u64) -> Self {
        let extra = usize::try_from(n.max(1) - 1).unwrap_or(usize::MAX);
        self.room_until = self.frames.saturating_sub(extra);
        self
    }

    /// Swap is zram: swapped pages take `1 / ratio` of a frame each from the same DRAM.
    pub fn with_zram(mut self, ratio: Option<f64>) -> Self {
        self.pages.set_zram_ratio(ratio);
        self
    }
}
