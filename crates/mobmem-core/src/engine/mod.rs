//! The page engine: demand paging over a fixed number of DRAM frames, with the fault semantics of
//! DESIGN.md. The engine owns every page's state and the swap area; the policy only orders victims.
//! The replay loop is monomorphised per policy (see `policy::dispatch`): per access it reads one
//! packed word, one state byte, and calls the policy inline — no allocation, no hashing.

use crate::config::SimConfig;
use crate::device::Catalog;
use crate::error::{Error, Result};
use crate::meters::{Meters, ResolvedConfig, RunResult};
use crate::policy::{self, Access, Policy, PolicySetup, PolicyVisitor, ReclaimCtx};
use crate::trace::{Kind, Op, PageId, Trace, TraceStats};
use std::time::Instant;

/// Page state bits.
const RESIDENT: u8 = 1;
/// Touched at least once (a later fault is not cold).
const SEEN: u8 = 2;
/// Swap-backed: written at some point (or declared anon).
const ANON: u8 = 4;
/// Modified since it was read in (anon: no valid swap copy; file: needs write-back).
const DIRTY: u8 = 8;
/// Holds a swap slot with a valid copy (swap cache).
const SWAP_VALID: u8 = 16;
/// Declared file-backed: a write dirties it but does not make it anon.
const FILE_FIXED: u8 = 32;
/// Mapped read-only in place in the NVM swap area (Direct Read): occupies its swap slot, no frame.
const NVM_MAPPED: u8 = 64;

struct Engine<P> {
    policy: P,
    direct_read: bool,
    flags: Vec<u8>,
    resident: usize,
    frames: usize,
    swap_used: u64,
    swap_cap: u64,
    m: Meters,
}

impl<P: Policy> Engine<P> {
    /// A write to a resident page: it is dirty now; an unknown-kind page becomes anon; a swap
    /// copy, if any, is stale and its slot freed.
    #[inline(always)]
    fn write_touch(&mut self, id: usize) {
        let f = &mut self.flags[id];
        if *f & FILE_FIXED == 0 {
            *f |= ANON;
        }
        *f |= DIRTY;
        if *f & SWAP_VALID != 0 {
            *f &= !SWAP_VALID;
            self.swap_used -= 1;
        }
    }

    fn evict(&mut self, v: PageId, index: usize) -> Result<()> {
        let f = self.flags[v as usize];
        if f & RESIDENT == 0 {
            return Err(Error::Invariant(format!("policy chose page {v}, which is not resident")));
        }
        if f & ANON != 0 {
            if f & SWAP_VALID == 0 {
                if self.swap_used >= self.swap_cap {
                    return Err(Error::Invariant(format!(
                        "policy chose dirty anon page {v} while swap is full at access {index}"
                    )));
                }
                self.swap_used += 1;
                self.m.peak_swap_pages = self.m.peak_swap_pages.max(self.swap_used);
                if self.swap_used == self.swap_cap && self.m.swap_full_at.is_none() {
                    self.m.swap_full_at = Some(index as u64);
                }
                self.m.swap_outs += 1;
            } else {
                self.m.swap_cache_drops += 1;
            }
            self.flags[v as usize] = (f & !(RESIDENT | DIRTY)) | SWAP_VALID;
        } else {
            if f & DIRTY != 0 {
                self.m.write_backs += 1;
            } else {
                self.m.file_drops += 1;
            }
            self.flags[v as usize] = f & !(RESIDENT | DIRTY);
        }
        self.resident -= 1;
        Ok(())
    }

    fn reclaim_one(&mut self, index: usize) -> Result<()> {
        let full = self.swap_used >= self.swap_cap;
        let victim = if full {
            self.m.reclaims_while_swap_full += 1;
            let flags = &self.flags;
            let pinned = |p: PageId| flags[p as usize] & (ANON | SWAP_VALID) == ANON;
            self.policy.select_victim(&ReclaimCtx { unevictable: Some(&pinned) })
        } else {
            self.policy.select_victim(&ReclaimCtx { unevictable: None })
        };
        match victim {
            Some(v) => self.evict(v, index),
            None => Err(Error::OutOfMemory {
                access: index as u64,
                msg: format!(
                    "no page can be reclaimed ({} frames resident, swap {} of {} pages used)",
                    self.resident, self.swap_used, self.swap_cap
                ),
            }),
        }
    }

