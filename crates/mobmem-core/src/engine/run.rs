//! Page-trace runs: a config resolved against the device catalog, the policy dispatched to a
//! monomorphised engine (flat, or tiered for hybrid memory), meters finished into a `RunResult`;
//! grids run in parallel.

use super::{owned, tiered, Engine};
use crate::config::SimConfig;
use crate::device::Catalog;
use crate::error::{Error, Result};
use crate::meters::{Meters, ResolvedConfig, ResolvedTiers, RunResult};
use crate::policy::hybrid::{self, Stacked, TierPolicy, TierPolicyVisitor, TierSetup};
use crate::policy::{self, Policy, PolicySetup, PolicyVisitor};
use crate::swap::{self, Owners, Scope, SwapAdmission};
use crate::trace::stream::{self, Survey};
use crate::trace::{PageSpace, ReadOptions, Trace, TraceStats};
use std::path::Path;
use std::time::Instant;

struct Run<'a> {
    trace: &'a Trace,
    costs: policy::IoCosts,
    direct_read: bool,
    frames: usize,
    swap_cap: u64,
    zram: Option<f64>,
    /// zram writeback: a round every so many accesses, and the pages a round may write.
    writeback: Option<(u64, u64)>,
    params: &'a toml::Table,
    /// A swap admission other than `all`, with the trace's processes as it sees them.
    admission: Option<PageAdmission>,
    semantics: super::SwapSemantics,
    reclaim_batch: u64,
    /// 1, or the rate of a miniature simulation's sample (`PolicySetup::sample_rate`).
    sample_rate: f64,
    /// A streamed run: `trace` holds no accesses; they come from reading the file again.
    stream: Option<Streamed<'a>>,
}

/// The file of a streamed run, how to read it, and what its first pass found.
type Streamed<'a> = (&'a Path, &'a ReadOptions, &'a Survey);

impl PolicyVisitor for Run<'_> {
    type Output = Result<Meters>;
    fn visit<P: Policy>(self, name: &'static str) -> Result<Meters> {
        let params: P::Params = policy::parse_params(name, self.params)?;
        // A streamed trace has no accesses in memory: nothing to look ahead in.
        let space = match self.stream {
            Some(_) => PageSpace { future: None, ..self.trace.space() },
            None => self.trace.space(),
        };
        let setup = PolicySetup { sample_rate: self.sample_rate, ..PolicySetup::new(self.frames, space, self.costs) };
        let policy = P::new(&setup, params)?;
        let mut e = Engine::new(policy, space, self.frames, self.swap_cap, self.direct_read)
            .with_zram(self.zram)
            .with_swap_semantics(self.semantics)
            // A miniature simulation's memory is `sample_rate` of the full one: so is its batch.
            .with_reclaim_batch((self.reclaim_batch as f64 * self.sample_rate).round() as u64);
        if let Some((every, limit)) = self.writeback {
            e = e.with_writeback(every, limit, true);
        }
        match self.admission {
            None => match self.stream {
                None => e.replay(self.trace)?,
                Some((path, opts, survey)) => {
                    stream::replay(path, opts, survey, stream::CHUNK, &mut |w, first| {
                        e.replay_words(w, first as usize)
                    })?;
                }
            },
            Some((admission, timeline, owners)) => {
                // Without processes there is nobody to kill: out of memory stays an error.
                if !owners.procs.is_empty() {
                    e = e.with_oom_kill();
                }
                e = e.with_admission(admission, owners);
                e.replay_owned(self.trace, timeline)?;
            }
        }
        Ok(e.into_meters())
    }
}

/// The admission of a page-trace run, if it is not `all`: one that decides by processes needs the
/// trace's process table.
type PageAdmission = (Box<dyn SwapAdmission>, owned::Timeline, Owners);
fn page_admission(cfg: &SimConfig, trace: &Trace) -> Result<Option<PageAdmission>> {
    if cfg.swap_admission == swap::admission::DEFAULT {
        return Ok(None);
    }
    let (admission, _) = swap::admission::build(&cfg.swap_admission, &cfg.swap_admission_params)?;
    match &trace.procs {
        Some(procs) => procs.check_covers(trace, "the trace's process table")?,
        None if admission.scope() == Scope::PerPage => {
            return Err(Error::config(
                "swap_admission",
                format!(
                    "{:?} decides by the pages' processes, and {} has no process table (a pid column \
                     and each pid's oom_score_adj: an adj column or --procs)",
                    cfg.swap_admission,
                    trace.path.display()
                ),
            ))
        }
        None => {} // `off` looks at no process.
    }
    let (timeline, owners) = owned::Timeline::new(trace);
    Ok(Some((admission, timeline, owners)))
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
    promote_on_hit: bool,
}

