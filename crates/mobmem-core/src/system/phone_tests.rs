//! The phone's presets, overrides and checks.

use super::*;
use crate::device::Catalog;

#[test]
fn presets_resolve_and_validate() {
    let phones = Phones::builtin();
    let cat = Catalog::builtin();
    for n in phones.names() {
        let p = phones.get(n, &toml::Table::new()).unwrap();
        p.validate(&cat).unwrap();
    }
    let g = phones.get("gt-i9300", &toml::Table::new()).unwrap();
    let l = g.layout().unwrap();
    assert_eq!(l.frames, 460 * 256);
    assert_eq!(l.swap_pages, 262144);
    // sqrt(16 × 471040 KiB) = 2745 KiB → 686 pages; step = max(171, 117) pages.
    assert_eq!((l.min, l.low, l.high), (686, 857, 1028));
    let mut o = toml::Table::new();
    o.insert("swap".into(), "off".into());
    assert_eq!(phones.get("gt-i9300", &o).unwrap().layout().unwrap().swap_pages, 0);
}

#[test]
fn bad_phones_name_the_field() {
    let phones = Phones::builtin();
    let cat = Catalog::builtin();
    let with = |k: &str, v: toml::Value| {
        let mut o = toml::Table::new();
        o.insert(k.into(), v);
        phones.get("gt-i9300", &o)
    };
    let e = with("reserved", "2GiB".into()).unwrap().layout().unwrap_err().to_string();
    assert!(e.contains("reserved"), "{e}");
    let e = with("policy", "opt".into()).unwrap().validate(&cat).unwrap_err().to_string();
    assert!(e.contains("policy"), "{e}");
    let e = with("killer", "nope".into()).unwrap().validate(&cat).unwrap_err().to_string();
    assert!(e.contains("minfree"), "{e}");
    // Switching policy or killer drops the preset's parameters for the old one.
    let p = with("killer", "psi".into()).unwrap();
    assert!(p.killer_params.is_empty());
    p.validate(&cat).unwrap();
    let p = with("policy", "clock".into()).unwrap();
    assert!(p.params.is_empty());
    assert!(!with("policy", "linux-2q".into()).unwrap().params.is_empty());
    let e = with("direct_read", true.into()).unwrap().validate(&cat).unwrap_err().to_string();
    assert!(e.contains("Direct Read"), "{e}");
    let e = with("colour", "red".into()).unwrap_err().to_string();
    assert!(e.contains("colour"), "{e}");
    let e = phones.get("pixel", &toml::Table::new()).unwrap_err().to_string();
    assert!(e.contains("gt-i9300"), "{e}");
    let mut ux = toml::Table::new();
    ux.insert("crisp_ms".into(), 5000.0.into());
    let e = with("ux", ux.into()).unwrap().validate(&cat).unwrap_err().to_string();
    assert!(e.contains("ux"), "{e}");
    let t = UxThresholds::default();
    assert_eq!([t.class(10.0), t.class(150.0), t.class(1999.0), t.class(4000.0), t.class(9000.0)], UxClass::ALL);
}

#[test]
fn a_system_process_share_outside_zero_to_one_is_named() {
    let phones = Phones::builtin();
    let cat = Catalog::builtin();
    for field in ["write_share", "hot_share", "hot_prob"] {
        let t: toml::Table = toml::from_str(&format!(
            "[[system]]\nname = \"s\"\nadj = -900\nanon_mib = 8.0\nfile_mib = 8.0\n{field} = 1.5\n"
        ))
        .unwrap();
        let p = phones.get("nexus5", &t).unwrap();
        let e = p.validate(&cat).unwrap_err().to_string();
        assert!(e.contains(field) && e.contains("1.5"), "{e}");
    }
    // Unset, they are the apps' defaults: a hot fifth of its pages takes nine touches in ten.
    let p = phones.get("nexus5", &toml::Table::new()).unwrap();
    assert!(p.system.iter().all(|s| s.hot_share == 0.2 && s.hot_prob == 0.9));
}

#[test]
fn a_phones_file_naming_a_preset_overrides_only_what_it_sets() {
    let mut phones = Phones::builtin();
    let before = phones.get("nexus5", &toml::Table::new()).unwrap();
    let text = "[nexus5]\ndram = \"3GiB\"\n[nexus5.ux]\ncrisp_ms = 100.0\n[mine]\ndram = \"1GiB\"\n";
    phones.add_toml(text, std::path::Path::new("p.toml")).unwrap();
    let after = phones.get("nexus5", &toml::Table::new()).unwrap();
    assert_eq!(after.dram.to_string(), "3GiB");
    assert_eq!(after.ux.crisp_ms, 100.0);
    // Every other field is the preset's, not a default: its swap, storage, system processes, killer
    // parameters and the rest of its UX thresholds.
    let ux = UxThresholds { crisp_ms: 100.0, ..before.ux.clone() };
    assert_eq!(after, Phone { dram: after.dram, ux, ..before });
    assert_eq!(phones.get("mine", &toml::Table::new()).unwrap().system, vec![]);
    // A bad override names the phone, the field and the file.
    let e = phones.add_toml("[nexus5]\nsession_s = \"long\"\n", std::path::Path::new("q.toml")).unwrap_err();
    let e = e.to_string();
    assert!(e.contains("nexus5.session_s") && e.contains("q.toml"), "{e}");
    // A new phone still needs its DRAM, and the error names the line.
    let e = phones.add_toml("[other]\nswap = \"off\"\n", std::path::Path::new("r.toml")).unwrap_err().to_string();
    assert!(e.contains("r.toml") && e.contains("dram"), "{e}");
}

