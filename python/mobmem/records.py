"""Typed result records, generated from the core's result structs by ``mobmem._gen_records``
(``make records``); do not edit by hand.

Each record is the ``dict`` the core's JSON gives, so ``r["faults"]``, ``json.dumps`` and pandas
work as on any dict, with a read-only attribute per field: ``r.faults``, ``r.io.total_ns``. Nested
records are made when the outer one is (``Meters(d).io`` is an ``IoTime``)."""

# mypy: disable-error-code="no-any-return"
# A field is read from the dict, whose values are typed ``Any``; its property says its type.

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar


class Fields(dict[str, "Any"]):  # `typing` is not imported at run time
    """A record of the core's JSON: a dict with typed attributes."""

    __slots__ = ()
    #: field → (shape, class) of the fields that hold records: "one", "list" or "map" of them.
    _nested: ClassVar[dict[str, tuple[str, type[Fields]]]] = {}

    def __init__(self, raw: dict[str, Any] | None = None) -> None:
        super().__init__(raw or {})
        for key, (shape, cls) in self._nested.items():
            v = self.get(key)
            if v is None or isinstance(v, Fields):
                continue
            if shape == "one":
                self[key] = cls(v)
            elif shape == "list":
                self[key] = [cls(x) for x in v]
            else:
                self[key] = {k: cls(x) for k, x in v.items()}

    def to_dict(self) -> dict[str, Any]:
        """The record as plain nested dicts (what ``--json`` prints)."""
        return _plain(self)


