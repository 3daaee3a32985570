//! What a system-level run counts: launches and their latency, kills, live apps, swap and file
//! traffic, flash wear, energy — one record per run, plus one row per launch.

use super::phone::{Layout, Phone};
use super::usage::UsageStats;
use crate::device::Device;
use crate::engine::Tally;
use crate::meters::Meters;
use serde::Serialize;
use std::collections::BTreeMap;

/// One launch: a cold start (the app was dead) or a resume (it was alive).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LaunchRecord {
    /// Position in the usage trace.
    pub index: u32,
    /// When the user asked for the app, and when its launch began (later if the phone was still
    /// busy with the previous one), in s.
    pub time_s: f64,
    pub start_s: f64,
    pub app: String,
    pub cold: bool,
    /// Launch time: CPU time + the I/O it waited for.
    pub latency_ms: f64,
    pub cpu_ms: f64,
    /// Waits for file reads, swap-ins, and reclaim writes (direct reclaim), in ms.
    pub file_wait_ms: f64,
    pub swap_wait_ms: f64,
    pub reclaim_wait_ms: f64,
    /// Time of the touches Direct Read served in place from NVM (their extra over DRAM), in ms.
    pub mapped_read_ms: f64,
    pub file_pages_read: u64,
    pub swap_pages_read: u64,
    /// CPU time a CPU-side swap backend (zram) spent decompressing during the launch: its own
    /// faults' pages and what was decompressed ahead of them, waited for or not.
    pub decompress_ms: f64,
    /// Touches served in place from NVM (Direct Read).
    pub mapped_reads: u64,
    pub ux_class: super::phone::UxClass,
    /// At or above Android vitals' mark (cold ≥ 5 s, resume as a hot start ≥ 1.5 s).
    pub excessive: bool,
    /// Apps alive right after the launch (the launched one included).
    pub live_apps: u32,
}

