//! Device presets, user files and their errors.

use super::*;
use std::path::Path;

#[test]
fn presets_resolve_iops_to_latency() {
    let c = Catalog::builtin();
    let ufs = c.get("ufs31", "swap").unwrap();
    assert_eq!(ufs.read_ns, 10_000.0);
    assert!((ufs.write_ns - 14_285.714).abs() < 0.01);
    let optane = c.get("optane-m10", "swap").unwrap();
    assert!((optane.read_ns - 5263.158).abs() < 0.01);
    assert_eq!(optane.kind, DeviceKind::Nvm);
    assert!(c.get("dram-ramdisk", "swap").is_ok());
}

#[test]
fn user_energy_models_in_a_devices_file() {
    let mut c = Catalog::builtin();
    let text = "[energy_models.slow-pcm]\nkind = \"lpddr\"\npre_pdn_mw = 0.1\npre_stby_mw = 1\nact_pdn_mw = 0.1\n\
                act_stby_mw = 1\nref_mw = 0\nact_mw = 100\nrd_mw = 100\nwr_mw = 300\ndq_mw = 20\nt_ck_ns = 10\n\
                t_rcd_ns = 100\nt_wr_ns = 20\nrl_cycles = 4\nwl_cycles = 2\nbl = 8\nbw_bits = 16\n\
                chip_bytes = 1073741824\n\n[my-nvm]\nkind = \"nvm\"\nenergy_model = \"slow-pcm\"\n";
    c.add_toml(text, Path::new("mine.toml")).unwrap();
    let d = c.get("my-nvm", "swap").unwrap();
    // Eq. (2) + tRCD for one page: 256 commands × 4 cycles + RL 4, at 10 ns, + 100 ns.
    assert!((d.read_ns - ((256.0 * 4.0 + 4.0) * 10.0 + 100.0)).abs() < 1e-6);
    assert!(c.model("slow-pcm").is_ok());
    let bad = "[energy_models.x]\nkind = \"lpddr\"\npre_pdn_mw = 1\n";
    let e = c.add_toml(bad, Path::new("mine.toml")).unwrap_err().to_string();
    assert!(e.contains("mine.toml"), "{e}");
}

#[test]
fn swap_backends_by_kind_by_name_and_their_errors() {
    let c = Catalog::builtin();
    let backend = |n: &str| c.get(n, "swap").unwrap().backend.clone();
    assert_eq!((backend("emmc-inand"), backend("zram-lz4")), ("block".into(), "zram".into()));
    let wb = crate::swap::backend::build(c.get("zram-writeback", "swap").unwrap(), &c).unwrap();
    let w = wb.effects().writeback.unwrap();
    assert_eq!((w.backing.name.as_str(), w.idle_s), ("emmc-inand", 3600.0));
    // 1 GiB a day is 1/24 of it an hour: 10,922 pages of 4 KiB.
    assert_eq!(w.limit_pages(4096), 10922);
    // Without a schedule of its own a device writes back from the first period, with no marking
    // and no bound on the partition; zram-pixel has Android's schedule and a 512 MiB partition.
    assert_eq!((w.first_s, w.mark_idle_s, w.capacity_pages(4096)), (3600.0, None, u64::MAX));
    let px = crate::swap::backend::build(c.get("zram-pixel", "swap").unwrap(), &c).unwrap();
    let w = px.effects().writeback.unwrap();
    assert_eq!((w.backing.name.as_str(), w.idle_s, w.first_s), ("ufs31", 86400.0, 86400.0));
    assert_eq!((w.mark_idle_s, w.capacity_pages(4096)), (Some(3600.0), 131072));
    let mut c2 = c.clone();
    // An unknown backend is refused where the device becomes swap, naming the field and the
    // registry.
    c2.add_toml("[x]\nkind = \"flash\"\nread_ns = 1\nwrite_ns = 1\nbackend = \"tape\"\n", Path::new("d.toml")).unwrap();
    let e = crate::swap::backend::build(c2.get("x", "swap").unwrap(), &c2).err().unwrap().to_string();
    assert!(e.contains("devices.x.backend") && e.contains("\"tape\"") && e.contains("zram-writeback"), "{e}");
    for kind in [DeviceKind::Flash, DeviceKind::Nvm, DeviceKind::Dram, DeviceKind::Zram] {
        assert!(crate::swap::backend::NAMES.contains(&kind.default_backend()), "{kind:?}");
    }
    let text = "[z]\nkind = \"zram\"\ncompression_ratio = 2.0\nread_ns = 1\nwrite_ns = 1\nbackend = \"block\"\n";
    c2.add_toml(text, Path::new("d.toml")).unwrap();
    let e = crate::swap::backend::build(c2.get("z", "swap").unwrap(), &c2).err().unwrap().to_string();
    assert!(e.contains("devices.z.backend"), "{e}");
    let text = "[w]\nkind = \"zram\"\ncompression_ratio = 2.0\nread_ns = 1\nwrite_ns = 1\nbackend = \"zram-writeback\"\n[w.backend_params]\nidle = 3\n";
    c2.add_toml(text, Path::new("d.toml")).unwrap();
    let e = crate::swap::backend::build(c2.get("w", "swap").unwrap(), &c2).err().unwrap().to_string();
    assert!(e.contains("devices.w.backend_params") && e.contains("idle"), "{e}");
}

