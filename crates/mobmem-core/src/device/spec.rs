//! A device as written in TOML (latency as ns or IOPS, bandwidth tables, energy per operation),
//! checked and resolved into a `Device`.

use super::{bandwidth_at, Device, DeviceKind};
use crate::energy::EnergyModel;
use crate::error::{Error, Result};
use serde::Deserialize;
use std::collections::BTreeMap;

/// A device as written in TOML: latency as ns or IOPS, exactly one of each pair.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DeviceSpec {
    #[serde(default)]
    description: String,
    kind: DeviceKind,
    read_ns: Option<f64>,
    write_ns: Option<f64>,
    read_iops: Option<f64>,
    write_iops: Option<f64>,
    read_nj: Option<f64>,
    write_nj: Option<f64>,
    background_mw: Option<f64>,
    capacity_bytes: Option<u64>,
    endurance_cycles: Option<u64>,
    /// A Table-II energy model (see `energy/models.toml`); fields left out are derived from it.
    energy_model: Option<String>,
    /// Bandwidth by request size: `[[KiB, MB/s], ...]`, sizes increasing. With a table, a request's
    /// service time is its size over the bandwidth at that size (so larger requests are faster per
    /// byte, as the eMMC paper's Table VIII measured), and a missing `read_ns` / `write_ns` is the
    /// time of one page at the table's bandwidth.
    read_bw: Option<Vec<[f64; 2]>>,
    write_bw: Option<Vec<[f64; 2]>>,
    /// NVM only: what a load served in place (Direct Read) costs beyond the same load from DRAM, ns
    /// per page touch. Without it a read of a mapped page would be free, and NVM would look faster
    /// than DRAM.
    mapped_read_ns: Option<f64>,
    /// zram only: uncompressed over stored bytes, allocator overhead included (zram's
    /// `orig_data_size / mem_used_total`); ≥ 1.
    compression_ratio: Option<f64>,
    /// As swap: the backend keeping its pages (`mobmem devices --backends`); by kind when absent.
    /// The name is checked where the device becomes a run's swap (`swap::backend::build`), so the
    /// device layer does not read the swap layer above it.
    backend: Option<String>,
    /// The backend's parameters (zram-writeback: its backing device, idle time, daily limit).
    #[serde(default)]
    backend_params: toml::Table,
    #[serde(default)]
    source: String,
}

/// Checks a `[[KiB, MB/s], ...]` table and converts it to bytes and bytes/s.
fn bw_table(name: &str, field: &str, t: Option<Vec<[f64; 2]>>) -> Result<Vec<(f64, f64)>> {
    let Some(t) = t else { return Ok(Vec::new()) };
    let err = |msg: String| Error::config(format!("devices.{name}.{field}"), msg);
    if t.is_empty() {
        return Err(err("needs at least one [KiB, MB/s] point".into()));
    }
    let mut prev = 0.0;
    for &[kib, mbps] in &t {
        if !(kib > prev && kib.is_finite()) {
            return Err(err(format!("request sizes must be positive and increasing; {kib} KiB after {prev}")));
        }
        if !(mbps > 0.0 && mbps.is_finite()) {
            return Err(err(format!("{mbps} MB/s at {kib} KiB is not a bandwidth")));
        }
        // A page's share of the request's time: a cost that totals must hold.
        crate::limits::per_op(format!("devices.{name}.{field}"), 4096.0 / (mbps * 1e6) * 1e9)?;
        prev = kib;
    }
    // MB/s as storage vendors and blktrace print it: 10^6 bytes per second.
    Ok(t.iter().map(|&[kib, mbps]| (kib * 1024.0, mbps * 1e6)).collect())
}

fn latency(name: &str, op: &str, ns: Option<f64>, iops: Option<f64>, derived: Option<f64>) -> Result<f64> {
    let field = |f: &str| format!("devices.{name}.{op}_{f}");
    let v = match (ns, iops) {
        (Some(ns), None) => ns,
        (None, Some(iops)) => {
            if !(iops > 0.0 && iops.is_finite()) {
                return Err(Error::config(field("iops"), format!("{iops} is not a positive rate")));
            }
            1e9 / iops
        }
        (Some(_), Some(_)) => return Err(Error::config(field("ns"), format!("give {op}_ns or {op}_iops, not both"))),
        (None, None) => match derived {
            Some(v) => v,
            None => return Err(Error::config(field("ns"), format!("missing: give {op}_ns or {op}_iops"))),
        },
    };
    if !(v >= 0.0 && v.is_finite()) {
        return Err(Error::config(field("ns"), format!("{v} is not a latency")));
    }
    crate::limits::per_op(field("ns"), v)
}

