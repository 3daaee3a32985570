//! Page-trace runs: a config resolved against the device catalog, the policy dispatched to a
//! monomorphised engine (flat, or tiered for hybrid memory), meters finished into a `RunResult`;
//! grids run in parallel.

use super::build::{Setup, WritebackRounds};
use super::{owned, tiered, Engine};
use crate::config::SimConfig;
use crate::device::Catalog;
use crate::error::{Error, Result};
use crate::meters::{Meters, RunResult};
use crate::plan::{self, Plan};
use crate::policy::hybrid::{self, Stacked, TierPolicy, TierPolicyVisitor, TierSetup};
use crate::policy::{self, Policy, PolicySetup, PolicyVisitor};
use crate::swap::{self, Scope};
use crate::trace::stream::{self, Survey};
use crate::trace::{PageSpace, ReadOptions, Trace, TraceStats};
use std::path::Path;
use std::time::Instant;

/// A flat run: the engine's setup, and what the policy and the replay need besides.
struct Run<'a> {
    trace: &'a Trace,
    setup: Setup,
    costs: policy::IoCosts,
    params: &'a toml::Table,
    /// The trace's processes over time, for a swap admission that looks at them.
    timeline: Option<owned::Timeline>,
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
        let setup =
            PolicySetup { sample_rate: self.sample_rate, ..PolicySetup::new(self.setup.frames, space, self.costs) };
        let policy = P::new(&setup, params)?;
        let mut e = Engine::build(policy, space, self.setup);
        match (self.timeline, self.stream) {
            (Some(timeline), _) => e.replay_owned(self.trace, timeline)?,
            (None, None) => e.replay(self.trace)?,
            (None, Some((path, opts, survey))) => {
                stream::replay(path, opts, survey, stream::CHUNK, &mut |w, first| e.replay_chunk(w, first as usize))?;
            }
        }
        Ok(e.into_meters())
    }
}

