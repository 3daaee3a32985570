//! The phone: memory, swap, file store, reclaim policy, killer, system processes and the launch
//! model's knobs. Presets live in `phones.toml` (compiled in); a run names one and overrides
//! fields, or gives a whole phone.

use crate::error::{Error, Result};
use crate::units::MemorySize;
use serde::{Deserialize, Serialize};

pub use super::phones::{Phones, BUILTIN};
pub use super::ux::{UxClass, UxThresholds, UX_CLASSES};

/// A process that is always there: system_server and friends (adj < 0, never killed), or the
/// launcher (adj 600, which the killer may take).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
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

/// Shortest period of background work (1 ms): a shorter one would be a busy loop, and it keeps
/// the clock's steps far above its rounding.
pub const MIN_PERIOD_S: f64 = 1e-3;

crate::config::shared_knobs! {
    crate::config::knobs;
    PHONE_FIELDS, phone;
    /// A phone. A run names a preset and overrides its fields, or gives a whole phone; a field
    /// neither sets has the default here (the knobs both levels have: `config::shared_knobs!`).
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields, default)]
    pub struct Phone {
        /// what the phone is
        pub description: String = String::new(),
        /// DRAM of the phone (bytes or pages); a phone table must give it
        pub dram: MemorySize = MemorySize::Bytes(0),
        /// DRAM out of the model's reach: hardware carve-outs, kernel, and the OS's own use
        pub reserved: MemorySize = MemorySize::Bytes(0),
        /// swap device (mobmem devices), or off
        ///
        /// `None` is "off" in TOML and JSON.
        #[serde(with = "swap_device")]
        #[schemars(with = "String")]
        pub swap: Option<String> = None,
        /// swap capacity (bytes or pages); swap on needs it
        pub swap_size: Option<MemorySize> = None,
        @shared
        /// a file fault reads the app's next file pages with it, up to this size in KiB (Linux read_ahead_kb)
        pub file_readahead_kib: u64 = 128,
        /// file-system metadata a launch writes to the file store, KiB (0: not modelled)
        ///
        /// Journal, inode and directory updates, queued when the launch completes with nobody
        /// waiting.
        pub fs_meta_write_kib: u64 = 0,
        /// low memory killer (mobmem phone --help lists them)
        pub killer: String = "minfree".into(),
        /// the killer's parameters (a table; see each killer)
        #[schemars(with = "crate::units::Table")]
        pub killer_params: toml::Table = toml::Table::new(),
        /// most cached (adj ≥ 900) apps kept; older ones are killed (Android's cached-process limit)
        pub max_cached: u32 = 32,
        /// vm.min_free_kbytes; Linux's sqrt(16 × memory KiB) when absent
        pub min_free_kib: Option<u64> = None,
        /// vm.watermark_scale_factor (in 1/10000 of memory): the low and high watermarks above min
        pub watermark_scale_factor: u64 = 10,
        /// pages kswapd and direct reclaim take per pass (SWAP_CLUSTER_MAX)
        ///
        /// Not a page run's `reclaim_batch`, which is what a fault on full memory frees at once.
        pub reclaim_pass: u32 = crate::kernel::SWAP_CLUSTER_MAX as u32,
        /// kswapd stops while the swap or file device has more than this many ms queued
        ///
        /// So that heavy swap-out falls through to direct reclaim.
        pub kswapd_max_backlog_ms: f64 = 50.0,
        /// foreground activity after a launch lasts until the next launch, at most this many s
        pub session_s: f64 = 60.0,
        /// share of the page touches that apps and system processes make (1: the model; 0: none)
        ///
        /// At launches, in foreground sessions, in background work and at boot: 0 replays the
        /// launches with no page touched. The idle workload the fidelity scoreboard compares a
        /// result with, to find a number that does not depend on the workload (docs/FIDELITY.md).
        pub activity: f64 = 1.0,
        /// share of that activity the apps keep: their launches, sessions and background work (1: the model)
        ///
        /// The scoreboard's subject test sets it or `system_activity` to 0 — the apps, or the
        /// system processes, touching no page and the rest as before — to find a number that is
        /// not its subject's (docs/FIDELITY.md).
        pub apps_activity: f64 = 1.0,
        /// share of that activity the system processes keep: their background work and boot (1: the model)
        pub system_activity: f64 = 1.0,
        /// page touches of background work a process makes at most between two launches
        ///
        /// Its rounds stop when the next would pass this. An idle gap then costs launches and
        /// touches, not seconds: over a long gap a process's periodic touches reached their steady
        /// state long before (and Android's Doze defers background work on an idle phone). The
        /// default is above what the real logs' longest gap (14.8 h) needs at the presets' busiest
        /// background work (the system server's 64 pages a second over the 53,420 s gap: 3,418,880
        /// touches), so that they run as without a budget.
        pub max_bg_touches: u64 = 1 << 22,
        /// power of the whole phone while an app loads (CPU, display, memory), mW, for launch energy
        pub active_mw: f64 = 1500.0,
        /// DRAM background power per GiB over the whole run, mW
        pub dram_mw_per_gib: f64 = 100.0,
        /// flash writes per host write (FTL write amplification), for P/E cycles
        pub write_amplification: f64 = 1.0,
        /// UX delay classes' thresholds (a table)
        pub ux: UxThresholds = UxThresholds::default(),
        /// kernel CPU time per event, for the user / system split (a table; assumed costs)
        pub kernel: super::cpu::KernelCpu = super::cpu::KernelCpu::default(),
        /// the processes that are always there (an array of tables)
        pub system: Vec<SystemProcess> = Vec::new(),
        /// where the phone's numbers come from
        pub source: String = String::new(),
    }
}

/// A phone's knobs (`fields`: name, default — JSON, `null` when absent means off or derived —,
/// help, and whether a page run has it too, in `PHONE_FIELDS` order).
pub fn schema() -> serde_json::Value {
    serde_json::json!({"fields": crate::config::field_list(&Phone::default(), PHONE_FIELDS, "")})
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

    pub fn layout(&self) -> Result<Layout> {
        let ps = self.page_size;
        crate::config::check_page_size(ps)?;
        let dram = bytes(&self.dram, "dram", ps)?;
        if dram == 0 {
            return Err(Error::config("dram", "a phone needs its DRAM size (dram = \"2GiB\")"));
        }
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

    /// Checks the phone's own settings (`plan::PhonePlan` resolves the rest: the devices, the
    /// policy, the killer, the admission and the knobs a page run has too).
    pub fn check_own(&self) -> Result<()> {
        self.layout()?;
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
