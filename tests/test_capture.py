"""``mobmem capture``: a real program under Valgrind Lackey, streamed into a trace; and its errors."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import mobmem
from mobmem import capture as capture_mod
from mobmem.capture import capture
from mobmem.errors import MobmemError

from conftest import cli


def test_a_program_is_captured_with_fetches_loads_and_stores(tmp_path):
    # gzip compressing a small file: its code, its window and its output buffer.
    src = tmp_path / "in.txt"
    src.write_text("mobmem " * 2000)
    t, status = capture(["gzip", "-c", str(src)])
    assert status == 0
    s = t.stats()
    assert s["instr"] > s["reads"] > s["writes"] > 0
    assert 20 < t.num_pages < 5000
    out = tmp_path / "gz.mobt"
    p = cli("capture", "-o", str(out), "--", "gzip", "-c", str(src))
    assert "exit status 0" in p.stdout and f"{t.num_pages:,} pages" in p.stdout
    again = mobmem.Trace.open(out)
    assert again.stats()["instr"] > 0 and again.num_pages == t.num_pages


def test_the_programs_exit_status_is_reported(tmp_path):
    _, status = capture(["sh", "-c", "exit 3"])
    assert status == 3
    out = tmp_path / "x.mobt"
    p = cli("capture", "-o", str(out), "--", "sh", "-c", "exit 3", ok=False)
    assert p.returncode == 1 and "exit status 3" in p.stdout and out.exists(), p.stderr


@pytest.mark.parametrize("after", [0.0, 0.5])
def test_a_killed_capture_leaves_no_file_and_no_process(tmp_path, after):
    # Killed as valgrind starts or once it runs: nothing in the temporary folder (TMPDIR points to
    # one of the test's own), and valgrind goes with it.
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp)}
    argv = [
        sys.executable,
        "-m",
        "mobmem.cli",
        "capture",
        "-o",
        str(tmp_path / "c.mobt"),
        "--",
        "sleep",
        "30",
    ]
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def valgrinds() -> list[int]:
        found = []
        for d in filter(str.isdigit, os.listdir("/proc")):
            try:
                cmd = Path(f"/proc/{d}/cmdline").read_bytes()
            except OSError:
                continue
            if b"--tool=lackey" in cmd and b"sleep\x0030" in cmd:
                found.append(int(d))
        return found

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not valgrinds():
        time.sleep(0.05)
    assert valgrinds(), "valgrind never started"
    time.sleep(after)
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and valgrinds():
        time.sleep(0.05)
    left = valgrinds()
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "valgrind outlived the capture"
    assert list(tmp.iterdir()) == []
    assert not (tmp_path / "c.mobt").exists()


def test_bad_commands_are_clear_errors(tmp_path, monkeypatch):
    with pytest.raises(MobmemError, match="no command"):
        capture([])
    with pytest.raises(MobmemError, match="not a program"):
        capture([str(tmp_path / "nope")])
    p = cli("capture", "-o", str(tmp_path / "x.mobt"), "--", str(tmp_path / "nope"), ok=False)
    assert p.returncode == 2 and "not a program" in p.stderr
    # A valgrind that dies before opening its log leaves nothing to read: an error, not a hang.
    monkeypatch.setattr(capture_mod, "valgrind", lambda: shutil.which("false"))
    with pytest.raises(MobmemError, match="exit status 1"):
        capture(["true"])
    monkeypatch.undo()
    # An output file that cannot be written: a clear error, and no temporary folder made.
    with pytest.raises(mobmem.MobmemIOError, match="cannot write the program's output"):
        capture(["true"], stdout=str(tmp_path / "no" / "such" / "out"))
    # Without valgrind the error says how to install it.
    monkeypatch.setattr(shutil, "which", lambda name: None if name == "valgrind" else "/bin/" + name)
    with pytest.raises(MobmemError, match="make capture-deps"):
        capture(["true"])
