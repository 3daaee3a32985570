//! A whole run described in TOML: `[trace]`, `[sim]` and the devices it defines.

use super::SimConfig;
use crate::device::Catalog;
use crate::error::{Error, Result};
use crate::trace::ReadOptions;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The `[trace]` section of a run file.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceSection {
    pub path: PathBuf,
    #[serde(default)]
    pub format: Option<String>,
    #[serde(default)]
    pub skip_bad_lines: bool,
    /// A process table side file (pid → oom_score_adj over time), relative to the run file.
    #[serde(default)]
    pub procs: Option<PathBuf>,
}

/// A whole run described in TOML: `[trace]`, `[sim]` (a `SimConfig`), optional `[devices.NAME]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunFile {
    pub trace: TraceSection,
    pub sim: SimConfig,
    /// As written: a table named as a preset overrides its fields (`Catalog::add_table`).
    #[serde(default)]
    pub devices: toml::Table,
}

/// A run file's `[devices]`, typed from its text so that an error names its line.
#[derive(Deserialize)]
struct DevicesOf {
    #[serde(default)]
    devices: crate::device::DeviceFile,
}

impl RunFile {
    /// Loads a run file; relative trace paths are relative to the file. Returns the run, the
    /// device catalog (presets plus the file's devices) and the read options.
    pub fn load(path: &Path) -> Result<(RunFile, Catalog, ReadOptions)> {
        Self::load_with(path, &[])
    }

    /// Loads a run file with settings given over it, as a command line's flags are: each of `set` is
    /// `DOTTED.KEY=VALUE` (`sim.swap=ufs31`, `sim.params.ain_ratio=0.3`, `trace.path=t.txt`), the
    /// value read as a TOML value (`0.3`, `true`, `"x"`) or else as a string. Paths given so are
    /// relative to the working directory, as a flag's are; the file's own, to the file.
    pub fn load_with(path: &Path, set: &[String]) -> Result<(RunFile, Catalog, ReadOptions)> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        // The file alone first, so that its own mistakes are reported with its line.
        let mut rf: RunFile = crate::error::from_toml(path, &text)?;
        if let Some(dir) = path.parent() {
            if rf.trace.path.is_relative() {
                rf.trace.path = dir.join(&rf.trace.path);
            }
            if let Some(p) = rf.trace.procs.as_mut().filter(|p| p.is_relative()) {
                *p = dir.join(&*p);
            }
        }
        if !set.is_empty() {
            let mut doc: toml::Table = toml::from_str(&text).map_err(|e| Error::toml(path, &text, e))?;
            // The file's paths, resolved above, stand unless a setting replaces them.
            let trace = doc.entry("trace").or_insert_with(|| toml::Value::Table(toml::Table::new()));
            if let toml::Value::Table(t) = trace {
                t.insert("path".into(), toml::Value::String(rf.trace.path.display().to_string()));
                if let Some(p) = &rf.trace.procs {
                    t.insert("procs".into(), toml::Value::String(p.display().to_string()));
                }
            }
            let settings = set.iter().map(|s| parse(s)).collect::<Result<Vec<_>>>()?;
            // The file's [sim.params] are its policy's: another policy given over it starts
            // without them (what the flags and settings give still applies).
            let other_policy =
                settings.iter().any(|(k, v)| k == &["sim", "policy"] && v.as_str().is_some_and(|p| p != rf.sim.policy));
            if other_policy {
                if let Some(toml::Value::Table(sim)) = doc.get_mut("sim") {
                    sim.remove("params");
                }
            }
            for (key, value) in settings {
                apply(&mut doc, key, value)?;
            }
            rf = serde_path_to_error::deserialize(toml::Value::Table(doc)).map_err(|e| {
                let key = e.path().to_string();
                Error::config(key, format!("{} (with {})", e.into_inner().message().trim(), set.join(", ")))
            })?;
        }
        let mut catalog = Catalog::builtin();
        catalog.add_table(rf.devices.clone(), path, || {
            if set.is_empty() {
                let typed: DevicesOf = crate::error::from_toml(path, &text)?;
                return Ok(typed.devices);
            }
            // Settings given over the file may have changed its devices: typed from the result.
            serde_path_to_error::deserialize(toml::Value::Table(rf.devices.clone())).map_err(|e| {
                let key = e.path().to_string();
                Error::config(
                    format!("devices.{key}"),
                    format!("{} (with {})", e.into_inner().message().trim(), set.join(", ")),
                )
            })
        })?;
        rf.sim.validate(&catalog)?;
        let opts = ReadOptions {
            format: rf.trace.format.clone(),
            skip_bad_lines: rf.trace.skip_bad_lines,
            procs: rf.trace.procs.clone(),
            ..Default::default()
        };
        Ok((rf, catalog, opts))
    }
}

