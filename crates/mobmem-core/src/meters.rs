//! Meters: everything a run counts, and the result record of a run.

use crate::device::Device;
use serde::Serialize;

/// Counters of one page-level run. Faults are split by cause:
/// `cold_anon` (first touch of an anon page: zero-fill, no I/O), `cold_file` (first touch of a
/// file page: a file read), `swap_faults` (a swapped-out anon page), `file_rereads` (a file page
/// dropped earlier: a file read again) and `dr_promotions` (a write to a page Direct Read mapped in
/// place). So `faults = cold_anon + cold_file + swap_faults + file_rereads + dr_promotions`.
/// `swap_ins` counts the page copies from swap to DRAM: `swap_faults − dr_maps + dr_promotions`
/// (without Direct Read, `swap_ins = swap_faults`).
#[derive(Debug, Clone, Default, Serialize, PartialEq, schemars::JsonSchema)]
pub struct Meters {
    pub accesses: u64,
    pub hits: u64,
    pub faults: u64,
    pub cold_anon: u64,
    pub cold_file: u64,
    /// Faults on swapped-out pages (copied in, or mapped in place under Direct Read).
    pub swap_faults: u64,
    pub file_rereads: u64,
    /// Page copies from swap into DRAM (swap reads).
    pub swap_ins: u64,
    /// Direct Read: swap faults served by mapping the NVM page read-only in place (copies avoided).
    pub dr_maps: u64,
    /// Direct Read: writes to pages mapped in place, which migrate them to DRAM (counted in swap_ins).
    pub dr_promotions: u64,
    /// Direct Read: reads served from pages mapped in place (counted in hits).
    pub dr_hits: u64,
    /// Reads from the file store: cold_file + file_rereads.
    pub file_reads: u64,
    /// Dirty anon pages written to swap.
    pub swap_outs: u64,
    /// Dirty file pages written back to the file store.
    pub write_backs: u64,
    /// Clean anon pages whose swap copy was still valid: freed with no I/O.
    pub swap_cache_drops: u64,
    /// Pages read from swap by read-around (neighbours of a faulting page's slot, system level).
    pub swap_readahead: u64,
    /// File pages read ahead of a file fault (system level).
    pub file_readahead: u64,
    /// Clean file pages dropped (no I/O).
    pub file_drops: u64,
    /// Most swap slots in use at once, in pages.
    pub peak_swap_pages: u64,
    /// zram: most DRAM frames the compressed swap area took at once (0 for other swap devices).
    pub peak_zram_frames: u64,
    /// Access index at which swap first became full (None: never).
    pub swap_full_at: Option<u64>,
    /// Reclaims done while swap was full (only file or clean pages could go).
    pub reclaims_while_swap_full: u64,
    /// Dirty anon pages a policy offered that the swap admission kept out of swap (each time).
    pub swap_vetoes: u64,
    /// Reclaims during which the swap admission admitted no page at all (A2S's ESS): they ran as
    /// with swap off, without asking page by page.
    pub reclaims_swap_closed: u64,
    /// Page traces with processes: kills by the kernel's OOM killer when nothing could be
    /// reclaimed (the admission kept the anon pages), and the pages they freed (resident or
    /// swapped; the process's later accesses find them new). 0 at the system level, which counts
    /// its kills by reason.
    pub oom_kills: u64,
    pub oom_kill_pages: u64,
    /// zram writeback: swap copies written back to the backing device, and swap-ins read back
    /// from it (counted in swap_ins too).
    pub written_back: u64,
    pub backing_reads: u64,
    pub io: IoTime,
    pub energy: Energy,
    /// CPU time of the accesses (accesses × cpu_ns_per_access).
    pub cpu_ns: f64,
    /// Time of the memory operations on the tiers (tiered runs; 0 otherwise).
    pub memory_ns: f64,
    /// Simulated time: CPU time, memory time, and the I/O the faults waited for.
    pub sim_time_ns: f64,
    /// Tiered runs: per-tier counts, migrations, critical-process time and eq. 1 energy.
    pub tiers: Option<TierMeters>,
}

/// What a run on DRAM + PCM tiers counts (see docs/HYBRID.md).
#[derive(Debug, Clone, Default, Serialize, PartialEq, schemars::JsonSchema)]
pub struct TierMeters {
    pub dram: TierCounts,
    pub pcm: TierCounts,
    /// Pages moved DRAM → PCM, and PCM → DRAM.
    pub demotions: u64,
    pub promotions: u64,
    /// Accesses by processes with oom_score_adj ≤ 0 (system, foreground) and by the others.
    pub critical: ClassMeters,
    pub non_critical: ClassMeters,
    /// False when the trace had no process table: every process was counted critical.
    pub process_table: bool,
    /// Operations per page copy: page_size / access_bytes.
    pub ops_per_page: u64,
    pub energy: HybridEnergy,
    /// Bytes written to PCM (accesses, fills and demotions), and the PCM tier's life at this
    /// write rate with perfect wear levelling (endurance × PCM bytes / bytes written per second).
    pub pcm_write_bytes: u64,
    pub pcm_lifetime_years: Option<f64>,
}

/// One tier's counts.
#[derive(Debug, Clone, Default, Serialize, PartialEq, schemars::JsonSchema)]
pub struct TierCounts {
    pub frames: u64,
    /// Accesses served by this tier (hits, and the access of a fault once the page is in).
    pub reads: u64,
    pub writes: u64,
    pub hits: u64,
    /// Pages brought in by faults (new pages).
    pub fills: u64,
    /// Pages that left memory from this tier.
    pub evictions: u64,
}

