//! Run configuration: typed, loaded from TOML or built by the CLI / Python, validated with the
//! path of the offending field in the error.

use crate::device::Catalog;
use crate::error::{Error, Result};
use crate::policy;
use crate::trace::ReadOptions;
use crate::units::MemorySize;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

fn d_memory() -> MemorySize {
    MemorySize::Percent(10.0)
}
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
fn d_admission() -> String {
    crate::swap::admission::DEFAULT.into()
}
fn d_true() -> bool {
    true
}
/// Linux's SWAP_CLUSTER_MAX (mm/vmscan.c): the pages one reclaim pass takes, and the least a memory
/// cgroup at its limit reclaims (`try_to_free_mem_cgroup_pages`). linux-2q's scan batches, the
/// phones' reclaim batch and `mobmem kernel-check`'s `reclaim_batch` are this.
pub const SWAP_CLUSTER_MAX: u64 = 32;

fn d_reclaim_batch() -> u64 {
    1
}

/// What the first touch of an anon page costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnonFirstTouch {
    /// Zero-filled, no I/O (Linux).
    #[default]
    Zero,
    /// Read from swap, which holds the whole memory image (a reading of the SPO-CLOCK paper).
    Swap,
}

/// What a swap-in does with the page's swap copy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SwapCache {
    /// As Linux does on the swap device: a synchronous-I/O device (zram) drops the copy at swap-in
    /// and frees its slot; a block device keeps it in the swap cache until the page is written.
    #[default]
    Device,
    /// Keep it until the page is written (Linux's swap cache).
    Keep,
    /// Drop it at swap-in: every eviction of a page that was ever anon writes it again (a reading
    /// of the SPO-CLOCK paper, whose swap writes dominate whatever the policy).
    Drop,
}

// A name, or the boolean of older run files (true: keep, false: drop).
impl<'de> Deserialize<'de> for SwapCache {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Bool(bool),
            Name(String),
        }
        match Raw::deserialize(d)? {
            Raw::Bool(true) => Ok(SwapCache::Keep),
            Raw::Bool(false) => Ok(SwapCache::Drop),
            Raw::Name(n) => match n.as_str() {
                "device" => Ok(SwapCache::Device),
                "keep" => Ok(SwapCache::Keep),
                "drop" => Ok(SwapCache::Drop),
                _ => Err(serde::de::Error::custom(format!("{n:?}: expected device, keep or drop"))),
            },
        }
    }
}

impl SwapCache {
    /// Whether the copy is kept, on a swap device that is synchronous or not.
    pub fn keeps(self, synchronous_io: bool) -> bool {
        match self {
            SwapCache::Device => !synchronous_io,
            SwapCache::Keep => true,
            SwapCache::Drop => false,
        }
    }
}

/// One page-level simulation: memory size, policy, devices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimConfig {
    /// DRAM for pages: frames (`1024`), bytes (`64MiB`) or a share of the footprint (`10%`).
    #[serde(default = "d_memory")]
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
    /// Which dirty anon pages may go to swap (`mobmem admissions`). Admissions that decide by
    /// process (a2s, adj-limit) need a trace with processes: a pid column and each pid's
    /// oom_score_adj over the trace.
    #[serde(default = "d_admission")]
    pub swap_admission: String,
    /// The admission's parameters (see each admission file).
    #[serde(default)]
    pub swap_admission_params: toml::Table,
    /// Linux's swap cache: a swapped-in page keeps its swap copy until it is written, so evicting
    /// it again costs no write — on a block device; zram, a synchronous-I/O device, frees the copy
    /// at swap-in (`device`, the default, follows the device; `keep` or `drop` force it).
    #[serde(default)]
    pub swap_cache: SwapCache,
    /// zram's compressed pages take frames of `memory` (a phone: one DRAM); `false` keeps them
    /// outside it, as a memory cgroup's limit does (zram's pool is charged to no cgroup).
    #[serde(default = "d_true")]
    pub zram_in_memory: bool,
    /// First touch of an anon page: `zero` (Linux: zero-filled, no I/O) or `swap` (read from swap,
    /// which holds the whole memory image: the SPO-CLOCK paper sets swap to the footprint).
    #[serde(default)]
    pub anon_first_touch: AnonFirstTouch,
    /// Frames one reclaim frees when a fault finds memory full (pages, with zram's pool outside
    /// memory; with it inside, a swap-out frees only part of a frame). 1: exactly the room the
    /// fault needs. Linux reclaims for a memory cgroup's limit at least SWAP_CLUSTER_MAX (32) pages at
    /// a time (`try_to_free_mem_cgroup_pages`: `nr_to_reclaim = max(nr_pages, SWAP_CLUSTER_MAX)`),
    /// so its usage swings between the limit and 32 pages under it; `mobmem kernel-check` runs so.
    #[serde(default = "d_reclaim_batch")]
    pub reclaim_batch: u64,
    #[serde(default = "d_page")]
    pub page_size: u64,
    /// CPU time of one access that hits, in ns.
    #[serde(default = "d_cpu")]
    pub cpu_ns_per_access: f64,
    /// Direct Read (DR. Swap): read faults on swapped pages map the NVM page in place. Needs a swap
    /// device of kind `nvm`.
    #[serde(default)]
    pub direct_read: bool,
    /// Up time for static energy, in seconds: t_TOTAL of the swap area's energy model (DR. Swap eqs.
    /// 1, 6, 13) and the memory tiers' refresh and PCM write rate (a trace's capture time: the
    /// hybrid paper's stand-by trace spans 24 hours); the simulated time when absent.
    #[serde(default)]
    pub energy_duration_s: Option<f64>,
    /// Main memory made of a DRAM and a PCM tier (the hybrid DRAM+PCM paper); DRAM only, with no
    /// per-access tier charges, when absent.
    #[serde(default)]
    pub tiers: Option<TierConfig>,
}

