//! The phone: memory, swap, file store, reclaim policy, killer, system processes and the launch
//! model's knobs. Presets live in `phones.toml` (compiled in); a run names one and overrides
//! fields, or gives a whole phone.

use crate::config::PageCluster;
use crate::device::{Catalog, Device};
use crate::error::{Error, Result};
use crate::units::MemorySize;
use serde::{Deserialize, Serialize};

pub use super::phones::{Phones, BUILTIN};
pub use super::ux::{UxClass, UxThresholds, UX_CLASSES};

/// A process that is always there: system_server and friends (adj < 0, never killed), or the
/// launcher (adj 600, which the killer may take).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SystemProcess {
    pub name: String,
    pub adj: i32,
    pub anon_mib: f64,
    pub file_mib: f64,
    /// Light periodic activity: `pages` touches of its pages every `period_s` (0: none).
    #[serde(default)]
    pub period_s: f64,
    #[serde(default)]
    pub pages: u64,
    /// Share of its touches of anon pages that write (assumed; it decides how many of its swapped
    /// pages Direct Read can leave in place).
    #[serde(default = "default_system_write_share")]
    pub write_share: f64,
    /// Its hot set, a share of its pages (assumed, as the apps' `fg_hot_share`).
    #[serde(default = "default_system_hot_share")]
    pub hot_share: f64,
    /// Share of its touches that go to the hot set; the rest fall anywhere in its pages (assumed,
    /// as the apps' `fg_hot_prob`). The touches outside the hot set bring its cold pages back from
    /// swap.
    #[serde(default = "default_system_hot_prob")]
    pub hot_prob: f64,
}

fn default_system_write_share() -> f64 {
    0.3
}

fn default_system_hot_share() -> f64 {
    0.2
}

fn default_system_hot_prob() -> f64 {
    0.9
}

fn d_page() -> u64 {
    4096
}
/// `swap = "off"` or a device name, held as `None` or the name (written back as "off").
mod swap_device {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.as_deref().unwrap_or("off"))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        let name = String::deserialize(d)?;
        Ok((name != "off").then_some(name))
    }
}

fn d_off() -> Option<String> {
    None
}
fn d_storage() -> String {
    "ufs31".into()
}
fn d_policy() -> String {
    "linux-2q".into()
}
fn d_killer() -> String {
    "minfree".into()
}

/// Shortest period of background work (1 ms): a shorter one would be a busy loop, and it keeps
/// the clock's steps far above its rounding.
pub const MIN_PERIOD_S: f64 = 1e-3;

