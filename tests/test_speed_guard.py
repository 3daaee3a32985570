"""bench/speed_guard.py's verdict: it fails a policy whose ratio to the reference loop is above
its recorded value × (1 + margin), passes one below, and `--record` writes what it measured. The
times themselves are not asserted (they belong to bench/, not to timed tests)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import mobmem
from mobmem import _core

GUARD = Path(__file__).resolve().parent.parent / "bench" / "speed_guard.py"


def guard(tmp_path: Path, ratios: dict[str, float], *args: str) -> subprocess.CompletedProcess[str]:
    f = tmp_path / "guard.toml"
    f.write_text(
        "margin = 0.25\n[workload]\naccesses = 200000\nfootprint_pages = 4000\nseed = 1\n"
        "memory_percent = 10\nruns = 2\n[ratio]\n" + "".join(f"{p} = {r}\n" for p, r in ratios.items())
    )
    return subprocess.run(
        [sys.executable, str(GUARD), "--file", str(f), *args], capture_output=True, text=True, timeout=300
    )


def test_the_guard_fails_a_regression_and_passes_the_rest(tmp_path):
    slow = guard(tmp_path, {"lru": 0.01, "clock": 1e6})
    assert slow.returncode == 1, slow.stdout + slow.stderr
    assert "lru regressed by more than 25%" in slow.stderr and "clock" not in slow.stderr
    fine = guard(tmp_path, {"lru": 1e6, "mglru": 1e6})
    assert fine.returncode == 0 and "every policy within 25%" in fine.stdout, fine.stdout + fine.stderr


def test_record_writes_the_measured_ratios(tmp_path):
    r = guard(tmp_path, {"fifo": 0.01, "opt": 0.01}, "--record")
    assert r.returncode == 0, r.stdout + r.stderr
    got = tomllib.loads((tmp_path / "guard.toml").read_text())
    assert got["margin"] == 0.25 and set(got["ratio"]) == {"fifo", "opt"}
    assert all(1.0 < v < 1e4 for v in got["ratio"].values()), got["ratio"]


def test_the_reference_loop_counts_reused_pages():
    t = mobmem.Trace.from_pages([5, 6, 5, 7, 7, 8])
    reused, secs = _core.reference_loop(t._t)
    assert reused == 2 and secs >= 0.0