impl DeviceSpec {
    pub(super) fn resolve(self, name: &str, models: &BTreeMap<String, EnergyModel>) -> Result<Device> {
        let derived = match &self.energy_model {
            Some(m) => Some(
                models
                    .get(m)
                    .ok_or_else(|| {
                        let known: Vec<_> = models.keys().cloned().collect();
                        Error::config(
                            format!("devices.{name}.energy_model"),
                            format!("unknown energy model {m:?}; known: {}", known.join(", ")),
                        )
                    })?
                    .per_page(4096),
            ),
            None => None,
        };
        let energy = |f: &str, v: Option<f64>, d: Option<f64>| -> Result<f64> {
            let v = v.or(d).unwrap_or(0.0);
            if !(v >= 0.0 && v.is_finite()) {
                return Err(Error::config(format!("devices.{name}.{f}"), format!("{v} must be ≥ 0")));
            }
            crate::limits::per_op(format!("devices.{name}.{f}"), v)
        };
        let compression_ratio = match (self.kind, self.compression_ratio) {
            (DeviceKind::Zram, Some(r)) if r >= 1.0 && r.is_finite() => Some(r),
            (DeviceKind::Zram, Some(r)) => {
                return Err(Error::config(
                    format!("devices.{name}.compression_ratio"),
                    format!("{r} is not a ratio ≥ 1 (uncompressed over stored bytes)"),
                ))
            }
            (DeviceKind::Zram, None) => {
                return Err(Error::config(
                    format!("devices.{name}.compression_ratio"),
                    "missing: a zram device needs its ratio (e.g. 2.5)",
                ))
            }
            (k, Some(_)) => {
                return Err(Error::config(
                    format!("devices.{name}.compression_ratio"),
                    format!("only a zram device compresses; this one is {}", k.as_str()),
                ))
            }
            (_, None) => None,
        };
        let mapped_read_ns = match (self.kind, self.mapped_read_ns) {
            (_, None) => 0.0,
            (DeviceKind::Nvm, Some(v)) if v >= 0.0 && v.is_finite() => {
                crate::limits::per_op(format!("devices.{name}.mapped_read_ns"), v)?
            }
            (DeviceKind::Nvm, Some(v)) => {
                return Err(Error::config(format!("devices.{name}.mapped_read_ns"), format!("{v} is not a time ≥ 0")))
            }
            (k, Some(_)) => {
                return Err(Error::config(
                    format!("devices.{name}.mapped_read_ns"),
                    format!("only an NVM device serves reads in place; this one is {}", k.as_str()),
                ))
            }
        };
        let read_bw = bw_table(name, "read_bw", self.read_bw)?;
        let write_bw = bw_table(name, "write_bw", self.write_bw)?;
        let page_ns = |t: &[(f64, f64)]| (!t.is_empty()).then(|| 4096.0 / bandwidth_at(t, 4096.0) * 1e9);
        let derived_read = page_ns(&read_bw).or(derived.map(|d| d.read_ns));
        let derived_write = page_ns(&write_bw).or(derived.map(|d| d.write_ns));
        Ok(Device {
            name: name.to_string(),
            description: self.description,
            kind: self.kind,
            read_ns: latency(name, "read", self.read_ns, self.read_iops, derived_read)?,
            write_ns: latency(name, "write", self.write_ns, self.write_iops, derived_write)?,
            read_nj: energy("read_nj", self.read_nj, derived.map(|d| d.read_nj))?,
            write_nj: energy("write_nj", self.write_nj, derived.map(|d| d.write_nj))?,
            background_mw: energy("background_mw", self.background_mw, derived.map(|d| d.background_mw))?,
            capacity_bytes: self.capacity_bytes,
            endurance_cycles: self.endurance_cycles,
            energy_model: self.energy_model,
            read_bw,
            write_bw,
            mapped_read_ns,
            compression_ratio,
            backend: self.backend.unwrap_or_else(|| self.kind.default_backend().to_string()),
            backend_params: self.backend_params,
            source: self.source,
        })
    }
}
