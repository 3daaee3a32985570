//! The core's layers point one way: the two drivers — the system level (the phone) and the
//! page-trace driver (`replay`) — are built on the engine, the policies, swap, devices and traces,
//! never the other way. A `crate::system` or `crate::replay` below them fails here (tests excepted:
//! a test may drive a lower layer with a system-level workload).

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_layer_below_the_drivers_reaches_up_into_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut upward = Vec::new();
    for layer in ["trace", "engine", "policy", "swap", "device", "energy"] {
        let mut files = Vec::new();
        rust_files(&src.join(layer), &mut files);
        assert!(!files.is_empty(), "{layer}: no source files");
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for (i, line) in code.lines().enumerate() {
                let line = line.trim_start();
                if !line.starts_with("//") && (line.contains("crate::system") || line.contains("crate::replay")) {
                    upward.push(format!("{}:{}", f.display(), i + 1));
                }
            }
        }
    }
    assert!(upward.is_empty(), "reaching up into a driver: {upward:?}");
}