fn d_pcm_share() -> f64 {
    0.9
}
fn d_dram_tier() -> String {
    "dram".into()
}
fn d_pcm_tier() -> String {
    "pcm".into()
}
fn d_access_bytes() -> u64 {
    64
}

/// Two-tier main memory: `memory` is split into DRAM and PCM frames; every access is charged to
/// the tier its page is in, page moves between tiers are migrations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TierConfig {
    /// Share of `memory` on PCM, 0–1 (the paper's evaluation: 0.9). 0 = DRAM only, charged per
    /// access like the hybrid runs (the equal-size DRAM baseline).
    #[serde(default = "d_pcm_share")]
    pub pcm_share: f64,
    /// Tier model of the DRAM part (a name from the catalog's tiers).
    #[serde(default = "d_dram_tier")]
    pub dram: String,
    /// Tier model of the PCM part.
    #[serde(default = "d_pcm_tier")]
    pub pcm: String,
    /// Bytes one access moves (one memory operation): 64, a cache line, for CPU traces; the page
    /// size for buffer-cache traces, whose every request is a page. A page copy (fill, migration)
    /// is page_size / access_bytes operations.
    #[serde(default = "d_access_bytes")]
    pub access_bytes: u64,
    /// Flat policies on tiers (`lru`, `2q`, …): a hit on a PCM page moves it back to DRAM (true:
    /// one recency stack over both tiers) or is served in PCM (false: pages only move down). The
    /// hybrid paper does not say how its LRU and 2QLRU used PCM; both readings leave residency,
    /// so the hit ratio, as it is. Tier-aware policies have their own rules and refuse `false`.
    #[serde(default = "d_true")]
    pub promote_on_hit: bool,
}

impl Default for TierConfig {
    fn default() -> Self {
        TierConfig {
            pcm_share: d_pcm_share(),
            dram: d_dram_tier(),
            pcm: d_pcm_tier(),
            access_bytes: d_access_bytes(),
            promote_on_hit: true,
        }
    }
}

impl TierConfig {
    /// DRAM and PCM frames of `frames` in total: PCM gets the rounded share, DRAM the rest.
    pub fn split(&self, frames: u64) -> (u64, u64) {
        let pcm = ((frames as f64) * self.pcm_share).round() as u64;
        (frames - pcm.min(frames), pcm.min(frames))
    }

    pub fn validate(&self, catalog: &Catalog, page_size: u64) -> Result<()> {
        if !(0.0..=1.0).contains(&self.pcm_share) {
            return Err(Error::config("tiers.pcm_share", format!("{} is not a share in 0–1", self.pcm_share)));
        }
        if !self.access_bytes.is_power_of_two() || self.access_bytes > page_size {
            return Err(Error::config(
                "tiers.access_bytes",
                format!("{} is not a power of two ≤ the page size {page_size}", self.access_bytes),
            ));
        }
        catalog.tier(&self.dram, "tiers.dram")?;
        catalog.tier(&self.pcm, "tiers.pcm")?;
        Ok(())
    }
}

