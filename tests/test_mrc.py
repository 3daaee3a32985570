"""``mobmem mrc`` and ``mobmem.mrc``: exact one-pass curves equal runs at every size."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import mobmem
from mobmem import mrc

SQLITE = Path(__file__).resolve().parent / "data" / "sqlite_60k.txt.zst"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mobmem.cli", *args], capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("policy", ["lru", "opt"])
def test_curve_equals_a_run_at_every_size(policy):
    t = mobmem.Trace.open(SQLITE)
    c = mrc.curve(t, policy)
    assert c.sizes == list(range(1, t.num_pages + 1))
    for frames in c.sizes:
        assert c.at(frames) == mobmem.simulate(t, policy=policy, memory=frames).faults, frames
    assert c.at(t.num_pages + 10) == c.cold and c.miss_ratio[0] == c.faults[0] / c.accesses


def test_mrc_command(tmp_path):
    j = json.loads(cli("mrc", "--trace", str(SQLITE), "--json").stdout)
    assert j["policy"] == "lru" and len(j["sizes"]) == len(j["faults"]) and j["faults"][0] >= j["faults"][-1]
    both = json.loads(cli("mrc", "-t", str(SQLITE), "--policy", "lru,opt", "--json").stdout)
    assert [c["policy"] for c in both] == ["lru", "opt"]
    assert all(o <= u for o, u in zip(both[1]["faults"], both[0]["faults"], strict=True))
    plot = tmp_path / "mrc.svg"
    table = cli("mrc", "-t", str(SQLITE), "--policy", "lru,opt", "--plot", str(plot))
    assert table.returncode == 0 and "lru faults" in table.stdout and "opt miss ratio" in table.stdout
    assert plot.read_text().lstrip().startswith("<?xml")
    bad = cli("mrc", "-t", str(SQLITE), "--policy", "clock")
    assert bad.returncode == 3 and "no exact one-pass curve" in bad.stderr and "Traceback" not in bad.stderr