#[test]
fn a_setting_that_swap_off_makes_meaningless_is_refused_when_the_user_sets_it() {
    let phones = Phones::builtin();
    let get = |pairs: &[(&str, toml::Value)]| {
        let o: toml::Table = pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        phones.get("gt-i9300", &o)
    };
    // The preset's swap size stays, unused, when a run turns its swap off.
    assert_eq!(get(&[("swap", "off".into())]).unwrap().layout().unwrap().swap_pages, 0);
    for (field, v) in [("swap_size", toml::Value::from("1GiB")), ("page_cluster", 3.into())] {
        let e = get(&[("swap", "off".into()), (field, v.clone())]).unwrap_err().to_string();
        assert!(e.contains(field) && e.contains("swap is off"), "{e}");
        // With swap on, the same value is taken.
        get(&[(field, v)]).unwrap();
    }
    // Read-around 0 is off, as swap off is.
    get(&[("swap", "off".into()), ("page_cluster", 0.into())]).unwrap();
    // A phones file's own phone is the user's table whole.
    let mut more = Phones::builtin();
    let text = "[mine]\ndram = \"1GiB\"\nswap = \"off\"\nswap_size = \"256MiB\"\n";
    let e = more.add_toml(text, std::path::Path::new("p.toml")).unwrap_err().to_string();
    assert!(e.contains("mine.swap_size") && e.contains("p.toml") && e.contains("swap is off"), "{e}");
}

#[test]
fn a_finite_cost_whose_totals_would_overflow_is_refused_by_name() {
    let phones = Phones::builtin();
    let cat = Catalog::builtin();
    for field in ["active_mw", "dram_mw_per_gib", "kswapd_max_backlog_ms", "write_amplification"] {
        let o: toml::Table = [(field.to_string(), toml::Value::from(1e300))].into_iter().collect();
        let e = phones.get("nexus5", &o).unwrap().validate(&cat).unwrap_err().to_string();
        assert!(e.contains(field) && e.contains("overflow"), "{field}: {e}");
        // The bound itself is taken.
        let o: toml::Table = [(field.to_string(), toml::Value::from(1e18))].into_iter().collect();
        phones.get("nexus5", &o).unwrap().validate(&cat).unwrap();
    }
}

#[test]
fn a_phones_reclaim_pass_is_its_own_name_and_the_page_levels_is_refused_with_a_pointer() {
    let phones = Phones::builtin();
    let one = |k: &str| -> toml::Table { [(k.to_string(), toml::Value::from(8))].into_iter().collect() };
    assert_eq!(phones.get("nexus5", &one("reclaim_pass")).unwrap().reclaim_pass, 8);
    assert_eq!(phones.get("nexus5", &toml::Table::new()).unwrap().reclaim_pass, crate::kernel::SWAP_CLUSTER_MAX as u32);
    let e = phones.get("nexus5", &one("reclaim_batch")).unwrap_err().to_string();
    assert!(e.contains("reclaim_batch") && e.contains("reclaim_pass"), "{e}");
}

#[test]
fn every_phone_field_has_help_and_the_shared_ones_their_own_defaults() {
    use crate::config::{PageCluster, SimConfig, SHARED_FIELDS};
    // Serde's names are the knobs' names, each with a help line (no trailing full stop).
    let v = serde_json::to_value(Phone::default()).unwrap();
    let mut a: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    let mut b: Vec<&str> = PHONE_FIELDS.iter().map(|f| f.0).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    assert!(PHONE_FIELDS.iter().all(|(_, h)| !h.is_empty() && !h.ends_with('.')), "{PHONE_FIELDS:?}");
    // Both levels have every shared knob, each with its level's default.
    let sim: Vec<&str> = crate::config::SIM_FIELDS.iter().map(|f| f.0).collect();
    assert!(SHARED_FIELDS.iter().all(|f| b.contains(f) && sim.contains(f)), "{SHARED_FIELDS:?}");
    let (page, phone) = (SimConfig::default().shared(), Phone::default().shared());
    assert_eq!((page.policy.as_str(), phone.policy.as_str()), ("clock", "linux-2q"));
    assert_eq!((page.page_cluster, phone.page_cluster), (PageCluster::OFF, PageCluster::LINUX));
    assert_eq!(page.swap_cache, phone.swap_cache);
    // The schema marks them.
    let s = schema();
    let f = s["fields"].as_array().unwrap();
    assert!(f.iter().any(|f| f["name"] == "policy" && f["shared"] == true && f["default"] == "linux-2q"));
    assert!(f.iter().any(|f| f["name"] == "killer" && f["shared"] == false));
    // A phone's swap cache is its own knob now: "keep" on zram parses and resolves.
    let phones = Phones::builtin();
    let mut o = toml::Table::new();
    o.insert("swap_cache".into(), "keep".into());
    let p = phones.get("nexus5", &o).unwrap();
    assert_eq!(p.swap_cache, crate::config::SwapCache::Keep);
    p.validate(&Catalog::builtin()).unwrap();
}