/// Every field of `[sim]` with one line of help. The CLI's flags and Python's `Config` are made
/// from this and the defaults (`schema`); a test checks that it names every field of `SimConfig`,
/// so a new knob is its field (with its serde default), a line here, and its line in CONFIG.md.
pub const SIM_FIELDS: &[(&str, &str)] = &[
    ("memory", "DRAM for pages: frames (1024), bytes (64MiB) or a share of the footprint (10%)"),
    ("policy", "page reclamation policy (mobmem policies)"),
    ("params", "the policy's parameters (a table; see each policy)"),
    ("swap", "swap device (mobmem devices)"),
    ("storage", "file-store device (mobmem devices)"),
    ("swap_size", "swap capacity (pages, bytes or %); unlimited when absent"),
    (
        "swap_admission",
        "which dirty anon pages may go to swap (mobmem admissions); a2s and adj-limit need a trace with processes",
    ),
    ("swap_admission_params", "the swap admission's parameters (a table; see each admission)"),
    (
        "swap_cache",
        "a swapped-in page's swap copy: device (Linux: zram frees it, a block device keeps it until written), keep, drop",
    ),
    ("zram_in_memory", "zram's compressed pages take frames of memory; off: outside it (a memory cgroup's limit)"),
    ("anon_first_touch", "first touch of an anon page: zero (zero-filled, Linux) or swap (read from swap)"),
    (
        "reclaim_batch",
        "frames one reclaim frees when a fault finds memory full (Linux's memory cgroup: 32 pages, SWAP_CLUSTER_MAX)",
    ),
    ("page_size", "page size in bytes"),
    ("cpu_ns_per_access", "CPU time per access in ns"),
    ("direct_read", "DR. Swap's Direct Read (NVM swap devices)"),
    (
        "energy_duration_s",
        "up time for static energy (swap energy model, tier refresh), in s; the simulated time when absent",
    ),
    (
        "tiers",
        "hybrid memory: DRAM + PCM tiers (pcm_share, access_bytes, dram, pcm, promote_on_hit); flat DRAM when absent",
    ),
];

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig::new(d_memory())
    }
}

/// A grid's policies and memory sizes when none are given (`mobmem compare`, `grid`).
pub const GRID_POLICIES: &[&str] = &["lru", "clock", "arc", "2q", "opt"];
pub const GRID_MEMORIES: &[&str] = &["5%", "10%", "15%", "20%", "25%"];

/// The knobs of a page-level run (`fields`: name, default — JSON, `null` when absent means off
/// or derived — and help, in `SIM_FIELDS` order; the tiers' own fields follow as `tiers.NAME`),
/// a grid's defaults (`grid`), and the kernel's constants the models take (`kernel`).
pub fn schema() -> serde_json::Value {
    let d = serde_json::to_value(SimConfig::default()).unwrap_or_default();
    let t = serde_json::to_value(TierConfig::default()).unwrap_or_default();
    let mut out: Vec<serde_json::Value> = SIM_FIELDS
        .iter()
        .map(|(name, help)| serde_json::json!({"name": name, "default": d[name], "help": help}))
        .collect();
    for (name, v) in t.as_object().into_iter().flatten() {
        out.push(serde_json::json!({"name": format!("tiers.{name}"), "default": v, "help": ""}));
    }
    serde_json::json!({
        "fields": out,
        "grid": {"policies": GRID_POLICIES, "memories": GRID_MEMORIES},
        "kernel": {"swap_cluster_max": SWAP_CLUSTER_MAX, "max_tlb_entries": crate::policy::MAX_TLB_ENTRIES},
    })
}

/// A page size the models take: a power of two, at least 512 bytes (both ways in).
pub fn check_page_size(ps: u64) -> Result<()> {
    if !ps.is_power_of_two() || ps < 512 {
        return Err(Error::config("page_size", format!("{ps} is not a power of two ≥ 512")));
    }
    Ok(())
}

/// Direct Read maps swapped pages in place: it needs a byte-addressable NVM swap device (both ways
/// in; `None` is swap off).
pub fn check_direct_read(direct_read: bool, swap: Option<&crate::device::Device>) -> Result<()> {
    if direct_read && swap.map(|d| d.kind) != Some(crate::device::DeviceKind::Nvm) {
        let what = swap.map_or("swap is off".to_string(), |d| format!("{:?} is {}", d.name, d.kind.as_str()));
        return Err(Error::config(
            "direct_read",
            format!("Direct Read needs a byte-addressable NVM swap device; {what}"),
        ));
    }
    Ok(())
}

