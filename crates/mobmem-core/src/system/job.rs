//! System-level runs as data: which usage trace (a file, the eMMC paper's rounds, or the A2S-style
//! generator), which phone with which overrides, which seed. Many jobs run on a thread pool, as
//! page-level grids do.

use super::catalog::AppCatalog;
use super::meters::PhoneResult;
use super::phone::Phones;
use super::sim::{simulate_phone, PhoneRun};
use super::synthetic_usage::Rare;
use super::usage::{emmc_apps, UsageTrace};
use crate::device::Catalog;
use crate::error::Result;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

fn d_rounds() -> u32 {
    3
}

/// Where the launches come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum UsageSpec {
    /// A usage CSV (`time_s,app` or `timestamp_seconds,app[,user]`).
    File { path: PathBuf, user: Option<String> },
    /// The eMMC swap paper's scenario: apps (its ten games by default) loaded in order, then
    /// `rounds` more rounds in order or in random order, each launch `gap_s` after the previous
    /// one (0: the next app is launched as soon as the previous one has loaded, as in the paper).
    Rounds {
        #[serde(default)]
        apps: Option<Vec<String>>,
        #[serde(default = "d_rounds")]
        rounds: u32,
        #[serde(default)]
        random: bool,
        #[serde(default)]
        seed: u64,
        #[serde(default)]
        gap_s: f64,
    },
    /// A2S-style: `apps` distinct apps over `launches` launches with average reuse distance
    /// `reuse` (in distinct apps), `gap_s` apart; `rare` of them launched only a few times.
    Synthetic {
        apps: u32,
        launches: u32,
        reuse: f64,
        seed: u64,
        gap_s: f64,
        #[serde(default)]
        rare: Rare,
    },
    /// Launches written out: (time in s, app) pairs in time order.
    Launches { launches: Vec<(f64, String)> },
}

impl UsageSpec {
    pub fn load(&self) -> Result<UsageTrace> {
        match self {
            UsageSpec::File { path, user } => UsageTrace::load(path, user.as_deref()),
            UsageSpec::Rounds { apps, rounds, random, seed, gap_s } => {
                let default = emmc_apps();
                let names: Vec<&str> = apps.as_ref().unwrap_or(&default).iter().map(|s| s.as_str()).collect();
                UsageTrace::rounds(&names, *rounds, *random, *seed, *gap_s)
            }
            UsageSpec::Synthetic { apps, launches, reuse, seed, gap_s, rare } => {
                UsageTrace::synthetic(*apps, *launches, *reuse, *rare, *seed, *gap_s)
            }
            UsageSpec::Launches { launches } => UsageTrace::from_launches(launches),
        }
    }
}

/// One system-level run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhoneJob {
    pub phone: String,
    /// Phone fields laid over the preset.
    #[serde(default)]
    pub overrides: toml::Table,
    pub usage: UsageSpec,
    #[serde(default)]
    pub seed: u64,
    /// Check conservation invariants after every launch.
    #[serde(default)]
    pub checks: bool,
}

/// What jobs may name besides the built-ins.
pub struct Library {
    pub phones: Phones,
    pub apps: AppCatalog,
    pub devices: Catalog,
}

impl Library {
    pub fn builtin() -> Library {
        Library { phones: Phones::builtin(), apps: AppCatalog::builtin(), devices: Catalog::builtin() }
    }

    pub fn run(&self, job: &PhoneJob) -> Result<PhoneResult> {
        let phone = self.phones.get(&job.phone, &job.overrides)?;
        let usage = job.usage.load()?;
        simulate_phone(&PhoneRun {
            phone_name: &job.phone,
            phone: &phone,
            usage: &usage,
            apps: &self.apps,
            devices: &self.devices,
            seed: job.seed,
            checks: job.checks,
        })
    }

    /// Runs `jobs` on `threads` threads (0 = all cores); results in the jobs' order.
    pub fn run_all(&self, jobs: &[PhoneJob], threads: usize) -> Vec<Result<PhoneResult>> {
        crate::parallel::parallel(jobs.len(), threads, |i| self.run(&jobs[i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launches_written_out_load_in_order_and_bad_ones_name_their_place() {
        let l: UsageSpec =
            serde_json::from_str(r#"{"kind": "launches", "launches": [[0, "a"], [5, "b"], [9.5, "a"]]}"#).unwrap();
        let u = l.load().unwrap();
        assert_eq!(u.apps, ["a", "b"]);
        assert_eq!(u.launches.iter().map(|x| (x.time_s, x.app)).collect::<Vec<_>>(), [(0.0, 0), (5.0, 1), (9.5, 0)]);
        let back = UsageTrace::from_launches(&[(3.0, "a".into()), (1.0, "b".into())]).unwrap_err().to_string();
        assert!(back.contains("launches[1]") && back.contains("before"), "{back}");
        let nan = UsageTrace::from_launches(&[(f64::NAN, "a".into())]).unwrap_err().to_string();
        assert!(nan.contains("launches[0]"), "{nan}");
        let empty = UsageTrace::from_launches(&[(0.0, " ".into())]).unwrap_err().to_string();
        assert!(empty.contains("empty"), "{empty}");
    }

    #[test]
    fn specs_load_and_errors_name_the_field() {
        let r: UsageSpec = serde_json::from_str(r#"{"kind": "rounds", "random": true, "seed": 3}"#).unwrap();
        let u = r.load().unwrap();
        assert_eq!(u.launches.len(), 40);
        assert_eq!(u.apps.len(), 10);
        let s: UsageSpec = serde_json::from_str(
            r#"{"kind": "synthetic", "apps": 12, "launches": 256, "reuse": 2.23, "seed": 1, "gap_s": 60}"#,
        )
        .unwrap();
        assert_eq!(s.load().unwrap().stats().distinct_apps, 12);
        let e = serde_json::from_str::<UsageSpec>(r#"{"kind": "rounds", "colour": 1}"#).unwrap_err().to_string();
        assert!(e.contains("colour"), "{e}");
        let bad = UsageSpec::Rounds { apps: None, rounds: 1, random: false, seed: 0, gap_s: -1.0 };
        assert!(bad.load().unwrap_err().to_string().contains("gap_s"));
        let f = UsageSpec::File { path: "/nonexistent/u.csv".into(), user: None };
        assert!(f.load().unwrap_err().to_string().contains("/nonexistent/u.csv"));
    }
}
