//! App-usage traces: which app the user brings to the foreground, and when. The system-level model
//! replays them (DESIGN.md, "one engine, two ways in").
//!
//! Format: CSV with a header; a time column (`time_s`, or `timestamp_seconds` as in the public
//! app-usage windows of `../shared/data/appusage/`) and `app`; an optional `user` column, in which
//! case one user must be chosen. Times never go back. Consecutive launches of the same app are one
//! launch (the app stayed in the foreground), as the A2S paper and the data's README do.
//!
//! Built-in scenarios: the eMMC swap paper's (ten apps loaded in order, then three more rounds in
//! order or in random order) and a generator that hits a target number of distinct apps and a
//! target average reuse distance (A2S's Small / Medium / Large workloads).

use crate::error::{Error, Result};
use crate::trace::gen::Rng;
use crate::trace::table::Table;
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// An app list of the built-in catalog (`[[lists]]` in `apps.toml`).
fn builtin_list(name: &str) -> Vec<String> {
    crate::system::catalog::AppCatalog::builtin().list(name).map(|l| l.apps.clone()).unwrap_or_default()
}

/// The eMMC swap paper's ten games (Table V), in the order its scenario loads them.
pub fn emmc_apps() -> Vec<String> {
    builtin_list("emmc-swap.games")
}

/// The A2S paper's Large workload (Table 1), most launched first: names for generated usage.
pub fn a2s_apps() -> Vec<String> {
    builtin_list("a2s.large")
}

/// Longest span a usage trace may cover, in seconds (ten years). Simulated time is kept in f64
/// nanoseconds since the first launch, so a step rounds to at most 32 ns over this span (to a
/// fraction of a ns over the real logs' days); a longer span is a wrong timestamp (an epoch-0 row
/// before real ones spans 54 years), not a usage log.
pub const MAX_SPAN_S: f64 = 10.0 * 365.25 * 86400.0;

/// What one launch costs a run from end to end: its launch here, its record in the result, that
/// record as JSON and, from Python, as a dict (1.25 KiB measured at 10^6 launches through `mobmem
/// phone`). Launch counts asked for are checked against the memory available with it, before
/// anything is built.
pub const BYTES_PER_LAUNCH: u64 = 1536;

/// Checks a generated scenario's gap between launches.
pub(super) fn check_gap(gap_s: f64, launches: u64) -> Result<()> {
    if !(gap_s >= 0.0 && gap_s.is_finite()) {
        return Err(Error::config("gap_s", format!("{gap_s:?} is not a number of seconds ≥ 0")));
    }
    if gap_s * launches as f64 > MAX_SPAN_S {
        return Err(Error::config(
            "gap_s",
            format!("{launches} launches {gap_s:?} s apart span more than ten years (at most {MAX_SPAN_S:.0} s)"),
        ));
    }
    Ok(())
}

/// One launch: the app (index into `UsageTrace::apps`) comes to the foreground at `time_s`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Launch {
    pub time_s: f64,
    pub app: u32,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct UsageTrace {
    pub path: PathBuf,
    pub apps: Vec<String>,
    pub launches: Vec<Launch>,
    /// Rows merged into the launch before them (same app again).
    pub merged: u64,
    /// SHA-256 (hex) of the file's bytes as they were read (none for generated usage).
    pub digest: Option<String>,
}

/// Reuse statistics of a launch sequence.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct UsageStats {
    pub launches: u64,
    pub distinct_apps: u64,
    /// Launches that reuse an app launched before.
    pub reuses: u64,
    /// Mean number of launches between two consecutive launches of an app.
    pub avg_reuse_distance_launches: f64,
    /// Mean number of distinct other apps launched in between (the LRU stack distance): what the
    /// A2S paper's Table 1 figures (2.23, 4.56, 6.10) correspond to.
    pub avg_reuse_distance_apps: f64,
    /// Launches per app, most used first: (app, launches).
    pub popularity: Vec<(String, u64)>,
}

impl UsageTrace {
    pub(super) fn push(&mut self, index: &mut HashMap<String, u32>, time_s: f64, app: &str) {
        let n = self.apps.len() as u32;
        let id = *index.entry(app.to_string()).or_insert_with(|| {
            self.apps.push(app.to_string());
            n
        });
        if self.launches.last().is_some_and(|l| l.app == id) {
            self.merged += 1;
        } else {
            self.launches.push(Launch { time_s, app: id });
        }
    }