#[test]
fn user_devices_and_errors() {
    let mut c = Catalog::builtin();
    c.add_toml("[slow]\nkind = \"flash\"\nread_ns = 100\nwrite_iops = 1000\n", Path::new("u.toml")).unwrap();
    let e = c.add_toml("[f]\nkind = \"flash\"\nread_ns = 1\nwrite_ns = 1\nmapped_read_ns = 5\n", Path::new("u.toml"));
    assert!(e.unwrap_err().to_string().contains("mapped_read_ns"));
    let e = c.add_toml("[n]\nkind = \"nvm\"\nread_ns = 1\nwrite_ns = 1\nmapped_read_ns = -1\n", Path::new("u.toml"));
    assert!(e.unwrap_err().to_string().contains("not a time"));
    assert_eq!(c.get("slow", "swap").unwrap().write_ns, 1e6);
    let e = c.add_toml("[x]\nkind = \"flash\"\nread_ns = 1\n", Path::new("u.toml")).unwrap_err();
    assert!(e.to_string().contains("write_ns"), "{e}");
    let e =
        c.add_toml("[x]\nkind = \"flash\"\nread_ns = 1\nwrite_ns = 1\nspeed = 3\n", Path::new("u.toml")).unwrap_err();
    assert!(e.to_string().contains("u.toml:5") && e.to_string().contains("speed"), "{e}");
    assert!(c.get("nope", "swap").unwrap_err().to_string().contains("known:"));
}

#[test]
fn bandwidth_tables_make_large_requests_cheaper_per_page() {
    let c = Catalog::builtin();
    let e = c.get("emmc-gt-i9300", "swap").unwrap();
    // Table VIII: 4 KB reads at 19.95 MB/s, 128 KB at 78.48 MB/s.
    assert!((e.read_ns - 4096.0 / 19.95e6 * 1e9).abs() < 1e-6);
    assert!((e.read_time_ns(32, 4096) - 131072.0 / 78.48e6 * 1e9).abs() < 1e-3);
    assert!(e.read_time_ns(32, 4096) < 32.0 * e.read_time_ns(1, 4096) / 3.0);
    // Between points: monotone in size; beyond the last point: its bandwidth.
    let mut last = 0.0;
    for pages in 1..=1024 {
        let t = e.write_time_ns(pages, 4096);
        assert!(t > last, "{pages}");
        last = t;
    }
    assert!((e.read_time_ns(1024, 4096) - 4194304.0 / 79.95e6 * 1e9).abs() < 1e-3);
    // No table: per-page latency times pages.
    let u = c.get("ufs31", "swap").unwrap();
    assert_eq!(u.read_time_ns(8, 4096), 8.0 * u.read_ns);
    let mut c = Catalog::builtin();
    let bad = "[x]\nkind = \"flash\"\nread_bw = [[8, 10], [4, 20]]\nwrite_ns = 1\n";
    let e = c.add_toml(bad, Path::new("u.toml")).unwrap_err().to_string();
    assert!(e.contains("devices.x.read_bw") && e.contains("increasing"), "{e}");
    let bad = "[x]\nkind = \"flash\"\nread_bw = [[4, 0]]\nwrite_ns = 1\n";
    assert!(c.add_toml(bad, Path::new("u.toml")).unwrap_err().to_string().contains("bandwidth"));
}

