//! Golden fault counts: tiny committed traces (a slice of a real sqlite3 Lackey capture and a
//! synthetic trace) with the miss counts libCacheSim's cachesim printed for the same policy and
//! size. The test loops over every registered policy, so a policy without an entry fails here.

mod common;

use mobmem_core::policy::NAMES;
use mobmem_core::{read_trace, ReadOptions};

#[test]
fn every_policy_matches_its_golden_fault_counts() {
    let text = std::fs::read_to_string(common::data("golden_faults.json")).unwrap();
    let golden: serde_json::Value = serde_json::from_str(&text).unwrap();
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
