//! Run configuration: typed, loaded from TOML or built by the CLI / Python, validated with the
//! path of the offending field in the error.

use crate::device::Catalog;
use crate::error::{Error, Result};
use crate::units::MemorySize;
use serde::{Deserialize, Serialize};

pub use crate::kernel::SWAP_CLUSTER_MAX;

/// What the first touch of an anon page costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AnonFirstTouch {
    /// Zero-filled, no I/O (Linux).
    #[default]
    Zero,
    /// Read from swap, which holds the whole memory image (a reading of the SPO-CLOCK paper).
    Swap,
}

/// What a swap-in does with the page's swap copy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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

/// Swap read-around's order (Linux `vm.page-cluster`): clusters of `2^order` slots, 0 = off. Both
/// ways in refuse more than 10 (1,024 pages a fault) where they read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(try_from = "u32", into = "u32")]
pub struct PageCluster(u32);

impl PageCluster {
    pub const OFF: PageCluster = PageCluster(0);
    /// Linux's default: 8 pages.
    pub const LINUX: PageCluster = PageCluster(3);
    pub const MAX: u32 = 10;

    pub fn order(self) -> u32 {
        self.0
    }
}

impl TryFrom<u32> for PageCluster {
    type Error = String;
    fn try_from(v: u32) -> std::result::Result<Self, String> {
        if v > Self::MAX {
            return Err(format!("{v} is more than Linux allows here (≤ {})", Self::MAX));
        }
        Ok(PageCluster(v))
    }
}

impl From<PageCluster> for u32 {
    fn from(p: PageCluster) -> u32 {
        p.0
    }
}