#[test]
fn a_devices_file_naming_a_preset_overrides_only_what_it_sets() {
    let mut c = Catalog::builtin();
    let before = c.get("emmc-gt-i9300", "swap").unwrap().clone();
    c.add_toml("[emmc-gt-i9300]\nwrite_nj = 1.0\n", Path::new("d.toml")).unwrap();
    let after = c.get("emmc-gt-i9300", "swap").unwrap();
    // The preset's bandwidth tables, read energy and the rest stay; only write_nj moved.
    assert_eq!(after, &Device { write_nj: 1.0, ..before.clone() });
    // A second file overrides the overridden device.
    c.add_toml("[emmc-gt-i9300]\nread_nj = 2.0\n", Path::new("e.toml")).unwrap();
    assert_eq!(c.get("emmc-gt-i9300", "swap").unwrap(), &Device { write_nj: 1.0, read_nj: 2.0, ..before });
    let e = c.add_toml("[ufs31]\nread_ns = \"fast\"\n", Path::new("f.toml")).unwrap_err().to_string();
    assert!(e.contains("devices.ufs31.read_ns") && e.contains("f.toml"), "{e}");
    // A latency given in ns replaces the preset's in IOPS (ufs31 gives IOPS).
    let mut ns = Catalog::builtin();
    ns.add_toml("[ufs31]\nread_ns = 7\n", Path::new("g.toml")).unwrap();
    let (u, preset) = (ns.get("ufs31", "swap").unwrap(), Catalog::builtin().get("ufs31", "swap").unwrap().clone());
    assert_eq!(u, &Device { read_ns: 7.0, ..preset });
}

#[test]
fn a_finite_cost_whose_totals_would_overflow_is_refused() {
    let mut c = Catalog::builtin();
    for (text, field) in [
        ("[h]\nkind = \"flash\"\nread_ns = 1e308\nwrite_ns = 1\n", "devices.h.read_ns"),
        ("[h]\nkind = \"flash\"\nread_iops = 1e-12\nwrite_ns = 1\n", "devices.h.read_ns"),
        ("[h]\nkind = \"flash\"\nread_ns = 1\nwrite_ns = 1\nwrite_nj = 1e300\n", "devices.h.write_nj"),
        ("[h]\nkind = \"flash\"\nread_bw = [[4, 1e-300]]\nwrite_ns = 1\n", "devices.h.read_bw"),
        ("[h]\nkind = \"nvm\"\nread_ns = 1\nwrite_ns = 1\nmapped_read_ns = 1e200\n", "devices.h.mapped_read_ns"),
    ] {
        let e = c.add_toml(text, Path::new("d.toml")).unwrap_err().to_string();
        assert!(e.contains(field) && e.contains("overflow"), "{text}: {e}");
    }
    // The bound itself is a cost mobmem sums.
    c.add_toml("[h]\nkind = \"flash\"\nread_ns = 1e18\nwrite_ns = 1\n", Path::new("d.toml")).unwrap();
}

#[test]
fn a_table_named_as_a_tier_or_energy_model_preset_overrides_its_fields_and_keeps_the_others() {
    // Never the preset replaced by defaults under its name: PCM's endurance, the model's other
    // powers stay.
    let builtin = Catalog::builtin();
    let mut c = Catalog::builtin();
    c.add_toml("[tiers.pcm]\nread_ns = 123\n[energy_models.lpddr2-dram]\nref_mw = 20\n", Path::new("t.toml")).unwrap();
    let pcm = builtin.tier("pcm", "pcm").unwrap();
    assert!(pcm.endurance_cycles.is_some());
    assert_eq!(c.tier("pcm", "pcm").unwrap(), &TierModel { read_ns: 123.0, ..pcm.clone() });
    use crate::energy::EnergyModel;
    let (EnergyModel::Lpddr(before), EnergyModel::Lpddr(after)) =
        (builtin.model("lpddr2-dram").unwrap(), c.model("lpddr2-dram").unwrap())
    else {
        panic!("lpddr2-dram is an LPDDR model");
    };
    assert_eq!(after, &crate::energy::LpddrModel { ref_mw: 20.0, ..before.clone() });
    // A field the preset's kind does not have is refused by its path and file.
    let e = c.add_toml("[energy_models.lpddr2-dram]\nvdd = 1.3\n", Path::new("v.toml")).unwrap_err().to_string();
    assert!(e.contains("energy_models.lpddr2-dram") && e.contains("v.toml") && e.contains("vdd"), "{e}");
    // A new name is still a whole table, typed from its text (the error names its line).
    let e = c.add_toml("[tiers.mine]\nread_ns = 1\n", Path::new("w.toml")).unwrap_err().to_string();
    assert!(e.contains("w.toml:1") && e.contains("kind"), "{e}");
}
