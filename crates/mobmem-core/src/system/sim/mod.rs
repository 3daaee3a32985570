//! The system-level simulator: replays an app-usage trace on a phone. Apps are processes whose
//! pages live in the page engine (the same engine page traces drive); launches, foreground
//! sessions and background work *generate* page touches, and the engine decides hits, faults,
//! evictions and swap. Around it: kswapd and direct reclaim between watermarks, the low memory
//! killer, device queues with size-dependent bandwidth, and the launch clock.
//!
//! Time is simulated ns. A launch's clock advances by its CPU time (spread evenly over its
//! touches) and by the I/O it waits for: file reads (sequential faults merged up to the readahead
//! size), swap-ins (with read-around), and the writes of direct reclaim. kswapd's writes are queued
//! on the devices without anyone waiting, so a later read may queue behind them.
//!
//! The rooms: `setup` (processes, page ids, devices, killer, admission: the `World`), `procs`
//! (importance, kills, page-id ranges), `io` (device queues, stall), `reclaim` (kswapd, direct
//! reclaim, the killer, zram writeback), `launch` (touches, launches, sessions, background work,
//! the clock), `report` (meters, energy, wear, the conservation checks).

mod classes;
mod io;
mod launch;
mod procs;
mod reclaim;
mod report;
mod setup;
mod zram;

use super::catalog::{AppCatalog, AppProfile};
use super::killer::Killer;
use super::meters::{LaunchRecord, PhoneResult, SystemMeters};
use super::phone::{Layout, Phone};
use super::ranges::Ranges;
use super::usage::UsageTrace;
use crate::device::Catalog;
use crate::engine::Engine;
use crate::error::Result;
use crate::policy::{self, Policy, PolicySetup, PolicyVisitor};
use crate::swap::history::History;
use crate::trace::gen::Rng;
use crate::trace::PageSpace;
use io::{Devices, Stall};
use procs::Proc;
use std::time::Instant;

/// What to run.
pub struct PhoneRun<'a> {
    pub phone_name: &'a str,
    pub phone: &'a Phone,
    pub usage: &'a UsageTrace,
    pub apps: &'a AppCatalog,
    pub devices: &'a Catalog,
    pub seed: u64,
    /// Check the conservation invariants after every launch (tests; costs a pass over all pages).
    pub checks: bool,
}

/// Length of a foreground-session step: background work due in a step runs before its touches.
const STEP_NS: f64 = 100e6;
/// Most page touches one foreground session may make (a day at 1,000 per second is 8.6e7).
const MAX_SESSION_TOUCHES: f64 = 1e8;
/// PSI-style stall window.
const WINDOW_NS: f64 = 1e9;

/// Everything of a run but the page engine: built once by `setup`, whatever the policy.
struct World<'a> {
    phone: &'a Phone,
    layout: Layout,
    killer: Box<dyn Killer>,
    /// System processes first, then one per app of the usage trace (`procs::app_pid`).
    procs: Vec<Proc>,
    /// The processes alive now, in pid order: what every per-launch step walks, so that its cost
    /// follows the apps alive (a few dozen at most), not every app the usage trace ever names.
    live: Vec<usize>,
    profiles: Vec<AppProfile>,
    /// Which apps hold which page ids.
    ranges: Ranges,
    fg: Option<usize>,
    prev_fg: Option<usize>,
    /// Each app's launches and reuse distances (the swap admission reads them).
    history: History,
    io: Devices,
    rng: Rng,
    /// Page touches so far (the engine's access index).
    index: usize,
    stall: Stall,
    m: SystemMeters,
    launches: Vec<LaunchRecord>,
    /// Whether the touches being made are the foreground app's (launch or session): only its
    /// waits count as memory stall (background work's clock runs behind the device queues).
    in_fg: bool,
    checks: bool,
    /// A conservation check that failed inside a step that cannot return an error.
    broken: Option<String>,
    /// Pages' hotness is kept (`Engine::keeps_hotness`): touches warm cold pages.
    hotness: bool,
    /// A launch's own touches are being made (not its session's, nor background work's).
    launching: bool,
    echoed: setup::Echoed,
}

/// A run: the engine (monomorphised per policy) and the world around it.
struct Sim<'a, P: Policy> {
    e: Engine<P>,
    w: World<'a>,
}

/// Replays `r.usage` on `r.phone`.
pub fn simulate_phone(r: &PhoneRun) -> Result<PhoneResult> {
    let (w, spec) = setup::world(r)?;
    policy::dispatch(&r.phone.policy, Start { w, spec, r })?
}

/// The world and what the engine is built from, waiting for the policy's type.
struct Start<'a> {
    w: World<'a>,
    spec: setup::EngineSpec,
    r: &'a PhoneRun<'a>,
}

impl PolicyVisitor for Start<'_> {
    type Output = Result<PhoneResult>;
    fn visit<P: Policy>(self, name: &'static str) -> Result<PhoneResult> {
        let Start { w, spec, r } = self;
        let params: P::Params = crate::params::parse_params(name, &r.phone.params)?;
        let space = PageSpace { pages: spec.kinds.len(), kinds: Some(&spec.kinds), future: None };
        let setup = PolicySetup::new(w.layout.frames as usize, space, spec.costs);
        let policy = P::new(&setup, params)?;
        let e = spec.engine(policy);
        let mut sim = Sim { e, w };
        sim.w.hotness = sim.e.keeps_hotness();
        if sim.w.hotness {
            // Every page starts cold (boot's pages too: their touches after the first warm them).
            let n = sim.e.owners().of_page.len();
            sim.e.change_owners(0, |o| o.hotness = vec![crate::swap::COLD; n]);
        }
        let start = Instant::now();
        sim.run(r.usage)?;
        let wall = start.elapsed().as_secs_f64();
        sim.finish(r, wall)
    }
}
