//! Device models as data: per-operation latency and energy, background power. Named presets live
//! in `presets.toml` (compiled in); users add their own from a TOML file of the same shape.

mod tier;

pub use tier::TierModel;

use crate::energy::EnergyModel;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
}

/// A device as written in TOML: latency as ns or IOPS, exactly one of each pair.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct DeviceSpec {
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
    backend: Option<String>,
    /// The backend's parameters (zram-writeback: its backing device, idle time, daily limit).
    #[serde(default)]
    backend_params: toml::Table,
    #[serde(default)]
    source: String,
}

/// A resolved device model. Latency and energy are per 4 KiB page operation.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
    Ok(v)
}

impl DeviceSpec {
    fn resolve(self, name: &str, models: &BTreeMap<String, EnergyModel>) -> Result<Device> {
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
            Ok(v)
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
        if let Some(b) = &self.backend {
            if !crate::swap::backend::NAMES.contains(&b.as_str()) {
                return Err(Error::config(
                    format!("devices.{name}.backend"),
                    format!("unknown swap backend {b:?}; known: {}", crate::swap::backend::NAMES.join(", ")),
                ));
            }
        }
        let mapped_read_ns = match (self.kind, self.mapped_read_ns) {
            (_, None) => 0.0,
            (DeviceKind::Nvm, Some(v)) if v >= 0.0 && v.is_finite() => v,
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
            backend: self.backend.unwrap_or_else(|| crate::swap::backend::default_for(self.kind).to_string()),
            backend_params: self.backend_params,
            source: self.source,
        })
    }
}

/// A devices file: device tables, and optionally energy models under `energy_models` and memory
/// tiers under `tiers`.
/// (A hand-written map visitor rather than `serde(flatten)`, which would lose error positions.)
#[derive(Debug, Clone, Default)]
pub struct DeviceFile {
    energy_models: BTreeMap<String, EnergyModel>,
    tiers: BTreeMap<String, tier::TierSpec>,
    devices: BTreeMap<String, DeviceSpec>,
}

impl<'de> Deserialize<'de> for DeviceFile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = DeviceFile;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("device tables and an optional energy_models table")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> std::result::Result<DeviceFile, A::Error> {
                let mut out = DeviceFile::default();
                while let Some(key) = map.next_key::<String>()? {
                    if key == "energy_models" {
                        out.energy_models = map.next_value()?;
                    } else if key == "tiers" {
                        out.tiers = map.next_value()?;
                    } else {
                        let spec = map.next_value()?;
                        out.devices.insert(key, spec);
                    }
                }
                Ok(out)
            }
        }
        d.deserialize_map(V)
    }
}

/// The devices and energy models a run can name: built-in presets plus any loaded from files.
#[derive(Debug, Clone)]
pub struct Catalog {
    devices: BTreeMap<String, Device>,
    models: BTreeMap<String, EnergyModel>,
    tiers: BTreeMap<String, TierModel>,
}

/// The built-in device and tier presets as written (a user file overrides a device whole, so a
/// caller changing one field of a preset starts from its table here).
pub const PRESETS: &str = include_str!("presets.toml");

impl Catalog {
    /// The built-in presets.
    pub fn builtin() -> Catalog {
        let mut c = Catalog { devices: BTreeMap::new(), models: BTreeMap::new(), tiers: BTreeMap::new() };
        c.add_models_toml(crate::energy::MODELS, Path::new("<built-in energy models>"))
            .expect("built-in energy models are valid (tested)");
        c.add_toml(PRESETS, Path::new("<built-in presets>")).expect("built-in device presets are valid (tested)");
        c
    }

    /// Adds (or overrides) energy models from TOML text (tables with `kind = "lpddr" | "emmc"`).
    pub fn add_models_toml(&mut self, text: &str, origin: &Path) -> Result<()> {
        let models: BTreeMap<String, EnergyModel> = crate::error::from_toml(origin, text)?;
        for (name, m) in models {
            m.validate(&name)?;
            self.models.insert(name, m);
        }
        Ok(())
    }

    pub fn model(&self, name: &str) -> Result<&EnergyModel> {
        self.models.get(name).ok_or_else(|| {
            let names: Vec<_> = self.models.keys().cloned().collect();
            Error::config("energy_model", format!("unknown energy model {name:?}; known: {}", names.join(", ")))
        })
    }

    pub fn models(&self) -> impl Iterator<Item = (&String, &EnergyModel)> {
        self.models.iter()
    }

    /// Adds (or overrides) devices from TOML text.
    /// A table `[energy_models.NAME]` in the same file adds energy models (read first, so the
    /// file's devices may name them).
    pub fn add_toml(&mut self, text: &str, origin: &Path) -> Result<()> {
        self.add_file(crate::error::from_toml(origin, text)?)
    }

