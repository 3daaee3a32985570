"""``mobmem reproduce ariadne``: Ariadne's compressed swap against stock zram, each technique alone.
One order per target (the default runs three) checks what the JSON promises: every scheme on every
target, the paper's scenario as launches, changes that are the points' own, the relaunch read at
the target's last launch, and the claims judged by the one rule."""

from __future__ import annotations

import itertools
import math

import pytest

import mobmem
from mobmem import reproduce
from mobmem.reproduce import ariadne as ar

from conftest import cli, judged_by_the_rule


@pytest.fixture(scope="module")
def res() -> dict:
    return reproduce.compute("ariadne", orders=1)


def test_the_scenario_is_the_papers_procedure():
    rows = ar.scenario("YouTube", 1, 300.0, 10.0)
    apps = [a for _, a in rows]
    # The target, the nine others, the target; twice. Times in order; the others in one order both times.
    assert apps[0] == apps[10] == apps[20] == "YouTube" and len(rows) == 21
    assert sorted(apps[1:10]) == sorted(a for a in ar.TARGETS + ar.OTHERS if a != "YouTube")
    assert apps[1:10] == apps[11:20]
    assert all(a[0] < b[0] for a, b in itertools.pairwise(rows))
    assert ar.scenario("YouTube", 2, 300.0, 10.0) != rows  # another order


def test_every_scheme_runs_every_target_and_changes_are_its_own(res):
    assert set(res["points"]) == set(ar.SCHEMES)
    for s, pts in res["points"].items():
        assert set(pts) == set(ar.TARGETS)
        for t, p in pts.items():
            base = res["points"]["zram"][t]
            got = res["changes"][s]["per_target"][t]["relaunch_ms"]
            assert math.isclose(got, 100 * (p["relaunch_ms"] - base["relaunch_ms"]) / base["relaunch_ms"])
            assert p["cold_relaunches"] == 0, (s, t)  # the relaunch read is warm
    # With DRAM enough for everything nothing is swapped and a relaunch is its CPU time (apps.toml).
    dram = res["points"]["dram"]
    assert all(dram[t]["cpu_s"] == 0 and dram[t]["swap_wait_ms"] == 0 for t in ar.TARGETS)
    assert math.isclose(dram["YouTube"]["relaunch_ms"], 63.0)
    # Stock zram compresses nothing by class: its ratio is LZO's 4 KB row; the hot list keeps hot
    # pages out of zram; PreDecomp decompresses ahead only where it is on.
    z, e = res["points"]["zram"], res["points"]["ariadne-ehl"]
    assert all(math.isclose(z[t]["zram_ratio"], 3.41) for t in ar.TARGETS)
    assert all(e[t]["compressed"]["hot"] == 0 < z[t]["compressed"]["hot"] for t in ar.TARGETS)
    assert all(
        res["points"][s][t]["predecomp"] == 0 for s in ("zram", "adaptive", "hotness") for t in ar.TARGETS
    )
    assert sum(res["points"]["predecomp"][t]["predecomp_used"] for t in ar.TARGETS) > 0


def test_claims_are_judged_by_the_rule(res):
    recs = judged_by_the_rule(res, "ariadne")
    assert recs["relaunch-vs-zram"]["ours"] == res["changes"]["ariadne-ehl"]["mean"]["relaunch_ms"]
    assert recs["zram-over-dram"]["ours"] == res["zram_over_dram"]


def test_cli_report_and_bad_parameters():
    out = cli("reproduce", "ariadne", "--orders", "1").stdout
    assert "relaunch (ms)" in out and "zram's relaunch over DRAM's" in out
    with pytest.raises(mobmem.ConfigError, match="orders"):
        reproduce.compute("ariadne", orders=0)
    with pytest.raises(mobmem.ConfigError, match="use"):
        reproduce.compute("ariadne", use=-1.0)


def test_launches_written_out_run_and_bad_ones_are_errors():
    import mobmem.phone as ph

    r = ph.simulate_phone(ph.launches([(0, "YouTube"), (30, "Twitter"), (60, "YouTube")]), "pixel-7")
    assert [x["app"] for x in r.launches] == ["YouTube", "Twitter", "YouTube"] and not r.launches[2]["cold"]
    with pytest.raises(mobmem.ConfigError, match=r"launches\[1\]"):
        ph.launches([(0, "a"), (1, 2, 3)])
    with pytest.raises(mobmem.ConfigError, match=r"launches\[1\].*before"):
        ph.simulate_phone(ph.launches([(5, "a"), (1, "b")]), "pixel-7")