/// Declares a config struct with each knob once: its doc, whose first line is its help (`mobmem
/// run --help`, Python's `Config.fields()`, the schema), its other attributes, its type and its
/// default. `Default` and the `(name, help)` list named first are made from the same lines, so a
/// knob is one entry here; the schema, the CLI's flags, Python's `Config` and the run's config
/// echo (`plan::ResolvedConfig`) follow from it.
///
/// A struct of a level (`page`, `phone`) takes the knobs both levels have where it says
/// `@shared`: they are declared once, in `shared_knobs!`, with a default for each level, and the
/// struct gets `shared()`, their values as one `Shared`, which `plan` resolves for both.
macro_rules! knobs {
    (
        $fields:ident;
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                #[doc = $help:literal]
                $(#[$attr:meta])*
                pub $field:ident: $ty:ty = $default:expr,
            )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $(
                #[doc = $help]
                $(#[$attr])*
                pub $field: $ty,
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $($field: $default,)* }
            }
        }

        /// Every field and its help, in declaration order.
        pub const $fields: &[(&str, &str)] = &[$((stringify!($field), $help.trim_ascii()),)*];
    };
    (
        $fields:ident, $level:ident;
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                #[doc = $help:literal]
                $(#[$attr:meta])*
                pub $field:ident: $ty:ty = $default:expr,
            )*
            @shared
            $(
                #[doc = $help2:literal]
                $(#[$attr2:meta])*
                pub $field2:ident: $ty2:ty = $default2:expr,
            )*
        }
        [$(
            #[doc = $shelp:literal]
            $(#[$sattr:meta])*
            pub $sfield:ident: $sty:ty = [$page:expr, $phone:expr],
        )*]
    ) => {
        $(#[$meta])*
        pub struct $name {
            $(
                #[doc = $help]
                $(#[$attr])*
                pub $field: $ty,
            )*
            $(
                #[doc = $shelp]
                $(#[$sattr])*
                pub $sfield: $sty,
            )*
            $(
                #[doc = $help2]
                $(#[$attr2])*
                pub $field2: $ty2,
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name {
                    $($field: $default,)*
                    $($sfield: $crate::config::pick!($level, $page, $phone),)*
                    $($field2: $default2,)*
                }
            }
        }

        impl $name {
            /// The knobs both levels have, as `plan` resolves them.
            pub fn shared(&self) -> $crate::config::Shared {
                $crate::config::Shared { $($sfield: self.$sfield.clone(),)* }
            }
        }

        /// Every field and its help, in declaration order.
        pub const $fields: &[(&str, &str)] = &[
            $((stringify!($field), $help.trim_ascii()),)*
            $((stringify!($sfield), $shelp.trim_ascii()),)*
            $((stringify!($field2), $help2.trim_ascii()),)*
        ];
    };
}
pub(crate) use knobs;

/// A shared knob's default at a level.
macro_rules! pick {
    (page, $page:expr, $phone:expr) => {
        $page
    };
    (phone, $page:expr, $phone:expr) => {
        $phone
    };
}
pub(crate) use pick;

/// The knobs a page run and a phone both have, each declared once with its default at each
/// level (`[page, phone]`): `knobs!` puts them into `SimConfig` and `Phone`, and `Shared` holds
/// them for `plan`, which resolves them the same way for both. A knob both levels need is one
/// entry here, its resolving in `plan::Common`, and its use in the engine.
macro_rules! shared_knobs {
    ($cb:path; $($args:tt)*) => {
        $cb! { $($args)* [
            /// page reclamation policy (mobmem policies)
            pub policy: String = ["clock".into(), "linux-2q".into()],
            /// the policy's parameters (a table; see each policy)
            #[schemars(with = "crate::units::Table")]
            pub params: toml::Table = [toml::Table::new(), toml::Table::new()],
            /// file-store device (mobmem devices)
            pub storage: String = ["ufs31".into(), "ufs31".into()],
            /// which dirty anon pages may go to swap (mobmem admissions); on a page trace, a2s, adj-limit and hot-list need processes
            ///
            /// Admissions that decide by process (a2s, adj-limit, hot-list) need a pid column and
            /// each pid's oom_score_adj over a page trace; hot-list then admits every page (a page
            /// trace has no launches, so no hot page). With a phone's swap off, none is admitted.
            pub swap_admission: String = [$crate::swap::admission::DEFAULT.into(), $crate::swap::admission::DEFAULT.into()],
            /// the swap admission's parameters (a table; see each admission)
            #[schemars(with = "crate::units::Table")]
            pub swap_admission_params: toml::Table = [toml::Table::new(), toml::Table::new()],
            /// a swapped-in page's swap copy: device (Linux: zram frees it, a block device keeps it until written), keep, drop
            ///
            /// Linux's swap cache: a swapped-in page keeps its swap copy until it is written, so
            /// evicting it again costs no write — on a block device; zram, a synchronous-I/O
            /// device, frees the copy at swap-in.
            pub swap_cache: $crate::config::SwapCache = [$crate::config::SwapCache::Device, $crate::config::SwapCache::Device],
            /// swap read-around: a swap fault also reads its aligned cluster of 2^page_cluster slots (Linux vm.page-cluster; 0: off)
            ///
            /// On a block device only: zram, a synchronous-I/O device, reads no neighbours (Linux's
            /// `do_swap_page` bypasses the swap cache). Swapped pages then get numbered slots
            /// (next-fit, as Linux's allocator), so a cluster holds the pages swapped out together.
            /// A page trace charges each page read ahead one page read (an upper bound on devices
            /// whose bandwidth grows with the request); a phone times a cluster as one request.
            /// A phone has Linux's default, 3; a page trace 0, as page traces ran before the knob.
            pub page_cluster: $crate::config::PageCluster = [$crate::config::PageCluster::OFF, $crate::config::PageCluster::LINUX],
            /// page size in bytes
            pub page_size: u64 = [4096, 4096],
            /// zram's compressed pages take frames of memory; off: outside it (a memory cgroup's limit)
            ///
            /// A phone has one DRAM, which zram's pool shares; a memory cgroup's limit does not
            /// charge zram's pool (it belongs to no cgroup), so a phone run in one has it off.
            pub zram_in_memory: bool = [true, true],
            /// DR. Swap's Direct Read (NVM swap devices)
            ///
            /// Read faults on swapped pages map the NVM page in place. Needs a swap device of kind
            /// `nvm`.
            pub direct_read: bool = [false, false],
        ]}
    };
}
pub(crate) use shared_knobs;

/// The struct of the knobs both levels have.
macro_rules! shared_struct {
    (
        $(#[$meta:meta])*
        pub struct $name:ident;
        [$(
            #[doc = $help:literal]
            $(#[$attr:meta])*
            pub $field:ident: $ty:ty = [$page:expr, $phone:expr],
        )*]
    ) => {
        $(#[$meta])*
        pub struct $name {
            $(#[doc = $help] pub $field: $ty,)*
        }

        /// The knobs both levels have, by name.
        pub const SHARED_FIELDS: &[&str] = &[$(stringify!($field),)*];
    };
}

shared_knobs! {
    shared_struct;
    /// The knobs both levels have (`shared_knobs!`), as a run gives them: what `plan` resolves
    /// the same way for a page run and a phone.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Shared;
}

shared_knobs! {
    knobs;
    SIM_FIELDS, page;
    /// One page-level simulation: memory size, policy, devices. Resolved against a device catalog
    /// and a trace's footprint into a `plan::Plan`, which is what a run is built from.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields, default)]
    pub struct SimConfig {
        /// DRAM for pages: frames (1024), bytes (64MiB) or a share of the footprint (10%)
        pub memory: MemorySize = MemorySize::Percent(10.0),
        /// swap device (mobmem devices)
        pub swap: String = "optane-m10".into(),
        /// swap capacity (pages, bytes or %); unlimited when absent
        ///
        /// Unlimited is the SPO-CLOCK setting: swap = the whole footprint.
        pub swap_size: Option<MemorySize> = None,
        @shared
        /// first touch of an anon page: zero (zero-filled, Linux) or swap (read from swap)
        ///
        /// `swap`: swap holds the whole memory image, as the SPO-CLOCK paper sets swap to the
        /// footprint.
        pub anon_first_touch: AnonFirstTouch = AnonFirstTouch::Zero,
        /// frames one reclaim frees when a fault finds memory full (Linux's memory cgroup: 32 pages, SWAP_CLUSTER_MAX)
        ///
        /// Pages, with zram's pool outside memory; with it inside, a swap-out frees only part of a
        /// frame. 1: exactly the room the fault needs. Linux reclaims for a memory cgroup's limit
        /// at least SWAP_CLUSTER_MAX pages at a time (`try_to_free_mem_cgroup_pages`:
        /// `nr_to_reclaim = max(nr_pages, SWAP_CLUSTER_MAX)`), so its usage swings between the
        /// limit and 32 pages under it; `mobmem kernel-check` runs so.
        pub reclaim_batch: u64 = 1,
        /// CPU time per access in ns
        ///
        /// The time of one access that hits.
        pub cpu_ns_per_access: f64 = 1.0,
        /// up time for static energy (swap energy model, tier refresh), in s; the simulated time when absent
        ///
        /// t_TOTAL of the swap area's energy model (DR. Swap eqs. 1, 6, 13) and the memory tiers'
        /// refresh and PCM write rate (a trace's capture time: the hybrid paper's stand-by trace
        /// spans 24 hours).
        pub energy_duration_s: Option<f64> = None,
        /// hybrid memory: DRAM + PCM tiers (pcm_share, access_bytes, dram, pcm, promote_on_hit); flat DRAM when absent
        ///
        /// Main memory made of a DRAM and a PCM tier (the hybrid DRAM+PCM paper); DRAM only, with
        /// no per-access tier charges, when absent.
        pub tiers: Option<TierConfig> = None,
    }
}

knobs! {
    TIER_FIELDS;
    /// Two-tier main memory: `memory` is split into DRAM and PCM frames; every access is charged to
    /// the tier its page is in, page moves between tiers are migrations.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields, default)]
    pub struct TierConfig {
        /// share of memory on PCM, 0–1 (the hybrid paper's evaluation: 0.9); 0: DRAM only, charged per access
        ///
        /// 0 is the equal-size DRAM baseline, charged per access like the hybrid runs.
        pub pcm_share: f64 = 0.9,
        /// tier model of the DRAM part (mobmem devices: memory tiers)
        pub dram: String = "dram".into(),
        /// tier model of the PCM part (mobmem devices: memory tiers)
        pub pcm: String = "pcm".into(),
        /// bytes one access moves: 64 (a cache line) for CPU traces, the page size for buffer-cache traces
        ///
        /// A page copy (fill, migration) is page_size / access_bytes operations.
        pub access_bytes: u64 = 64,
        /// flat policies on tiers: a hit on a PCM page moves it back to DRAM (true) or is served in PCM (false)
        ///
        /// true: one recency stack over both tiers; false: pages only move down. The hybrid paper
        /// does not say how its LRU and 2QLRU used PCM; both readings leave residency, so the hit
        /// ratio, as it is. Tier-aware policies have their own rules and refuse `false`.
        pub promote_on_hit: bool = true,
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

/// A grid's policies and memory sizes when none are given (`mobmem compare`, `grid`).
pub const GRID_POLICIES: &[&str] = &["lru", "clock", "arc", "2q", "opt"];
pub const GRID_MEMORIES: &[&str] = &["5%", "10%", "15%", "20%", "25%"];

/// The knobs of a page-level run (`fields`: name, default — JSON, `null` when absent means off
/// or derived — and help, in `SIM_FIELDS` order; the tiers' own fields follow as `tiers.NAME`),
/// a grid's defaults (`grid`), and the kernel's constants the models take (`kernel`).
pub fn schema() -> serde_json::Value {
    let mut out = field_list(&SimConfig::default(), SIM_FIELDS, "");
    out.extend(field_list(&TierConfig::default(), TIER_FIELDS, "tiers."));
    serde_json::json!({
        "fields": out,
        "grid": {"policies": GRID_POLICIES, "memories": GRID_MEMORIES},
        "kernel": {"swap_cluster_max": SWAP_CLUSTER_MAX, "max_tlb_entries": crate::policy::MAX_TLB_ENTRIES},
    })
}

/// Each of `fields` (a `knobs!` list) as `{name, default, help, shared}`: its default read from
/// `defaults` serialized, `shared` when both levels have it (`SHARED_FIELDS`).
pub fn field_list<T: Serialize>(defaults: &T, fields: &[(&str, &str)], prefix: &str) -> Vec<serde_json::Value> {
    let d = serde_json::to_value(defaults).unwrap_or_default();
    let shared = |name: &str| prefix.is_empty() && SHARED_FIELDS.contains(&name);
    fields
        .iter()
        .map(|(name, help)| {
            serde_json::json!({"name": format!("{prefix}{name}"), "default": d[name], "help": help, "shared": shared(name)})
        })
        .collect()
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
    /// The defaults at `memory`.
    pub fn new(memory: MemorySize) -> Self {
        SimConfig { memory, ..SimConfig::default() }
    }
}

mod run_file;
pub use run_file::{RunFile, TraceSection};
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_has_help_and_a_default_in_the_schema() {
        // Serde's names are the knobs' names (no field renamed or skipped), each with a help line.
        for (value, fields) in [
            (serde_json::to_value(SimConfig::default()).unwrap(), SIM_FIELDS),
            (serde_json::to_value(TierConfig::default()).unwrap(), TIER_FIELDS),
        ] {
            let mut a: Vec<&str> = value.as_object().unwrap().keys().map(|k| k.as_str()).collect();
            let mut b: Vec<&str> = fields.iter().map(|f| f.0).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b);
            assert!(fields.iter().all(|(_, h)| !h.is_empty() && !h.ends_with('.')), "{fields:?}");
        }
        let s = schema();
        let f = s["fields"].as_array().unwrap();
        let memory = f.iter().find(|f| f["name"] == "memory").unwrap();
        assert_eq!(memory["default"], "10%");
        assert!(memory["help"].as_str().unwrap().starts_with("DRAM for pages"));
        assert!(f.iter().any(|f| f["name"] == "tiers.pcm_share" && f["default"] == 0.9 && f["help"] != ""));
        assert_eq!(s["grid"]["policies"][0], "lru");
        // An empty [sim] is the defaults, and so is `new` at the default memory.
        let empty: SimConfig = toml::from_str("").unwrap();
        assert_eq!(empty, SimConfig::default());
        assert_eq!(SimConfig::new(MemorySize::Percent(10.0)), SimConfig::default());
        let t: TierConfig = toml::from_str("").unwrap();
        assert_eq!(t, TierConfig::default());
    }
}
