//! Run configuration: typed, loaded from TOML or built by the CLI / Python, validated with the
//! path of the offending field in the error.

use crate::device::Catalog;
use crate::error::{Error, Result};
use crate::policy;
use crate::trace::ReadOptions;
use crate::units::MemorySize;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

fn d_policy() -> String {
    "clock".into()
}
fn d_swap() -> String {
    "optane-m10".into()
}
fn d_storage() -> String {
    "ufs31".into()
}
fn d_page() -> u64 {
    4096
}
fn d_cpu() -> f64 {
    1.0
}

/// One page-level simulation: memory size, policy, devices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimConfig {
    /// DRAM for pages: frames (`1024`), bytes (`64MiB`) or a share of the footprint (`10%`).
    pub memory: MemorySize,
    #[serde(default = "d_policy")]
    pub policy: String,
    /// The policy's parameters (see each policy file).
    #[serde(default)]
    pub params: toml::Table,
    /// Swap device (a device name).
    #[serde(default = "d_swap")]
    pub swap: String,
    /// File-store device (a device name).
    #[serde(default = "d_storage")]
    pub storage: String,
    /// Swap capacity; unlimited when absent (the SPO-CLOCK setting: swap = whole footprint).
    #[serde(default)]
    pub swap_size: Option<MemorySize>,
    #[serde(default = "d_page")]
    pub page_size: u64,
    /// CPU time of one access that hits, in ns.
    #[serde(default = "d_cpu")]
    pub cpu_ns_per_access: f64,
    /// Direct Read (DR. Swap): read faults on swapped pages map the NVM page in place. Needs a swap
    /// device of kind `nvm`.
    #[serde(default)]
    pub direct_read: bool,
    /// Up time t_TOTAL of the swap area for its energy model (eqs. 1, 6, 13), in seconds; the
    /// simulated time when absent.
    #[serde(default)]
    pub energy_duration_s: Option<f64>,
}

impl SimConfig {
    pub fn new(memory: MemorySize) -> Self {
        SimConfig {
            memory,
            policy: d_policy(),
            params: toml::Table::new(),
            swap: d_swap(),
            storage: d_storage(),
            swap_size: None,
            page_size: d_page(),
            cpu_ns_per_access: d_cpu(),
            direct_read: false,
            energy_duration_s: None,
        }
    }

    pub fn validate(&self, catalog: &Catalog) -> Result<()> {
        if !self.page_size.is_power_of_two() || self.page_size < 512 {
            return Err(Error::config("page_size", format!("{} is not a power of two ≥ 512", self.page_size)));
        }
        if !(self.cpu_ns_per_access >= 0.0 && self.cpu_ns_per_access.is_finite()) {
            return Err(Error::config("cpu_ns_per_access", format!("{} is not a time ≥ 0", self.cpu_ns_per_access)));
        }
        policy::resolved_params(&self.policy, &self.params)?;
        let swap = catalog.get(&self.swap, "swap")?;
        catalog.get(&self.storage, "storage")?;
        if self.direct_read && swap.kind != crate::device::DeviceKind::Nvm {
            return Err(Error::config(
                "direct_read",
                format!("Direct Read needs a byte-addressable NVM swap device; {:?} is {:?}", self.swap, swap.kind),
            ));
        }
        if let Some(d) = self.energy_duration_s {
            if !(d > 0.0 && d.is_finite()) {
                return Err(Error::config("energy_duration_s", format!("{d} is not a positive duration")));
            }
        }
        Ok(())
    }
}

/// The `[trace]` section of a run file.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceSection {
    pub path: PathBuf,
    #[serde(default)]
    pub format: Option<String>,
    #[serde(default)]
    pub skip_bad_lines: bool,
}

/// A whole run described in TOML: `[trace]`, `[sim]` (a `SimConfig`), optional `[devices.NAME]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunFile {
    pub trace: TraceSection,
    pub sim: SimConfig,
    #[serde(default)]
    pub devices: toml::Table,
}

impl RunFile {
    /// Loads a run file; relative trace paths are relative to the file. Returns the run, the
    /// device catalog (presets plus the file's devices) and the read options.
    pub fn load(path: &Path) -> Result<(RunFile, Catalog, ReadOptions)> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let mut rf: RunFile = toml::from_str(&text).map_err(|e| Error::toml(path, &text, e))?;
        if rf.trace.path.is_relative() {
            if let Some(dir) = path.parent() {
                rf.trace.path = dir.join(&rf.trace.path);
            }
        }
        let mut catalog = Catalog::builtin();
        if !rf.devices.is_empty() {
            catalog.add_toml(&toml::to_string(&rf.devices).map_err(|e| Error::Invariant(e.to_string()))?, path)?;
        }
        rf.sim.validate(&catalog)?;
        let opts = ReadOptions { format: rf.trace.format.clone(), skip_bad_lines: rf.trace.skip_bad_lines };
        Ok((rf, catalog, opts))
    }
}
