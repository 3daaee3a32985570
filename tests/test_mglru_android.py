"""``mobmem reproduce mglru-android``: MGLRU against the active/inactive lists on a phone, under
both killers. A small run (one generated usage of 60 launches and one real window is not enough
for the claims' verdicts, which docs/SYSTEM.md gives for the full run) checks what the JSON
promises: every policy under every killer, changes that are the pooled counts' own, kills split
between the killer and the cached-process limit, and the claims judged by the one rule."""

from __future__ import annotations

import math

import pytest

from mobmem import reproduce
from mobmem.reproduce import mglru_android as mg

from conftest import cli, judged_by_the_rule


@pytest.fixture(scope="module")
def res() -> dict:
    return reproduce.compute("mglru-android", seeds=1, launches=80)


def test_every_policy_runs_under_every_killer_on_generated_and_real_usage(res):
    assert res["usages"] == ["generated seed 1", *(f"real {w[:-4]}" for w in mg.WINDOWS)]
    for killer in mg.KILLERS:
        for policy in mg.POLICIES:
            p = res["points"][killer][policy]
            assert set(p) == {"all", "generated", "real", "runs"} and p["all"]["runs"] == 4
            # Pooled counts are the runs' sums; the real part is the three windows of 256 launches.
            for k in ("lmk_kills", "relaunch_cold", "refaults", "kswapd_pages"):
                assert p["all"][k] == sum(r[k] for r in p["runs"].values())
            assert p["real"]["launches"] == 3 * 256 and p["generated"]["launches"] == 80
            for r in p["runs"].values():
                assert r["relaunch_cold"] <= r["cold"] and r["refaults"] == r["swap_ins"] + r["file_rereads"]
    # The two policies are different runs (the lists and MGLRU reclaim different pages).
    a, b = (res["points"]["psi"][p]["all"] for p in mg.POLICIES)
    assert a["kswapd_pages"] != b["kswapd_pages"]


def test_changes_are_mglru_against_the_lists_from_the_pooled_counts(res):
    for killer in mg.KILLERS:
        for kind, changes in res["changes"][killer].items():
            a, b = (res["points"][killer][p][kind] for p in mg.POLICIES)
            for k, v in changes.items():
                if a[k] == 0:
                    assert v is None, (killer, kind, k)
                else:
                    assert math.isclose(v, 100 * (b[k] - a[k]) / a[k]), (killer, kind, k)


def test_claims_are_judged_by_the_rule_and_read_under_the_psi_killer(res):
    recs = judged_by_the_rule(res, "mglru-android")
    psi = res["changes"]["psi"]["all"]
    assert recs["rfc-android-fewer-lmk-kills"]["ours"] == psi["lmk_kills"]
    assert recs["v14-fleet-launch-time-p50"]["ours"] == psi["launch_p50_ms"]


def test_cli_report_and_bad_seeds():
    out = cli("reproduce", "mglru-android", "--seeds", "1", "--launches", "40", "--no-real").stdout
    assert "killer psi, generated usage (1 runs)" in out and "killer minfree" in out
    assert "real usage" not in out and "Beside the paper" in out
    bad = cli("reproduce", "mglru-android", "--seeds", "0", ok=False)
    assert bad.returncode != 0 and "--seeds" in bad.stderr and "Traceback" not in bad.stderr
