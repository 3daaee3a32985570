//! Multi-app workloads: apps used in turns, round robin, each a process with the `oom_score_adj`
//! Android gives it (foreground, previous, cached), each app's accesses from the generator.

use super::gen::{AppState, GenParams, Rng};
use super::{pack, Trace};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// An app of a multi-app workload: a name (its process), its footprint and its access behaviour.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AppSpec {
    pub name: String,
    /// App size in MiB (Table III of the DR. Swap paper); the footprint in pages follows.
    pub size_mib: f64,
    /// Generator parameters other than the footprint and length (defaults when absent).
    #[serde(default)]
    pub params: Option<GenParams>,
}

/// Apps used in turns, round robin: each turn runs one app in the foreground for
/// `accesses_per_turn` accesses, as the DR. Swap paper's evaluation runs each app for a minute
/// and all of them three times round robin. Each app is a process (pid = its index + 1) with its
/// `oom_score_adj` in the process table as Android sets it: foreground (0) in its turn, then
/// previous (`PREVIOUS_ADJ`) for the next turn, cached (`CACHED_ADJ`) after; not started (1000)
/// before its first turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundRobin {
    pub apps: Vec<AppSpec>,
    pub rounds: u32,
    pub accesses_per_turn: u64,
    pub seed: u64,
}

/// Android's `oom_score_adj` of the previous app and of a cached one (ProcessList.java).
pub const PREVIOUS_ADJ: i32 = 700;
pub const CACHED_ADJ: i32 = 900;

impl RoundRobin {
    pub fn generate(&self) -> Result<Trace> {
        if self.apps.is_empty() || self.rounds == 0 || self.accesses_per_turn == 0 {
            return Err(Error::config("workload", "needs at least one app, one round and one access per turn"));
        }
        let total = (self.apps.len() as u64 * self.rounds as u64).saturating_mul(self.accesses_per_turn);
        let accesses = crate::limits::vec_with_capacity("workload.accesses_per_turn", "accesses", total)?;
        let mut rng = Rng::new(self.seed);
        let mut params = Vec::new();
        let mut states = Vec::new();
        for (i, a) in self.apps.iter().enumerate() {
            if !(a.size_mib > 0.0 && a.size_mib.is_finite()) {
                return Err(Error::config(
                    format!("workload.apps[{i}].size_mib"),
                    format!("{} is not a size", a.size_mib),
                ));
            }
            let p = GenParams {
                footprint_pages: ((a.size_mib * 256.0).round() as u64).max(3),
                accesses: self.accesses_per_turn,
                ..a.params.clone().unwrap_or_default()
            };
            p.validate().map_err(|e| match e {
                Error::Config { field, msg } => Error::config(format!("workload.apps[{i}].{field}"), msg),
                e => e,
            })?;
            states.push(AppState::new(&p));
            params.push(p);
        }
        let mut ids: Vec<Vec<u32>> = params.iter().map(|p| vec![u32::MAX; p.footprint_pages as usize]).collect();
        let mut t = Trace {
            path: format!("synthetic-apps(seed={})", self.seed).into(),
            format: "synthetic",
            accesses: accesses.into(),
            page_pids: Some(Vec::new()),
            ..Default::default()
        };
        let mut procs = super::ProcTable::default();
        for i in 0..self.apps.len() {
            procs.set(0, i as u32 + 1, if i == 0 { 0 } else { super::procs::MAX_ADJ });
        }
        let n = self.apps.len();
        for round in 0..self.rounds {
            for (i, (st, p)) in states.iter_mut().zip(&params).enumerate() {
                let at = t.accesses.len() as u64;
                if (round, i) != (0, 0) && n > 1 {
                    procs.set(at, i as u32 + 1, 0);
                    procs.set(at, ((i + n - 1) % n) as u32 + 1, PREVIOUS_ADJ);
                    if n > 2 && (round > 0 || i >= 2) {
                        procs.set(at, ((i + n - 2) % n) as u32 + 1, CACHED_ADJ);
                    }
                }
                for _ in 0..self.accesses_per_turn {
                    let (op, page) = st.next(&mut rng, p);
                    let slot = &mut ids[i][page as usize];
                    if *slot == u32::MAX {
                        *slot = t.page_numbers.len() as u32;
                        t.page_numbers.push(st.page_number(page));
                        if let Some(pids) = t.page_pids.as_mut() {
                            pids.push(i as u32 + 1);
                        }
                    }
                    t.accesses.push(pack(*slot, op));
                }
            }
        }
        t.procs = Some(procs);
        Ok(t)
    }
}
