//! Every kind of thing is one file plus one registry line. A file whose line was forgotten is
//! compiled (its `mod` line is there) but unreachable by name: this test compares each registry's
//! lines with the files beside it, so the forgotten line fails here. Trace formats have their own
//! test (`trace/formats/mod.rs`), the CLI's commands theirs (tests/test_cli.py).

use std::collections::BTreeSet;
use std::path::Path;

/// The modules a registry macro's lines name (`"lru" => lru::Lru : "…"` names `lru`).
fn registered(mod_rs: &str, macro_name: &str) -> BTreeSet<String> {
    let start = mod_rs.find(&format!("\n{macro_name}! {{")).unwrap_or_else(|| panic!("no {macro_name}! block"));
    let block = &mod_rs[start..];
    let block = &block[..block.find("\n}").unwrap()];
    block
        .lines()
        .filter_map(|l| l.split_once("=>").map(|(_, rest)| rest.trim()))
        .filter_map(|rest| rest.split_once("::").map(|(m, _)| m.to_string()))
        .collect()
}

/// The `.rs` files of `dir` other than `mod.rs` and the helpers named.
fn entries(dir: &Path, helpers: &[&str]) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter_map(|e| e.path().file_stem().map(|s| s.to_string_lossy().into_owned()).filter(|_| e.path().is_file()))
        .filter(|m| m != "mod" && !helpers.contains(&m.as_str()) && !m.ends_with("_tests"))
        .collect()
}

#[test]
fn every_registry_names_every_file_beside_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // (directory, its macro, modules there that are not entries, how many names the core knows)
    let registries: [(&str, &str, &[&str], usize); 5] = [
        ("policy", "policies", &["list", "tlb"], mobmem_core::policy::NAMES.len()),
        ("policy/hybrid", "tier_policies", &["stacked"], mobmem_core::policy::hybrid::NAMES.len()),
        ("swap/admission", "admissions", &[], mobmem_core::swap::admission::NAMES.len()),
        ("swap/backend", "backends", &[], mobmem_core::swap::backend::NAMES.len()),
        ("system/killer", "killers", &[], mobmem_core::system::killer::NAMES.len()),
    ];
    for (dir, macro_name, helpers, known) in registries {
        let dir = src.join(dir);
        let text = std::fs::read_to_string(dir.join("mod.rs")).unwrap();
        let lines = registered(&text, macro_name);
        let files = entries(&dir, helpers);
        assert_eq!(files, lines, "{}: files vs the lines of {macro_name}!", dir.display());
        assert_eq!(known, lines.len(), "{macro_name}!: names the core lists");
        assert!(!lines.is_empty());
    }
}