def _plain(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


class AppSummary(Fields):
    """Per-app totals."""

    __slots__ = ()

    @property
    def app(self) -> str:
        return self["app"]

    @property
    def category(self) -> str:
        return self["category"]

    @property
    def cold(self) -> int:
        return self["cold"]

    @property
    def kills(self) -> int:
        return self["kills"]

    @property
    def known(self) -> bool:
        """False: not in the catalog, ran with its defaults."""
        return self["known"]

    @property
    def launches(self) -> int:
        return self["launches"]

    @property
    def mean_cold_ms(self) -> float | None:
        return self["mean_cold_ms"]

    @property
    def mean_latency_ms(self) -> float:
        return self["mean_latency_ms"]

    @property
    def mean_resume_ms(self) -> float | None:
        return self["mean_resume_ms"]

    @property
    def resumed(self) -> int:
        return self["resumed"]

    @property
    def swap_faults(self) -> int:
        """Faults on its pages that found them in swap (copied back, or mapped in place)."""
        return self["swap_faults"]

    @property
    def swap_outs(self) -> int:
        """Its pages written to swap (zram or a device), while it ran or in the background."""
        return self["swap_outs"]


class ClassMeters(Fields):
    """Accesses of one class of processes and the time they waited."""

    __slots__ = ()

    @property
    def accesses(self) -> int:
        return self["accesses"]

    @property
    def dram_hits(self) -> int:
        return self["dram_hits"]

    @property
    def elapsed_ns(self) -> float:
        """Memory and I/O time of this class's accesses, with the moves and evictions they
        caused."""
        return self["elapsed_ns"]

    @property
    def faults(self) -> int:
        return self["faults"]

    @property
    def hits(self) -> int:
        return self["hits"]

    @property
    def io_ns(self) -> float:
        """Of `elapsed_ns`, the storage I/O (fault reads, eviction writes): the elapsed time without
        storage is `elapsed_ns - io_ns` (the paper does not say which it measures)."""
        return self["io_ns"]


class CpuTime(Fields):
    """A run's CPU time, s."""

    __slots__ = ()

    @property
    def compress_s(self) -> float:
        """Of `swap_s`, a CPU-side swap backend's (zram's) compression of the pages it stores."""
        return self["compress_s"]

    @property
    def decompress_s(self) -> float:
        """Of `swap_s`, its decompression of the pages read back (not of pages written back to a
        backing device, which the model does not charge)."""
        return self["decompress_s"]

    @property
    def fault_s(self) -> float:
        return self["fault_s"]

    @property
    def kill_s(self) -> float:
        return self["kill_s"]

    @property
    def reclaim_s(self) -> float:
        return self["reclaim_s"]

    @property
    def swap_s(self) -> float:
        """The system time's parts, s."""
        return self["swap_s"]

    @property
    def system_s(self) -> float:
        return self["system_s"]

    @property
    def user_s(self) -> float:
        return self["user_s"]


class Device(Fields):
    """A resolved device model. Latency and energy are per 4 KiB page operation."""

    __slots__ = ()

    @property
    def backend(self) -> str:
        """As swap: the backend (`crate::swap::backend`) and its parameters."""
        return self["backend"]

    @property
    def backend_params(self) -> dict[str, Any]:
        return self["backend_params"]

    @property
    def background_mw(self) -> float:
        return self["background_mw"]

    @property
    def capacity_bytes(self) -> int | None:
        return self["capacity_bytes"]

    @property
    def compression_ratio(self) -> float | None:
        """zram: pages stored per DRAM frame the compressed area takes (None for other kinds)."""
        return self["compression_ratio"]

    @property
    def description(self) -> str:
        return self["description"]

    @property
    def endurance_cycles(self) -> int | None:
        return self["endurance_cycles"]

    @property
    def energy_model(self) -> str | None:
        return self["energy_model"]

    @property
    def kind(self) -> str:
        return self["kind"]

    @property
    def mapped_read_ns(self) -> float:
        """NVM: the extra time of a page touch served in place by Direct Read, ns (0 for other
        kinds)."""
        return self["mapped_read_ns"]

    @property
    def name(self) -> str:
        return self["name"]

    @property
    def read_bw(self) -> list[list[float]]:
        """Bandwidth by request size (bytes, bytes/s), sizes increasing; empty = no size effect."""
        return self["read_bw"]

    @property
    def read_nj(self) -> float:
        return self["read_nj"]

    @property
    def read_ns(self) -> float:
        return self["read_ns"]

    @property
    def source(self) -> str:
        return self["source"]

    @property
    def write_bw(self) -> list[list[float]]:
        return self["write_bw"]

    @property
    def write_nj(self) -> float:
        return self["write_nj"]

    @property
    def write_ns(self) -> float:
        return self["write_ns"]


class Energy(Fields):
    """Energy of the devices' operations and background power over the simulated time, in joules."""

    __slots__ = ()

    @property
    def background_j(self) -> float:
        return self["background_j"]

    @property
    def backing_j(self) -> float:
        """zram writeback: the backing device's writes and reads."""
        return self["backing_j"]

    @property
    def file_read_j(self) -> float:
        return self["file_read_j"]

    @property
    def file_write_j(self) -> float:
        return self["file_write_j"]

    @property
    def swap_read_j(self) -> float:
        return self["swap_read_j"]

    @property
    def swap_write_j(self) -> float:
        return self["swap_write_j"]

    @property
    def total_j(self) -> float:
        return self["total_j"]


class HybridEnergy(Fields):
    """Energy by the hybrid DRAM+PCM paper's equation 1, and static energy as a separate line, in
    J."""

    __slots__ = ()

    @property
    def eq1_j(self) -> float:
        """W_D + R_D + W_P + R_P + PM_D + PM_P + NP_D + NP_P."""
        return self["eq1_j"]

    @property
    def np_d_j(self) -> float:
        """New pages into DRAM / PCM (a page write each)."""
        return self["np_d_j"]

    @property
    def np_p_j(self) -> float:
        return self["np_p_j"]

    @property
    def pm_d_j(self) -> float:
        """Migrations DRAM → PCM (a DRAM page read and a PCM page write each)."""
        return self["pm_d_j"]

    @property
    def pm_p_j(self) -> float:
        """Migrations PCM → DRAM (a PCM page read and a DRAM page write each)."""
        return self["pm_p_j"]

    @property
    def r_d_j(self) -> float:
        return self["r_d_j"]

    @property
    def r_p_j(self) -> float:
        return self["r_p_j"]

    @property
    def static_dram_j(self) -> float:
        """Static power × tier size × simulated time (not in eq. 1)."""
        return self["static_dram_j"]

    @property
    def static_pcm_j(self) -> float:
        return self["static_pcm_j"]

    @property
    def w_d_j(self) -> float:
        return self["w_d_j"]

    @property
    def w_p_j(self) -> float:
        return self["w_p_j"]


class IoTime(Fields):
    """I/O time by device and operation, in ns."""

    __slots__ = ()

    @property
    def backing_read_ns(self) -> float:
        return self["backing_read_ns"]

    @property
    def backing_write_ns(self) -> float:
        """zram writeback: writes to the backing device (in the background, not in `total_ns`) and
        reads back from it (in `total_ns`, beside the zram reads in `swap_read_ns`)."""
        return self["backing_write_ns"]

    @property
    def file_read_ns(self) -> float:
        return self["file_read_ns"]

    @property
    def file_write_ns(self) -> float:
        return self["file_write_ns"]

    @property
    def swap_read_ns(self) -> float:
        return self["swap_read_ns"]

    @property
    def swap_write_ns(self) -> float:
        return self["swap_write_ns"]

    @property
    def total_ns(self) -> float:
        return self["total_ns"]


class LaunchRecord(Fields):
    """One launch: a cold start (the app was dead) or a resume (it was alive)."""

    __slots__ = ()

    @property
    def app(self) -> str:
        return self["app"]

    @property
    def cold(self) -> bool:
        return self["cold"]

    @property
    def cpu_ms(self) -> float:
        return self["cpu_ms"]

    @property
    def decompress_ms(self) -> float:
        """CPU time a CPU-side swap backend (zram) spent decompressing during the launch: its own
        faults' pages and what was decompressed ahead of them, waited for or not."""
        return self["decompress_ms"]

    @property
    def excessive(self) -> bool:
        """At or above Android vitals' mark (cold ≥ 5 s, resume as a hot start ≥ 1.5 s)."""
        return self["excessive"]

    @property
    def file_pages_read(self) -> int:
        return self["file_pages_read"]

    @property
    def file_wait_ms(self) -> float:
        """Waits for file reads, swap-ins, and reclaim writes (direct reclaim), in ms."""
        return self["file_wait_ms"]

    @property
    def index(self) -> int:
        """Position in the usage trace."""
        return self["index"]

    @property
    def latency_ms(self) -> float:
        """Launch time: CPU time + the I/O it waited for."""
        return self["latency_ms"]

    @property
    def live_apps(self) -> int:
        """Apps alive right after the launch (the launched one included)."""
        return self["live_apps"]

    @property
    def mapped_read_ms(self) -> float:
        """Time of the touches Direct Read served in place from NVM (their extra over DRAM), in
        ms."""
        return self["mapped_read_ms"]

    @property
    def mapped_reads(self) -> int:
        """Touches served in place from NVM (Direct Read)."""
        return self["mapped_reads"]

    @property
    def reclaim_wait_ms(self) -> float:
        return self["reclaim_wait_ms"]

    @property
    def start_s(self) -> float:
        return self["start_s"]

    @property
    def swap_pages_read(self) -> int:
        return self["swap_pages_read"]

    @property
    def swap_wait_ms(self) -> float:
        return self["swap_wait_ms"]

    @property
    def time_s(self) -> float:
        """When the user asked for the app, and when its launch began (later if the phone was still
        busy with the previous one), in s."""
        return self["time_s"]

    @property
    def ux_class(self) -> str:
        return self["ux_class"]


class Layout(Fields):
    """Sizes in pages, resolved against the page size."""

    __slots__ = ()

    @property
    def dram_pages(self) -> int:
        return self["dram_pages"]

    @property
    def frames(self) -> int:
        """Frames the model manages: DRAM − reserved."""
        return self["frames"]

    @property
    def high(self) -> int:
        return self["high"]

    @property
    def low(self) -> int:
        return self["low"]

    @property
    def min(self) -> int:
        return self["min"]

    @property
    def swap_pages(self) -> int:
        return self["swap_pages"]


class LifetimeSummary(Fields):
    """Swap-entry lifetimes (the A2S paper's Figs. 1 and 10): each slot from its write until it is
    freed (its page written again, or its owner killed), or still valid at the end."""

    __slots__ = ()

    @property
    def cdf(self) -> list[list[float]]:
        """(seconds, share of the slots written whose lifetime ended within that time)."""
        return self["cdf"]

    @property
    def cdf_owner_death(self) -> list[list[float]]:
        return self["cdf_owner_death"]

    @property
    def died(self) -> int:
        """The A2S paper's definition: a slot is invalidated only when its owner dies (a slot freed
        because its page was written again counts as never invalidated). Slots freed by a death, and
        the same CDF over them."""
        return self["died"]

    @property
    def ended(self) -> int:
        return self["ended"]

    @property
    def mean_ended_s(self) -> float | None:
        return self["mean_ended_s"]

    @property
    def valid_at_end(self) -> int:
        return self["valid_at_end"]

    @property
    def written(self) -> int:
        return self["written"]


class TierCounts(Fields):
    """One tier's counts."""

    __slots__ = ()

    @property
    def evictions(self) -> int:
        """Pages that left memory from this tier."""
        return self["evictions"]

    @property
    def fills(self) -> int:
        """Pages brought in by faults (new pages)."""
        return self["fills"]

    @property
    def frames(self) -> int:
        return self["frames"]

    @property
    def hits(self) -> int:
        return self["hits"]

    @property
    def reads(self) -> int:
        """Accesses served by this tier (hits, and the access of a fault once the page is in)."""
        return self["reads"]

    @property
    def writes(self) -> int:
        return self["writes"]


class TierMeters(Fields):
    """What a run on DRAM + PCM tiers counts (see docs/HYBRID.md)."""

    __slots__ = ()
    _nested: ClassVar[dict[str, tuple[str, type[Fields]]]] = {
        "critical": ("one", ClassMeters),
        "dram": ("one", TierCounts),
        "energy": ("one", HybridEnergy),
        "non_critical": ("one", ClassMeters),
        "pcm": ("one", TierCounts),
    }

    @property
    def critical(self) -> ClassMeters:
        """Accesses by processes with oom_score_adj ≤ 0 (system, foreground) and by the others."""
        return self["critical"]

    @property
    def demotions(self) -> int:
        """Pages moved DRAM → PCM, and PCM → DRAM."""
        return self["demotions"]

    @property
    def dram(self) -> TierCounts:
        return self["dram"]

    @property
    def energy(self) -> HybridEnergy:
        return self["energy"]

    @property
    def non_critical(self) -> ClassMeters:
        return self["non_critical"]

    @property
    def ops_per_page(self) -> int:
        """Operations per page copy: page_size / access_bytes."""
        return self["ops_per_page"]

    @property
    def pcm(self) -> TierCounts:
        return self["pcm"]

    @property
    def pcm_lifetime_years(self) -> float | None:
        return self["pcm_lifetime_years"]

    @property
    def pcm_write_bytes(self) -> int:
        """Bytes written to PCM (accesses, fills and demotions), and the PCM tier's life at this
        write rate with perfect wear levelling (endurance × PCM bytes / bytes written per
        second)."""
        return self["pcm_write_bytes"]

    @property
    def process_table(self) -> bool:
        """False when the trace had no process table: every process was counted critical."""
        return self["process_table"]

    @property
    def promotions(self) -> int:
        return self["promotions"]


class Meters(Fields):
    """Counters of one page-level run. Faults are split by cause: `cold_anon` (first touch of an
    anon page: zero-fill, no I/O), `cold_file` (first touch of a file page: a file read),
    `swap_faults` (a swapped-out anon page), `file_rereads` (a file page dropped earlier: a file
    read again) and `dr_promotions` (a write to a page Direct Read mapped in place). So `faults =
    cold_anon + cold_file + swap_faults + file_rereads + dr_promotions`. `swap_ins` counts the page
    copies from swap to DRAM: `swap_faults − dr_maps + dr_promotions` (without Direct Read,
    `swap_ins = swap_faults`)."""

    __slots__ = ()
    _nested: ClassVar[dict[str, tuple[str, type[Fields]]]] = {
        "energy": ("one", Energy),
        "io": ("one", IoTime),
        "tiers": ("one", TierMeters),
    }

    @property
    def accesses(self) -> int:
        return self["accesses"]

    @property
    def backing_reads(self) -> int:
        return self["backing_reads"]

    @property
    def cold_anon(self) -> int:
        return self["cold_anon"]

    @property
    def cold_file(self) -> int:
        return self["cold_file"]

    @property
    def cpu_ns(self) -> float:
        """CPU time of the accesses (accesses × cpu_ns_per_access)."""
        return self["cpu_ns"]

    @property
    def dr_hits(self) -> int:
        """Direct Read: reads served from pages mapped in place (counted in hits)."""
        return self["dr_hits"]

    @property
    def dr_maps(self) -> int:
        """Direct Read: swap faults served by mapping the NVM page read-only in place (copies
        avoided)."""
        return self["dr_maps"]

    @property
    def dr_promotions(self) -> int:
        """Direct Read: writes to pages mapped in place, which migrate them to DRAM (counted in
        swap_ins)."""
        return self["dr_promotions"]

    @property
    def energy(self) -> Energy:
        return self["energy"]

    @property
    def faults(self) -> int:
        return self["faults"]

    @property
    def file_drops(self) -> int:
        """Clean file pages dropped (no I/O)."""
        return self["file_drops"]

    @property
    def file_readahead(self) -> int:
        """File pages read ahead of a file fault (system level)."""
        return self["file_readahead"]

    @property
    def file_reads(self) -> int:
        """Reads from the file store: cold_file + file_rereads."""
        return self["file_reads"]

    @property
    def file_rereads(self) -> int:
        return self["file_rereads"]

    @property
    def hits(self) -> int:
        return self["hits"]

    @property
    def io(self) -> IoTime:
        return self["io"]

    @property
    def memory_ns(self) -> float:
        """Time of the memory operations on the tiers (tiered runs; 0 otherwise)."""
        return self["memory_ns"]

    @property
    def oom_kill_pages(self) -> int:
        return self["oom_kill_pages"]

    @property
    def oom_kills(self) -> int:
        """Page traces with processes: kills by the kernel's OOM killer when nothing could be
        reclaimed (the admission kept the anon pages), and the pages they freed (resident or
        swapped; the process's later accesses find them new). 0 at the system level, which counts
        its kills by reason."""
        return self["oom_kills"]

    @property
    def peak_swap_pages(self) -> int:
        """Most swap slots in use at once, in pages."""
        return self["peak_swap_pages"]

    @property
    def peak_zram_frames(self) -> int:
        """zram: most DRAM frames the compressed swap area took at once (0 for other swap
        devices)."""
        return self["peak_zram_frames"]

    @property
    def reclaims_swap_closed(self) -> int:
        """Reclaims during which the swap admission admitted no page at all (A2S's ESS): they ran as
        with swap off, without asking page by page."""
        return self["reclaims_swap_closed"]

    @property
    def reclaims_while_swap_full(self) -> int:
        """Reclaims done while swap was full (only file or clean pages could go)."""
        return self["reclaims_while_swap_full"]

    @property
    def sim_time_ns(self) -> float:
        """Simulated time: CPU time, memory time, and the I/O the faults waited for."""
        return self["sim_time_ns"]

    @property
    def swap_cache_drops(self) -> int:
        """Clean anon pages whose swap copy was still valid: freed with no I/O."""
        return self["swap_cache_drops"]

    @property
    def swap_faults(self) -> int:
        """Faults on swapped-out pages (copied in, or mapped in place under Direct Read)."""
        return self["swap_faults"]

    @property
    def swap_full_at(self) -> int | None:
        """Access index at which swap first became full (None: never)."""
        return self["swap_full_at"]

    @property
    def swap_ins(self) -> int:
        """Page copies from swap into DRAM (swap reads)."""
        return self["swap_ins"]

    @property
    def swap_outs(self) -> int:
        """Dirty anon pages written to swap."""
        return self["swap_outs"]

    @property
    def swap_readahead(self) -> int:
        """Pages read from swap by read-around (neighbours of a faulting page's slot, system
        level)."""
        return self["swap_readahead"]

    @property
    def swap_vetoes(self) -> int:
        """Dirty anon pages a policy offered that the swap admission kept out of swap (each
        time)."""
        return self["swap_vetoes"]

    @property
    def tiers(self) -> TierMeters | None:
        """Tiered runs: per-tier counts, migrations, critical-process time and eq. 1 energy."""
        return self["tiers"]

    @property
    def write_backs(self) -> int:
        """Dirty file pages written back to the file store."""
        return self["write_backs"]

    @property
    def written_back(self) -> int:
        """zram writeback: swap copies written back to the backing device, and swap-ins read back
        from it (counted in swap_ins too)."""
        return self["written_back"]


class ResolvedPhone(Fields):
    """The phone a run used, resolved."""

    __slots__ = ()
    _nested: ClassVar[dict[str, tuple[str, type[Fields]]]] = {
        "layout": ("one", Layout),
        "storage": ("one", Device),
        "swap": ("one", Device),
    }

    @property
    def killer_levels(self) -> list[list[int]]:
        """The killer's levels in pages, when it has levels: (adj, pages)."""
        return self["killer_levels"]

    @property
    def killer_params(self) -> Any:
        return self["killer_params"]

    @property
    def layout(self) -> Layout:
        return self["layout"]

    @property
    def name(self) -> str:
        return self["name"]

    @property
    def phone(self) -> dict[str, Any]:
        """The phone's fields as a table (typed in `mobmem phones`' listing, not here)."""
        return self["phone"]

    @property
    def policy_params(self) -> Any:
        return self["policy_params"]

    @property
    def seed(self) -> int:
        return self["seed"]

    @property
    def storage(self) -> Device:
        return self["storage"]

    @property
    def swap(self) -> Device | None:
        return self["swap"]

    @property
    def swap_admission_params(self) -> Any:
        return self["swap_admission_params"]

    @property
    def ux_classes(self) -> list[str]:
        return self["ux_classes"]


class SystemEnergy(Fields):
    """SystemEnergy, as the core serializes it."""

    __slots__ = ()

    @property
    def dram_background_j(self) -> float:
        """DRAM background power over the run (dram_mw_per_gib × DRAM)."""
        return self["dram_background_j"]

    @property
    def launch_j(self) -> float:
        """The phone's active power over the launches' time (the eMMC paper's power × time)."""
        return self["launch_j"]

    @property
    def storage_device_j(self) -> float:
        return self["storage_device_j"]

    @property
    def swap_device_j(self) -> float:
        """Swap and file device operations (per-page energy of each read and write)."""
        return self["swap_device_j"]

    @property
    def total_j(self) -> float:
        return self["total_j"]


class SystemMeters(Fields):
    """SystemMeters, as the core serializes it."""

    __slots__ = ()
    _nested: ClassVar[dict[str, tuple[str, type[Fields]]]] = {
        "apps": ("list", AppSummary),
        "cpu": ("one", CpuTime),
        "energy": ("one", SystemEnergy),
        "swap_lifetimes": ("one", LifetimeSummary),
    }

    @property
    def apps(self) -> list[AppSummary]:
        return self["apps"]

    @property
    def backing_read_pages(self) -> int:
        return self["backing_read_pages"]

    @property
    def bg_rounds_capped(self) -> int:
        """Times a process reached `max_bg_touches` between two launches and went quiet until the
        next launch (long idle gaps; see the phone's `max_bg_touches`)."""
        return self["bg_rounds_capped"]

    @property
    def cold(self) -> int:
        return self["cold"]

    @property
    def compressed_cold_pages(self) -> int:
        return self["compressed_cold_pages"]

    @property
    def compressed_hot_pages(self) -> int:
        """zram compressing by hotness class (`ariadne`): pages compressed as hot, warm and cold
        data; faults that decompressed their page's chunk, by the class it was compressed in; pages
        compressed over the DRAM frames they took (`None`: not by class, or none); pages PreDecomp
        decompressed ahead, and faults that found theirs there."""
        return self["compressed_hot_pages"]

    @property
    def compressed_warm_pages(self) -> int:
        return self["compressed_warm_pages"]

    @property
    def cpu(self) -> CpuTime:
        """CPU time: the apps' at starts and resumes (user), the kernel's (system; `cpu`)."""
        return self["cpu"]

    @property
    def decompressed_cold_pages(self) -> int:
        return self["decompressed_cold_pages"]

    @property
    def decompressed_hot_pages(self) -> int:
        return self["decompressed_hot_pages"]

    @property
    def decompressed_warm_pages(self) -> int:
        return self["decompressed_warm_pages"]

    @property
    def defaulted_apps(self) -> int:
        """Apps of the usage trace that the catalog lacked (they ran with its defaults)."""
        return self["defaulted_apps"]

    @property
    def direct_reclaim_pages(self) -> int:
        return self["direct_reclaim_pages"]

    @property
    def direct_reclaims(self) -> int:
        return self["direct_reclaims"]

    @property
    def energy(self) -> SystemEnergy:
        return self["energy"]

    @property
    def excessive(self) -> int:
        return self["excessive"]

    @property
    def file_read_pages(self) -> int:
        return self["file_read_pages"]

    @property
    def file_read_requests(self) -> int:
        return self["file_read_requests"]

    @property
    def flash_lifetime_years(self) -> float | None:
        return self["flash_lifetime_years"]

    @property
    def flash_read_bytes(self) -> int:
        """Bytes read from and written to flash (swap on flash, the file store on flash)."""
        return self["flash_read_bytes"]

    @property
    def flash_swap_write_bytes(self) -> int:
        """Of which swap writes."""
        return self["flash_swap_write_bytes"]

    @property
    def flash_write_bytes(self) -> int:
        return self["flash_write_bytes"]

    @property
    def fs_meta_write_pages(self) -> int:
        """File-system metadata written by launches (`fs_meta_write_kib` each)."""
        return self["fs_meta_write_pages"]

    @property
    def kills(self) -> dict[str, int]:
        """Kills by reason (the killer's rule, `cached-cap`, or `oom` when reclaim found
        nothing)."""
        return self["kills"]

    @property
    def kills_total(self) -> int:
        return self["kills_total"]

    @property
    def kswapd_pages(self) -> int:
        return self["kswapd_pages"]

    @property
    def kswapd_throttled(self) -> int:
        return self["kswapd_throttled"]

    @property
    def kswapd_wakes(self) -> int:
        return self["kswapd_wakes"]

    @property
    def launches(self) -> int:
        return self["launches"]

    @property
    def live_apps_max(self) -> int:
        return self["live_apps_max"]

    @property
    def live_apps_mean(self) -> float:
        """Apps alive after each launch: mean and most."""
        return self["live_apps_mean"]

    @property
    def mean_cold_ms(self) -> float | None:
        return self["mean_cold_ms"]

    @property
    def mean_launch_ms(self) -> float:
        return self["mean_launch_ms"]

    @property
    def mean_resume_ms(self) -> float | None:
        return self["mean_resume_ms"]

    @property
    def page_ids(self) -> int:
        """Page ids the run's engine holds (system processes and the apps' laid-out ranges): what
        the run's memory grows with."""
        return self["page_ids"]

    @property
    def pe_cycles_used(self) -> float | None:
        """P/E cycles used (perfect wear levelling: written × write amplification / capacity), and
        the flash's life at this run's write rate, when the device has a capacity and endurance."""
        return self["pe_cycles_used"]

    @property
    def predecomp_pages(self) -> int:
        return self["predecomp_pages"]

    @property
    def predecomp_used(self) -> int:
        return self["predecomp_used"]

    @property
    def ranges_reused(self) -> int:
        """Starting apps that took the page ids of an app that had died (usage traces naming more
        apps of one size than can be alive at once; see `system/ranges.rs`)."""
        return self["ranges_reused"]

    @property
    def resumed(self) -> int:
        return self["resumed"]

    @property
    def sim_time_s(self) -> float:
        """Simulated time from the first launch to the end of the last session, s."""
        return self["sim_time_s"]

    @property
    def stall_ms(self) -> float:
        """Memory stall of all work (direct reclaim, swap-ins, refaults), ms."""
        return self["stall_ms"]

    @property
    def swap_in_pages(self) -> int:
        """Pages read from swap (zram's backing device included) and written to it."""
        return self["swap_in_pages"]

    @property
    def swap_lifetimes(self) -> LifetimeSummary:
        """Swap-entry lifetimes (slots written, freed, still valid at the end; CDF in seconds)."""
        return self["swap_lifetimes"]

    @property
    def swap_out_pages(self) -> int:
        return self["swap_out_pages"]

    @property
    def swap_read_requests(self) -> int:
        """Read and write requests sent to the devices (after merging and read-around)."""
        return self["swap_read_requests"]

    @property
    def swap_write_requests(self) -> int:
        return self["swap_write_requests"]

    @property
    def system_swap_faults(self) -> int:
        """Faults on system processes' pages that found them in swap (the apps' are per app)."""
        return self["system_swap_faults"]

    @property
    def system_swap_outs(self) -> int:
        """System processes' pages written to swap, boot included (the apps' are per app)."""
        return self["system_swap_outs"]

    @property
    def total_launch_ms(self) -> float:
        return self["total_launch_ms"]

    @property
    def touches(self) -> int:
        """Page touches generated (launches, sessions, background work)."""
        return self["touches"]

    @property
    def ux(self) -> dict[str, int]:
        """Launches per UX class (`UX_CLASSES` order) and at or above the vitals marks."""
        return self["ux"]

    @property
    def write_back_pages(self) -> int:
        return self["write_back_pages"]

    @property
    def written_back_pages(self) -> int:
        """zram writeback: pages written back to the backing device, and read back from it."""
        return self["written_back_pages"]

    @property
    def zram_ratio(self) -> float | None:
        return self["zram_ratio"]


class UsageStats(Fields):
    """Reuse statistics of a launch sequence."""

    __slots__ = ()

    @property
    def avg_reuse_distance_apps(self) -> float:
        """Mean number of distinct other apps launched in between (the LRU stack distance): what the
        A2S paper's Table 1 figures (2.23, 4.56, 6.10) correspond to."""
        return self["avg_reuse_distance_apps"]

    @property
    def avg_reuse_distance_launches(self) -> float:
        """Mean number of launches between two consecutive launches of an app."""
        return self["avg_reuse_distance_launches"]

    @property
    def distinct_apps(self) -> int:
        return self["distinct_apps"]

    @property
    def launches(self) -> int:
        return self["launches"]

    @property
    def popularity(self) -> list[list[str | int]]:
        """Launches per app, most used first: (app, launches)."""
        return self["popularity"]

    @property
    def reuses(self) -> int:
        """Launches that reuse an app launched before."""
        return self["reuses"]


class PhoneResult(Fields):
    """PhoneResult, as the core serializes it."""

    __slots__ = ()
    _nested: ClassVar[dict[str, tuple[str, type[Fields]]]] = {
        "config": ("one", ResolvedPhone),
        "launches": ("list", LaunchRecord),
        "meters": ("one", SystemMeters),
        "pages": ("one", Meters),
        "usage": ("one", UsageStats),
    }

    @property
    def config(self) -> ResolvedPhone:
        return self["config"]

    @property
    def launches(self) -> list[LaunchRecord]:
        return self["launches"]

    @property
    def meters(self) -> SystemMeters:
        return self["meters"]

    @property
    def pages(self) -> Meters:
        """The page engine's counters (faults by cause, swap-ins/outs, drops)."""
        return self["pages"]

    @property
    def usage(self) -> UsageStats:
        return self["usage"]

    @property
    def usage_path(self) -> str:
        return self["usage_path"]

    @property
    def usage_sha256(self) -> str | None:
        """SHA-256 (hex) of the usage file's bytes as the run read them (none for generated
        usage)."""
        return self["usage_sha256"]

    @property
    def wall_time_s(self) -> float:
        return self["wall_time_s"]


class PidStats(Fields):
    """PidStats, as the core serializes it."""

    __slots__ = ()

    @property
    def accesses(self) -> int:
        return self["accesses"]

    @property
    def pages(self) -> int:
        return self["pages"]

    @property
    def pid(self) -> int:
        return self["pid"]


class TierModel(Fields):
    """A resolved tier model."""

    __slots__ = ()

    @property
    def description(self) -> str:
        return self["description"]

    @property
    def endurance_cycles(self) -> int | None:
        """Writes a cell endures; none = unlimited (DRAM)."""
        return self["endurance_cycles"]

    @property
    def kind(self) -> str:
        return self["kind"]

    @property
    def name(self) -> str:
        return self["name"]

    @property
    def read_nj_per_bit(self) -> float:
        return self["read_nj_per_bit"]

    @property
    def read_ns(self) -> float:
        """Latency of one memory operation, ns."""
        return self["read_ns"]

    @property
    def source(self) -> str:
        return self["source"]

    @property
    def static_mw_per_gib(self) -> float:
        """Static (refresh, leakage) power per GiB of the tier, mW."""
        return self["static_mw_per_gib"]

    @property
    def write_nj_per_bit(self) -> float:
        return self["write_nj_per_bit"]

    @property
    def write_ns(self) -> float:
        return self["write_ns"]


class ResolvedTiers(Fields):
    """The tiers a run used."""

    __slots__ = ()
    _nested: ClassVar[dict[str, tuple[str, type[Fields]]]] = {
        "dram": ("one", TierModel),
        "pcm": ("one", TierModel),
    }

    @property
    def access_bytes(self) -> int:
        return self["access_bytes"]

    @property
    def dram(self) -> TierModel:
        return self["dram"]

    @property
    def dram_frames(self) -> int:
        return self["dram_frames"]

    @property
    def pcm(self) -> TierModel:
        return self["pcm"]

    @property
    def pcm_frames(self) -> int:
        return self["pcm_frames"]

    @property
    def pcm_share(self) -> float:
        return self["pcm_share"]

    @property
    def promote_on_hit(self) -> bool:
        return self["promote_on_hit"]


class ResolvedConfig(Fields):
    """The configuration a run used: the knobs as given, with what they resolved to in place of
    names, shares and partial tables."""

    __slots__ = ()
    _nested: ClassVar[dict[str, tuple[str, type[Fields]]]] = {
        "storage": ("one", Device),
        "swap": ("one", Device),
        "tiers": ("one", ResolvedTiers),
    }

    @property
    def anon_first_touch(self) -> str:
        """first touch of an anon page: zero (zero-filled, Linux) or swap (read from swap)"""
        return self["anon_first_touch"]

    @property
    def cpu_ns_per_access(self) -> float:
        """CPU time per access in ns"""
        return self["cpu_ns_per_access"]

    @property
    def direct_read(self) -> bool:
        """DR. Swap's Direct Read (NVM swap devices)"""
        return self["direct_read"]

    @property
    def energy_duration_s(self) -> float | None:
        """up time for static energy (swap energy model, tier refresh), in s; the simulated time
        when absent"""
        return self["energy_duration_s"]

    @property
    def frames(self) -> int:
        return self["frames"]

    @property
    def memory(self) -> str:
        """DRAM for pages: frames (1024), bytes (64MiB) or a share of the footprint (10%)"""
        return self["memory"]

    @property
    def page_cluster(self) -> int:
        """swap read-around: a swap fault also reads its aligned cluster of 2^page_cluster slots
        (Linux vm.page-cluster; 0: off)"""
        return self["page_cluster"]

    @property
    def page_size(self) -> int:
        """page size in bytes"""
        return self["page_size"]

    @property
    def params(self) -> Any:
        return self["params"]

    @property
    def policy(self) -> str:
        """page reclamation policy (mobmem policies)"""
        return self["policy"]

    @property
    def reclaim_batch(self) -> int:
        """frames one reclaim frees when a fault finds memory full (Linux's memory cgroup: 32 pages,
        SWAP_CLUSTER_MAX)"""
        return self["reclaim_batch"]

    @property
    def storage(self) -> Device:
        return self["storage"]

    @property
    def swap(self) -> Device:
        return self["swap"]

    @property
    def swap_admission(self) -> str:
        """which dirty anon pages may go to swap (mobmem admissions); on a page trace, a2s,
        adj-limit and hot-list need processes"""
        return self["swap_admission"]

    @property
    def swap_admission_params(self) -> Any:
        return self["swap_admission_params"]

    @property
    def swap_cache(self) -> bool:
        return self["swap_cache"]

    @property
    def swap_pages(self) -> int | None:
        return self["swap_pages"]

    @property
    def swap_size(self) -> str | None:
        """swap capacity (pages, bytes or %); unlimited when absent"""
        return self["swap_size"]

    @property
    def tiers(self) -> ResolvedTiers | None:
        return self["tiers"]

    @property
    def zram_in_memory(self) -> bool:
        """zram's compressed pages take frames of memory; off: outside it (a memory cgroup's
        limit)"""
        return self["zram_in_memory"]


class SwapEnergy(Fields):
    """What a swap area spent: times (s) and energy (J) by component."""

    __slots__ = ()

    @property
    def activate_j(self) -> float:
        return self["activate_j"]

    @property
    def background_j(self) -> float:
        """Background (DRAM/PCM: the four power states plus scaled refresh; flash: standby)."""
        return self["background_j"]

    @property
    def io_exceeds_total(self) -> bool:
        return self["io_exceeds_total"]

    @property
    def io_j(self) -> float:
        """Driving the data bus (DQ)."""
        return self["io_j"]

    @property
    def model(self) -> str:
        return self["model"]

    @property
    def n_rd(self) -> int:
        """Swap-ins that copied a page (N_rd, or N'_rd for DR. Swap) and swap-outs (N_wr)."""
        return self["n_rd"]

    @property
    def n_wr(self) -> int:
        return self["n_wr"]

    @property
    def page_bytes(self) -> int:
        return self["page_bytes"]

    @property
    def read_j(self) -> float:
        return self["read_j"]

    @property
    def refresh_scale(self) -> float:
        """REF scale (swap size / chip size); 0 for flash."""
        return self["refresh_scale"]

    @property
    def swap_bytes(self) -> int:
        return self["swap_bytes"]

    @property
    def t_act_s(self) -> float:
        return self["t_act_s"]

    @property
    def t_dq_s(self) -> float:
        return self["t_dq_s"]

    @property
    def t_rd_s(self) -> float:
        return self["t_rd_s"]

    @property
    def t_stby_s(self) -> float:
        return self["t_stby_s"]

    @property
    def t_total_s(self) -> float:
        return self["t_total_s"]

    @property
    def t_wr_s(self) -> float:
        return self["t_wr_s"]

    @property
    def total_j(self) -> float:
        return self["total_j"]

    @property
    def total_mah(self) -> float:
        """Total as mAh of a 3.8 V battery."""
        return self["total_mah"]

    @property
    def write_j(self) -> float:
        return self["write_j"]


class Skipped(Fields):
    """Lines a reader passed over, by reason. Nothing is skipped silently: these are reported."""

    __slots__ = ()

    @property
    def bad_lines(self) -> int:
        """Malformed lines, skipped only under `skip_bad_lines`."""
        return self["bad_lines"]

    @property
    def banner_lines(self) -> int:
        """Valgrind's `==pid==` banner and other non-access lines of Lackey output."""
        return self["banner_lines"]

    @property
    def blank_lines(self) -> int:
        return self["blank_lines"]

    @property
    def comment_lines(self) -> int:
        """Lines starting with `#`."""
        return self["comment_lines"]

    @property
    def first_bad_line(self) -> str | None:
        """The first malformed line that was skipped, as `file:line: message`."""
        return self["first_bad_line"]


class TraceStats(Fields):
    """What `mobmem stats` prints. The read:write ratio is data reads over data writes (instruction
    fetches excluded), as in Table 1 of the SPO-CLOCK paper (3.50:1 for Angrybirds)."""

    __slots__ = ()
    _nested: ClassVar[dict[str, tuple[str, type[Fields]]]] = {
        "pids": ("list", PidStats),
        "skipped": ("one", Skipped),
    }

    @property
    def accesses(self) -> int:
        return self["accesses"]

    @property
    def distinct_pages(self) -> int:
        return self["distinct_pages"]

    @property
    def duration_ns(self) -> int | None:
        return self["duration_ns"]

    @property
    def footprint_kib(self) -> int:
        return self["footprint_kib"]

    @property
    def format(self) -> str:
        return self["format"]

    @property
    def instr(self) -> int:
        return self["instr"]

    @property
    def path(self) -> str:
        return self["path"]

    @property
    def pids(self) -> list[PidStats]:
        return self["pids"]

    @property
    def read_write_ratio(self) -> float | None:
        return self["read_write_ratio"]

    @property
    def reads(self) -> int:
        return self["reads"]

    @property
    def skipped(self) -> Skipped:
        return self["skipped"]

    @property
    def writes(self) -> int:
        return self["writes"]


class RunResult(Fields):
    """One run's result record."""

    __slots__ = ()
    _nested: ClassVar[dict[str, tuple[str, type[Fields]]]] = {
        "config": ("one", ResolvedConfig),
        "meters": ("one", Meters),
        "swap_energy": ("one", SwapEnergy),
        "trace": ("one", TraceStats),
    }

    @property
    def accesses_per_s(self) -> float:
        return self["accesses_per_s"]

    @property
    def config(self) -> ResolvedConfig:
        return self["config"]

    @property
    def meters(self) -> Meters:
        return self["meters"]

    @property
    def swap_energy(self) -> SwapEnergy | None:
        """The swap area's energy by the DR. Swap paper's model, when the swap device names one
        (N_rd = swap_ins, the copies made; N_wr = swap_outs)."""
        return self["swap_energy"]

    @property
    def trace(self) -> TraceStats:
        return self["trace"]

    @property
    def wall_time_s(self) -> float:
        """Wall-clock time of the replay itself (not of reading the trace)."""
        return self["wall_time_s"]


class TierConfig(Fields):
    """Two-tier main memory: `memory` is split into DRAM and PCM frames; every access is charged to
    the tier its page is in, page moves between tiers are migrations."""

    __slots__ = ()

    @property
    def access_bytes(self) -> int:
        """bytes one access moves: 64 (a cache line) for CPU traces, the page size for buffer-cache
        traces"""
        return self["access_bytes"]

    @property
    def dram(self) -> str:
        """tier model of the DRAM part (mobmem devices: memory tiers)"""
        return self["dram"]

    @property
    def pcm(self) -> str:
        """tier model of the PCM part (mobmem devices: memory tiers)"""
        return self["pcm"]

    @property
    def pcm_share(self) -> float:
        """share of memory on PCM, 0–1 (the hybrid paper's evaluation: 0.9); 0: DRAM only, charged
        per access"""
        return self["pcm_share"]

    @property
    def promote_on_hit(self) -> bool:
        """flat policies on tiers: a hit on a PCM page moves it back to DRAM (true) or is served in
        PCM (false)"""
        return self["promote_on_hit"]
