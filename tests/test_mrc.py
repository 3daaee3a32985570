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


def test_a_whole_sample_is_the_exact_curve():
    t = mobmem.Trace.open(SQLITE)
    lru = mrc.curve(t, "lru")
    e = mrc.sampled(t, "lru", rate=1.0, method="shards")
    assert e.method == "shards" and e.sizes == lru.sizes and e.mean_abs_error(lru) < 1e-12
    sizes = mrc.grid(t.num_pages, 5)
    for policy in ("clock", "linux-2q"):
        m = mrc.sampled(t, policy, sample_size=t.num_pages, sizes=sizes)
        runs = [mobmem.simulate(t, policy=policy, memory=s).faults / len(t) for s in sizes]
        assert m.method == "mini" and m.rate == 1.0 and m.mean_abs_error(runs) < 1e-12


def test_readings():
    """The three readings come from the core, the default first; they differ on a sample, and
    the CLI names the reading it used."""
    assert mrc.readings() == ["realized", "adjusted", "drawn"]
    t = mobmem.Trace.generate(accesses=200_000, footprint_pages=4_000, seed=3)
    by = {r: mrc.sampled(t, "lru", rate=0.05, method="shards", reading=r) for r in mrc.readings()}
    assert mrc.sampled(t, "lru", rate=0.05, method="shards").miss_ratio == by["realized"].miss_ratio
    real, adj = by["realized"], by["adjusted"]
    assert real.reading == "realized" and real.rate == real.sampled_pages / t.num_pages
    assert adj.rate == adj.nominal_rate == real.nominal_rate and real.rate != adj.rate
    assert len({tuple(e.miss_ratio) for e in by.values()}) == 3
    with pytest.raises(mobmem.ConfigError, match='unknown reading "raw"; known: realized, adjusted, drawn'):
        mrc.sampled(t, "lru", rate=0.05, reading="raw")
    r = cli("mrc", "-t", str(SQLITE), "--sample", "50%", "--reading", "drawn")
    assert r.returncode == 0 and "mini at rate 0.5, drawn" in r.stdout, r.stdout + r.stderr
    bad = cli("mrc", "-t", str(SQLITE), "--sample", "50%", "--reading", "raw")
    assert bad.returncode != 0 and "realized, adjusted, drawn" in bad.stderr.replace("'", "")


def test_sampled_command(tmp_path):
    r = cli(
        "mrc", "-t", str(SQLITE), "--policy", "lru,clock", "--sample-size", "30", "--check", "--sizes", "4"
    )
    assert r.returncode == 0, r.stderr
    assert "lru miss ratio (mini)" in r.stdout and "clock miss ratio (mini)" in r.stdout
    assert "clock: mini at rate" in r.stdout and "exact sweep of 4 sizes" in r.stdout
    assert "lru: mini at rate" in r.stdout and "exact one-pass curve" in r.stdout
    s = cli("mrc", "-t", str(SQLITE), "--method", "shards", "--sample", "20%", "--check", "--points", "5")
    assert s.returncode == 0 and "lru miss ratio (shards)" in s.stdout and "error at 59 sizes" in s.stdout
    j = json.loads(
        cli("mrc", "-t", str(SQLITE), "--policy", "mglru", "--sample", "50%", "--check", "--json").stdout
    )
    assert j["method"] == "mini" and j["sampled_pages"] < 59 and len(j["miss_ratio"]) == len(j["sizes"]) == 20
    errs = [abs(a - b) for a, b in zip(j["miss_ratio"], j["exact_miss_ratio"], strict=True)]
    assert j["mean_abs_error"] == pytest.approx(sum(errs) / len(errs))
    for args, words in [
        (["--policy", "clock"], "--sample 1%"),
        (["--sample", "2"], "in (0, 1]"),
        (["--sample", "x"], "is not a rate"),
        (["--check"], "--check measures"),
        (["--sample-size", "0"], "sample_size must be a whole number from 1"),
        (["--policy", "opt", "--sample", "1", "--method", "shards"], "SHARDS estimates LRU only"),
    ]:
        bad = cli("mrc", "-t", str(SQLITE), *args)
        assert bad.returncode == 3 and words in bad.stderr and "Traceback" not in bad.stderr, (
            args,
            bad.stderr,
        )
