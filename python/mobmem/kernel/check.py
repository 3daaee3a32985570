"""``mobmem kernel-check``: a program run by this machine's kernel under a memory limit, with zram
swap (or none), beside mobmem's prediction of the same program at the same limit.

1. The kernel: the program runs once without a limit (the *unlimited run*, which measures what the
   limit has to hold) and once under each limit, each time in a fresh memory cgroup, with zram0 as
   the only swap device. Swap-ins and swap-outs are /proc/vmstat's pswpin and pswpout (the check
   refuses other swap, and only its cgroup is under a limit, so the rest of the machine is not
   reclaimed from); major faults and refaults are the cgroup's own memory.stat.
2. mobmem: the same program captured (`mobmem capture`, Valgrind Lackey), its written pages anon
   and the others file (``Trace.with_kinds_from_writes``), replayed with the
   kernel's reclaim model (`linux-2q`, the cgroup's swappiness) on zram (a swap-in frees its copy,
   no read-ahead: zram is a synchronous-I/O device) whose pool is outside the memory, as the
   cgroup's limit does not charge it. A fault that finds the limit reached reclaims
   SWAP_CLUSTER_MAX pages, as the kernel's reclaim for a cgroup does
   (``try_to_free_mem_cgroup_pages``: ``nr_to_reclaim = max(nr_pages, SWAP_CLUSTER_MAX)``).
3. The mapping from a limit to frames is measured, not assumed. The unlimited run's peak charge
   (memory.max_usage_in_bytes) is kernel memory (page tables, slab: memory.kmem.max_usage_in_bytes,
   never reclaimed), page cache the program read without mapping it (read(): not in the trace,
   clean, reclaimed first; memory.stat's cache at the peak less the most mapped_file any sample
   saw, as a sample at the peak may be read when the program has exited) and the trace's
   pages the cgroup was charged for. The trace's other pages (program text and libraries that
   another cgroup had cached) take no room under the limit. So a limit L is
   ``(L − kmem) / page size + uncharged`` frames, ``uncharged = trace pages − (peak − kmem −
   unmapped cache) / page size`` (at least 0, at most the trace's file pages: only those can be
   held by another cgroup); ``offset = kmem − uncharged × page size``. When the cgroup was
   charged at most half the trace's file pages (the most mapped_file any sample saw), they are
   left out of the replay instead and the charged ones are room the limit holds:
   ``offset = kmem + mapped file``. Of the two ways, that is the one that accounts fewer pages
   wrongly.
4. Major faults are counted beyond the unlimited run's (those are the files' first reads, which
   mobmem counts as cold faults whether or not the page cache held them): mobmem's are its swap-ins
   and file rereads.
"""

from __future__ import annotations

import json
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

from ..config import schema
from .host import CGROUP, Host, KernelCheckError

#: The counters compared, kernel source → meaning.
COUNTERS = {
    "swap_ins": "pages swapped in (pswpin)",
    "swap_outs": "pages swapped out (pswpout)",
    "major_faults": "major faults beyond the unlimited run's (cgroup pgmajfault)",
    "refaults_anon": "anon refaults (cgroup workingset_refault_anon)",
    "refaults_file": "file refaults (cgroup workingset_refault_file)",
}
#: zram's device size: virtual (only what is stored takes memory); larger than any checked program.
ZRAM_BYTES = 8 << 30
PAGE = 4096
#: Pages the kernel reclaims at least when a charge finds the cgroup at its limit (mm/vmscan.c),
#: as the core defines it.
SWAP_CLUSTER_MAX: int = schema()["kernel"]["swap_cluster_max"]
#: The most TLB translations linux-2q takes, as the core defines it.
MAX_TLB_ENTRIES: int = schema()["kernel"]["max_tlb_entries"]


