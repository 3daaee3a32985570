//! The page engine: demand paging over a fixed number of DRAM frames, with the fault semantics of
//! DESIGN.md. The engine owns every page's state and the swap area; the policy only orders victims.
//! The replay loop is monomorphised per policy (see `policy::dispatch`): per access it reads one
//! packed word, one state byte, and calls the policy inline — no allocation, no hashing.

use crate::config::SimConfig;
use crate::device::Catalog;
use crate::error::{Error, Result};
use crate::meters::{Meters, ResolvedConfig, ResolvedTiers, RunResult};
use crate::policy::hybrid::{self, Stacked, TierPolicy, TierPolicyVisitor, TierSetup};
use crate::policy::{self, Access, Policy, PolicySetup, PolicyVisitor, ReclaimCtx};
use crate::trace::{Op, PageId, PageSpace, Trace, TraceStats};
use std::time::Instant;

pub(crate) mod pages;
mod tiered;

use pages::{becomes_anon, FaultIo, Pages};
pub(crate) use pages::{EvictIo, ANON};

/// The flat page engine: one pool of frames. Page-trace replay drives it through `replay`; the
/// system level (`crate::system`) drives it access by access, reclaims ahead of demand like
/// kswapd, and releases the pages of processes that die.
pub(crate) struct Engine<P> {
    pub policy: P,
    direct_read: bool,
    pub pages: Pages,
    pub resident: usize,
    pub frames: usize,
    /// Swap-in read-around: a swap fault also reads the other pages of its aligned cluster of
    /// `2^page_cluster` slots into free frames (Linux `vm.page-cluster`); 0 = off.
    page_cluster: u32,
}

impl<P: Policy> Engine<P> {
    pub fn new(policy: P, space: PageSpace, frames: usize, swap_cap: u64, direct_read: bool) -> Self {
        Engine { policy, direct_read, pages: Pages::new(space, swap_cap), resident: 0, frames, page_cluster: 0 }
    }

    /// Places swapped pages in numbered slots and reads clusters of `2^order` around each swap fault.
    pub fn with_read_around(mut self, order: u32) -> Self {
        self.page_cluster = order;
        self.pages.slots = Some(pages::Slots::new(self.pages.flags.len(), self.pages.swap_cap));
        self
    }

    /// Swap is zram: swapped pages take `1 / ratio` of a frame each from the same DRAM.
    pub fn with_zram(mut self, ratio: Option<f64>) -> Self {
        self.pages.zram_ratio = ratio.unwrap_or(0.0);
        self
    }

    /// Frames in use: resident pages and the zram area.
    #[inline]
    pub fn used(&self) -> usize {
        self.resident + self.pages.pool_frames()
    }

    /// Reclaims one page if the policy finds one; `None` when nothing can be reclaimed.
    pub fn try_reclaim(&mut self, index: usize) -> Result<Option<EvictIo>> {
        let p = &mut self.pages;
        let victim = if p.swap_full() {
            p.m.reclaims_while_swap_full += 1;
            let flags = &p.flags;
            let pinned = |v: PageId| pages::pinned(flags, v);
            self.policy.select_victim(&ReclaimCtx { unevictable: Some(&pinned) })
        } else {
            self.policy.select_victim(&ReclaimCtx { unevictable: None })
        };
        match victim {
            Some(v) => {
                let io = self.pages.evict(v, index)?;
                self.resident -= 1;
                Ok(Some(io))
            }
            None => Ok(None),
        }
    }

    fn reclaim_one(&mut self, index: usize) -> Result<()> {
        match self.try_reclaim(index)? {
            Some(_) => Ok(()),
            None => Err(self.pages.out_of_memory(index, self.resident)),
        }
    }

    /// A page of a process that died leaves memory and swap with no I/O.
    pub fn release(&mut self, page: PageId, kind: u8) {
        if self.pages.flags[page as usize] & pages::RESIDENT != 0 {
            self.policy.on_remove(page);
            self.resident -= 1;
        }
        self.pages.forget(page as usize, kind);
    }