/// A phone. `Option` fields fall back to the preset's value, then to the defaults here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phone {
    #[serde(default)]
    pub description: String,
    /// DRAM of the phone.
    pub dram: MemorySize,
    /// DRAM out of the model's reach: hardware carve-outs, kernel, and the OS's own use.
    #[serde(default = "d_reserved")]
    pub reserved: MemorySize,
    #[serde(default = "d_page")]
    pub page_size: u64,
    /// Swap device; `None` is "off" in TOML and JSON.
    #[serde(default = "d_off", with = "swap_device")]
    pub swap: Option<String>,
    #[serde(default)]
    pub swap_size: Option<MemorySize>,
    /// Which dirty anon pages may go to swap (`mobmem admissions`); with swap off, none.
    #[serde(default = "d_admission")]
    pub swap_admission: String,
    #[serde(default)]
    pub swap_admission_params: toml::Table,
    /// Device holding apps' files.
    #[serde(default = "d_storage")]
    pub storage: String,
    #[serde(default = "d_policy")]
    pub policy: String,
    #[serde(default)]
    pub params: toml::Table,
    /// Direct Read (DR. Swap) on an NVM swap device.
    #[serde(default)]
    pub direct_read: bool,
    /// Swap-in read-around: clusters of 2^page_cluster slots (Linux default 3: 8 pages); 0 = off.
    #[serde(default = "d_cluster")]
    pub page_cluster: PageCluster,
    /// A file fault reads the app's next file pages with it, up to this size (Linux read_ahead_kb).
    #[serde(default = "d_readahead")]
    pub file_readahead_kib: u64,
    /// File-system metadata a launch writes to the file store (journal, inode and directory
    /// updates), KiB, queued when the launch completes with nobody waiting; 0: not modelled.
    #[serde(default)]
    pub fs_meta_write_kib: u64,
    #[serde(default = "d_killer")]
    pub killer: String,
    #[serde(default)]
    pub killer_params: toml::Table,
    /// Most cached (adj ≥ 900) apps kept; older ones are killed (Android's cached-process limit).
    #[serde(default = "d_cached")]
    pub max_cached: u32,
    /// vm.min_free_kbytes; Linux's sqrt(16 × memory KiB) when absent.
    #[serde(default)]
    pub min_free_kib: Option<u64>,
    /// vm.watermark_scale_factor (in 1/10000 of memory): the low and high watermarks above min.
    #[serde(default = "d_wsf")]
    pub watermark_scale_factor: u64,
    /// Pages kswapd and direct reclaim take per pass (SWAP_CLUSTER_MAX). Not a page run's
    /// `reclaim_batch`, which is what a fault on full memory frees at once.
    #[serde(default = "d_batch")]
    pub reclaim_pass: u32,
    /// kswapd stops while the swap or file device has more than this much queued, so that heavy
    /// swap-out falls through to direct reclaim.
    #[serde(default = "d_backlog")]
    pub kswapd_max_backlog_ms: f64,
    /// Foreground activity after a launch lasts until the next launch, at most this long.
    #[serde(default = "d_session")]
    pub session_s: f64,
    /// Share of the page touches that apps and system processes make — at launches, in foreground
    /// sessions, in background work and at boot: 1 is the model; 0 replays the launches with no
    /// page touched. The idle workload the fidelity scoreboard compares a result with, to find a
    /// number that does not depend on the workload (docs/FIDELITY.md).
    #[serde(default = "d_activity")]
    pub activity: f64,
    /// Share of that activity the apps keep (their launches, sessions and background work), and
    /// the share the system processes keep (their background work and boot): 1 is the model. The
    /// scoreboard's subject test sets one to 0 — the apps, or the system processes, touching no
    /// page and the rest as before — to find a number that is not its subject's (docs/FIDELITY.md).
    #[serde(default = "d_activity")]
    pub apps_activity: f64,
    #[serde(default = "d_activity")]
    pub system_activity: f64,
    /// Page touches of background work a process makes at most between two launches (its rounds
    /// stop when the next would pass this). An idle gap then costs launches and touches, not
    /// seconds: over a long gap a process's periodic touches reached their steady state long before
    /// (and Android's Doze defers background work on an idle phone). The default is above what the
    /// real logs' longest gap (14.8 h) needs at the presets' busiest background work (the system
    /// server's 64 pages a second over the 53,420 s gap: 3,418,880 touches), so that they run as
    /// without a budget.
    #[serde(default = "d_bg_touches")]
    pub max_bg_touches: u64,
    /// Power of the whole phone while an app loads (CPU, display, memory), for launch energy.
    #[serde(default = "d_active_mw")]
    pub active_mw: f64,
    /// DRAM background power per GiB over the whole run.
    #[serde(default = "d_dram_mw")]
    pub dram_mw_per_gib: f64,
    /// Flash writes per host write (FTL write amplification), for P/E cycles.
    #[serde(default = "d_waf")]
    pub write_amplification: f64,
    #[serde(default)]
    pub ux: UxThresholds,
    /// Kernel CPU time per event, for the user / system split (`cpu`; assumed costs).
    #[serde(default)]
    pub kernel: super::cpu::KernelCpu,
    #[serde(default)]
    pub system: Vec<SystemProcess>,
    #[serde(default)]
    pub source: String,
}

fn d_admission() -> String {
    crate::swap::admission::DEFAULT.into()
}
fn d_reserved() -> MemorySize {
    MemorySize::Bytes(0)
}
fn d_cluster() -> PageCluster {
    PageCluster::LINUX
}
fn d_readahead() -> u64 {
    128
}
fn d_cached() -> u32 {
    32
}
fn d_wsf() -> u64 {
    10
}
fn d_batch() -> u32 {
    crate::kernel::SWAP_CLUSTER_MAX as u32
}
fn d_backlog() -> f64 {
    50.0
}
fn d_session() -> f64 {
    60.0
}
fn d_activity() -> f64 {
    1.0
}
fn d_bg_touches() -> u64 {
    1 << 22
}
fn d_active_mw() -> f64 {
    1500.0
}
fn d_dram_mw() -> f64 {
    100.0
}
fn d_waf() -> f64 {
    1.0
}