impl SimConfig {
    /// The swap semantics the engine runs with, on a swap device that is synchronous or not.
    pub fn swap_semantics(&self, synchronous_io: bool) -> crate::engine::SwapSemantics {
        crate::engine::SwapSemantics {
            swap_cache: self.swap_cache.keeps(synchronous_io),
            first_touch_from_swap: self.anon_first_touch == AnonFirstTouch::Swap,
        }
    }

    pub fn new(memory: MemorySize) -> Self {
        SimConfig {
            memory,
            policy: d_policy(),
            params: toml::Table::new(),
            swap: d_swap(),
            storage: d_storage(),
            swap_size: None,
            swap_admission: d_admission(),
            swap_admission_params: toml::Table::new(),
            swap_cache: SwapCache::Device,
            zram_in_memory: true,
            anon_first_touch: AnonFirstTouch::Zero,
            reclaim_batch: d_reclaim_batch(),
            page_size: d_page(),
            cpu_ns_per_access: d_cpu(),
            direct_read: false,
            energy_duration_s: None,
            tiers: None,
        }
    }

    pub fn validate(&self, catalog: &Catalog) -> Result<()> {
        check_page_size(self.page_size)?;
        if !(self.cpu_ns_per_access >= 0.0 && self.cpu_ns_per_access.is_finite()) {
            return Err(Error::config("cpu_ns_per_access", format!("{} is not a time ≥ 0", self.cpu_ns_per_access)));
        }
        if self.reclaim_batch == 0 {
            return Err(Error::config("reclaim_batch", "0 frees no page: at least 1"));
        }
        policy::resolved_params(&self.policy, &self.params)?;
        let swap = catalog.get(&self.swap, "swap")?;
        catalog.get(&self.storage, "storage")?;
        check_direct_read(self.direct_read, Some(swap))?;
        crate::swap::admission::build(&self.swap_admission, &self.swap_admission_params)?;
        if let Some(t) = &self.tiers {
            t.validate(catalog, self.page_size)?;
            let backend = crate::swap::backend::build(swap, catalog)?;
            if backend.compression_ratio().is_some() {
                return Err(Error::config(
                    "swap",
                    format!("{:?} is zram, which takes DRAM frames; zram is not modelled with PCM tiers", self.swap),
                ));
            }
            if self.swap_semantics(backend.synchronous_io()) != crate::engine::SwapSemantics::LINUX {
                return Err(Error::config(
                    "swap_cache",
                    "a swap copy dropped at swap-in and anon_first_touch = \"swap\" are not modelled with PCM tiers",
                ));
            }
            if self.swap_admission != crate::swap::admission::DEFAULT {
                return Err(Error::config(
                    "swap_admission",
                    format!(
                        "{:?} is not modelled with PCM tiers (swap admissions run on flat memory)",
                        self.swap_admission
                    ),
                ));
            }
            if self.direct_read {
                return Err(Error::config(
                    "direct_read",
                    "Direct Read maps swap pages in place beside DRAM; it is not modelled with PCM tiers",
                ));
            }
            if self.reclaim_batch != 1 {
                return Err(Error::config(
                    "reclaim_batch",
                    "tiers move pages down one at a time; a reclaim batch is not modelled with PCM tiers",
                ));
            }
        } else if policy::needs_tiers(&self.policy) {
            return Err(Error::config(
                "policy",
                format!(
                    "{:?} places pages in DRAM and PCM tiers: give a [sim.tiers] section (--pcm-share)",
                    self.policy
                ),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_has_help_and_a_default_in_the_schema() {
        let d = serde_json::to_value(SimConfig::default()).unwrap();
        let fields: Vec<&str> = d.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        let helped: Vec<&str> = SIM_FIELDS.iter().map(|f| f.0).collect();
        let mut a = fields.clone();
        let mut b = helped.clone();
        a.sort();
        b.sort();
        assert_eq!(a, b, "SIM_FIELDS must name every field of SimConfig");
        let s = schema();
        let f = s["fields"].as_array().unwrap();
        let memory = f.iter().find(|f| f["name"] == "memory").unwrap();
        assert_eq!(memory["default"], "10%");
        assert!(f.iter().any(|f| f["name"] == "tiers.pcm_share" && f["default"] == 0.9));
        assert_eq!(s["grid"]["policies"][0], "lru");
        // An empty [sim] is the defaults.
        let empty: SimConfig = toml::from_str("").unwrap();
        assert_eq!(empty, SimConfig::default());
    }
}