    /// Reads a usage CSV; `user` picks one user when the file has a `user` column.
    pub fn load(path: &Path, user: Option<&str>) -> Result<UsageTrace> {
        const TIME: usize = 0;
        const APP: usize = 1;
        const USER: usize = 2;
        let cols: &[&[&str]] = &[&["time_s", "timestamp_seconds"], &["app"], &["user"]];
        let table = Table::read(path, "usage trace", cols, &[TIME, APP])?;
        let by_user = table.has(USER);
        if let (false, Some(u)) = (by_user, user) {
            return Err(Error::config(
                "user",
                format!("user {u:?} chosen, but {} has no user column (one user's launches)", path.display()),
            ));
        }
        if by_user && user.is_none() {
            return Err(Error::config("user", format!("{} holds several users' launches: choose one", path.display())));
        }
        let mut t = UsageTrace { path: path.to_path_buf(), digest: Some(table.digest.clone()), ..Default::default() };
        let mut index = HashMap::new();
        let mut last = f64::NEG_INFINITY;
        let mut first: Option<(f64, u64)> = None;
        let mut users_seen = std::collections::BTreeSet::new();
        for r in table.rows() {
            if let (true, Some(u)) = (by_user, user) {
                users_seen.insert(r.get(USER).to_string());
                if r.get(USER) != u {
                    continue;
                }
            }
            let time: f64 = r
                .get(TIME)
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| r.bad(format!("time {:?} is not a number of seconds", r.get(TIME))))?;
            let text = r.get(TIME);
            if time < 0.0 {
                return Err(r.bad(format!("time {text} is negative")));
            }
            if time < last {
                return Err(r.bad(format!("time {text} goes back (previous {last:?})")));
            }
            let (t0, line0) = *first.get_or_insert((time, r.line));
            if time - t0 > MAX_SPAN_S {
                let years = (time - t0) / (365.25 * 86400.0);
                let years = if years < 1e4 { format!("{years:.1}") } else { format!("{years:.2e}") };
                return Err(r.bad(format!(
                    "time {text} is {years} years after the first launch (line {line0}, time {t0:?}): a usage \
                     trace spans at most ten years; is a timestamp wrong?"
                )));
            }
            last = time;
            if r.get(APP).is_empty() {
                return Err(r.bad("empty app name"));
            }
            t.push(&mut index, time, r.get(APP));
        }
        if t.launches.is_empty() {
            let msg = match user {
                Some(u) if by_user => {
                    let known: Vec<_> = users_seen.into_iter().collect();
                    format!("no launches of user {u:?}; users: {}", known.join(", "))
                }
                _ => "no launches".to_string(),
            };
            return Err(Error::format(path, table.end_line, msg));
        }
        Ok(t)
    }

    /// The eMMC swap paper's scenario (its Fig. 6): the apps loaded once in order, then `rounds`
    /// more rounds, in the same order or each in a random order (seeded; a round never starts with
    /// the app the previous one ended with, which would merge two launches). `gap_s` apart.
    pub fn rounds(apps: &[&str], rounds: u32, random: bool, seed: u64, gap_s: f64) -> Result<UsageTrace> {
        if apps.len() < 2 {
            return Err(Error::config("apps", "a switching scenario needs at least two apps"));
        }
        let launches = apps.len() as u64 * (rounds as u64 + 1);
        check_gap(gap_s, launches)?;
        crate::limits::ensure_fits("rounds", "launches", launches, BYTES_PER_LAUNCH)?;
        let mut rng = Rng::new(seed);
        let mut t = UsageTrace { path: "scenario".into(), ..Default::default() };
        let mut index = HashMap::new();
        let mut order: Vec<usize> = (0..apps.len()).collect();
        let mut time = 0.0;
        for r in 0..=rounds {
            if random && r > 0 {
                let prev_last = *order.last().expect("two apps or more");
                loop {
                    for i in (1..order.len()).rev() {
                        order.swap(i, rng.below(i as u64 + 1) as usize);
                    }
                    if order[0] != prev_last {
                        break;
                    }
                }
            }
            for &a in &order {
                t.push(&mut index, time, apps[a]);
                time += gap_s;
            }
        }
        Ok(t)
    }

    /// Launches given as (time, app) pairs, in time order (a scenario written out, as a
    /// reproduction does for a paper's procedure).
    pub fn from_launches(launches: &[(f64, String)]) -> Result<UsageTrace> {
        crate::limits::ensure_fits("launches", "launches", launches.len() as u64, BYTES_PER_LAUNCH)?;
        let mut t = UsageTrace { path: "launches".into(), ..Default::default() };
        let mut index = HashMap::new();
        let mut prev = 0.0;
        for (i, (time_s, app)) in launches.iter().enumerate() {
            let field = format!("launches[{i}]");
            if !(time_s.is_finite() && (0.0..=MAX_SPAN_S).contains(time_s)) {
                return Err(Error::config(field, format!("time {time_s:?} is not between 0 and {MAX_SPAN_S:.0} s")));
            }
            if *time_s < prev {
                return Err(Error::config(field, format!("time {time_s} is before the launch before it ({prev})")));
            }
            if app.trim().is_empty() {
                return Err(Error::config(field, "an app name is empty"));
            }
            prev = *time_s;
            t.push(&mut index, *time_s, app.trim());
        }
        Ok(t)
    }

    pub fn stats(&self) -> UsageStats {
        let mut history = crate::swap::history::History::new(self.apps.len());
        let mut count = vec![0u64; self.apps.len()];
        let (mut dl, mut da, mut reuses) = (0u64, 0u64, 0u64);
        for l in &self.launches {
            count[l.app as usize] += 1;
            if let Some([launches, apps]) = history.launch(l.app as usize) {
                reuses += 1;
                dl += launches;
                da += apps;
            }
        }
        let mut popularity: Vec<(String, u64)> =
            self.apps.iter().cloned().zip(count.iter().copied()).filter(|x| x.1 > 0).collect();
        popularity.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let avg = |s: u64| if reuses > 0 { s as f64 / reuses as f64 } else { 0.0 };
        UsageStats {
            launches: self.launches.len() as u64,
            distinct_apps: popularity.len() as u64,
            reuses,
            avg_reuse_distance_launches: avg(dl),
            avg_reuse_distance_apps: avg(da),
            popularity,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file(name: &str, text: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("mobmem-usage-{}-{name}", std::process::id()));
        std::fs::File::create(&p).unwrap().write_all(text.as_bytes()).unwrap();
        p
    }

    #[test]
    fn reads_merges_and_measures() {
        let p = file("a.csv", "time_s,app\n0,a\n10,a\n20,b\n30,c\n40,a\n50,b\n");
        let t = UsageTrace::load(&p, None).unwrap();
        assert_eq!(t.launches.len(), 5);
        assert_eq!(t.merged, 1);
        let s = t.stats();
        // a again after b, c; b again after c, a: two launches and two distinct apps between, each.
        assert_eq!((s.launches, s.distinct_apps, s.reuses), (5, 3, 2));
        assert_eq!(s.avg_reuse_distance_launches, 2.0);
        assert_eq!(s.avg_reuse_distance_apps, 2.0);
        assert_eq!(s.popularity[0], ("a".to_string(), 2));
        // The file's content hash, as read: what keys a stored run of it.
        use sha2::{Digest, Sha256};
        let want: String = Sha256::digest(std::fs::read(&p).unwrap()).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(t.digest, Some(want));
    }

    #[test]
    fn users_are_chosen_and_errors_name_the_line() {
        let p = file("u.csv", "user,timestamp_seconds,app\nx,1,a\ny,2,b\nx,3,c\n");
        assert!(UsageTrace::load(&p, None).unwrap_err().to_string().contains("choose one"));
        assert_eq!(UsageTrace::load(&p, Some("x")).unwrap().launches.len(), 2);
        let one = file("one.csv", "time_s,app\n1,a\n");
        let e = UsageTrace::load(&one, Some("x")).unwrap_err().to_string();
        assert!(e.contains("no user column"), "{e}");
        let e = UsageTrace::load(&p, Some("z")).unwrap_err().to_string();
        assert!(e.contains("users: x, y"), "{e}");
        for (text, want) in [
            ("time_s,app\n5,a\n4,b\n", ":3: time 4 goes back"),
            ("time_s,app\nsoon,a\n", ":2: time \"soon\""),
            ("time_s,app,colour\n", "unknown column \"colour\""),
            ("app\n", "required column \"time_s\""),
            ("time_s,app\n1,\n", "empty app name"),
            ("time_s,app\n", "no launches"),
            ("time_s,app\n-5,a\n", ":2: time -5 is negative"),
            ("time_s,app\n0,a\n1e300,b\n", ":3: time 1e300 is 3.17e292 years after the first launch (line 2"),
            ("time_s,app\n0,a\n1700000000,b\n", ":3: time 1700000000 is 53.9 years after"),
            ("time_s,app\n1,a\ninf,b\n", ":3: time \"inf\" is not a number"),
            ("time_s,app\n1,a\nNaN,b\n", ":3: time \"NaN\" is not a number"),
        ] {
            let e = UsageTrace::load(&file("bad.csv", text), None).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }

    #[test]
    fn generated_gaps_are_checked() {
        for gap in [-5.0, f64::NAN, f64::INFINITY, 1e300] {
            let e = UsageTrace::rounds(&["a", "b"], 3, false, 1, gap).unwrap_err().to_string();
            assert!(e.contains("gap_s"), "{gap}: {e}");
        }
    }

    #[test]
    fn emmc_scenario_rounds() {
        let apps = ["a", "b", "c", "d"];
        let t = UsageTrace::rounds(&apps, 3, false, 1, 60.0).unwrap();
        assert_eq!(t.launches.len(), 16);
        assert_eq!(t.launches[4].app, 0);
        let r = UsageTrace::rounds(&apps, 3, true, 1, 60.0).unwrap();
        assert_eq!(r.launches.len(), 16, "no launches merged");
        for round in r.launches.chunks(4) {
            let mut a: Vec<u32> = round.iter().map(|l| l.app).collect();
            a.sort();
            assert_eq!(a, vec![0, 1, 2, 3]);
        }
        assert_ne!(r.launches, t.launches);
    }
}