    #[inline]
    fn fault(&mut self, a: &Access) -> Result<()> {
        let id = a.page as usize;
        let f = self.flags[id];
        self.m.faults += 1;
        if f & NVM_MAPPED != 0 {
            // A write to a page mapped in place: migrate it to DRAM (a real swap-in, a copy).
            self.m.dr_promotions += 1;
            self.m.swap_ins += 1;
            self.flags[id] &= !NVM_MAPPED;
        } else if f & SEEN == 0 {
            if becomes_anon(f, a.op) {
                // Zero-fill. An anon page has no copy anywhere yet: it is dirty from birth.
                // (A declared file page is read from its file first, even when written.)
                self.m.cold_anon += 1;
                self.flags[id] |= ANON | DIRTY;
            } else {
                self.m.cold_file += 1;
            }
        } else if f & ANON != 0 {
            if f & SWAP_VALID == 0 {
                return Err(Error::Invariant(format!("anon page {id} faulted with no swap copy")));
            }
            self.m.swap_faults += 1;
            if self.direct_read && !a.op.is_write() {
                // Direct Read: map the NVM page read-only where it is. No copy, no DRAM frame, and
                // the policy never sees the page (it is not in DRAM).
                self.m.dr_maps += 1;
                self.flags[id] |= NVM_MAPPED;
                return Ok(());
            }
            self.m.swap_ins += 1;
        } else {
            self.m.file_rereads += 1;
        }
        self.policy.on_miss(a);
        if self.resident >= self.frames {
            self.reclaim_one(a.index)?;
        }
        if self.policy.needs_room() {
            self.reclaim_one(a.index)?;
        }
        self.flags[id] |= RESIDENT | SEEN;
        self.resident += 1;
        if a.op.is_write() {
            self.write_touch(id);
        }
        self.policy.on_insert(a);
        Ok(())
    }

    fn replay(&mut self, trace: &Trace) -> Result<()> {
        for (index, &w) in trace.accesses.iter().enumerate() {
            let op = Op::from_bits(w);
            let f = self.flags[(w >> 2) as usize];
            let a = Access { page: w >> 2, op, index, anon: becomes_anon(f, op) };
            if f & RESIDENT != 0 {
                self.m.hits += 1;
                if a.op.is_write() {
                    self.write_touch(a.page as usize);
                }
                self.policy.on_hit(&a);
            } else if f & NVM_MAPPED != 0 && !a.op.is_write() {
                // A read of a page mapped in place: served from NVM, no fault.
                self.m.hits += 1;
                self.m.dr_hits += 1;
            } else {
                self.fault(&a)?;
            }
        }
        self.m.accesses = trace.len() as u64;
        Ok(())
    }
}

/// Whether a page with flags `f` is anon once an access `op` is done (a write makes an undeclared
/// page anon).
#[inline(always)]
fn becomes_anon(f: u8, op: Op) -> bool {
    f & ANON != 0 || (op.is_write() && f & FILE_FIXED == 0)
}

fn initial_flags(trace: &Trace) -> Vec<u8> {
    match &trace.page_kinds {
        None => vec![0; trace.num_pages()],
        Some(k) => k
            .iter()
            .map(|&k| match Kind::from_u8(k) {
                Kind::Anon => ANON,
                Kind::File => FILE_FIXED,
                Kind::Unknown => 0,
            })
            .collect(),
    }
}

struct Run<'a> {
    trace: &'a Trace,
    costs: policy::IoCosts,
    direct_read: bool,
    frames: usize,
    swap_cap: u64,
    params: &'a toml::Table,
}

impl PolicyVisitor for Run<'_> {
    type Output = Result<Meters>;
    fn visit<P: Policy>(self, name: &'static str) -> Result<Meters> {
        let params: P::Params = policy::parse_params(name, self.params)?;
        let policy = P::new(&PolicySetup { frames: self.frames, trace: self.trace, costs: self.costs }, params)?;
        let mut e = Engine {
            policy,
            direct_read: self.direct_read,
            flags: initial_flags(self.trace),
            resident: 0,
            frames: self.frames,
            swap_used: 0,
            swap_cap: self.swap_cap,
            m: Meters::default(),
        };
        e.replay(self.trace)?;
        Ok(e.m)
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
    let start = Instant::now();
    let mut m = policy::dispatch(
        &cfg.policy,
        Run {
            trace,
            costs: policy::IoCosts {
                swap_read_ns: swap.read_ns * scale,
                swap_write_ns: swap.write_ns * scale,
                file_read_ns: storage.read_ns * scale,
                file_write_ns: storage.write_ns * scale,
            },
            direct_read: cfg.direct_read,
            frames: frames as usize,
            swap_cap: swap_pages.unwrap_or(u64::MAX),
            params: &cfg.params,
        },
    )??;
    let wall = start.elapsed().as_secs_f64();
    m.finish(&swap, &storage, cfg.page_size, cfg.cpu_ns_per_access);
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
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let threads =
        if threads == 0 { std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) } else { threads }
            .min(configs.len().max(1));
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<Result<RunResult>>>> = Mutex::new((0..configs.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= configs.len() {
                    break;
                }
                let r = simulate(trace, stats, &configs[i], catalog);
                out.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    out.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(Error::Invariant("a grid run did not finish".into()))))
        .collect()
}
