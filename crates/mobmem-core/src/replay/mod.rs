//! The page-trace driver: a config resolved against the device catalog into a `Plan`, the policy
//! dispatched to a monomorphised memory (flat `Engine`, or `Tiered` for hybrid DRAM+PCM), the
//! trace's accesses fed to it from memory or from the file as it is read, the trace's processes
//! followed on a `Timeline` and told to the memory where they change, and the meters finished into
//! a `RunResult`. Grids run in parallel.

mod reference;
mod timeline;

use crate::config::SimConfig;
use crate::device::Catalog;
use crate::engine::tiered::{self, Tiered};
use crate::engine::{Engine, Memory, Setup};
use crate::error::{Error, Result};
use crate::meters::Meters;
use crate::parallel::parallel;
use crate::plan::{self, Plan};
use crate::policy::hybrid::{self, Stacked, TierPolicy, TierPolicyVisitor, TierSetup};
use crate::policy::{self, Policy, PolicySetup, PolicyVisitor};
use crate::run::RunResult;
use crate::swap::backend::Ticks;
use crate::swap::{self, Scope};
use crate::trace::stream::{self, Survey};
use crate::trace::{PageSpace, ReadOptions, Trace, TraceStats};
pub use reference::reference_loop;
use std::path::Path;
use std::time::Instant;
pub(crate) use timeline::Timeline;

/// The file of a streamed run, how to read it, what its first pass found, and how many accesses
/// it reads at a time.
type Streamed<'a> = (&'a Path, &'a ReadOptions, &'a Survey, usize);

/// What every run feeds its memory: the trace (without its accesses when streamed), the file
/// when streamed, and the processes' timeline when the memory follows them.
struct Feed<'a> {
    trace: &'a Trace,
    stream: Option<Streamed<'a>>,
    timeline: Option<Timeline>,
}

impl<'a> Feed<'a> {
    /// The pages, with the future only when the accesses are in memory (a streamed trace has
    /// nothing to look ahead in).
    fn space(&self) -> PageSpace<'a> {
        match self.stream {
            Some(_) => PageSpace { future: None, ..self.trace.space() },
            None => self.trace.space(),
        }
    }

    /// Replays every access on `m` and returns its meters.
    fn run<M: Memory>(mut self, mut m: M) -> Result<Meters> {
        let timeline = &mut self.timeline;
        match self.stream {
            None => drive(&mut m, &self.trace.accesses, 0, timeline.as_mut())?,
            Some((path, opts, survey, chunk)) => stream::replay(path, opts, survey, chunk, &mut |w, first| {
                drive(&mut m, w, first as usize, timeline.as_mut())
            })?,
        }
        Ok(m.into_meters())
    }
}

/// Replays `words`, accesses `first..` of the trace, on `m`, cut where the processes change: the
/// changes due at an access are told to the memory before it.
fn drive<M: Memory>(m: &mut M, words: &[u32], first: usize, timeline: Option<&mut Timeline>) -> Result<()> {
    let Some(t) = timeline else { return m.replay_chunk(words, first) };
    let end = first + words.len();
    let mut start = first;
    while start < end {
        if t.advance(start as u64) {
            let (now, live_apps) = t.now();
            m.processes_changed(start, now, live_apps);
        }
        let stop = t.next_change().map_or(end, |at| (at as usize).clamp(start + 1, end));
        m.replay_chunk(&words[start - first..stop - first], start)?;
        start = stop;
    }
    Ok(())
}

/// A flat run: the engine's setup, and what the policy needs besides.
struct Run<'a> {
    feed: Feed<'a>,
    setup: Setup,
    costs: policy::IoCosts,
    params: &'a toml::Table,
    /// 1, or the rate of a miniature simulation's sample (`PolicySetup::sample_rate`).
    sample_rate: f64,
}

impl PolicyVisitor for Run<'_> {
    type Output = Result<Meters>;
    fn visit<P: Policy>(self, name: &'static str) -> Result<Meters> {
        let params: P::Params = crate::params::parse_params(name, self.params)?;
        let space = self.feed.space();
        let setup =
            PolicySetup { sample_rate: self.sample_rate, ..PolicySetup::new(self.setup.frames, space, self.costs) };
        let policy = P::new(&setup, params)?;
        self.feed.run(Engine::build(policy, space, self.setup))
    }
}

