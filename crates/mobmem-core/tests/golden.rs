//! Golden fault counts: tiny committed traces (a slice of a real sqlite3 Lackey capture and a
//! synthetic trace) with the miss counts libCacheSim's cachesim printed for the same policy and
//! size; policies libCacheSim does not have are pinned to mobmem's own counts (the file's `source`
//! says which are which). The test loops over every registered policy, so a policy without an entry
//! fails here.

mod common;

use mobmem_core::policy::NAMES;
use mobmem_core::{read_trace, ReadOptions};

#[test]
fn every_policy_matches_its_golden_fault_counts() {
    let text = std::fs::read_to_string(common::data("golden_faults.json")).unwrap();
    let golden: serde_json::Value = serde_json::from_str(&text).unwrap();
    let sources = golden["source"].as_object().unwrap();
    for &policy in NAMES {
        assert!(
            sources.keys().any(|k| k.split(' ').any(|p| p == policy)),
            "golden_faults.json does not say where {policy:?}'s counts come from"
        );
    }
    let traces = golden["traces"].as_object().unwrap();
    assert!(traces.len() >= 2);
    for (name, d) in traces {
        let t = read_trace(&common::data(name), &ReadOptions::default()).unwrap();
        assert_eq!(t.len() as u64, d["accesses"].as_u64().unwrap(), "{name}");
        for &policy in NAMES {
            let sizes = d["faults"][policy]
                .as_object()
                .unwrap_or_else(|| panic!("no golden fault counts for policy {policy:?} on {name}"));
            for (frames, want) in sizes {
                let r = common::run(&t, policy, frames.parse().unwrap());
                assert_eq!(r.meters.faults, want.as_u64().unwrap(), "{policy} on {name} with {frames} frames");
            }
        }
    }
}

#[test]
fn spo_clock_with_one_region_gives_libcachesim_clock_counts() {
    let text = std::fs::read_to_string(common::data("golden_faults.json")).unwrap();
    let golden: serde_json::Value = serde_json::from_str(&text).unwrap();
    for (name, d) in golden["traces"].as_object().unwrap() {
        let t = read_trace(&common::data(name), &ReadOptions::default()).unwrap();
        for (frames, want) in d["faults"]["clock"].as_object().unwrap() {
            let r = common::run_cfg(&t, "spo-clock", frames.parse().unwrap(), |c| {
                c.params.insert("split".into(), "none".into());
            });
            assert_eq!(r.meters.faults, want.as_u64().unwrap(), "spo-clock split=none on {name}, {frames} frames");
        }
    }
}