    /// Adds what a parsed devices file (or a run file's `[devices]`) holds.
    pub fn add_file(&mut self, file: DeviceFile) -> Result<()> {
        for (name, m) in file.energy_models {
            m.validate(&name)?;
            self.models.insert(name, m);
        }
        for (name, spec) in file.devices {
            let d = spec.resolve(&name, &self.models)?;
            self.devices.insert(name, d);
        }
        for (name, spec) in file.tiers {
            let t = spec.resolve(&name)?;
            self.tiers.insert(name, t);
        }
        Ok(())
    }

    /// Adds devices from a TOML file.
    pub fn load_file(&mut self, path: &Path) -> Result<()> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        self.add_toml(&text, path)
    }

    pub fn get(&self, name: &str, field: &str) -> Result<&Device> {
        self.devices.get(name).ok_or_else(|| {
            let names: Vec<_> = self.devices.keys().cloned().collect();
            Error::config(field, format!("unknown device {name:?}; known: {}", names.join(", ")))
        })
    }

    pub fn all(&self) -> impl Iterator<Item = &Device> {
        self.devices.values()
    }

    /// A memory tier model by name (`field` names the setting in errors).
    pub fn tier(&self, name: &str, field: &str) -> Result<&TierModel> {
        self.tiers.get(name).ok_or_else(|| {
            let names: Vec<_> = self.tiers.keys().cloned().collect();
            Error::config(field, format!("unknown memory tier {name:?}; known: {}", names.join(", ")))
        })
    }

    pub fn tiers(&self) -> impl Iterator<Item = &TierModel> {
        self.tiers.values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_resolve_iops_to_latency() {
        let c = Catalog::builtin();
        let ufs = c.get("ufs31", "swap").unwrap();
        assert_eq!(ufs.read_ns, 10_000.0);
        assert!((ufs.write_ns - 14_285.714).abs() < 0.01);
        let optane = c.get("optane-m10", "swap").unwrap();
        assert!((optane.read_ns - 5263.158).abs() < 0.01);
        assert_eq!(optane.kind, DeviceKind::Nvm);
        assert!(c.get("dram-ramdisk", "swap").is_ok());
    }

    #[test]
    fn user_energy_models_in_a_devices_file() {
        let mut c = Catalog::builtin();
        let text = "[energy_models.slow-pcm]\nkind = \"lpddr\"\npre_pdn_mw = 0.1\npre_stby_mw = 1\nact_pdn_mw = 0.1\n\
                    act_stby_mw = 1\nref_mw = 0\nact_mw = 100\nrd_mw = 100\nwr_mw = 300\ndq_mw = 20\nt_ck_ns = 10\n\
                    t_rcd_ns = 100\nt_wr_ns = 20\nrl_cycles = 4\nwl_cycles = 2\nbl = 8\nbw_bits = 16\n\
                    chip_bytes = 1073741824\n\n[my-nvm]\nkind = \"nvm\"\nenergy_model = \"slow-pcm\"\n";
        c.add_toml(text, Path::new("mine.toml")).unwrap();
        let d = c.get("my-nvm", "swap").unwrap();
        // Eq. (2) + tRCD for one page: 256 commands × 4 cycles + RL 4, at 10 ns, + 100 ns.
        assert!((d.read_ns - ((256.0 * 4.0 + 4.0) * 10.0 + 100.0)).abs() < 1e-6);
        assert!(c.model("slow-pcm").is_ok());
        let bad = "[energy_models.x]\nkind = \"lpddr\"\npre_pdn_mw = 1\n";
        let e = c.add_toml(bad, Path::new("mine.toml")).unwrap_err().to_string();
        assert!(e.contains("mine.toml"), "{e}");
    }

    #[test]
    fn swap_backends_by_kind_by_name_and_their_errors() {
        let c = Catalog::builtin();
        let backend = |n: &str| c.get(n, "swap").unwrap().backend.clone();
        assert_eq!((backend("emmc-inand"), backend("zram-lz4")), ("block".into(), "zram".into()));
        let wb = crate::swap::backend::build(c.get("zram-writeback", "swap").unwrap(), &c).unwrap();
        let w = wb.writeback().unwrap();
        assert_eq!((w.backing.name.as_str(), w.idle_s), ("emmc-inand", 3600.0));
        // 1 GiB a day is 1/24 of it an hour: 10,922 pages of 4 KiB.
        assert_eq!(w.limit_pages(4096), 10922);
        let mut c2 = c.clone();
        let e =
            c2.add_toml("[x]\nkind = \"flash\"\nread_ns = 1\nwrite_ns = 1\nbackend = \"tape\"\n", Path::new("d.toml"));
        let e = e.unwrap_err().to_string();
        assert!(e.contains("devices.x.backend") && e.contains("zram-writeback"), "{e}");
        let text = "[z]\nkind = \"zram\"\ncompression_ratio = 2.0\nread_ns = 1\nwrite_ns = 1\nbackend = \"block\"\n";
        c2.add_toml(text, Path::new("d.toml")).unwrap();
        let e = crate::swap::backend::build(c2.get("z", "swap").unwrap(), &c2).err().unwrap().to_string();
        assert!(e.contains("devices.z.backend"), "{e}");
        let text = "[w]\nkind = \"zram\"\ncompression_ratio = 2.0\nread_ns = 1\nwrite_ns = 1\nbackend = \"zram-writeback\"\n[w.backend_params]\nidle = 3\n";
        c2.add_toml(text, Path::new("d.toml")).unwrap();
        let e = crate::swap::backend::build(c2.get("w", "swap").unwrap(), &c2).err().unwrap().to_string();
        assert!(e.contains("devices.w.backend_params") && e.contains("idle"), "{e}");
    }

    #[test]
    fn user_devices_and_errors() {
        let mut c = Catalog::builtin();
        c.add_toml("[slow]\nkind = \"flash\"\nread_ns = 100\nwrite_iops = 1000\n", Path::new("u.toml")).unwrap();
        let e =
            c.add_toml("[f]\nkind = \"flash\"\nread_ns = 1\nwrite_ns = 1\nmapped_read_ns = 5\n", Path::new("u.toml"));
        assert!(e.unwrap_err().to_string().contains("mapped_read_ns"));
        let e =
            c.add_toml("[n]\nkind = \"nvm\"\nread_ns = 1\nwrite_ns = 1\nmapped_read_ns = -1\n", Path::new("u.toml"));
        assert!(e.unwrap_err().to_string().contains("not a time"));
        assert_eq!(c.get("slow", "swap").unwrap().write_ns, 1e6);
        let e = c.add_toml("[x]\nkind = \"flash\"\nread_ns = 1\n", Path::new("u.toml")).unwrap_err();
        assert!(e.to_string().contains("write_ns"), "{e}");
        let e = c
            .add_toml("[x]\nkind = \"flash\"\nread_ns = 1\nwrite_ns = 1\nspeed = 3\n", Path::new("u.toml"))
            .unwrap_err();
        assert!(e.to_string().contains("u.toml:5") && e.to_string().contains("speed"), "{e}");
        assert!(c.get("nope", "swap").unwrap_err().to_string().contains("known:"));
    }

    #[test]
    fn bandwidth_tables_make_large_requests_cheaper_per_page() {
        let c = Catalog::builtin();
        let e = c.get("emmc-gt-i9300", "swap").unwrap();
        // Table VIII: 4 KB reads at 19.95 MB/s, 128 KB at 78.48 MB/s.
        assert!((e.read_ns - 4096.0 / 19.95e6 * 1e9).abs() < 1e-6);
        assert!((e.read_time_ns(32, 4096) - 131072.0 / 78.48e6 * 1e9).abs() < 1e-3);
        assert!(e.read_time_ns(32, 4096) < 32.0 * e.read_time_ns(1, 4096) / 3.0);
        // Between points: monotone in size; beyond the last point: its bandwidth.
        let mut last = 0.0;
        for pages in 1..=1024 {
            let t = e.write_time_ns(pages, 4096);
            assert!(t > last, "{pages}");
            last = t;
        }
        assert!((e.read_time_ns(1024, 4096) - 4194304.0 / 79.95e6 * 1e9).abs() < 1e-3);
        // No table: per-page latency times pages.
        let u = c.get("ufs31", "swap").unwrap();
        assert_eq!(u.read_time_ns(8, 4096), 8.0 * u.read_ns);
        let mut c = Catalog::builtin();
        let bad = "[x]\nkind = \"flash\"\nread_bw = [[8, 10], [4, 20]]\nwrite_ns = 1\n";
        let e = c.add_toml(bad, Path::new("u.toml")).unwrap_err().to_string();
        assert!(e.contains("devices.x.read_bw") && e.contains("increasing"), "{e}");
        let bad = "[x]\nkind = \"flash\"\nread_bw = [[4, 0]]\nwrite_ns = 1\n";
        assert!(c.add_toml(bad, Path::new("u.toml")).unwrap_err().to_string().contains("bandwidth"));
    }
}
