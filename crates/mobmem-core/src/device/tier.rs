//! Memory tiers: DRAM or PCM as main memory, accessed directly by the CPU. A tier model gives the
//! cost of one memory operation (read or write of `access_bytes`, see `TierConfig`): latency, energy
//! per bit, and static power per GiB. Presets in `presets.toml` under `[tiers.NAME]` carry Table 1
//! of the hybrid DRAM+PCM paper; users add their own in a devices file the same way.

use super::DeviceKind;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// A tier as written in TOML.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TierSpec {
    #[serde(default)]
    description: String,
    kind: DeviceKind,
    read_ns: f64,
    write_ns: f64,
    read_nj_per_bit: f64,
    write_nj_per_bit: f64,
    #[serde(default)]
    static_mw_per_gib: f64,
    #[serde(default)]
    endurance_cycles: Option<u64>,
    #[serde(default)]
    source: String,
}

/// A resolved tier model.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct TierModel {
    pub name: String,
    pub description: String,
    pub kind: DeviceKind,
    /// Latency of one memory operation, ns.
    pub read_ns: f64,
    pub write_ns: f64,
    pub read_nj_per_bit: f64,
    pub write_nj_per_bit: f64,
    /// Static (refresh, leakage) power per GiB of the tier, mW.
    pub static_mw_per_gib: f64,
    /// Writes a cell endures; none = unlimited (DRAM).
    pub endurance_cycles: Option<u64>,
    pub source: String,
}

impl TierSpec {
    pub(super) fn resolve(self, name: &str) -> Result<TierModel> {
        if matches!(self.kind, DeviceKind::Flash | DeviceKind::Zram) {
            return Err(Error::config(
                format!("tiers.{name}.kind"),
                format!("a memory tier is dram or nvm, not {}", self.kind.as_str()),
            ));
        }
        for (f, v) in [
            ("read_ns", self.read_ns),
            ("write_ns", self.write_ns),
            ("read_nj_per_bit", self.read_nj_per_bit),
            ("write_nj_per_bit", self.write_nj_per_bit),
            ("static_mw_per_gib", self.static_mw_per_gib),
        ] {
            if !(v >= 0.0 && v.is_finite()) {
                return Err(Error::config(format!("tiers.{name}.{f}"), format!("{v} must be a number ≥ 0")));
            }
            crate::limits::per_op(format!("tiers.{name}.{f}"), v)?;
        }
        if self.endurance_cycles == Some(0) {
            return Err(Error::config(
                format!("tiers.{name}.endurance_cycles"),
                "0 writes: leave it out for unlimited",
            ));
        }
        Ok(TierModel {
            name: name.to_string(),
            description: self.description,
            kind: self.kind,
            read_ns: self.read_ns,
            write_ns: self.write_ns,
            read_nj_per_bit: self.read_nj_per_bit,
            write_nj_per_bit: self.write_nj_per_bit,
            static_mw_per_gib: self.static_mw_per_gib,
            endurance_cycles: self.endurance_cycles,
            source: self.source,
        })
    }
}