/// One `DOTTED.KEY=VALUE` setting: the key's parts and the value.
fn parse(setting: &str) -> Result<(Vec<String>, toml::Value)> {
    let Some((key, value)) = setting.split_once('=') else {
        return Err(Error::config("--set", format!("{setting:?}: not KEY=VALUE (e.g. sim.swap=ufs31)")));
    };
    let parts: Vec<String> = key.trim().split('.').map(str::to_string).collect();
    if parts.iter().any(String::is_empty) {
        return Err(Error::config("--set", format!("{setting:?}: an empty part in the key {:?}", key.trim())));
    }
    let value = toml::from_str::<toml::Table>(&format!("v = {value}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(value.to_string()));
    Ok((parts, value))
}

/// Sets one setting in a run file's document.
fn apply(doc: &mut toml::Table, parts: Vec<String>, value: toml::Value) -> Result<()> {
    let (last, tables) = parts.split_last().expect("a key has at least one part");
    let mut cur = doc;
    for (i, part) in tables.iter().enumerate() {
        let entry = cur.entry(part.clone()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
        cur = match entry {
            toml::Value::Table(t) => t,
            other => {
                return Err(Error::config(
                    "--set",
                    format!("{}: {} is a value ({other}), not a table", parts.join("."), parts[..=i].join(".")),
                ))
            }
        };
    }
    cur.insert(last.clone(), value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run file in a directory of this test's own (removed when dropped).
    struct Dir(PathBuf);
    impl Dir {
        fn path(&self) -> &Path {
            &self.0
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn file(body: &str, name: &str) -> (Dir, PathBuf) {
        let dir = std::env::temp_dir().join(format!("mobmem-runfile-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("run.toml");
        std::fs::write(&p, body).unwrap();
        (Dir(dir), p)
    }

    const RUN: &str = "[trace]\npath = \"t.txt\"\n[sim]\nmemory = \"10%\"\npolicy = \"clock\"\n";

    #[test]
    fn settings_override_the_file_and_keep_its_paths() {
        let (dir, p) = file(RUN, "over");
        let (rf, _, _) = RunFile::load(&p).unwrap();
        assert_eq!(rf.sim.policy, "clock");
        assert_eq!(rf.trace.path, dir.path().join("t.txt"));
        let set = ["sim.policy=2q".to_string(), "sim.memory=25%".into(), "sim.params.ain_ratio=0.3".into()];
        let (rf, _, _) = RunFile::load_with(&p, &set).unwrap();
        assert_eq!(rf.sim.policy, "2q");
        assert_eq!(
            format!("{:?}", rf.sim.memory),
            format!("{:?}", RunFile::load_with(&p, &["sim.memory=\"25%\"".into()]).unwrap().0.sim.memory)
        );
        assert_ne!(format!("{:?}", rf.sim.memory), format!("{:?}", RunFile::load(&p).unwrap().0.sim.memory));
        assert_eq!(rf.sim.params.get("ain_ratio").and_then(|v| v.as_float()), Some(0.3));
        // The file's trace path stays relative to the file; one set is taken as given.
        assert_eq!(rf.trace.path, dir.path().join("t.txt"));
        // Another policy starts without the file's policy parameters; the same policy keeps them.
        let (dir2, p2) = file(&format!("{RUN}[sim.params]\ninsert_referenced = true\n"), "params");
        let (rf, _, _) = RunFile::load_with(&p2, &["sim.policy=lru".into()]).unwrap();
        assert!(rf.sim.params.is_empty());
        let (rf, _, _) = RunFile::load_with(&p2, &["sim.policy=clock".into()]).unwrap();
        assert_eq!(rf.sim.params.get("insert_referenced").and_then(|v| v.as_bool()), Some(true));
        assert_eq!(rf.trace.path, dir2.path().join("t.txt"));
        let (rf, _, _) = RunFile::load_with(&p, &["trace.path=other.txt".into()]).unwrap();
        assert_eq!(rf.trace.path, PathBuf::from("other.txt"));
    }

    #[test]
    fn bad_settings_name_the_setting() {
        let (_dir, p) = file(RUN, "bad");
        let err = |s: &str| RunFile::load_with(&p, &[s.to_string()]).unwrap_err().to_string();
        assert!(err("sim.policy").contains("not KEY=VALUE"), "{}", err("sim.policy"));
        assert!(err("sim..x=1").contains("empty part"));
        assert!(err("sim.policy.x=1").contains("sim.policy is a value"));
        let e = err("sim.nope=1");
        assert!(e.contains("nope") && e.contains("sim.nope=1"), "{e}");
        let e = err("sim.policy=nosuch");
        assert!(e.contains("nosuch"), "{e}");
    }
}