/// Sizes in pages, resolved against the page size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Layout {
    pub dram_pages: u64,
    /// Frames the model manages: DRAM − reserved.
    pub frames: u64,
    pub swap_pages: u64,
    pub min: u64,
    pub low: u64,
    pub high: u64,
}

fn bytes(v: &MemorySize, field: &str, page_size: u64) -> Result<u64> {
    match *v {
        MemorySize::Bytes(b) => Ok(b),
        MemorySize::Pages(p) => p
            .checked_mul(page_size)
            .ok_or_else(|| Error::config(field, format!("{p} pages of {page_size} bytes are more than 2^64 bytes"))),
        MemorySize::Percent(_) => Err(Error::config(field, "a phone's sizes are bytes or pages, not a share")),
    }
}

impl Phone {
    pub fn swap_on(&self) -> bool {
        self.swap.is_some()
    }

    /// The swap device (None when swap is off) and the file-store device.
    pub fn devices(&self, catalog: &Catalog) -> Result<(Option<Device>, Device)> {
        let swap = self.swap.as_deref().map(|n| catalog.get(n, "swap").cloned()).transpose()?;
        Ok((swap, catalog.get(&self.storage, "storage")?.clone()))
    }

    pub fn layout(&self) -> Result<Layout> {
        let ps = self.page_size;
        crate::config::check_page_size(ps)?;
        let dram = bytes(&self.dram, "dram", ps)?;
        let reserved = bytes(&self.reserved, "reserved", ps)?;
        if reserved >= dram {
            return Err(Error::config("reserved", format!("{} leaves nothing of {} DRAM", self.reserved, self.dram)));
        }
        let frames = (dram - reserved) / ps;
        let swap_pages = match (&self.swap_size, self.swap_on()) {
            (_, false) => 0,
            (Some(s), true) => bytes(s, "swap_size", ps)? / ps,
            (None, true) => {
                let dev = self.swap.as_deref().unwrap_or_default();
                return Err(Error::config("swap_size", format!("swap on {dev} needs a size")));
            }
        };
        // Linux: min_free_kbytes = sqrt(16 × lowmem KiB), clamped to [128, 262144]; low and high
        // are min plus max(min/4, memory × watermark_scale_factor / 10000) once and twice.
        let min_kib = self
            .min_free_kib
            .unwrap_or_else(|| ((16.0 * (frames * ps / 1024) as f64).sqrt() as u64).clamp(128, 262144));
        // The knobs are bounded by what they can mean: a watermark above memory fails below anyway.
        if min_kib > (1 << 40) || self.watermark_scale_factor > 10000 {
            return Err(Error::config(
                "min_free_kib",
                format!(
                    "min_free_kib {min_kib} or watermark_scale_factor {} is beyond memory",
                    self.watermark_scale_factor
                ),
            ));
        }
        let min = (min_kib * 1024 / ps).max(1);
        let step = (min / 4).max(frames.saturating_mul(self.watermark_scale_factor) / 10000).max(1);
        let (low, high) = (min + step, min + 2 * step);
        if high >= frames {
            return Err(Error::config(
                "min_free_kib",
                format!("watermarks ({high} pages) leave no memory of {frames} frames"),
            ));
        }
        Ok(Layout { dram_pages: dram / ps, frames, swap_pages, min, low, high })
    }