/// The trace's processes for a swap admission other than `all`: one that decides by processes
/// needs the trace's process table.
fn page_admission(plan: &Plan, trace: &Trace) -> Result<Option<(owned::Timeline, swap::Owners)>> {
    let cfg = plan.given();
    if cfg.swap_admission == swap::admission::DEFAULT {
        return Ok(None);
    }
    match &trace.procs {
        Some(procs) => procs.check_covers(trace, "the trace's process table")?,
        None if plan.resolved.admission.scope() == Scope::PerPage => {
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
    Ok(Some(owned::Timeline::new(trace)))
}

/// A tiered run of a hybrid policy, or of a flat one through `Stacked`.
struct TieredRun<'a> {
    trace: &'a Trace,
    costs: policy::IoCosts,
    dram: usize,
    pcm: usize,
    swap_cap: u64,
    params: &'a toml::Table,
    tier_costs: tiered::Costs,
    promote_on_hit: bool,
}

impl TieredRun<'_> {
    fn go<T: TierPolicy>(self, params: T::Params) -> Result<Meters> {
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
        let mut e = tiered::Tiered::new(policy, self.trace, self.dram, self.pcm, self.swap_cap, self.tier_costs);
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
    let plan = plan::resolve(cfg, catalog, trace.num_pages() as u64)?;
    run_plan(trace, stats, plan, catalog, 1.0, None)
}

/// Replays the trace at `path` while reading it (`trace::stream`): memory bounded by its footprint,
/// not its length. Flat runs whose policy needs no future and whose swap admission needs no
/// process timeline (`all`); the counts equal `simulate`'s.
pub fn simulate_stream(path: &Path, opts: &ReadOptions, cfg: &SimConfig, catalog: &Catalog) -> Result<RunResult> {
    let resolved = plan::Resolved::new(cfg, catalog)?;
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
    let plan = resolved.at(survey.meta.num_pages() as u64)?;
    run_plan(&survey.meta, &survey.stats, plan, catalog, 1.0, Some((path, opts, &survey)))
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
    let plan = plan::resolve(cfg, catalog, trace.num_pages() as u64)?;
    run_plan(trace, stats, plan, catalog, sample_rate, None)
}

/// The flat engine's setup of `plan` on a trace of `footprint` pages.
fn flat_setup(plan: Plan, footprint: u64, sample_rate: f64) -> Setup {
    let Plan { resolved: r, frames, swap_pages, .. } = plan;
    let cfg = &r.given;
    let backend = r.backend.as_ref();
    let mut s = Setup::new(frames as usize, swap_pages.unwrap_or(u64::MAX), Some(backend));
    s.direct_read = cfg.direct_read;
    s.semantics = r.semantics;
    s.page_cluster = if backend.synchronous_io() { 0 } else { cfg.page_cluster.order() };
    s.zram = s.zram.filter(|_| cfg.zram_in_memory);
    // A miniature simulation's memory is `sample_rate` of the full one: so is its batch.
    s.reclaim_batch = (cfg.reclaim_batch as f64 * sample_rate).round() as u64;
    // Page traces count time in accesses: a round every idle_s of their CPU time, and at least
    // one access per page between rounds (a round scans every page, so the rounds cost at most
    // as much as the accesses).
    s.writeback = backend.writeback().map(|w| {
        let every = (w.idle_s * 1e9 / cfg.cpu_ns_per_access.max(1e-3)).min(u64::MAX as f64) as u64;
        WritebackRounds { every: every.max(footprint), limit: w.limit_pages(cfg.page_size), by_access: true }
    });
    if cfg.swap_admission != swap::admission::DEFAULT {
        s.admission = Some((r.admission, swap::Owners::default()));
    }
    s
}

fn run_plan(
    trace: &Trace,
    stats: &TraceStats,
    plan: Plan,
    catalog: &Catalog,
    sample_rate: f64,
    stream: Option<Streamed<'_>>,
) -> Result<RunResult> {
    let config = plan.echo();
    let cfg = config.given.clone();
    let (swap, storage, costs) = (config.swap.clone(), config.storage.clone(), plan.resolved.costs);
    let backing = plan.resolved.backend.writeback().map(|w| w.backing.clone());
    let footprint = trace.num_pages() as u64;
    let swap_cap = plan.swap_pages.unwrap_or(u64::MAX);
    let start = Instant::now();
    let mut m = if let Some(t) = &config.tiers {
        if let Some(procs) = &trace.procs {
            procs.check_covers(trace, "the trace's process table")?;
        }
        let run = || TieredRun {
            trace,
            costs,
            dram: t.dram_frames as usize,
            pcm: t.pcm_frames as usize,
            swap_cap,
            params: &cfg.params,
            tier_costs: tiered::Costs::new(&t.dram, &t.pcm, cfg.page_size / t.access_bytes, costs),
            promote_on_hit: t.promote_on_hit,
        };
        match hybrid::dispatch(&cfg.policy, run()) {
            Some(r) => r?,
            None => policy::dispatch(&cfg.policy, run())??,
        }
    } else {
        let timeline = page_admission(&plan, trace)?;
        let mut setup = flat_setup(plan, footprint, sample_rate);
        let timeline = timeline.map(|(timeline, owners)| {
            // Without processes there is nobody to kill: out of memory stays an error.
            setup.oom_kill = !owners.procs.is_empty();
            if let Some((_, o)) = setup.admission.as_mut() {
                *o = owners;
            }
            timeline
        });
        policy::dispatch(&cfg.policy, Run { trace, setup, costs, params: &cfg.params, timeline, sample_rate, stream })??
    };
    let wall = start.elapsed().as_secs_f64();
    m.finish(&swap, &storage, cfg.page_size, cfg.cpu_ns_per_access);
    if let Some(backing) = &backing {
        m.add_backing(backing, cfg.page_size);
    }
    if let Some(t) = &config.tiers {
        tiered::finish_energy(&mut m, &t.dram, &t.pcm, t.access_bytes, cfg.page_size, cfg.energy_duration_s);
    }
    let swap_energy = match &swap.energy_model {
        Some(name) => {
            // The area's size scales DRAM refresh: the configured size, else what the run used.
            let swap_bytes = config.swap_pages.unwrap_or(m.peak_swap_pages) * cfg.page_size;
            let t_total = cfg.energy_duration_s.unwrap_or(m.sim_time_ns * 1e-9);
            Some(catalog.model(name)?.evaluate(
                name,
                m.swap_ins + m.swap_readahead,
                m.swap_outs,
                cfg.page_size,
                t_total,
                swap_bytes,
            ))
        }
        None => None,
    };
    Ok(RunResult {
        swap_energy,
        config,
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