    /// A fault: the page comes in (after reclaim if memory is full). Returns the read it needed.
    /// Always inlined: once the system level called it too, LLVM stopped inlining it into the
    /// replay loop and CLOCK's hit path lost a third of its speed (measured; BENCHMARKS.md).
    #[inline(always)]
    fn fault(&mut self, a: &Access) -> Result<FaultIo> {
        let io = self.pages.classify(a, self.direct_read)?;
        if io == FaultIo::Mapped {
            // Direct Read mapped the NVM page in place: no frame, and the policy never sees it.
            return Ok(io);
        }
        self.policy.on_miss(a);
        if self.used() >= self.frames {
            self.make_room(a.index)?;
        }
        if self.policy.needs_room() {
            self.reclaim_one(a.index)?;
        }
        self.pages.admit(a);
        self.resident += 1;
        self.policy.on_insert(a);
        Ok(io)
    }

    /// Reclaims until a frame is free. Without zram that is one eviction; with zram a swap-out
    /// frees only 1 − 1/ratio of a frame, so it may take more (each takes a page out of memory, so
    /// this ends).
    fn make_room(&mut self, index: usize) -> Result<()> {
        loop {
            self.reclaim_one(index)?;
            if self.used() < self.frames {
                return Ok(());
            }
        }
    }

    /// Brings the swapped neighbours of `a.page`'s slot into free frames as clean swap-cache pages
    /// (their slots stay valid). Read-around never reclaims: it uses frames that are free.
    #[cold]
    fn read_around(&mut self, a: &Access) {
        let Some(slots) = self.pages.slots.take() else { return };
        for q in slots.neighbours(a.page, self.page_cluster) {
            if self.used() >= self.frames {
                break;
            }
            let f = self.pages.flags[q as usize];
            if f & (pages::RESIDENT | pages::NVM_MAPPED) != 0 || f & pages::SWAP_VALID == 0 {
                continue;
            }
            self.pages.flags[q as usize] = f | pages::RESIDENT | pages::SEEN;
            self.pages.m.swap_readahead += 1;
            self.resident += 1;
            let qa = Access { page: q, op: Op::Read, index: a.index, anon: true };
            self.policy.on_miss(&qa);
            self.policy.on_insert(&qa);
        }
        self.pages.slots = Some(slots);
    }

    /// File readahead: the pages of `range` not in memory are read in, clean, into free frames
    /// (never reclaiming for them), as the kernel reads ahead of a sequential file fault. Returns
    /// how many were read.
    pub fn prefetch_file(&mut self, range: std::ops::Range<PageId>, index: usize) -> u64 {
        let mut n = 0;
        for q in range {
            if self.used() >= self.frames {
                break;
            }
            let f = self.pages.flags[q as usize];
            if f & (pages::RESIDENT | pages::ANON) != 0 {
                continue;
            }
            self.pages.flags[q as usize] = f | pages::RESIDENT | pages::SEEN;
            self.pages.m.file_readahead += 1;
            self.resident += 1;
            n += 1;
            let qa = Access { page: q, op: Op::Read, index, anon: false };
            self.policy.on_miss(&qa);
            self.policy.on_insert(&qa);
        }
        n
    }

    /// One access: a hit, a read of a page mapped in place, or a fault.
    #[inline(always)]
    pub fn access(&mut self, page: PageId, op: Op, index: usize) -> Result<()> {
        let f = self.pages.flags[page as usize];
        let a = Access { page, op, index, anon: becomes_anon(f, op) };
        if f & pages::RESIDENT != 0 {
            self.pages.m.hits += 1;
            if a.op.is_write() {
                self.pages.write_touch(a.page as usize);
            }
            self.policy.on_hit(&a);
            Ok(())
        } else if f & pages::NVM_MAPPED != 0 && !a.op.is_write() {
            // A read of a page mapped in place: served from NVM, no fault.
            self.pages.m.hits += 1;
            self.pages.m.dr_hits += 1;
            Ok(())
        } else {
            // Read-around is the system level's (page traces keep `page_cluster` 0).
            if self.fault(&a)? == FaultIo::SwapRead && self.page_cluster > 0 {
                self.read_around(&a);
            }
            Ok(())
        }
    }

