"""``mobmem phone-curve`` and ``mobmem.capacity``: capacity curves against DRAM, one run per point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mobmem import capacity
from mobmem.errors import ConfigError
from mobmem.phone import simulate_phone

USAGE = Path(__file__).resolve().parent / "data" / "usage_window_12apps.csv"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mobmem.cli", *args], capture_output=True, text=True, timeout=600
    )


def test_points_are_the_runs_and_memory_helps():
    rows = capacity.curve(USAGE, "nexus5", drams=["1GiB", "1.3GiB"], swaps=["off", "zram-lz4"])
    assert [(r["swap_setting"], r["dram"]) for r in rows] == [
        ("off", "1GiB"),
        ("off", "1.3GiB"),
        ("zram-lz4", "1GiB"),
        ("zram-lz4", "1.3GiB"),
    ]
    one = simulate_phone(USAGE, "nexus5", dram="1GiB", swap="zram-lz4").meters
    r = rows[2]
    assert (r["cold"], r["kills"], r["live_apps_mean"]) == (
        one["cold"],
        sum(one["kills"].values()),
        one["live_apps_mean"],
    )
    for small, big in ((rows[0], rows[1]), (rows[2], rows[3])):
        assert big["cold"] < small["cold"] and big["live_apps_mean"] > small["live_apps_mean"]
    assert rows[2]["live_apps_mean"] > rows[0]["live_apps_mean"], "swap keeps more apps live at 1 GiB"
    need = capacity.dram_for(rows, rows[1]["live_apps_mean"])
    assert need == {"off": "1.3GiB", "zram-lz4": "1.3GiB"}
    assert capacity.dram_for(rows, 99) == {"off": None, "zram-lz4": None}


def test_bad_settings_fail_before_running():
    with pytest.raises(ConfigError, match="unknown swap device 'zram'"):
        capacity.curve(USAGE, "nexus5", drams=["1GiB"], swaps=["zram"])
    with pytest.raises(ConfigError, match="unknown phone"):
        capacity.curve(USAGE, "nexus55")
    with pytest.raises(ConfigError, match="no DRAM size above"):
        capacity.curve(USAGE, "nexus5", reserved="9GiB")


def test_phone_curve_command(tmp_path):
    plot = tmp_path / "cap.svg"
    r = cli("phone-curve", str(USAGE), "--dram", "1GiB,1.3GiB", "--live", "8", "--plot", str(plot))
    assert r.returncode == 0, r.stderr
    assert "cold/launches" in r.stdout and "8 live apps on average from 1.3GiB" in r.stdout
    assert plot.read_text().lstrip().startswith("<?xml")
    j = json.loads(cli("phone-curve", str(USAGE), "--dram", "1GiB", "--json").stdout)
    assert len(j["rows"]) == 1 and j["rows"][0]["launches"] == 256
    bad = cli("phone-curve", str(USAGE), "--swap", "zram", "--dram", "1GiB")
    assert bad.returncode == 3 and "unknown swap device" in bad.stderr and "Traceback" not in bad.stderr
