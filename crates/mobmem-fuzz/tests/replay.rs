//! The kept inputs (`tests/data/fuzz/<target>/`) replayed under the harness's limits: every one,
//! a crasher of some class once, must now be read or refused cleanly, within 10 s and 1 GiB.

use std::path::PathBuf;
use std::process::Command;

fn kept() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/fuzz")
}

fn replay(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mobmem-fuzz")).arg("replay").arg(kept()).args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn every_kept_input_passes_under_the_limits() {
    let (ok, text) = replay(&[]);
    assert!(ok, "{text}");
    // Each class of the hostile-input findings is kept, and each file was run.
    for class in [
        "binary/header-accesses-2e38.mobt",
        "compressed/header-accesses-2e38.mobt.zst",
        "lackey/size-near-2e64.lackey",
        "usage/gap-1e300.csv",
        "usage/epoch-0-row-before-real-times.csv",
        "usage/nine-years-idle.csv",
        "apps-toml/bg-pages-4g.toml",
        "phones-toml/system-pages-4g.toml",
    ] {
        assert!(text.contains(&format!("ok   {}", kept().join(class).display())), "{class} not replayed:\n{text}");
    }
}

#[test]
fn the_crasher_classes_pass_under_a_small_address_space_too() {
    // A quarter of the harness's limit: what the readers allocate is bounded by the input.
    let (ok, text) = replay(&["--memory-mib", "256"]);
    assert!(ok, "{text}");
}

#[test]
fn the_limits_are_enforced() {
    // So small that no worker can even start: every input must fail, as memory or a crash, and
    // the harness must say so instead of hanging or passing.
    let (ok, text) = replay(&["--memory-mib", "4"]);
    assert!(!ok, "{text}");
    assert!(text.contains("FAIL") && (text.contains(" memory:") || text.contains(" crash:")), "{text}");
    assert!(!text.contains("\nok "), "{text}");
}
