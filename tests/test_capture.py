"""``mobmem capture``: a real program under Valgrind Lackey, streamed into a trace; and its errors."""

from __future__ import annotations

import shutil

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


def test_the_programs_exit_status_is_reported():
    _, status = capture(["sh", "-c", "exit 3"])
    assert status == 3


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
    # Without valgrind the error says how to install it.
    monkeypatch.setattr(shutil, "which", lambda name: None if name == "valgrind" else "/bin/" + name)
    with pytest.raises(MobmemError, match="make capture-deps"):
        capture(["true"])
