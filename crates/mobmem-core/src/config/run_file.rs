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
    #[serde(default)]
    pub devices: crate::device::DeviceFile,
}

impl RunFile {
    /// Loads a run file; relative trace paths are relative to the file. Returns the run, the
    /// device catalog (presets plus the file's devices) and the read options.
    pub fn load(path: &Path) -> Result<(RunFile, Catalog, ReadOptions)> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let mut rf: RunFile = crate::error::from_toml(path, &text)?;
        if let Some(dir) = path.parent() {
            if rf.trace.path.is_relative() {
                rf.trace.path = dir.join(&rf.trace.path);
            }
            if let Some(p) = rf.trace.procs.as_mut().filter(|p| p.is_relative()) {
                *p = dir.join(&*p);
            }
        }
        let mut catalog = Catalog::builtin();
        catalog.add_file(rf.devices.clone())?;
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
