//! Building a run: the processes (system processes, then one per app), their page ids and kinds,
//! the devices and their queues, the killer and the swap admission. Everything here is done once
//! per run, before the policy's type is known.

use super::io::{Dev, Devices, Stall};
use super::procs::{Proc, NOT_STARTED_ADJ};
use super::{PhoneRun, World, MAX_SESSION_TOUCHES};
use crate::engine::{Engine, Setup};
use crate::error::{Error, Result};
use crate::plan::PhonePlan;
use crate::policy::{IoCosts, Policy};
use crate::swap::backend::Ticks;
use crate::swap::{OwnerState, Owners};
use crate::system::catalog::AppProfile;
use crate::system::meters::{AppSummary, SystemMeters};
use crate::system::ranges::Ranges;
use crate::trace::gen::Rng;
use crate::trace::Kind;

/// The parameters the run resolved, defaults filled in, for the result's config echo.
pub(super) struct Echoed {
    pub policy_params: serde_json::Value,
    pub killer_params: serde_json::Value,
    pub swap_admission_params: serde_json::Value,
}

/// What the engine is built from, besides the policy.
pub(super) struct EngineSpec {
    /// Kind of each page id (anon or file); the process owning each is in the setup's owners.
    pub kinds: Vec<u8>,
    pub costs: IoCosts,
    setup: Setup,
}

impl EngineSpec {
    pub fn engine<P: Policy>(self, policy: P) -> Engine<P> {
        let space = crate::trace::PageSpace { pages: self.kinds.len(), kinds: Some(&self.kinds), future: None };
        Engine::build(policy, space, self.setup)
    }
}

fn pages_of(mib: f64, page_size: u64) -> u32 {
    (mib * 1048576.0 / page_size as f64).round() as u32
}

