//! Tells the tests whether the real data of `../shared/data` is beside this checkout, so that a
//! test needing it is reported as ignored, with its reason, where it is absent — never passed
//! silently.

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/appusage");
    println!("cargo::rustc-check-cfg=cfg(shared_data)");
    println!("cargo::rerun-if-changed={}", dir.display());
    if dir.join("launches_all_users.csv.gz").exists() {
        println!("cargo::rustc-cfg=shared_data");
    }
}
