"""The machine's own memory system, as `mobmem kernel-check` drives it: the zram0 swap device, the
cgroup v1 memory controller, and the kernel's counters (/proc/vmstat, a cgroup's memory.stat,
zram's mm_stat). Every path is under a root (``/`` on a real machine; a folder of fake files in the
tests), and every command (mkswap, swapon, swapoff) goes through one function, so the set-up and
restore logic runs without root against a fake sysfs.

What it changes, it restores: the cgroup it made is removed (whatever runs in it killed), zram0 is
swapped off, reset and given back its algorithm. A run killed with SIGKILL cannot restore; the
cgroup it leaves (``CGROUP``, a fixed name) and its marker file (``MARKER``, written before zram0 is
touched) say so, and ``restore()`` (``mobmem kernel-check --restore``) undoes both — zram0 only
when the marker is there, so never a zram0 the check did not set up.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..errors import MobmemError

#: The cgroup a check runs its program in; its presence at start means a killed run left it.
CGROUP = "mobmem-kernel-check"
#: Written (with zram0's algorithm before the check) before zram0 is set up, removed once it is
#: reset: `--restore` touches zram0 only when it is there, so never a zram0 the check did not set up.
MARKER = "run/mobmem-kernel-check.zram"
#: Counters read from /proc/vmstat (the whole machine: only the checked program swaps, on zram0).
VMSTAT = ("pswpin", "pswpout", "pgmajfault", "workingset_refault_anon", "workingset_refault_file")
#: Counters read from the cgroup's memory.stat (the program alone).
CGSTAT = ("pgmajfault", "workingset_refault_anon", "workingset_refault_file", "pgfault")
#: zram's mm_stat columns (Documentation/admin-guide/blockdev/zram.rst).
MM_STAT = (
    "orig_data_size",
    "compr_data_size",
    "mem_used_total",
    "mem_limit",
    "mem_used_max",
    "same_pages",
    "pages_compacted",
    "huge_pages",
    "huge_pages_since",
)


class KernelCheckError(MobmemError):
    """The machine cannot run a kernel check (not root, no zram0, no memory controller, zram0 in
    use), or a step of it failed; the message says which and what to do."""


Command = Callable[[Sequence[str]], None]


def run_command(argv: Sequence[str]) -> None:
    """Runs a system command (mkswap, swapon, swapoff), raising a clear error when it fails."""
    try:
        r = subprocess.run(list(argv), capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise KernelCheckError(f"{argv[0]} is not installed (util-linux)") from None
    if r.returncode != 0:
        raise KernelCheckError(f"`{' '.join(argv)}` failed (exit {r.returncode}): {r.stderr.strip()}")


class Host:
    """The sysfs and procfs files of a machine under `root`."""

    def __init__(
        self, root: str | os.PathLike[str] = "/", command: Command = run_command, euid: int | None = None
    ):
        self.root = Path(root)
        self.command = command
        self.euid = os.geteuid() if euid is None else euid
        self.zram = self.root / "sys/block/zram0"
        self.memcg = self.root / "sys/fs/cgroup/memory"
        self.cgroup = self.memcg / CGROUP
        self.dev = "/dev/zram0" if str(root) == "/" else str(self.root / "dev/zram0")
        self.marker = self.root / MARKER

    # -- reading ---------------------------------------------------------------------------------
    def _read(self, path: Path) -> str:
        try:
            return path.read_text()
        except OSError as e:
            raise KernelCheckError(f"{path}: cannot read it ({e.strerror})") from None

    def _write(self, path: Path, value: str) -> None:
        try:
            path.write_text(value)
        except OSError as e:
            raise KernelCheckError(f"{path}: cannot write {value!r} to it ({e.strerror})") from None

    def vmstat(self) -> dict[str, int]:
        return _pairs(self._read(self.root / "proc/vmstat"), VMSTAT, "proc/vmstat")

    def cgroup_stat(self) -> dict[str, int]:
        return _pairs(self._read(self.cgroup / "memory.stat"), CGSTAT, f"{CGROUP}/memory.stat")

    def cgroup_value(self, name: str) -> int:
        return self._number(self.cgroup / name)

    def _number(self, path: Path) -> int:
        text = self._read(path).strip()
        try:
            return int(text or 0)
        except ValueError:
            raise KernelCheckError(f"{path}: {text!r} is not a number") from None

    def oom_kills(self) -> int:
        """Programs the kernel's OOM killer killed in the cgroup (memory.oom_control's oom_kill)."""
        text = self._read(self.cgroup / "memory.oom_control")
        return _pairs(text, (), "memory.oom_control").get("oom_kill", 0)

    def mm_stat(self) -> dict[str, int]:
        fields = self._read(self.zram / "mm_stat").split()
        try:
            return {k: int(v) for k, v in zip(MM_STAT, fields, strict=False)}
        except ValueError:
            raise KernelCheckError(f"{self.zram / 'mm_stat'}: not numbers: {' '.join(fields)!r}") from None

    def page_cluster(self) -> int | None:
        """vm.page-cluster (swap read-ahead: 2^n pages), when the kernel has it."""
        path = self.root / "proc/sys/vm/page-cluster"
        text = path.read_text().strip() if path.exists() else ""
        return int(text) if text.isdigit() else None

    def active_swaps(self) -> list[str]:
        lines = self._read(self.root / "proc/swaps").splitlines()[1:]
        return [ln.split()[0] for ln in lines if ln.strip()]

    # -- checking --------------------------------------------------------------------------------
    def check(self, zram: bool) -> None:
        """Refuses, with the reason and what to do, when the machine cannot run a check."""
        if self.euid != 0:
            raise KernelCheckError("kernel-check needs root: it sets up zram0 and a memory cgroup")
        if not (self.memcg / "memory.limit_in_bytes").exists():
            raise KernelCheckError(
                f"{self.memcg}: the cgroup v1 memory controller is not mounted there "
                "(mount -t cgroup -o memory cgroup /sys/fs/cgroup/memory)"
            )
        if self.cgroup.exists() or self.marker.exists():
            raise KernelCheckError(
                f"{self.cgroup if self.cgroup.exists() else self.marker} exists: another kernel check is running, or one was killed before it "
                "could restore; if none is running, `mobmem kernel-check --restore` removes it and frees zram0"
            )
        swaps = self.active_swaps()
        if swaps:
            raise KernelCheckError(
                f"swap is on ({', '.join(swaps)}): the kernel's swap counters would mix its traffic "
                "with the program's; swapoff it first"
            )
        if not zram:
            return
        if not self.zram.exists():
            raise KernelCheckError(f"{self.zram}: no zram0 device (modprobe zram)")
        size = self._number(self.zram / "disksize")
        if size != 0:
            raise KernelCheckError(
                f"zram0 is in use (disksize {size}): free it first if nothing needs it "
                "(echo 1 > /sys/block/zram0/reset)"
            )

    def algorithms(self) -> list[str]:
        return self._read(self.zram / "comp_algorithm").replace("[", "").replace("]", "").split()

    # -- changing and restoring ------------------------------------------------------------------
    def zram_on(self, comp: str, size_bytes: int) -> None:
        """zram0 as the only swap device, compressing with `comp`; the marker first, so that a
        check killed at any step after it is restored."""
        known = self.algorithms()
        if comp not in known:
            raise KernelCheckError(f"zram0 does not offer {comp!r}; it offers: {', '.join(known)}")
        before = self._read(self.zram / "comp_algorithm")
        current = before[before.find("[") + 1 : before.find("]")] if "[" in before else ""
        try:
            self.marker.parent.mkdir(parents=True, exist_ok=True)
            self.marker.write_text(current)
        except OSError as e:
            raise KernelCheckError(f"{self.marker}: cannot write it ({e.strerror})") from None
        self._write(self.zram / "comp_algorithm", comp)
        self._write(self.zram / "disksize", str(size_bytes))
        self.command(["mkswap", self.dev])
        self.command(["swapon", self.dev])

    def zram_off(self) -> None:
        """Swaps zram0 off and resets it (its pages freed, disksize 0), its algorithm as before —
        only if this check set it up (the marker says so)."""
        if not self.marker.exists():
            return
        if self.dev in self.active_swaps():
            self.command(["swapoff", self.dev])
        if self.zram.exists():
            self._write(self.zram / "reset", "1")
            old = self.marker.read_text().strip()
            if old and old in self.algorithms():
                self._write(self.zram / "comp_algorithm", old)
        self.marker.unlink()

    def cgroup_make(self, limit_bytes: int | None, swappiness: int, swap: bool) -> None:
        """The check's cgroup: its limit (none: unlimited), swappiness, and, without swap, a
        memory+swap limit equal to the memory limit so that the program cannot swap."""
        self.mkdir(self.cgroup)
        if limit_bytes is not None:
            self._write(self.cgroup / "memory.limit_in_bytes", str(limit_bytes))
            if not swap and (self.cgroup / "memory.memsw.limit_in_bytes").exists():
                self._write(self.cgroup / "memory.memsw.limit_in_bytes", str(limit_bytes))
        self._write(self.cgroup / "memory.swappiness", str(swappiness))

    def cgroup_remove(self) -> None:
        """Kills whatever is left in the cgroup (a program's children too) and removes it once
        its tasks have gone (an exiting task leaves it a moment late)."""
        if not self.cgroup.exists():
            return
        for _ in range(200):
            for pid in self._pids():
                try:
                    os.kill(pid, 9)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                self.rmdir(self.cgroup)
                return
            except OSError:
                time.sleep(0.01)
        raise KernelCheckError(f"{self.cgroup}: cannot remove it; tasks still in it: {self._tasks()}")

    def _pids(self) -> list[int]:
        try:
            return [int(p) for p in (self.cgroup / "cgroup.procs").read_text().split() if p.isdigit()]
        except OSError:
            return []

    def _tasks(self) -> str:
        try:
            return " ".join((self.cgroup / "cgroup.procs").read_text().split()) or "none"
        except OSError:
            return "unknown"

    def join(self) -> Callable[[], None]:
        """A function for a child's ``preexec_fn`` that moves it into the cgroup before it execs."""
        procs = str(self.cgroup / "cgroup.procs")

        def enter() -> None:
            with open(procs, "w") as f:
                f.write(str(os.getpid()))

        return enter

    def restore(self) -> list[str]:
        """Undoes what a check changed (also what a killed one left): each step is tried even when
        another fails, and the failures are raised together. Says what it did."""
        done, failed = [], []
        if self.cgroup.exists():
            try:
                self.cgroup_remove()
                done.append(f"removed {self.cgroup}")
            except KernelCheckError as e:
                failed.append(str(e))
        if self.marker.exists():
            try:
                self.zram_off()
                done.append("swapped zram0 off and reset it")
            except KernelCheckError as e:
                failed.append(str(e))
        if failed:
            raise KernelCheckError("restore: " + "; ".join(failed))
        return done

    # A real cgroupfs makes and removes a group's files itself; the tests' fake overrides these.
    def mkdir(self, path: Path) -> None:
        try:
            path.mkdir()
        except OSError as e:
            raise KernelCheckError(f"{path}: cannot make the cgroup ({e.strerror})") from None

    def rmdir(self, path: Path) -> None:
        path.rmdir()


def _pairs(text: str, wanted: Sequence[str], where: str) -> dict[str, int]:
    """``name value`` lines; each of `wanted` must be there (every line is kept)."""
    out: dict[str, int] = {}
    for ln in text.splitlines():
        parts = ln.split()
        if len(parts) == 2 and parts[1].lstrip("-").isdigit():
            out[parts[0]] = int(parts[1])
    missing = [w for w in wanted if w not in out]
    if missing:
        raise KernelCheckError(f"{where}: no {', '.join(missing)} (this kernel does not count it)")
    return out