    pub fn validate(&self, catalog: &Catalog) -> Result<()> {
        self.layout()?;
        let (swap, _) = self.devices(catalog)?;
        crate::config::check_direct_read(self.direct_read, swap.as_ref())?;
        if crate::policy::needs_tiers(&self.policy) || self.policy == "opt" {
            return Err(Error::config(
                "policy",
                format!(
                    "{:?} cannot run at system level (hybrid tiers and offline OPT need a page trace)",
                    self.policy
                ),
            ));
        }
        crate::policy::resolved_params(&self.policy, &self.params)?;
        super::killer::resolved_params(&self.killer, &self.killer_params)?;
        crate::swap::admission::build(&self.swap_admission, &self.swap_admission_params)?;
        self.ux.validate()?;
        self.kernel.validate()?;
        let pos = |f: &str, v: f64| {
            if !(v >= 0.0 && v.is_finite()) {
                return Err(Error::config(f, format!("{v:?} must be a finite number ≥ 0")));
            }
            Ok(())
        };
        pos("session_s", self.session_s)?;
        for (f, v) in [
            ("activity", self.activity),
            ("apps_activity", self.apps_activity),
            ("system_activity", self.system_activity),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(Error::config(f, format!("{v:?} is not a share from 0 to 1")));
            }
        }
        if self.session_s > 86400.0 {
            return Err(Error::config(
                "session_s",
                format!("{} s is more than a day in the foreground", self.session_s),
            ));
        }
        if !(1..=1 << 30).contains(&self.max_bg_touches) {
            return Err(Error::config("max_bg_touches", format!("{} is not in 1..=2^30", self.max_bg_touches)));
        }
        // Finite but past what the totals hold (a launch's energy, a run's flash writes): refused
        // here, never an infinite total in the result.
        crate::limits::per_op("kswapd_max_backlog_ms", self.kswapd_max_backlog_ms)?;
        crate::limits::per_op("active_mw", self.active_mw)?;
        crate::limits::per_op("dram_mw_per_gib", self.dram_mw_per_gib)?;
        if !(self.write_amplification >= 1.0 && self.write_amplification.is_finite()) {
            return Err(Error::config("write_amplification", format!("{} must be ≥ 1", self.write_amplification)));
        }
        crate::limits::per_op("write_amplification", self.write_amplification)?;
        if self.reclaim_pass == 0 {
            return Err(Error::config("reclaim_pass", "must be at least 1"));
        }
        if self.file_readahead_kib.saturating_mul(1024) < self.page_size {
            return Err(Error::config("file_readahead_kib", "must be at least one page"));
        }
        if self.fs_meta_write_kib > 1 << 20 {
            return Err(Error::config(
                "fs_meta_write_kib",
                format!("{} KiB is more than a GiB of metadata a launch", self.fs_meta_write_kib),
            ));
        }
        if self.file_readahead_kib > 1 << 20 {
            return Err(Error::config(
                "file_readahead_kib",
                format!("{} KiB is more than a GiB of readahead", self.file_readahead_kib),
            ));
        }
        for (i, s) in self.system.iter().enumerate() {
            let f = |n: &str| format!("system[{i}].{n}");
            if !crate::trace::procs::valid_adj(s.adj) {
                return Err(Error::config(f("adj"), format!("{} is not an oom_score_adj (-1000–1000)", s.adj)));
            }
            pos(&f("anon_mib"), s.anon_mib)?;
            pos(&f("file_mib"), s.file_mib)?;
            let own = ((s.anon_mib + s.file_mib) * 1048576.0 / self.page_size as f64).ceil() as u64;
            if s.pages > own {
                return Err(Error::config(
                    f("pages"),
                    format!("{} pages per period is more than the process has ({own})", s.pages),
                ));
            }
            let dram_mib = (self.layout()?.dram_pages * self.page_size) as f64 / 1048576.0;
            if s.anon_mib + s.file_mib > dram_mib {
                return Err(Error::config(
                    f("anon_mib"),
                    format!("{:?} + {:?} MiB is more than the phone's {dram_mib} MiB of DRAM", s.anon_mib, s.file_mib),
                ));
            }
            for (name, v) in [("write_share", s.write_share), ("hot_share", s.hot_share), ("hot_prob", s.hot_prob)] {
                if !(0.0..=1.0).contains(&v) {
                    return Err(Error::config(f(name), format!("{v:?} is not a share in [0, 1]")));
                }
            }
            crate::limits::per_op(f("period_s"), s.period_s)?;
            if s.period_s > 0.0 && s.period_s < MIN_PERIOD_S {
                return Err(Error::config(
                    f("period_s"),
                    format!("{:?} s: periods are at least 1 ms (0: none)", s.period_s),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "phone_tests.rs"]
mod tests;