/// Accesses of one class of processes and the time they waited.
#[derive(Debug, Clone, Default, Serialize, PartialEq, schemars::JsonSchema)]
pub struct ClassMeters {
    pub accesses: u64,
    pub hits: u64,
    pub dram_hits: u64,
    pub faults: u64,
    /// Memory and I/O time of this class's accesses, with the moves and evictions they caused.
    pub elapsed_ns: f64,
    /// Of `elapsed_ns`, the storage I/O (fault reads, eviction writes): the elapsed time without
    /// storage is `elapsed_ns - io_ns` (the paper does not say which it measures).
    pub io_ns: f64,
}

/// Energy by the hybrid DRAM+PCM paper's equation 1, and static energy as a separate line, in J.
#[derive(Debug, Clone, Default, Serialize, PartialEq, schemars::JsonSchema)]
pub struct HybridEnergy {
    pub w_d_j: f64,
    pub r_d_j: f64,
    pub w_p_j: f64,
    pub r_p_j: f64,
    /// Migrations DRAM → PCM (a DRAM page read and a PCM page write each).
    pub pm_d_j: f64,
    /// Migrations PCM → DRAM (a PCM page read and a DRAM page write each).
    pub pm_p_j: f64,
    /// New pages into DRAM / PCM (a page write each).
    pub np_d_j: f64,
    pub np_p_j: f64,
    /// W_D + R_D + W_P + R_P + PM_D + PM_P + NP_D + NP_P.
    pub eq1_j: f64,
    /// Static power × tier size × simulated time (not in eq. 1).
    pub static_dram_j: f64,
    pub static_pcm_j: f64,
}

/// I/O time by device and operation, in ns.
#[derive(Debug, Clone, Default, Serialize, PartialEq, schemars::JsonSchema)]
pub struct IoTime {
    pub swap_read_ns: f64,
    pub swap_write_ns: f64,
    pub file_read_ns: f64,
    pub file_write_ns: f64,
    /// zram writeback: writes to the backing device (in the background, not in `total_ns`) and
    /// reads back from it (in `total_ns`, beside the zram reads in `swap_read_ns`).
    pub backing_write_ns: f64,
    pub backing_read_ns: f64,
    pub total_ns: f64,
}

/// Energy of the devices' operations and background power over the simulated time, in joules.
#[derive(Debug, Clone, Default, Serialize, PartialEq, schemars::JsonSchema)]
pub struct Energy {
    pub swap_read_j: f64,
    pub swap_write_j: f64,
    pub file_read_j: f64,
    pub file_write_j: f64,
    pub background_j: f64,
    /// zram writeback: the backing device's writes and reads.
    pub backing_j: f64,
    pub total_j: f64,
}

impl Meters {
    /// Pages that left memory, whatever their I/O.
    pub fn evictions(&self) -> u64 {
        self.swap_outs + self.swap_cache_drops + self.write_backs + self.file_drops
    }

    /// Turns operation counts into time and energy on the given devices.
    pub fn finish(&mut self, swap: &Device, storage: &Device, page_size: u64, cpu_ns_per_access: f64) {
        // Device figures are per 4 KiB; `Device` scales them to the page size.
        self.file_reads = self.cold_file + self.file_rereads;
        // Pages read around a swap fault (`page_cluster`) are charged as page reads too.
        let swap_reads = self.swap_ins + self.swap_readahead - self.backing_reads;
        self.io = IoTime {
            // Swap-ins read back from zram's backing device are timed there (`add_backing`).
            swap_read_ns: swap_reads as f64 * swap.read_time_ns(1, page_size),
            swap_write_ns: self.swap_outs as f64 * swap.write_time_ns(1, page_size),
            file_read_ns: self.file_reads as f64 * storage.read_time_ns(1, page_size),
            file_write_ns: self.write_backs as f64 * storage.write_time_ns(1, page_size),
            backing_write_ns: 0.0,
            backing_read_ns: 0.0,
            total_ns: 0.0,
        };
        let io = &mut self.io;
        io.total_ns = io.swap_read_ns + io.swap_write_ns + io.file_read_ns + io.file_write_ns;
        self.cpu_ns = self.accesses as f64 * cpu_ns_per_access;
        self.sim_time_ns = self.cpu_ns + self.memory_ns + self.io.total_ns;
        self.energy = Energy {
            swap_read_j: swap.read_j(swap_reads, page_size),
            swap_write_j: swap.write_j(self.swap_outs, page_size),
            file_read_j: storage.read_j(self.file_reads, page_size),
            file_write_j: storage.write_j(self.write_backs, page_size),
            background_j: (swap.background_mw + storage.background_mw) * 1e-3 * self.sim_time_ns * 1e-9,
            backing_j: 0.0,
            total_j: 0.0,
        };
        let e = &mut self.energy;
        e.total_j = e.swap_read_j + e.swap_write_j + e.file_read_j + e.file_write_j + e.background_j;
    }

    /// zram writeback: the backing device's writes and reads, in I/O time and energy. A read back
    /// from it is a swap-in timed at the backing device instead of zram.
    pub fn add_backing(&mut self, backing: &Device, page_size: u64) {
        let (w, r) = (self.written_back, self.backing_reads);
        let io = &mut self.io;
        io.backing_write_ns = w as f64 * backing.write_time_ns(1, page_size);
        io.backing_read_ns = r as f64 * backing.read_time_ns(1, page_size);
        // Writeback runs in the background: its writes are not waited for.
        io.total_ns += io.backing_read_ns;
        self.sim_time_ns += io.backing_read_ns;
        let e = &mut self.energy;
        e.backing_j = backing.write_j(w, page_size) + backing.read_j(r, page_size);
        e.total_j += e.backing_j;
    }
}