/// Per-app totals.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct AppSummary {
    pub app: String,
    pub category: String,
    /// False: not in the catalog, ran with its defaults.
    pub known: bool,
    pub launches: u64,
    pub cold: u64,
    pub resumed: u64,
    pub kills: u64,
    pub mean_latency_ms: f64,
    pub mean_cold_ms: Option<f64>,
    pub mean_resume_ms: Option<f64>,
    /// Faults on its pages that found them in swap (copied back, or mapped in place).
    pub swap_faults: u64,
    /// Its pages written to swap (zram or a device), while it ran or in the background.
    pub swap_outs: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SystemEnergy {
    /// DRAM background power over the run (dram_mw_per_gib × DRAM).
    pub dram_background_j: f64,
    /// Swap and file device operations (per-page energy of each read and write).
    pub swap_device_j: f64,
    pub storage_device_j: f64,
    /// The phone's active power over the launches' time (the eMMC paper's power × time).
    pub launch_j: f64,
    pub total_j: f64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SystemMeters {
    pub launches: u64,
    pub cold: u64,
    pub resumed: u64,
    /// Kills by reason (the killer's rule, `cached-cap`, or `oom` when reclaim found nothing).
    pub kills: BTreeMap<String, u64>,
    pub kills_total: u64,
    /// Faults on system processes' pages that found them in swap (the apps' are per app).
    pub system_swap_faults: u64,
    /// System processes' pages written to swap, boot included (the apps' are per app).
    pub system_swap_outs: u64,
    /// Apps alive after each launch: mean and most.
    pub live_apps_mean: f64,
    pub live_apps_max: u32,
    pub total_launch_ms: f64,
    pub mean_launch_ms: f64,
    pub mean_cold_ms: Option<f64>,
    pub mean_resume_ms: Option<f64>,
    /// Launches per UX class (`UX_CLASSES` order) and at or above the vitals marks.
    pub ux: BTreeMap<String, u64>,
    pub excessive: u64,
    /// Pages read from swap (zram's backing device included) and written to it.
    pub swap_in_pages: u64,
    pub swap_out_pages: u64,
    /// zram writeback: pages written back to the backing device, and read back from it.
    pub written_back_pages: u64,
    pub backing_read_pages: u64,
    /// zram compressing by hotness class (`ariadne`): pages compressed as hot, warm and cold data;
    /// faults that decompressed their page's chunk, by the class it was compressed in; pages
    /// compressed over the DRAM frames they took (`None`: not by class, or none); pages PreDecomp
    /// decompressed ahead, and faults that found theirs there.
    pub compressed_hot_pages: u64,
    pub compressed_warm_pages: u64,
    pub compressed_cold_pages: u64,
    pub decompressed_hot_pages: u64,
    pub decompressed_warm_pages: u64,
    pub decompressed_cold_pages: u64,
    pub zram_ratio: Option<f64>,
    pub predecomp_pages: u64,
    pub predecomp_used: u64,
    pub file_read_pages: u64,
    pub write_back_pages: u64,
    /// File-system metadata written by launches (`fs_meta_write_kib` each).
    pub fs_meta_write_pages: u64,
    /// Read and write requests sent to the devices (after merging and read-around).
    pub swap_read_requests: u64,
    pub swap_write_requests: u64,
    pub file_read_requests: u64,
    /// Bytes read from and written to flash (swap on flash, the file store on flash).
    pub flash_read_bytes: u64,
    pub flash_write_bytes: u64,
    /// Of which swap writes.
    pub flash_swap_write_bytes: u64,
    /// P/E cycles used (perfect wear levelling: written × write amplification / capacity), and
    /// the flash's life at this run's write rate, when the device has a capacity and endurance.
    pub pe_cycles_used: Option<f64>,
    pub flash_lifetime_years: Option<f64>,
    /// Memory stall of all work (direct reclaim, swap-ins, refaults), ms.
    pub stall_ms: f64,
    pub kswapd_wakes: u64,
    /// Times a process reached `max_bg_touches` between two launches and went quiet until the next
    /// launch (long idle gaps; see the phone's `max_bg_touches`).
    pub bg_rounds_capped: u64,
    /// Starting apps that took the page ids of an app that had died (usage traces naming more
    /// apps of one size than can be alive at once; see `system/ranges.rs`).
    pub ranges_reused: u64,
    /// Page ids the run's engine holds (system processes and the apps' laid-out ranges): what the
    /// run's memory grows with.
    pub page_ids: u64,
    pub kswapd_pages: u64,
    pub kswapd_throttled: u64,
    pub direct_reclaims: u64,
    pub direct_reclaim_pages: u64,
    pub energy: SystemEnergy,
    /// CPU time: the apps' at starts and resumes (user), the kernel's (system; `cpu`).
    pub cpu: super::cpu::CpuTime,
    /// Swap-entry lifetimes (slots written, freed, still valid at the end; CDF in seconds).
    pub swap_lifetimes: LifetimeSummary,
    /// Simulated time from the first launch to the end of the last session, s.
    pub sim_time_s: f64,
    /// Page touches generated (launches, sessions, background work).
    pub touches: u64,
    /// Apps of the usage trace that the catalog lacked (they ran with its defaults).
    pub defaulted_apps: u64,
    pub apps: Vec<AppSummary>,
}

/// The phone a run used, resolved.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ResolvedPhone {
    pub name: String,
    /// The phone's fields as a table (typed in `mobmem phones`' listing, not here).
    #[schemars(with = "crate::units::Table")]
    pub phone: Phone,
    pub layout: Layout,
    pub swap: Option<Device>,
    pub storage: Device,
    pub policy_params: serde_json::Value,
    pub killer_params: serde_json::Value,
    pub swap_admission_params: serde_json::Value,
    /// The killer's levels in pages, when it has levels: (adj, pages).
    pub killer_levels: Vec<(i32, u64)>,
    pub seed: u64,
    pub ux_classes: [&'static str; 5],
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PhoneResult {
    pub config: ResolvedPhone,
    pub usage: UsageStats,
    pub usage_path: String,
    /// SHA-256 (hex) of the usage file's bytes as the run read them (none for generated usage).
    pub usage_sha256: Option<String>,
    pub meters: SystemMeters,
    /// The page engine's counters (faults by cause, swap-ins/outs, drops).
    pub pages: Meters,
    pub launches: Vec<LaunchRecord>,
    pub wall_time_s: f64,
}

/// Swap-entry lifetimes (the A2S paper's Figs. 1 and 10): each slot from its write until it is
/// freed (its page written again, or its owner killed), or still valid at the end.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LifetimeSummary {
    pub written: u64,
    pub ended: u64,
    pub valid_at_end: u64,
    /// (seconds, share of the slots written whose lifetime ended within that time).
    pub cdf: Vec<(f64, f64)>,
    pub mean_ended_s: Option<f64>,
    /// The A2S paper's definition: a slot is invalidated only when its owner dies (a slot freed
    /// because its page was written again counts as never invalidated). Slots freed by a death,
    /// and the same CDF over them.
    pub died: u64,
    pub cdf_owner_death: Vec<(f64, f64)>,
}

/// Where the CDF is given, s: the paper's marks (60, 1,000, 2,000, 4,000) and a few more.
pub const LIFETIME_POINTS_S: [f64; 9] = [10.0, 60.0, 300.0, 1000.0, 2000.0, 4000.0, 6000.0, 10000.0, 86400.0];

/// The lifetimes (ns) the CDF counts at each of `LIFETIME_POINTS_S`: the longest `v` with
/// `v × 1e-9 ≤ x` in floating point, for `Engine::with_lifetimes`.
pub fn lifetime_marks_ns() -> Vec<u64> {
    LIFETIME_POINTS_S
        .iter()
        .map(|&x| {
            let within = |v: u64| (v as f64) * 1e-9 <= x;
            let mut v = (x * 1e9) as u64;
            while !within(v) {
                v -= 1;
            }
            while within(v + 1) {
                v += 1;
            }
            v
        })
        .collect()
}

impl LifetimeSummary {
    /// From the engine's tallies in ns at `lifetime_marks_ns` (`Engine::lifetimes`): all slots
    /// freed, those freed by a death.
    pub fn new(ended: &Tally, died: &Tally, valid: u64) -> LifetimeSummary {
        let written = ended.n + valid;
        let cdf = |t: &Tally| {
            LIFETIME_POINTS_S
                .iter()
                .zip(&t.within)
                .map(|(&x, &n)| (x, if written > 0 { n as f64 / written as f64 } else { 0.0 }))
                .collect()
        };
        let mean = (ended.n > 0).then(|| ended.sum as f64 * 1e-9 / ended.n as f64);
        LifetimeSummary {
            written,
            ended: ended.n,
            valid_at_end: valid,
            cdf: cdf(ended),
            mean_ended_s: mean,
            died: died.n,
            cdf_owner_death: cdf(died),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's tally of lifetimes (ns) at the summary's marks.
    fn tally(v: &[u64]) -> Tally {
        let marks = lifetime_marks_ns();
        let within = marks.iter().map(|&m| v.iter().filter(|&&x| x <= m).count() as u64).collect();
        Tally { n: v.len() as u64, sum: v.iter().map(|&x| x as u128).sum(), within }
    }

    #[test]
    fn lifetime_cdf_counts_every_slot_written() {
        let s = LifetimeSummary::new(
            &tally(&[5_000_000_000, 59_000_000_000, 61_000_000_000, 5_000_000_000_000]),
            &tally(&[59_000_000_000]),
            6,
        );
        assert_eq!((s.written, s.ended, s.valid_at_end), (10, 4, 6));
        assert_eq!(s.cdf[0], (10.0, 0.1));
        assert_eq!(s.cdf[1], (60.0, 0.2));
        assert_eq!(s.cdf[2], (300.0, 0.3));
        assert_eq!(s.cdf[7], (10000.0, 0.4));
        assert!(s.cdf.windows(2).all(|w| w[0].1 <= w[1].1));
        assert_eq!((s.died, s.cdf_owner_death[0].1, s.cdf_owner_death[1].1), (1, 0.0, 0.1));
        assert_eq!(LifetimeSummary::new(&tally(&[]), &tally(&[]), 0).cdf[0].1, 0.0);
        // A mark is the longest lifetime whose seconds are at most the point's, as floats count.
        for (m, x) in lifetime_marks_ns().into_iter().zip(LIFETIME_POINTS_S) {
            assert!((m as f64) * 1e-9 <= x && ((m + 1) as f64) * 1e-9 > x, "{m} {x}");
        }
    }
}