/// The trace's processes for a swap admission other than `all`: one that decides by processes
/// needs the trace's process table.
fn page_admission(plan: &Plan, trace: &Trace) -> Result<Option<(Timeline, swap::Owners)>> {
    let cfg = plan.given();
    if cfg.swap_admission == swap::admission::DEFAULT {
        return Ok(None);
    }
    match &trace.procs {
        Some(procs) => procs.check_covers(trace, "the trace's process table")?,
        None if plan.resolved.common.admission.scope() == Scope::PerPage => {
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
    Ok(Some(Timeline::new(trace)))
}

/// A tiered run of a hybrid policy, or of a flat one through `Stacked`.
struct TieredRun<'a> {
    feed: Feed<'a>,
    classes: tiered::Classes,
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
        let space = self.feed.space();
        let setup = TierSetup {
            dram_frames: self.dram,
            pcm_frames: self.pcm,
            space,
            costs: self.costs,
            promote_on_hit: self.promote_on_hit,
        };
        let policy = T::new(&setup, params)?;
        let memory = Tiered::new(policy, space, self.classes, self.dram, self.pcm, self.swap_cap, self.tier_costs);
        self.feed.run(memory)
    }
}

impl TierPolicyVisitor for TieredRun<'_> {
    type Output = Result<Meters>;
    fn visit<T: TierPolicy>(self, name: &'static str) -> Result<Meters> {
        let params: T::Params = crate::params::parse_params(name, self.params)?;
        self.go::<T>(params)
    }
}

impl PolicyVisitor for TieredRun<'_> {
    type Output = Result<Meters>;
    fn visit<P: Policy>(self, name: &'static str) -> Result<Meters> {
        let params: P::Params = crate::params::parse_params(name, self.params)?;
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
/// not its length. Any run whose policy needs no future (flat or tiered, any swap admission: the
/// process table is read in the first pass); the counts equal `simulate`'s.
pub fn simulate_stream(path: &Path, opts: &ReadOptions, cfg: &SimConfig, catalog: &Catalog) -> Result<RunResult> {
    simulate_stream_by(path, opts, cfg, catalog, stream::CHUNK)
}

/// `simulate_stream` reading `chunk` accesses at a time.
fn simulate_stream_by(
    path: &Path,
    opts: &ReadOptions,
    cfg: &SimConfig,
    catalog: &Catalog,
    chunk: usize,
) -> Result<RunResult> {
    let resolved = plan::Resolved::new(cfg, catalog)?;
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
    run_plan(&survey.meta, &survey.stats, plan, catalog, 1.0, Some((path, opts, &survey, chunk)))
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
    // Page traces count time in accesses (`Ticks::Accesses`): the engine runs writeback's rounds.
    let ticks = Ticks::Accesses { cpu_ns_per_access: cfg.cpu_ns_per_access, footprint };
    let mut s = Setup::with_plan(frames as usize, swap_pages.unwrap_or(u64::MAX), &r.common, cfg.page_size, ticks);
    // A miniature simulation's memory is `sample_rate` of the full one: so is its batch.
    s.reclaim_batch = (cfg.reclaim_batch as f64 * sample_rate).round() as u64;
    if cfg.swap_admission != swap::admission::DEFAULT {
        s.admission = Some((r.common.admission, swap::Owners::default()));
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
    let (swap, storage, costs) = (config.swap.clone(), config.storage.clone(), plan.resolved.common.swap.costs);
    let backing = plan.resolved.common.swap.effects.writeback.as_ref().map(|w| w.backing.clone());
    let footprint = trace.num_pages() as u64;
    let swap_cap = plan.swap_pages.unwrap_or(u64::MAX);
    let start = Instant::now();
    let mut m = if let Some(t) = &config.tiers {
        if let Some(procs) = &trace.procs {
            procs.check_covers(trace, "the trace's process table")?;
        }
        // Each access's time goes to its process's class, so the tiers follow the processes.
        let (timeline, classes) = match &trace.procs {
            Some(_) => {
                let (timeline, owners) = Timeline::new(trace);
                (Some(timeline), tiered::Classes::of(owners.of_page, &owners.procs))
            }
            None => (None, tiered::Classes::all_critical(trace.num_pages())),
        };
        let run = TieredRun {
            feed: Feed { trace, stream, timeline },
            classes,
            costs,
            dram: t.dram_frames as usize,
            pcm: t.pcm_frames as usize,
            swap_cap,
            params: &cfg.params,
            tier_costs: tiered::Costs::new(&t.dram, &t.pcm, cfg.page_size / t.access_bytes, costs),
            promote_on_hit: t.promote_on_hit,
        };
        if hybrid::NAMES.contains(&cfg.policy.as_str()) {
            hybrid::dispatch(&cfg.policy, run)
                .ok_or_else(|| Error::Invariant("a hybrid policy not dispatched".into()))??
        } else {
            policy::dispatch(&cfg.policy, run)??
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
        let feed = Feed { trace, stream, timeline };
        policy::dispatch(&cfg.policy, Run { feed, setup, costs, params: &cfg.params, sample_rate })??
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

#[cfg(test)]
mod tests;