@dataclass
class KernelRun:
    """One run of the program by the kernel."""

    limit_bytes: int | None
    exit_status: int
    counters: dict[str, int]
    peak_bytes: int
    kmem_peak_bytes: int
    oom_kills: int
    wall_s: float
    #: Page cache charged to the cgroup when the program had exited (memory.stat's cache): the
    #: file pages it brought in itself; pages of files another cgroup had cached are not charged.
    cache_bytes: int
    #: memory.stat's rss and cache (bytes) when the program used the most, sampled every 10 ms,
    #: and the most mapped_file of any sample: what the limit holds of the trace's pages (its anon
    #: pages and the mapped file pages charged to the cgroup).
    at_peak: dict[str, int] = field(default_factory=dict)
    #: zram's mm_stat when it held the most (orig_data_size, compr_data_size, same_pages, …).
    zram_peak: dict[str, int] = field(default_factory=dict)

    @property
    def compression_ratio(self) -> float | None:
        z = self.zram_peak
        if not z or not z.get("compr_data_size"):
            return None
        return z["orig_data_size"] / z["compr_data_size"]


@dataclass
class Row:
    """One limit: the kernel's counters, mobmem's, and the frames the limit maps to."""

    limit_bytes: int
    frames: int
    kernel: dict[str, int]
    mobmem: dict[str, int]
    oom_kills: int
    compression_ratio: float | None
    note: str = ""

    def diff(self, name: str) -> float | None:
        """mobmem's relative difference from the kernel (see :func:`relative_difference`)."""
        return relative_difference(self.kernel[name], self.mobmem[name])


def relative_difference(kernel: int, mobmem: int) -> float | None:
    """``(mobmem − kernel) / kernel``; None when both are 0, infinity when only the kernel's is."""
    if kernel == 0:
        return None if mobmem == 0 else float("inf")
    return (mobmem - kernel) / kernel


def fmt_diff(d: float | None) -> str:
    """A relative difference as the tables print it: ``=`` for none, ``new`` for one from 0."""
    if d is None:
        return "="
    if d == float("inf"):
        return "new"
    return f"{100 * d:+.1f}%"


@dataclass
class Check:
    """A whole check: the set-up, the measured mapping, one row per limit."""

    cmd: list[str]
    swap: str
    comp: str | None
    swappiness: int
    #: The TLB's translations the prediction assumed (0: every touch sets the accessed bit).
    tlb_entries: int
    #: vm.page-cluster as the kernel had it; zram reads no neighbours whatever it says, and mobmem's
    #: page-level runs read none either.
    page_cluster: int | None
    trace_pages: int
    #: The trace's file pages (never written: program text, read-only data, mapped files).
    trace_file_pages: int
    #: Whether the replay kept the trace's file pages: not when the cgroup was charged at most half
    #: of them (the rest held by another cgroup: text and libraries cached before).
    file_pages_replayed: bool
    #: The captured run's exit status (under Valgrind); not 0: the trace may not be the program's.
    capture_status: int
    unlimited: KernelRun
    offset_bytes: int
    rows: list[Row]

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)


def mobmem_counters(meters: dict[str, Any]) -> dict[str, int]:
    """mobmem's meters as the kernel's counters."""
    return {
        "swap_ins": meters["swap_ins"],
        "swap_outs": meters["swap_outs"],
        "major_faults": meters["swap_ins"] + meters["file_rereads"],
        "refaults_anon": meters["swap_ins"],
        "refaults_file": meters["file_rereads"],
    }


