"""`mobmem kernel-check`: its set-up and restore against a fake sysfs (no root needed), its
refusals, and a real run where the machine has root, a free zram0 and the memory controller."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from mobmem.kernel import CGROUP, Host, KernelCheckError, kernel_check, kernel_runs
from mobmem.kernel.check import limit_bytes

from conftest import cli

PROGS = Path(__file__).resolve().parent.parent / "bench" / "kernel" / "progs"
VMSTAT = "pswpin {}\npswpout {}\npgmajfault 5\nworkingset_refault_anon 0\nworkingset_refault_file 0\n"


class FakeHost(Host):
    """A machine of files under `root`: cgroup files appear with the group, swapon and swapoff edit
    /proc/swaps, and each command is recorded."""

    def __init__(self, root: Path, euid: int = 0) -> None:
        self.commands: list[list[str]] = []
        super().__init__(root, command=self._command, euid=euid)

    def _command(self, argv):
        self.commands.append(list(argv))
        swaps = self.root / "proc/swaps"
        lines = swaps.read_text().splitlines()
        if argv[0] == "swapon":
            lines.append(f"{argv[1]} partition 8388604 0 -2")
        elif argv[0] == "swapoff":
            lines = [ln for ln in lines if not ln.startswith(argv[1])]
        swaps.write_text("\n".join(lines) + "\n")

    def vmstat(self) -> dict[str, int]:
        # Each reading is one run's traffic later than the last: 100 pages in, 400 out.
        self.readings = getattr(self, "readings", 0) + 1
        (self.root / "proc/vmstat").write_text(VMSTAT.format(100 * self.readings, 400 * self.readings))
        return super().vmstat()

    peak = 1048576
    stat_extra = ""

    def _write(self, path: Path, value: str) -> None:
        super()._write(path, value)
        if path.name == "reset":  # as zram does: its pages freed, its size 0
            (self.zram / "disksize").write_text("0\n")
        if path.name == "comp_algorithm":  # as zram shows it: every algorithm, the chosen one marked
            self.comp_writes = [*getattr(self, "comp_writes", []), value]
            path.write_text(
                " ".join(f"[{a}]" if a == value else a for a in ("lzo", "lzo-rle", "lz4", "zstd")) + "\n"
            )

    def mkdir(self, path: Path) -> None:
        super().mkdir(path)
        files = {
            "memory.stat": "pgfault 10\npgmajfault 3\nworkingset_refault_anon 2\nworkingset_refault_file 1\ncache 8192\n"
            + self.stat_extra,
            "memory.usage_in_bytes": f"{self.peak}\n",
            "memory.max_usage_in_bytes": f"{self.peak}\n",
            "memory.kmem.max_usage_in_bytes": "65536\n",
            "memory.oom_control": "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n",
            "memory.limit_in_bytes": "9223372036854771712\n",
            "memory.memsw.limit_in_bytes": "9223372036854771712\n",
            "memory.swappiness": "60\n",
            "cgroup.procs": "",
        }
        for name, text in files.items():
            (path / name).write_text(text)

    def rmdir(self, path: Path) -> None:
        self.last_pids = self._pids()
        shutil.rmtree(path)


@pytest.fixture
def fake(tmp_path: Path) -> FakeHost:
    zram = tmp_path / "sys/block/zram0"
    zram.mkdir(parents=True)
    (zram / "disksize").write_text("0\n")
    (zram / "comp_algorithm").write_text("lzo [lzo-rle] lz4 zstd\n")
    (tmp_path / "run").mkdir()
    (zram / "mm_stat").write_text("0 0 0 0 0 0 0 0 0\n")
    (zram / "reset").write_text("")
    memcg = tmp_path / "sys/fs/cgroup/memory"
    memcg.mkdir(parents=True)
    (memcg / "memory.limit_in_bytes").write_text("9223372036854771712\n")
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/swaps").write_text("Filename\tType\tSize\tUsed\tPriority\n")
    (tmp_path / "proc/vmstat").write_text(VMSTAT.format(0, 0))
    return FakeHost(tmp_path)


def restored(h: FakeHost) -> None:
    assert not h.cgroup.exists(), "the cgroup is left behind"
    assert h.active_swaps() == [], "zram0 is still swapped on"
    assert not h.marker.exists(), "the marker is left behind"
    assert (h.zram / "disksize").read_text().strip() == "0" if h.zram.exists() else True


def test_refuses_without_root(fake: FakeHost) -> None:
    fake.euid = 1000
    with pytest.raises(KernelCheckError, match="needs root"):
        fake.check(zram=True)


def test_refuses_without_the_memory_controller(fake: FakeHost) -> None:
    (fake.memcg / "memory.limit_in_bytes").unlink()
    with pytest.raises(KernelCheckError, match="memory controller is not mounted"):
        fake.check(zram=False)


def test_refuses_without_zram0_only_when_zram_is_asked(fake: FakeHost) -> None:
    shutil.rmtree(fake.zram)
    fake.check(zram=False)
    with pytest.raises(KernelCheckError, match="no zram0 device"):
        fake.check(zram=True)


def test_refuses_a_zram0_in_use_and_other_swap(fake: FakeHost) -> None:
    (fake.zram / "disksize").write_text("1073741824\n")
    with pytest.raises(KernelCheckError, match=r"zram0 is in use \(disksize 1073741824\)"):
        fake.check(zram=True)
    (fake.root / "proc/swaps").write_text("Filename\tType\tSize\tUsed\tPriority\n/swapfile file 1024 0 -2\n")
    with pytest.raises(KernelCheckError, match=r"swap is on \(/swapfile\)"):
        fake.check(zram=False)


def test_refuses_when_a_killed_check_left_its_cgroup(fake: FakeHost) -> None:
    fake.mkdir(fake.cgroup)
    with pytest.raises(KernelCheckError, match="--restore"):
        fake.check(zram=True)


def test_refuses_an_algorithm_zram_does_not_offer(fake: FakeHost) -> None:
    with pytest.raises(KernelCheckError, match="does not offer 'brotli'; it offers: lzo, lzo-rle, lz4, zstd"):
        kernel_runs(fake, ["true"], [1 << 20], comp="brotli")
    restored(fake)


def test_runs_set_up_count_and_restore(fake: FakeHost) -> None:
    unlimited, runs = kernel_runs(fake, ["true"], [1 << 20, "50%"], comp="lz4", swappiness=100)
    # zram0 was set to lz4 and is given back the algorithm it had.
    assert fake.comp_writes == ["lz4", "lzo-rle"]
    assert (fake.zram / "comp_algorithm").read_text().split() == ["lzo", "[lzo-rle]", "lz4", "zstd"]
    assert (fake.zram / "reset").read_text() == "1"
    assert (fake.zram / "disksize").read_text().strip() == "0"
    assert [c[0] for c in fake.commands] == ["mkswap", "swapon", "swapoff"]
    restored(fake)
    # Counters are the run's differences (vmstat) and the fresh cgroup's own (memory.stat).
    assert runs[0].counters == {
        "swap_ins": 100,
        "swap_outs": 400,
        "major_faults": 3,
        "refaults_anon": 2,
        "refaults_file": 1,
    }
    assert unlimited.limit_bytes is None and unlimited.peak_bytes == 1048576
    assert [r.limit_bytes for r in runs] == [1 << 20, 524288]  # 50% of the unlimited run's peak
    assert runs[0].cache_bytes == 8192 and runs[0].kmem_peak_bytes == 65536


def test_without_swap_the_cgroup_cannot_swap(fake: FakeHost, monkeypatch) -> None:
    written: dict[str, str] = {}
    real = Host._write

    def spy(self, path, value):
        written[path.name] = value
        real(self, path, value)

    monkeypatch.setattr(Host, "_write", spy)
    kernel_runs(fake, ["true"], [8 << 20], swap="none", swappiness=30)
    assert written["memory.limit_in_bytes"] == written["memory.memsw.limit_in_bytes"] == str(8 << 20)
    assert written["memory.swappiness"] == "30"
    assert fake.commands == []  # zram untouched
    restored(fake)


def test_a_failing_program_is_an_error_and_restores(fake: FakeHost) -> None:
    with pytest.raises(KernelCheckError, match="failed without a limit"):
        kernel_runs(fake, ["false"], [1 << 20])
    restored(fake)
    with pytest.raises(KernelCheckError, match="cannot run"):
        kernel_runs(fake, ["/nonexistent/program"], [1 << 20])
    restored(fake)


def test_an_interrupted_check_restores_and_kills_its_program(fake: FakeHost) -> None:
    marker = fake.root / "still-running"
    prog = [sys.executable, "-c", f"import time; time.sleep(30); open({str(marker)!r}, 'w')"]
    before = signal.getsignal(signal.SIGTERM)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGTERM))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            kernel_runs(fake, prog, [1 << 20])
    finally:
        timer.cancel()
    restored(fake)
    assert not marker.exists()
    (pid,) = fake.last_pids  # the program, as it joined the cgroup: killed and gone
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert signal.getsignal(signal.SIGTERM) == before  # the check's handler is gone


def test_a_failed_set_up_is_restored(fake: FakeHost) -> None:
    def mkswap_fails(argv):
        fake.commands.append(list(argv))
        raise KernelCheckError("`mkswap` failed (exit 1): no device")

    fake.command = mkswap_fails
    with pytest.raises(KernelCheckError, match="mkswap"):
        kernel_runs(fake, ["true"], [1 << 20])
    restored(fake)
    assert (fake.zram / "reset").read_text() == "1"


def test_restore_leaves_a_zram0_it_did_not_set_up_alone(fake: FakeHost) -> None:
    (fake.zram / "disksize").write_text("1073741824\n")
    fake.command(["swapon", fake.dev])
    assert fake.restore() == []
    assert (fake.zram / "disksize").read_text().strip() == "1073741824"
    assert fake.active_swaps() == [fake.dev]
    # Nor does a check without swap touch it on its way out.
    (fake.root / "proc/swaps").write_text("Filename\tType\tSize\tUsed\tPriority\n")
    kernel_runs(fake, ["true"], [1 << 20], swap="none")
    assert (fake.zram / "disksize").read_text().strip() == "1073741824"


def test_a_whole_check_on_a_fake_machine_builds_its_rows(fake: FakeHost) -> None:
    from mobmem import Trace

    trace = Trace.open(Path(__file__).parent / "data" / "sqlite_60k.txt.zst")
    fake.peak = 131072
    # No mapped file page charged (the fake's memory.stat has no mapped_file): the trace's file
    # pages are held by another cgroup and left out; the limit holds kernel memory and anon pages.
    c = kernel_check(["true"], ["50%", 96 << 10], trace=trace, host=fake)
    restored(fake)
    assert (c.trace_pages, c.trace_file_pages, c.file_pages_replayed) == (59, 54, False)
    assert c.offset_bytes == 65536
    assert [r.frames for r in c.rows] == [0, 8]  # 50% of 128 KiB is all kernel memory
    assert "no page of the trace" in c.rows[0].note
    assert c.rows[0].kernel["major_faults"] == 0  # 3 under the limit, 3 without: none beyond
    assert c.capture_status == 0
    # 8 KiB of mapped file charged, 2 of the trace's 54 file pages: the others are still held
    # elsewhere, so the file pages stay out of the replay and the 2 are room the limit holds. One
    # sample catching a few mapped pages does not turn the mapping around.
    fake.stat_extra = "mapped_file 8192\n"
    c = kernel_check(["true"], ["50%", 96 << 10], trace=trace, host=fake)
    assert not c.file_pages_replayed and c.offset_bytes == 65536 + 8192
    assert [r.frames for r in c.rows] == [0, 6]
    # 28 of the 54 charged, more than half: the file pages are replayed; 40 of the 59 trace pages
    # charged (the peak less kernel memory and unmapped cache), the other 19, file pages, held
    # elsewhere and given frames.
    fake.stat_extra, fake.peak = f"mapped_file {28 * 4096}\n", 65536 + 40 * 4096
    c = kernel_check(["true"], ["50%", 96 << 10], trace=trace, host=fake)
    assert c.file_pages_replayed and c.offset_bytes == 65536 - 19 * 4096
    assert [r.frames for r in c.rows] == [
        (fake.peak // 2 - c.offset_bytes) // 4096,
        (98304 - c.offset_bytes) // 4096,
    ]
    assert c.rows[1].mobmem["swap_outs"] + c.rows[1].mobmem["refaults_file"] > 0


def test_the_mapped_share_is_the_most_any_sample_saw() -> None:
    # The sample at the largest usage can be read as the program exits: its mappings gone, its
    # page cache still charged. The mapped share is the most any sample saw, not that sample's.
    from mobmem.kernel.check import _Watch
    from mobmem.kernel.host import KernelCheckError

    class Samples:
        def __init__(self) -> None:
            self.usages = [100, 200, 200, 300]
            self.stats = [{"mapped_file": 0}, {"mapped_file": 4096}, {"mapped_file": 8192}]
            self.stats.append({"mapped_file": 0, "cache": 8192})  # read after the program exited

        def cgroup_value(self, name: str) -> int:
            if not self.usages:
                raise KernelCheckError("the cgroup is gone")
            return self.usages.pop(0)

        def cgroup_stat(self) -> dict[str, int]:
            return self.stats.pop(0)

    w = _Watch(Samples(), zram=False, every_s=0.0)  # type: ignore[arg-type]
    with w:
        w._t.join(timeout=10)
    assert w.usage_best == (300, {"mapped_file": 0, "cache": 8192})
    assert w.mapped_max == 8192


def test_the_prediction_reclaims_a_cgroup_batch_at_a_time() -> None:
    # The kernel reclaims at least SWAP_CLUSTER_MAX pages for a cgroup at its limit. 40 pages
    # written, then pages 8–15 read again, with 36 frames: the fault on the 37th page frees 32
    # (0–31), so all 8 come back by swap-in; one page at a time frees 0–3 only, and 8–15 stay.
    from mobmem import Trace, simulate
    from mobmem.kernel.check import PAGE, SWAP_CLUSTER_MAX, predict

    pages = list(range(40)) + list(range(8, 16))
    trace = Trace.from_pages(pages, ["w"] * 40 + ["r"] * 8).with_kinds_from_writes()
    frames, m = predict(trace, 36 * PAGE, 0, "zram", 60)
    assert frames == 36 and SWAP_CLUSTER_MAX == 32
    assert (m["swap_outs"], m["swap_ins"]) == (32, 8)
    one = simulate(trace, {"policy": "linux-2q", "memory": "36", "swap": "zram-lz4", "zram_in_memory": False})
    assert (one.meters["swap_outs"], one.meters["swap_ins"]) == (4, 0)


def test_the_prediction_sees_touches_through_the_tlb_as_x86_does(fake: FakeHost) -> None:
    # 41 pages written at 40 frames: the reclaim rotates all 40 once (young from their faults,
    # bits cleared) and takes 0–31. 32–35 are touched again, then 32 new pages make the next
    # reclaim reach them: with their bits set again they are activated and stay (no swap-in when
    # touched a third time); through a TLB that still caches them (x86 clears the bit without a
    # flush) they look untouched and go: 4 swap-ins. A one-entry TLB lost them: as without one.
    from mobmem import Trace
    from mobmem.kernel.check import MAX_TLB_ENTRIES, PAGE, predict

    hot = [32, 33, 34, 35]
    pages = list(range(41)) + hot + list(range(41, 73)) + hot
    trace = Trace.from_pages(pages, ["w"] * len(pages)).with_kinds_from_writes()
    swap_ins = [predict(trace, 40 * PAGE, 0, "zram", 60, tlb_entries=k)[1]["swap_ins"] for k in (0, 4096, 1)]
    assert swap_ins == [0, 4, 0]
    # An impossible TLB is refused before anything is set up.
    with pytest.raises(KernelCheckError, match="tlb-entries"):
        kernel_check(["true"], ["50%"], host=fake, trace=trace, tlb_entries=MAX_TLB_ENTRIES + 1)
    assert not fake.cgroup.exists()


def test_restore_undoes_what_a_killed_check_left(fake: FakeHost) -> None:
    fake.zram_on("lz4", 1 << 30)
    fake.mkdir(fake.cgroup)
    done = fake.restore()
    assert done == [f"removed {fake.cgroup}", "swapped zram0 off and reset it"]
    restored(fake)
    assert fake.restore() == []


def test_limits_as_shares_of_the_peak() -> None:
    assert limit_bytes("50%", 10 << 20) == 5 << 20
    assert limit_bytes("64MiB", 0) == 64 << 20
    assert limit_bytes(12345, 0) == 12345
    assert limit_bytes("1048576", 0) == 1048576  # a bare number is bytes, not pages
    for bad in ("0%", "-5%", "x%", "2000%"):
        with pytest.raises(KernelCheckError, match="share of the unlimited run's peak"):
            limit_bytes(bad, 1 << 20)


def test_parse_errors_name_the_file(fake: FakeHost) -> None:
    (fake.root / "proc/vmstat").write_text("pswpin 1\n")
    with pytest.raises(KernelCheckError, match=r"proc/vmstat: no pswpout, pgmajfault"):
        Host.vmstat(fake)  # the file as written, not the fake's counting
    (fake.zram / "mm_stat").write_text("12 x 3\n")
    with pytest.raises(KernelCheckError, match="mm_stat: not numbers"):
        fake.mm_stat()


def _real_machine() -> str | None:
    """Why a real check cannot run here, or None."""
    h = Host()
    if os.geteuid() != 0:
        return "not root"
    for tool in ("gcc", "valgrind", "mkswap", "swapon"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    try:
        h.check(zram=True)
    except KernelCheckError as e:
        return str(e)
    return None


@pytest.mark.skipif(_real_machine() is not None, reason=f"no real kernel check here: {_real_machine()}")
def test_the_kernel_and_mobmem_agree_on_an_anon_sweep(tmp_path: Path) -> None:
    exe = tmp_path / "sweep"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(PROGS / "sweep.c")], check=True)
    c = kernel_check([str(exe), "24", "3"], ["50%"], swap="zram", comp="lz4")
    (row,) = c.rows
    # 6,144 pages swept three times at half of them: every pass after the first swaps in each page.
    assert row.kernel["swap_ins"] > 2 * 6144 * 0.9
    for name in ("swap_ins", "swap_outs", "major_faults", "refaults_anon"):
        d = row.diff(name)
        assert d is not None and abs(d) <= 0.10, (name, row.kernel, row.mobmem)
    restored_host = Host()
    assert not restored_host.cgroup.exists()
    assert restored_host.active_swaps() == []
    assert (restored_host.zram / "disksize").read_text().strip() == "0"
    out = cli("kernel-check", "--limit", "50%", "--json", "--", str(exe), "24", "2")
    assert json.loads(out.stdout)["rows"][0]["kernel"]["swap_ins"] > 6144 * 0.9
    assert CGROUP not in os.listdir(restored_host.memcg)
    out = cli("kernel-check", "--limit", "50%", "--", "/nonexistent/prog", ok=False)
    assert (
        out.returncode != 0
        and "cannot run '/nonexistent/prog'" in out.stderr
        and "Traceback" not in out.stderr
    )
