"""``mobmem kernel-check``: a program run by this machine's kernel under a memory limit, with zram
swap (or none), beside mobmem's prediction of the same program at the same limit.

1. The kernel: the program runs once without a limit (the *unlimited run*, which measures what the
   limit has to hold) and once under each limit, each time in a fresh memory cgroup, with zram0 as
   the only swap device. Swap-ins and swap-outs are /proc/vmstat's pswpin and pswpout (only the
   program swaps); major faults and refaults are the cgroup's own memory.stat.
2. mobmem: the same program captured (`mobmem capture`, Valgrind Lackey), its written pages anon
   and the others file (``Trace.with_kinds_from_writes``), replayed with the
   kernel's reclaim model (`linux-2q`, the cgroup's swappiness) on zram (a swap-in frees its copy,
   no read-ahead: zram is a synchronous-I/O device) whose pool is outside the memory, as the
   cgroup's limit does not charge it.
3. The mapping from a limit to frames is measured, not assumed: the unlimited run's peak charge
   (memory.max_usage_in_bytes: the program's pages, the page cache it brought in, its page tables
   and kernel memory) held the trace's pages, so ``offset = peak − pages × page size`` is what the
   cgroup charges beyond the trace's pages (negative when the trace has pages charged to another
   cgroup: shared libraries already cached), and a limit L is ``(L − offset) / page size`` frames.
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
        """mobmem's relative difference from the kernel (None when the kernel counted 0)."""
        k, m = self.kernel[name], self.mobmem[name]
        if k == 0:
            return None if m == 0 else float("inf")
        return (m - k) / k


@dataclass
class Check:
    """A whole check: the set-up, the measured mapping, one row per limit."""

    cmd: list[str]
    swap: str
    comp: str | None
    swappiness: int
    trace_pages: int
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


class _ZramWatch:
    """Samples zram's mm_stat while the program runs, keeping the sample that held the most."""

    def __init__(self, host: Host, every_s: float = 0.02) -> None:
        self.host, self.every, self.best = host, every_s, {}
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                s = self.host.mm_stat()
            except KernelCheckError:
                return
            if s.get("orig_data_size", 0) > self.best.get("orig_data_size", 0):
                self.best = s
            self._stop.wait(self.every)

    def __enter__(self) -> _ZramWatch:
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

        watch = _ZramWatch(host) if swap else None
        if watch:
            watch.__enter__()
        try:
            proc = subprocess.Popen(list(cmd), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, cwd=cwd, preexec_fn=pre)
        except OSError as e:
            raise KernelCheckError(f"cannot run {cmd[0]!r}: {e.strerror}") from None
        try:
            status = proc.wait()
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        finally:
            if watch:
                watch.__exit__()
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
            zram_peak=watch.best if watch else {},
        )
    finally:
        host.cgroup_remove()


def kernel_runs(
    host: Host,
    cmd: Sequence[str],
    limits: Sequence[int],
    swap: str = "zram",
    comp: str = "lz4",
    swappiness: int = 60,
    cwd: str | None = None,
) -> tuple[KernelRun, list[KernelRun]]:
    """The unlimited run and one run per limit, with zram0 set up before and restored after, even
    when interrupted (SIGINT, SIGTERM, SIGHUP)."""
    zram = swap == "zram"
    host.check(zram)
    with _interruptible():
        try:
            if zram:
                host.zram_on(comp, ZRAM_BYTES)
            unlimited = run_kernel(host, cmd, None, zram, swappiness, cwd)
            if unlimited.exit_status != 0:
                raise KernelCheckError(f"{' '.join(cmd)!r} failed without a limit (exit status {unlimited.exit_status})")
            runs = [run_kernel(host, cmd, lim, zram, swappiness, cwd) for lim in limits]
        finally:
            host.restore()
    return unlimited, runs


def predict(
    trace: Any, limit: int, offset: int, swap: str, swappiness: int, devices: str | None = None
) -> tuple[int, dict[str, int]]:
    """mobmem's counters for `trace` at `limit` bytes: the frames the limit maps to, and the run's."""
    from ..api import simulate

    frames = (limit - offset) // PAGE
    if frames < 1:
        raise KernelCheckError(
            f"a limit of {limit} bytes holds no page of the trace: the program's charge beyond its "
            f"pages is {offset} bytes (measured by the unlimited run)"
        )
    cfg: dict[str, Any] = {
        "policy": "linux-2q",
        "params": {"swappiness": swappiness},
        "memory": str(frames),
        "swap": "zram-lz4",
        "zram_in_memory": False,
    }
    if swap == "none":
        cfg["swap_size"] = "0"
    r = simulate(trace, cfg, devices=devices)
    return frames, mobmem_counters(r.meters)


def kernel_check(
    cmd: Sequence[str],
    limits: Sequence[int],
    swap: str = "zram",
    comp: str = "lz4",
    swappiness: int = 60,
    host: Host | None = None,
    trace: Any = None,
    cwd: str | None = None,
) -> Check:
    """The whole check: the kernel's runs, the capture (unless `trace` is given), the predictions."""
    from ..capture import capture

    if swap not in ("zram", "none"):
        raise KernelCheckError(f"--swap {swap!r}: zram or none")
    if not cmd:
        raise KernelCheckError("no command given (mobmem kernel-check --limit 64MiB -- CMD ARGS…)")
    host = host or Host()
    unlimited, runs = kernel_runs(host, cmd, limits, swap, comp, swappiness, cwd)
    if trace is None:
        trace, _ = capture(cmd, cwd=cwd)
    trace = trace.with_kinds_from_writes()
    offset = unlimited.peak_bytes - trace.num_pages * PAGE
    rows = []
    for run in runs:
        assert run.limit_bytes is not None
        note = ""
        if run.oom_kills:
            note = f"the kernel's OOM killer killed the program ({run.oom_kills})"
        elif run.exit_status != 0:
            note = f"the program failed under the limit (exit status {run.exit_status})"
        try:
            frames, mine = predict(trace, run.limit_bytes, offset, swap, swappiness)
        except Exception as e:  # an out-of-memory run is an answer too: say it in the row
            from ..errors import MobmemError

            if not isinstance(e, MobmemError):
                raise
            frames, mine = max(0, (run.limit_bytes - offset) // PAGE), dict.fromkeys(COUNTERS, 0)
            note = (note + "; " if note else "") + f"mobmem: {e}"
        rows.append(Row(run.limit_bytes, frames, run.counters, mine, run.oom_kills, run.compression_ratio, note))
    return Check(
        cmd=list(cmd),
        swap=swap,
        comp=comp if swap == "zram" else None,
        swappiness=swappiness,
        trace_pages=trace.num_pages,
        unlimited=unlimited,
        offset_bytes=offset,
        rows=rows,
    )


__all__ = ["CGROUP", "COUNTERS", "Check", "KernelRun", "Row", "kernel_check", "kernel_runs", "predict"]