/// The world of run `r`, and the engine's spec.
pub(super) fn world<'a>(r: &'a PhoneRun<'a>) -> Result<(World<'a>, EngineSpec)> {
    let phone = r.phone;
    // A phone's own fields are named under its table (`mine.session_s`), as in a phones file.
    let plan = PhonePlan::resolve(phone, r.devices).map_err(|e| match e {
        Error::Config { field, msg } if !field.starts_with(r.phone_name) => {
            Error::Config { field: format!("{}.{field}", r.phone_name), msg }
        }
        e => e,
    })?;
    let PhonePlan { layout, swap, common, killer, killer_params } = plan;
    if r.usage.launches.is_empty() {
        return Err(Error::config("usage", format!("{}: no launches to replay", r.usage.path.display())));
    }
    // Each launch leaves a record in the result: bounded by the memory there is, checked first.
    let launches = r.usage.launches.len() as u64;
    crate::limits::ensure_fits("usage", "launches", launches, crate::system::usage::BYTES_PER_LAUNCH)?;
    let ps = phone.page_size;
    let profiles: Vec<AppProfile> = r.usage.apps.iter().map(|n| r.apps.get(n)).collect::<Result<_>>()?;
    // A foreground session's touches are its length times the app's rate: bounded per launch.
    if let Some(p) = profiles.iter().find(|p| p.fg_pages_per_s * phone.session_s > MAX_SESSION_TOUCHES) {
        return Err(Error::config(
            "session_s",
            format!(
                "{} s in the foreground at {}'s {} touches/s is more than {MAX_SESSION_TOUCHES:e} touches per launch",
                phone.session_s, p.name, p.fg_pages_per_s
            ),
        ));
    }
    let mut procs = Vec::new();
    let mut kinds: Vec<u8> = Vec::new();
    let mut pids: Vec<u32> = Vec::new();
    let ids = |pid: usize, na: u32, nf: u32, kinds: &mut Vec<u8>, pids: &mut Vec<u32>| {
        kinds.extend(std::iter::repeat(Kind::Anon as u8).take(na as usize));
        kinds.extend(std::iter::repeat(Kind::File as u8).take(nf as usize));
        pids.extend(std::iter::repeat(pid as u32).take((na + nf) as usize));
    };
    // System processes: their ids one after another, anon then file.
    let mut next = 0u64;
    for s in &phone.system {
        let (na, nf) = (pages_of(s.anon_mib, ps), pages_of(s.file_mib, ps));
        let a0 = next;
        next += na as u64 + nf as u64;
        if next >= (1 << 30) {
            return Err(Error::config("usage", "the apps' pages together are more than mobmem models (2^30)"));
        }
        ids(procs.len(), na, nf, &mut kinds, &mut pids);
        procs.push(Proc::system(s, a0 as u32, na, nf));
    }
    // Apps get their ids from `ranges`, laid out up front (bounded by what can be alive at once).
    let shapes: Vec<(u32, u32)> = profiles
        .iter()
        .map(|prof| {
            let (na, nf) = prof.pages(ps);
            (na as u32, nf as u32)
        })
        .collect();
    let bg: Vec<bool> = profiles.iter().map(|p| p.bg_period_s > 0.0 && p.bg_pages > 0).collect();
    let (ranges, n_ids) = Ranges::plan(next as u32, &shapes, &bg, phone.max_cached)?;
    // Each id costs its flags, owner, kind and the policy's state: some tens of bytes.
    crate::limits::ensure_fits("usage", "page ids (system processes and apps)", n_ids, 48)?;
    let first_app_pid = procs.len();
    for (i, prof) in profiles.iter().enumerate() {
        procs.push(Proc::app(i, prof, shapes[i], ranges.of(i)));
    }
    for (app, range) in ranges.layout() {
        debug_assert_eq!(range.anon0 as usize, kinds.len());
        let (na, nf) = shapes[app];
        ids(first_app_pid + app, na, nf, &mut kinds, &mut pids);
    }
    debug_assert!(procs[first_app_pid..].iter().all(|p| p.adj == NOT_STARTED_ADJ));

    let storage = common.swap.storage.clone();
    // Queues: the file store 0; swap 1 unless it is the file store's device; zram writeback's
    // backing device its own (2) unless it is the file store's.
    let shared_queue = swap.as_ref().is_some_and(|s| s.name == storage.name);
    let fx = &common.swap.effects;
    let wb = fx.writeback.clone();
    let backing_q = wb.as_ref().map(|w| if w.backing.name == storage.name { 0 } else { 2 });
    let queues = if backing_q == Some(2) {
        3
    } else if shared_queue {
        1
    } else {
        2
    };
    let mut io = Devices::new(
        swap.map(|model| Dev { model, q: if shared_queue { 0 } else { 1 } }),
        fx.on_cpu,
        wb.as_ref().map(|w| Dev { model: w.backing.clone(), q: backing_q.unwrap_or(0) }),
        Dev { model: storage, q: 0 },
        queues,
    );
    io.classes = fx.classes.clone().map(super::classes::Classes::new);
    let history = crate::swap::history::History::new(r.usage.apps.len());
    let states = procs
        .iter()
        .map(|p| OwnerState { reuse: p.app.map(|a| history.reuse(a)), ..OwnerState::new(p.adj, p.alive) })
        .collect();
    let live = (0..procs.len()).filter(|&i| procs[i].alive).collect();
    // The phone keeps simulated time in ns and runs writeback's rounds itself (`Ticks::Ns`).
    let mut setup = Setup::with_plan(layout.frames as usize, layout.swap_pages, &common, ps, Ticks::Ns);
    let owners = Owners { of_page: pids, procs: states, ..Owners::default() };
    let echoed = Echoed { policy_params: common.params, killer_params, swap_admission_params: common.admission_params };
    setup.admission = Some((common.admission, owners));
    setup.owner_swap_outs = true;
    // Swap-entry lifetimes in simulated ns (`Sim::touch` and `launch` keep the engine's clock).
    setup.lifetimes = Some(crate::system::meters::lifetime_marks_ns());
    let spec = EngineSpec { kinds, costs: common.swap.costs, setup };
    let apps = profiles
        .iter()
        .map(|p| AppSummary { app: p.name.clone(), category: p.category.clone(), known: p.known, ..Default::default() })
        .collect();
    let w = World {
        phone,
        layout,
        killer,
        procs,
        live,
        profiles,
        ranges,
        fg: None,
        prev_fg: None,
        history,
        io,
        rng: Rng::new(r.seed),
        index: 0,
        stall: Stall::default(),
        m: SystemMeters { apps, ..SystemMeters::default() },
        launches: Vec::new(),
        in_fg: false,
        checks: r.checks,
        broken: None,
        hotness: false,
        launching: false,
        echoed,
    };
    Ok((w, spec))
}