    /// The page-trace loop: `access` spelled out, hit path first, nothing returned from a hit.
    /// Calling `access` here instead measured 274 against 352 M accesses/s on CLOCK's hit path.
    fn replay(&mut self, trace: &Trace) -> Result<()> {
        for (index, &w) in trace.accesses.iter().enumerate() {
            let op = Op::from_bits(w);
            let f = self.pages.flags[(w >> 2) as usize];
            let a = Access { page: w >> 2, op, index, anon: becomes_anon(f, op) };
            if f & pages::RESIDENT != 0 {
                self.pages.m.hits += 1;
                if a.op.is_write() {
                    self.pages.write_touch(a.page as usize);
                }
                self.policy.on_hit(&a);
            } else if f & pages::NVM_MAPPED != 0 && !a.op.is_write() {
                self.pages.m.hits += 1;
                self.pages.m.dr_hits += 1;
            } else {
                self.fault(&a)?;
            }
        }
        self.pages.m.accesses = trace.len() as u64;
        Ok(())
    }
}

struct Run<'a> {
    trace: &'a Trace,
    costs: policy::IoCosts,
    direct_read: bool,
    frames: usize,
    swap_cap: u64,
    zram: Option<f64>,
    params: &'a toml::Table,
}

impl PolicyVisitor for Run<'_> {
    type Output = Result<Meters>;
    fn visit<P: Policy>(self, name: &'static str) -> Result<Meters> {
        let params: P::Params = policy::parse_params(name, self.params)?;
        let policy =
            P::new(&PolicySetup { frames: self.frames, space: self.trace.space(), costs: self.costs }, params)?;
        let mut e =
            Engine::new(policy, self.trace.space(), self.frames, self.swap_cap, self.direct_read).with_zram(self.zram);
        e.replay(self.trace)?;
        Ok(e.pages.m)
    }
}

/// A tiered run of a hybrid policy, or of a flat one through `Stacked`.
struct TieredRun<'a> {
    trace: &'a Trace,
    costs: policy::IoCosts,
    dram: usize,
    pcm: usize,
    swap_cap: u64,
    params: &'a toml::Table,
    tier_costs: Option<tiered::Costs>,
}

impl TieredRun<'_> {
    fn go<T: TierPolicy>(mut self, params: T::Params) -> Result<Meters> {
        let policy = T::new(
            &TierSetup { dram_frames: self.dram, pcm_frames: self.pcm, space: self.trace.space(), costs: self.costs },
            params,
        )?;
        let costs = self.tier_costs.take().ok_or_else(|| Error::Invariant("tier costs used twice".into()))?;
        let mut e = tiered::Tiered::new(policy, self.trace, self.dram, self.pcm, self.swap_cap, costs);
        e.replay(self.trace)?;
        Ok(e.into_meters())
    }
}

impl TierPolicyVisitor for TieredRun<'_> {
    type Output = Result<Meters>;
    fn visit<T: TierPolicy>(self, name: &'static str) -> Result<Meters> {
        let params: T::Params = policy::parse_params(name, self.params)?;
        self.go::<T>(params)
    }
}

impl PolicyVisitor for TieredRun<'_> {
    type Output = Result<Meters>;
    fn visit<P: Policy>(self, name: &'static str) -> Result<Meters> {
        let params: P::Params = policy::parse_params(name, self.params)?;
        self.go::<Stacked<P>>(params)
    }
}

