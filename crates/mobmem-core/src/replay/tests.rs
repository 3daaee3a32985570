use super::*;
use crate::policy::IoCosts;
use crate::system::categories::{category, CATEGORY_ANON_RW_SHARE};
use crate::trace::Compression;

/// A round-robin trace of a Table III category: apps whose adj changes as each comes to the
/// foreground in its turn.
fn apps(rounds: u32) -> Trace {
    category("news", rounds, 20_000, 7, CATEGORY_ANON_RW_SHARE).unwrap().generate().unwrap()
}

/// Replays a round-robin trace under A2S with ESS always holding (every anon page kept), so
/// that the OOM killer must act; the engine's counts stay consistent.
struct Kills;

impl PolicyVisitor for Kills {
    type Output = std::result::Result<(u64, u64), String>;
    fn visit<P: Policy>(self, name: &'static str) -> Self::Output {
        let t = category("gaming", 4, 5_000, 3, CATEGORY_ANON_RW_SHARE).unwrap().generate().unwrap();
        let frames = t.num_pages() / 4;
        let setup = PolicySetup::new(frames, t.space(), IoCosts::default());
        let policy = P::new(&setup, P::Params::default()).map_err(|e| e.to_string())?;
        let params: toml::Table = toml::from_str("t_live = 0").unwrap();
        let (a, _) = crate::swap::admission::build("a2s", &params).map_err(|e| e.to_string())?;
        let (timeline, owners) = Timeline::new(&t);
        let mut s = Setup::new(frames, u64::MAX, &Default::default());
        s.admission = Some((a, owners));
        s.oom_kill = true;
        let feed = Feed { trace: &t, stream: None, timeline: Some(timeline) };
        let m = feed.run(Engine::build(policy, t.space(), s)).map_err(|x| format!("{name}: {x}"))?;
        Ok((m.swap_outs, m.oom_kills))
    }
}

#[test]
fn the_oom_killer_keeps_a_run_going_for_every_policy() {
    for name in policy::NAMES.iter().filter(|p| !policy::needs_tiers(p)) {
        let (outs, kills) = policy::dispatch(name, Kills).unwrap().unwrap();
        assert_eq!(outs, 0, "{name}");
        assert!(kills > 0, "{name}");
    }
}

#[test]
fn a_run_cut_where_the_processes_change_and_in_chunks_counts_what_a_whole_run_counts() {
    let dir = std::env::temp_dir().join(format!("mobmem-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let t = apps(3);
    let path = dir.join("apps.mobt");
    crate::write_trace(&t, &path, "binary", Compression::None).unwrap();
    let read = crate::read_trace(&path, &ReadOptions::default()).unwrap();
    assert_eq!(read.procs, t.procs, "the binary format keeps the process table");
    let changes = t.procs.as_ref().unwrap().changes.len();
    assert!(changes > 10, "the trace's processes must change ({changes} changes)");
    let catalog = Catalog::builtin();
    let mut configs = Vec::new();
    for (admission, params) in [("a2s", "t_reuse = 2"), ("adj-limit", ""), ("off", "")] {
        for policy in ["clock", "linux-2q", "mglru", "lru"] {
            configs.push(SimConfig {
                policy: policy.into(),
                swap_admission: admission.into(),
                swap_admission_params: toml::from_str(params).unwrap(),
                ..SimConfig::new("30%".parse().unwrap())
            });
        }
    }
    for policy in policy::hybrid::NAMES.iter().chain(&["lru"]) {
        let tiers = crate::config::TierConfig { pcm_share: 0.8, ..Default::default() };
        configs.push(SimConfig {
            policy: (*policy).into(),
            tiers: Some(tiers),
            ..SimConfig::new("40%".parse().unwrap())
        });
    }
    for c in &configs {
        let whole = simulate(&t, &t.stats(c.page_size), c, &catalog).unwrap();
        let what = format!("{} {} tiers={}", c.policy, c.swap_admission, c.tiers.is_some());
        assert!(whole.meters.faults > 0 && whole.meters.accesses == t.len() as u64, "{what}");
        for chunk in [997, 1 << 20] {
            let streamed = simulate_stream_by(&path, &ReadOptions::default(), c, &catalog, chunk).unwrap();
            assert_eq!(streamed.meters, whole.meters, "{what} in chunks of {chunk}");
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_oom_killer_counts_a_process_s_swapped_pages_as_linux_does() {
    // Under adj-limit with zram, background apps' pages go to zram, whose pool takes the frames:
    // a kill must be able to take a process whose pages are all swapped, or the run is out of
    // memory with nothing resident (Linux's oom_badness counts rss and swap entries).
    let t = category("mix1", 3, 60_000, 2, CATEGORY_ANON_RW_SHARE).unwrap().generate().unwrap();
    let catalog = Catalog::builtin();
    for policy in ["clock", "lru", "linux-2q"] {
        let c = SimConfig {
            policy: policy.into(),
            swap: "zram-writeback".into(),
            swap_admission: "adj-limit".into(),
            ..SimConfig::new("20%".parse().unwrap())
        };
        let r = simulate(&t, &t.stats(c.page_size), &c, &catalog).unwrap_or_else(|e| panic!("{policy}: {e}"));
        assert!(r.meters.oom_kills > 0 && r.meters.accesses == t.len() as u64, "{policy}");
    }
}