impl TieredRun<'_> {
    fn go<T: TierPolicy>(mut self, params: T::Params) -> Result<Meters> {
        let policy = T::new(
            &TierSetup {
                dram_frames: self.dram,
                pcm_frames: self.pcm,
                space: self.trace.space(),
                costs: self.costs,
                promote_on_hit: self.promote_on_hit,
            },
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
    run_config(trace, stats, cfg, catalog, 1.0, None)
}

/// Replays the trace at `path` while reading it (`trace::stream`): memory bounded by its footprint,
/// not its length. Flat runs whose policy needs no future and whose swap admission needs no
/// process timeline (`all`); the counts equal `simulate`'s.
pub fn simulate_stream(path: &Path, opts: &ReadOptions, cfg: &SimConfig, catalog: &Catalog) -> Result<RunResult> {
    cfg.validate(catalog)?;
    if cfg.tiers.is_some() {
        return Err(Error::config("tiers", "a streamed run is flat: hybrid tiers read the whole trace"));
    }
    if cfg.swap_admission != swap::admission::DEFAULT {
        let why = format!(
            "{:?} follows the processes over the trace, which a streamed run does not; run without streaming",
            cfg.swap_admission
        );
        return Err(Error::config("swap_admission", why));
    }
    let survey = stream::survey(path, opts, cfg.page_size)?;
    if cfg.policy == "opt" {
        let n = survey.accesses;
        let why = format!(
            "opt looks ahead: its pre-pass keeps every access and its next use (8 bytes each: {n} accesses, \
             {} MiB), so it cannot replay from a stream; run it without streaming",
            (n * 8).div_ceil(1 << 20)
        );
        return Err(Error::config("policy", why));
    }
    run_config(&survey.meta, &survey.stats, cfg, catalog, 1.0, Some((path, opts, &survey)))
}

/// `simulate` of a trace that is a spatial sample at `sample_rate` of the one it stands for (a
/// miniature simulation, `mrc::mini`): the policy scales its constants in pages and events.
pub(crate) fn simulate_sampled(
    trace: &Trace,
    stats: &TraceStats,
    cfg: &SimConfig,
    catalog: &Catalog,
    sample_rate: f64,
) -> Result<RunResult> {
    run_config(trace, stats, cfg, catalog, sample_rate, None)
}

fn run_config(
    trace: &Trace,
    stats: &TraceStats,
    cfg: &SimConfig,
    catalog: &Catalog,
    sample_rate: f64,
    stream: Option<Streamed<'_>>,
) -> Result<RunResult> {
    cfg.validate(catalog)?;
    let swap = catalog.get(&cfg.swap, "swap")?.clone();
    let backend = crate::swap::backend::build(&swap, catalog)?;
    let semantics = cfg.swap_semantics(backend.synchronous_io());
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
    let ps = cfg.page_size;
    let costs = policy::IoCosts {
        swap_read_ns: swap.read_time_ns(1, ps),
        swap_write_ns: swap.write_time_ns(1, ps),
        file_read_ns: storage.read_time_ns(1, ps),
        file_write_ns: storage.write_time_ns(1, ps),
        clean_anon_evict_ns: if semantics.swap_cache { 0.0 } else { swap.write_time_ns(1, ps) },
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
            promote_on_hit: t.promote_on_hit,
        };
        if !t.promote_on_hit && hybrid::NAMES.contains(&cfg.policy.as_str()) {
            return Err(Error::config(
                "tiers.promote_on_hit",
                format!(
                    "{:?} places pages by its own rules; promote_on_hit applies to flat policies on tiers",
                    cfg.policy
                ),
            ));
        }
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
                zram: backend.compression_ratio().filter(|_| cfg.zram_in_memory),
                // Page traces count time in accesses: a round every idle_s of their CPU time, and
                // at least one access per page between rounds (a round scans every page, so the
                // rounds cost at most as much as the accesses).
                writeback: backend.writeback().map(|w| {
                    let every = (w.idle_s * 1e9 / cfg.cpu_ns_per_access.max(1e-3)).min(u64::MAX as f64) as u64;
                    (every.max(footprint), w.limit_pages(cfg.page_size))
                }),
                params: &cfg.params,
                admission: page_admission(cfg, trace)?,
                semantics,
                reclaim_batch: cfg.reclaim_batch,
                sample_rate,
                stream,
            },
        )??
    };
    let wall = start.elapsed().as_secs_f64();
    m.finish(&swap, &storage, cfg.page_size, cfg.cpu_ns_per_access);
    if let Some(w) = backend.writeback() {
        m.add_backing(&w.backing, cfg.page_size);
    }
    if let Some((t, _, _, (dm, pm))) = &tiers {
        tiered::finish_energy(&mut m, dm, pm, t.access_bytes, cfg.page_size, cfg.energy_duration_s);
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
            swap_admission: cfg.swap_admission.clone(),
            swap_admission_params: swap::admission::build(&cfg.swap_admission, &cfg.swap_admission_params)?.1,
            swap_cache: semantics.swap_cache,
            zram_in_memory: cfg.zram_in_memory,
            anon_first_touch: cfg.anon_first_touch,
            reclaim_batch: cfg.reclaim_batch,
            cpu_ns_per_access: cfg.cpu_ns_per_access,
            direct_read: cfg.direct_read,
            energy_duration_s: cfg.energy_duration_s,
            tiers: tiers.map(|(t, dram, pcm, (dm, pm))| ResolvedTiers {
                pcm_share: t.pcm_share,
                dram_frames: dram,
                pcm_frames: pcm,
                access_bytes: t.access_bytes,
                promote_on_hit: t.promote_on_hit,
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
