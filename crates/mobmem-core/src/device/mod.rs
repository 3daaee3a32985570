//! Device models as data: per-operation latency and energy, background power. Named presets live
//! in `presets.toml` (compiled in); users add their own from a TOML file of the same shape.

mod catalog;
mod spec;
mod tier;

pub use catalog::{Catalog, DeviceFile, PRESETS};
pub use tier::TierModel;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DeviceKind {
    Flash,
    Nvm,
    Dram,
    /// Compressed swap in DRAM (Linux zram): swapped pages are compressed into frames taken from
    /// main memory, `compression_ratio` pages per frame; reads and writes are CPU work.
    Zram,
}

impl DeviceKind {
    /// The name as written in TOML.
    pub fn as_str(self) -> &'static str {
        match self {
            DeviceKind::Flash => "flash",
            DeviceKind::Nvm => "nvm",
            DeviceKind::Dram => "dram",
            DeviceKind::Zram => "zram",
        }
    }

    /// The swap backend a device of this kind has when it names none: zram keeps its pages in
    /// zram, every other kind is a block device. The names are `swap::backend::NAMES`' (tested).
    pub fn default_backend(self) -> &'static str {
        match self {
            DeviceKind::Zram => "zram",
            _ => "block",
        }
    }
}

/// A resolved device model. Latency and energy are per 4 KiB page operation.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Device {
    pub name: String,
    pub description: String,
    pub kind: DeviceKind,
    pub read_ns: f64,
    pub write_ns: f64,
    pub read_nj: f64,
    pub write_nj: f64,
    pub background_mw: f64,
    pub capacity_bytes: Option<u64>,
    pub endurance_cycles: Option<u64>,
    pub energy_model: Option<String>,
    /// Bandwidth by request size (bytes, bytes/s), sizes increasing; empty = no size effect.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub read_bw: Vec<(f64, f64)>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub write_bw: Vec<(f64, f64)>,
    /// NVM: the extra time of a page touch served in place by Direct Read, ns (0 for other kinds).
    pub mapped_read_ns: f64,
    /// zram: pages stored per DRAM frame the compressed area takes (None for other kinds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compression_ratio: Option<f64>,
    /// As swap: the backend (`crate::swap::backend`) and its parameters.
    pub backend: String,
    #[serde(skip_serializing_if = "toml::Table::is_empty")]
    #[schemars(with = "crate::units::Table")]
    pub backend_params: toml::Table,
    pub source: String,
}

/// Bandwidth at `bytes` from a size table: linear in log2(size) between points, flat beyond the
/// ends.
fn bandwidth_at(table: &[(f64, f64)], bytes: f64) -> f64 {
    let (first, last) = (table[0], table[table.len() - 1]);
    if bytes <= first.0 {
        return first.1;
    }
    if bytes >= last.0 {
        return last.1;
    }
    let i = table.partition_point(|p| p.0 <= bytes);
    let (a, b) = (table[i - 1], table[i]);
    let t = (bytes.log2() - a.0.log2()) / (b.0.log2() - a.0.log2());
    a.1 + t * (b.1 - a.1)
}

impl Device {
    /// Service time of one read request of `pages` contiguous pages of `page_size` bytes.
    pub fn read_time_ns(&self, pages: u64, page_size: u64) -> f64 {
        Self::request_ns(&self.read_bw, self.read_ns, pages, page_size)
    }

    /// Service time of one write request of `pages` contiguous pages.
    pub fn write_time_ns(&self, pages: u64, page_size: u64) -> f64 {
        Self::request_ns(&self.write_bw, self.write_ns, pages, page_size)
    }

    /// Energy of `pages` page reads (each its own operation) of `page_size` bytes, in J. Device
    /// figures are per 4 KiB; other page sizes scale linearly. (Both ways in use this.)
    pub fn read_j(&self, pages: u64, page_size: u64) -> f64 {
        pages as f64 * self.read_nj * (page_size as f64 / 4096.0) * 1e-9
    }

    /// Energy of `pages` page writes of `page_size` bytes, in J.
    pub fn write_j(&self, pages: u64, page_size: u64) -> f64 {
        pages as f64 * self.write_nj * (page_size as f64 / 4096.0) * 1e-9
    }

    /// Energy of `reads` and `writes` page operations together, in J.
    pub fn io_j(&self, reads: u64, writes: u64, page_size: u64) -> f64 {
        (reads as f64 * self.read_nj + writes as f64 * self.write_nj) * (page_size as f64 / 4096.0 * 1e-9)
    }

    fn request_ns(table: &[(f64, f64)], per_page_ns: f64, pages: u64, page_size: u64) -> f64 {
        let bytes = (pages * page_size) as f64;
        if table.is_empty() {
            per_page_ns * bytes / 4096.0
        } else {
            bytes / bandwidth_at(table, bytes) * 1e9
        }
    }
}

#[cfg(test)]
mod tests;
