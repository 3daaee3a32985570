//! Tells the tests whether the real data of `../shared/data` is beside this checkout, so that a
//! test needing it is reported as ignored, with its reason, where it is absent — never passed
//! silently.
//!
//! What Cargo watches decides when this reruns (and the crate rebuilds): a path that does not exist
//! counts as changed at every build, so only paths that exist are named. With the data there, its
//! file; with `../shared` there but not the data, that directory (the data appearing is noticed);
//! with neither, this file alone (a checkout outside that layout never rebuilds for it).

fn main() {
    let shared = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    let data = shared.join("data/appusage/launches_all_users.csv.gz");
    println!("cargo::rustc-check-cfg=cfg(shared_data)");
    if data.exists() {
        println!("cargo::rerun-if-changed={}", data.display());
        println!("cargo::rustc-cfg=shared_data");
    } else if shared.is_dir() {
        println!("cargo::rerun-if-changed={}", shared.display());
    } else {
        println!("cargo::rerun-if-changed=build.rs");
    }
}