/// Replays `trace` under `cfg`. `stats` are the trace's statistics (computed once per trace and
/// shared by every run of a grid).
pub fn simulate(trace: &Trace, stats: &TraceStats, cfg: &SimConfig, catalog: &Catalog) -> Result<RunResult> {
    cfg.validate(catalog)?;
    let swap = catalog.get(&cfg.swap, "swap")?.clone();
    let storage = catalog.get(&cfg.storage, "storage")?.clone();
    let footprint = trace.num_pages() as u64;
    let frames = cfg.memory.to_pages(cfg.page_size, footprint);
    if frames == 0 {
        return Err(Error::config("memory", format!("{} is less than one {}-byte page", cfg.memory, cfg.page_size)));
    }
    if frames > u32::MAX as u64 {
        return Err(Error::config("memory", format!("{frames} frames is more than mobmem models")));
    }
    let swap_pages = cfg.swap_size.map(|s| s.to_pages(cfg.page_size, footprint));
    let params = policy::resolved_params(&cfg.policy, &cfg.params)?;
    // Device figures are per 4 KiB (as in `Meters::finish`).
    let scale = cfg.page_size as f64 / 4096.0;
    let costs = policy::IoCosts {
        swap_read_ns: swap.read_ns * scale,
        swap_write_ns: swap.write_ns * scale,
        file_read_ns: storage.read_ns * scale,
        file_write_ns: storage.write_ns * scale,
    };
    let swap_cap = swap_pages.unwrap_or(u64::MAX);
    let tiers = match &cfg.tiers {
        None => None,
        Some(t) => {
            let (dram, pcm) = t.split(frames);
            let models = (catalog.tier(&t.dram, "tiers.dram")?.clone(), catalog.tier(&t.pcm, "tiers.pcm")?.clone());
            Some((t, dram, pcm, models))
        }
    };
    let start = Instant::now();
    let mut m = if let Some((t, dram, pcm, (dm, pm))) = &tiers {
        if let Some(procs) = &trace.procs {
            procs.check_covers(trace, "the trace's process table")?;
        }
        let run = |c| TieredRun {
            trace,
            costs,
            dram: *dram as usize,
            pcm: *pcm as usize,
            swap_cap,
            params: &cfg.params,
            tier_costs: Some(c),
        };
        let c = || tiered::Costs::new(dm, pm, cfg.page_size / t.access_bytes, costs);
        match hybrid::dispatch(&cfg.policy, run(c())) {
            Some(r) => r?,
            None => policy::dispatch(&cfg.policy, run(c()))??,
        }
    } else {
        policy::dispatch(
            &cfg.policy,
            Run {
                trace,
                costs,
                direct_read: cfg.direct_read,
                frames: frames as usize,
                swap_cap,
                zram: swap.compression_ratio,
                params: &cfg.params,
            },
        )??
    };
    let wall = start.elapsed().as_secs_f64();
    m.finish(&swap, &storage, cfg.page_size, cfg.cpu_ns_per_access);
    if let Some((t, _, _, (dm, pm))) = &tiers {
        tiered::finish_energy(&mut m, dm, pm, t.access_bytes, cfg.page_size);
    }
    let swap_energy = match &swap.energy_model {
        Some(name) => {
            // The area's size scales DRAM refresh: the configured size, else what the run used.
            let swap_bytes = swap_pages.unwrap_or(m.peak_swap_pages) * cfg.page_size;
            let t_total = cfg.energy_duration_s.unwrap_or(m.sim_time_ns * 1e-9);
            Some(catalog.model(name)?.evaluate(name, m.swap_ins, m.swap_outs, cfg.page_size, t_total, swap_bytes))
        }
        None => None,
    };
    Ok(RunResult {
        swap_energy,
        config: ResolvedConfig {
            policy: cfg.policy.clone(),
            params,
            memory: cfg.memory.to_string(),
            frames,
            page_size: cfg.page_size,
            swap,
            storage,
            swap_pages,
            cpu_ns_per_access: cfg.cpu_ns_per_access,
            direct_read: cfg.direct_read,
            energy_duration_s: cfg.energy_duration_s,
            tiers: tiers.map(|(t, dram, pcm, (dm, pm))| ResolvedTiers {
                pcm_share: t.pcm_share,
                dram_frames: dram,
                pcm_frames: pcm,
                access_bytes: t.access_bytes,
                dram: dm,
                pcm: pm,
            }),
        },
        trace: stats.clone(),
        accesses_per_s: if wall > 0.0 { m.accesses as f64 / wall } else { 0.0 },
        meters: m,
        wall_time_s: wall,
    })
}

/// Runs every configuration of a grid on `threads` threads (0 = all cores); results come back in
/// the order of `configs`, whatever order they finished in.
pub fn simulate_grid(
    trace: &Trace,
    stats: &TraceStats,
    configs: &[SimConfig],
    catalog: &Catalog,
    threads: usize,
) -> Vec<Result<RunResult>> {
    parallel(configs.len(), threads, |i| simulate(trace, stats, &configs[i], catalog))
}

/// Computes `f(0..n)` on `threads` threads (0 = all cores), results in index order.
pub(crate) fn parallel<T: Send>(n: usize, threads: usize, f: impl Fn(usize) -> Result<T> + Sync) -> Vec<Result<T>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let threads =
        if threads == 0 { std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) } else { threads }
            .min(n.max(1));
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<Result<T>>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let r = f(i);
                out.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    out.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(Error::Invariant("a parallel run did not finish".into()))))
        .collect()
}