@contextmanager
def _interruptible() -> Iterator[None]:
    """SIGTERM and SIGHUP raise KeyboardInterrupt, so that the restore in `finally` runs."""

    def raise_interrupt(signum: int, _frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    old = {s: signal.signal(s, raise_interrupt) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


class _Watch:
    """Samples the cgroup (usage, memory.stat) and zram's mm_stat while the program runs, keeping
    the cgroup's sample at its largest usage and zram's when it held the most."""

    def __init__(self, host: Host, zram: bool, every_s: float = 0.01) -> None:
        self.host, self.zram, self.every = host, zram, every_s
        self.zram_best: dict[str, int] = {}
        self.usage_best: tuple[int, dict[str, int]] = (-1, {})
        #: The largest mapped_file of any sample: the sample at the largest usage may be read as
        #: the program exits, its mappings gone but its page cache still charged.
        self.mapped_max = 0
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        while True:  # one sample at least, however short the program
            try:
                usage = self.host.cgroup_value("memory.usage_in_bytes")
                stat = self.host.cgroup_stat()
                self.mapped_max = max(self.mapped_max, stat.get("mapped_file", 0))
                if usage > self.usage_best[0]:
                    self.usage_best = (usage, stat)
                if self.zram:
                    z = self.host.mm_stat()
                    if z.get("orig_data_size", 0) > self.zram_best.get("orig_data_size", 0):
                        self.zram_best = z
            except KernelCheckError:
                return
            if self._stop.wait(self.every):
                return

    def __enter__(self) -> _Watch:
        self._t.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._t.join()


def run_kernel(
    host: Host, cmd: Sequence[str], limit: int | None, swap: bool, swappiness: int, cwd: str | None = None
) -> KernelRun:
    """Runs `cmd` once in a fresh cgroup (limit None: unlimited) and reads what the kernel counted."""
    from ..capture import _dies_with_parent

    host.cgroup_make(limit, swappiness, swap)
    try:
        before = host.vmstat()
        t0 = time.perf_counter()
        enter, die = host.join(), _dies_with_parent()

        def pre() -> None:
            if die is not None:
                die()
            enter()

        try:
            # The sampling thread starts after the fork: a thread running while `preexec_fn` runs
            # could deadlock the child.
            proc = subprocess.Popen(
                list(cmd), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, cwd=cwd, preexec_fn=pre
            )
        except OSError as e:
            raise KernelCheckError(f"cannot run {cmd[0]!r}: {e.strerror}") from None
        with _Watch(host, swap) as watch:
            try:
                status = proc.wait()
            except BaseException:
                proc.kill()
                proc.wait()
                raise
        wall = time.perf_counter() - t0
        after = host.vmstat()
        cg = host.cgroup_stat()
        counters = {
            "swap_ins": after["pswpin"] - before["pswpin"],
            "swap_outs": after["pswpout"] - before["pswpout"],
            "major_faults": cg["pgmajfault"],
            "refaults_anon": cg["workingset_refault_anon"],
            "refaults_file": cg["workingset_refault_file"],
        }
        return KernelRun(
            limit_bytes=limit,
            exit_status=status,
            counters=counters,
            peak_bytes=host.cgroup_value("memory.max_usage_in_bytes"),
            kmem_peak_bytes=host.cgroup_value("memory.kmem.max_usage_in_bytes"),
            oom_kills=host.oom_kills(),
            wall_s=wall,
            cache_bytes=cg.get("cache", 0),
            at_peak={
                "rss": watch.usage_best[1].get("rss", 0),
                "cache": watch.usage_best[1].get("cache", 0),
                "mapped_file": watch.mapped_max,
            },
            zram_peak=watch.zram_best,
        )
    finally:
        host.cgroup_remove()


def limit_bytes(limit: int | str, peak: int) -> int:
    """A limit in bytes: a number of bytes, or ``"N%"`` of the unlimited run's peak charge."""
    if isinstance(limit, int):
        return limit
    from .. import _core

    text = limit.strip()
    if text.endswith("%"):
        try:
            share = float(text[:-1]) / 100
        except ValueError:
            share = -1.0
        if not 0 < share <= 10:
            raise KernelCheckError(
                f"limit {limit!r}: a share of the unlimited run's peak, above 0% and at most 1000%"
            )
        return max(PAGE, int(peak * share) // PAGE * PAGE)
    if text.isdigit():  # bytes, as the CLI's help says (mobmem's sizes elsewhere read it as pages)
        return int(text)
    return _core.parse_bytes("limit", text)


def kernel_runs(
    host: Host,
    cmd: Sequence[str],
    limits: Sequence[int | str],
    swap: str = "zram",
    comp: str = "lz4",
    swappiness: int = 60,
    cwd: str | None = None,
) -> tuple[KernelRun, list[KernelRun]]:
    """The unlimited run and one run per limit, with zram0 set up before and restored after, even
    when interrupted (SIGINT, SIGTERM, SIGHUP)."""
    zram = swap == "zram"
    for lim in limits:  # a bad limit is said before anything is set up
        limit_bytes(lim, 1 << 30)
    host.check(zram)
    with _interruptible():
        try:
            if zram:
                host.zram_on(comp, ZRAM_BYTES)
            unlimited = run_kernel(host, cmd, None, zram, swappiness, cwd)
            if unlimited.exit_status != 0:
                raise KernelCheckError(
                    f"{' '.join(cmd)!r} failed without a limit (exit status {unlimited.exit_status})"
                )
            sizes = [limit_bytes(lim, unlimited.peak_bytes) for lim in limits]
            runs = [run_kernel(host, cmd, lim, zram, swappiness, cwd) for lim in sizes]
        finally:
            # No signal may cut the restore short: they wait until it is done.
            stop = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
            old = signal.pthread_sigmask(signal.SIG_BLOCK, stop)
            try:
                host.restore()
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)
    return unlimited, runs


def charge_offset(unlimited: KernelRun, trace_pages: int, file_pages: int) -> int:
    """What the cgroup charges beyond the trace's pages, in bytes (point 3 of the module's text).
    Only file pages can be held by another cgroup: the trace's pages that were never live together
    (memory freed and mapped again elsewhere) are not counted as uncharged."""
    p = unlimited.at_peak
    unmapped = max(0, p.get("cache", 0) - p.get("mapped_file", 0))
    charged = (unlimited.peak_bytes - unlimited.kmem_peak_bytes - unmapped) // PAGE
    uncharged = min(file_pages, max(0, trace_pages - charged))
    return unlimited.kmem_peak_bytes - uncharged * PAGE


def file_pages_held_elsewhere(unlimited: KernelRun, n_file: int) -> bool:
    """Whether the trace's file pages are left out of the replay: when most of them were not
    charged to the cgroup (text and libraries another cgroup had cached), which are never reclaimed
    under its limit. Replayed, they would be given frames that anon pages then take (they are
    evicted first); left out, the few charged ones are room the limit holds. Of the two, the one that
    accounts fewer pages wrongly: left out when the mapped file pages any sample saw charged are
    at most half the trace's file pages, so that one sample catching a few pages moves nothing."""
    charged = unlimited.at_peak.get("mapped_file", 0) // PAGE
    return n_file > 0 and 2 * charged <= n_file


def file_pages(trace: Any) -> int:
    """The trace's file pages: the cold file faults of a run in which every page fits."""
    from ..api import simulate

    return int(simulate(trace, memory=str(max(1, trace.num_pages)), policy="lru").meters.cold_file)


def predict(
    trace: Any,
    limit: int,
    offset: int,
    swap: str,
    swappiness: int,
    devices: str | None = None,
    tlb_entries: int = 0,
) -> tuple[int, dict[str, int]]:
    """mobmem's counters for `trace` at `limit` bytes: the frames the limit maps to, and the run's.
    `tlb_entries`: the CPU's TLB as x86's accessed bit sees it (linux-2q's `tlb_entries`)."""
    from ..api import simulate

    frames = (limit - offset) // PAGE
    if frames < 1:
        raise KernelCheckError(
            f"a limit of {limit} bytes holds no page of the trace: the program's charge beyond its "
            f"pages is {offset} bytes (measured by the unlimited run)"
        )
    cfg: dict[str, Any] = {
        "policy": "linux-2q",
        "params": {"swappiness": swappiness, "tlb_entries": tlb_entries},
        "memory": str(frames),
        "swap": "zram-lz4",
        "zram_in_memory": False,
        "reclaim_batch": SWAP_CLUSTER_MAX,
    }
    if swap == "none":
        cfg["swap_admission"] = "off"  # no anon page may go to swap: file pages only are reclaimed
    r = simulate(trace, cfg, devices=devices)
    return frames, mobmem_counters(r.meters)


def kernel_check(
    cmd: Sequence[str],
    limits: Sequence[int | str],
    swap: str = "zram",
    comp: str = "lz4",
    swappiness: int = 60,
    host: Host | None = None,
    trace: Any = None,
    cwd: str | None = None,
    tlb_entries: int = 0,
) -> Check:
    """The whole check: the kernel's runs, the capture (unless `trace` is given), the predictions."""
    from ..capture import capture
    from ..errors import MobmemError

    if swap not in ("zram", "none"):
        raise KernelCheckError(f"--swap {swap!r}: zram or none")
    if not 0 <= tlb_entries <= MAX_TLB_ENTRIES:
        raise KernelCheckError(f"--tlb-entries {tlb_entries}: 0 (none) to {MAX_TLB_ENTRIES}")
    if not cmd:
        raise KernelCheckError("no command given (mobmem kernel-check --limit 64MiB -- CMD ARGS…)")
    host = host or Host()
    if trace is None:
        from ..capture import valgrind

        valgrind()  # missing: said before the kernel's runs, not after them
    unlimited, runs = kernel_runs(host, cmd, limits, swap, comp, swappiness, cwd)
    capture_status = 0
    if trace is None:
        trace, capture_status = capture(cmd, cwd=cwd)
    trace = trace.with_kinds_from_writes()
    n_file = file_pages(trace)
    offset = charge_offset(unlimited, trace.num_pages, n_file)
    sim = trace
    held_elsewhere = file_pages_held_elsewhere(unlimited, n_file)
    if held_elsewhere:
        sim = trace.anon_pages_only()
        offset = unlimited.kmem_peak_bytes + unlimited.at_peak.get("mapped_file", 0) // PAGE * PAGE
    rows = []
    for run in runs:
        assert run.limit_bytes is not None
        note = ""
        if run.oom_kills:
            note = f"the kernel's OOM killer killed the program ({run.oom_kills})"
        elif run.exit_status != 0:
            note = f"the program failed under the limit (exit status {run.exit_status})"
        try:
            frames, mine = predict(sim, run.limit_bytes, offset, swap, swappiness, tlb_entries=tlb_entries)
        except MobmemError as e:  # an out-of-memory run is an answer too: say it in the row
            frames, mine = max(0, (run.limit_bytes - offset) // PAGE), dict.fromkeys(COUNTERS, 0)
            note = (note + "; " if note else "") + f"mobmem: {e}"
        kernel = dict(
            run.counters, major_faults=run.counters["major_faults"] - unlimited.counters["major_faults"]
        )
        rows.append(Row(run.limit_bytes, frames, kernel, mine, run.oom_kills, run.compression_ratio, note))
    return Check(
        cmd=list(cmd),
        swap=swap,
        comp=comp if swap == "zram" else None,
        swappiness=swappiness,
        tlb_entries=tlb_entries,
        page_cluster=host.page_cluster(),
        trace_pages=trace.num_pages,
        trace_file_pages=n_file,
        file_pages_replayed=not held_elsewhere,
        capture_status=capture_status,
        unlimited=unlimited,
        offset_bytes=offset,
        rows=rows,
    )


__all__ = [
    "CGROUP",
    "COUNTERS",
    "Check",
    "KernelRun",
    "Row",
    "fmt_diff",
    "kernel_check",
    "kernel_runs",
    "limit_bytes",
    "predict",
    "relative_difference",
]
