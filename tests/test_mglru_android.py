"""``mobmem reproduce mglru-android``: MGLRU against the active/inactive lists on a phone, under
both killers. A small run (one generated usage of 80 launches and the three real windows: not
enough for the claims' verdicts, which docs/SYSTEM.md gives for the full run) checks what the JSON
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


class _Run:
    """A phone run's result as `_run_metrics` reads it, built by hand."""

    def __init__(self, kills: dict, apps: list, launches: list) -> None:
        self.meters = {
            "kills": kills,
            "kills_total": sum(kills.values()),
            "apps": apps,
            "defaulted_apps": 0,
            "cold": sum(r["cold"] for r in launches),
            "kswapd_pages": 10,
            "direct_reclaim_pages": 0,
            "stall_ms": 1.0,
        }
        self.pages = {"swap_ins": 3, "file_rereads": 4}
        self.launches = launches


def _launch(app: str, cold: bool, ms: float, swap_wait: float = 0.0) -> dict:
    waits = {"file_wait_ms": 0.0, "swap_wait_ms": swap_wait, "reclaim_wait_ms": 0.0, "mapped_read_ms": 0.0}
    return {"app": app, "cold": cold, "latency_ms": ms, **waits}


def test_run_metrics_count_the_killers_kills_and_the_cold_starts_they_cause():
    launches = [
        _launch("a", True, 1000),
        _launch("b", True, 900),
        _launch("a", True, 800, swap_wait=5),  # killed, launched again: a cold start it caused
        _launch("b", False, 100),
    ]
    apps = [{"app": "a", "kills": 1}, {"app": "b", "kills": 2}]
    run = mg._run_metrics(_Run({"psi-pressure": 2, "cached-cap": 1, "oom": 1}, apps, launches))
    r = run[0]
    assert (r.lmk_kills, r.cached_kills, r.oom_kills) == (2, 1, 1)
    # a: 1 kill, 1 cold start again; b: 2 kills, none: 2 kills not followed by a launch.
    assert (r.relaunch_cold, r.app_kills, r.kills_not_relaunched) == (1, 3, 2)
    assert r.refaults == 7 and r.launches_without_waits == 3
    pooled = mg._pool([run, run])
    assert pooled.lmk_kills == 4 and pooled.launches == 8
    # Latencies 100, 100, 800, 800, 900, ...: the median is between the two 800s, which waited.
    assert pooled.launch_p50_ms == 850.0 and pooled.median_launch_waits_ms == 5.0
    assert pooled.lmk_kills_p75 == 2


def test_causes_are_said_only_when_the_counts_show_them():
    from dataclasses import fields

    from mobmem.reproduce.measures import mglru_android_causes as why
    from mobmem.reproduce.results.mglru_android import MglruResult, PolicyPoints, Pool

    def res(not_again: int, median_waits: float) -> MglruResult:
        p = Pool(
            **{
                **{f.name: 0 for f in fields(Pool)},
                "app_kills": 10,
                "kills_not_relaunched": not_again,
                "relaunch_cold": 10 - not_again,
                "launches": 100,
                "launches_without_waits": 60,
                "median_launch_waits_ms": median_waits,
            }
        )
        points = {"linux-2q": PolicyPoints(all=p, runs={}), "mglru": PolicyPoints(all=p, runs={})}
        return MglruResult(
            paper={}, dram="3GiB", seeds=1, launches=1, usages=[], points={"psi": points}, changes={}
        )

    said = why.causes(res(not_again=8, median_waits=0.0))
    assert set(said) == {*why.COLD_STARTS, *why.LAUNCH_TIME}
    assert "8 of 10 kills" in said["rfc-android-fewer-cold-starts"]
    assert why.causes(res(not_again=5, median_waits=2.0)) == {}


def test_the_result_is_its_typed_record_and_reads_back_whole(res):
    """The JSON is the record's: read back, it is the same JSON, and the measurements read it by
    attribute; a renamed or missing key is refused by its path."""
    from mobmem.reproduce.record import RecordError
    from mobmem.reproduce.results.mglru_android import RESULT

    plain = {k: v for k, v in res.items() if k != "claims"}
    typed = RESULT.from_dict(res)
    assert typed.to_dict() == plain and list(typed.to_dict()) == list(plain)
    assert typed.points["psi"]["mglru"].all.runs == res["points"]["psi"]["mglru"]["all"]["runs"]
    renamed = {**plain, "changes": {**plain["changes"], "psi": {"all": {**plain["changes"]["psi"]["all"]}}}}
    renamed["changes"]["psi"]["all"]["kills"] = renamed["changes"]["psi"]["all"].pop("lmk_kills")
    with pytest.raises(RecordError, match=r"MglruResult\.changes\.psi\.all: unknown key 'kills'"):
        RESULT.from_dict(renamed)
    del renamed["changes"]["psi"]["all"]["kills"]
    with pytest.raises(RecordError, match=r"MglruResult\.changes\.psi\.all: missing key 'lmk_kills'"):
        RESULT.from_dict(renamed)
    with pytest.raises(RecordError, match=r"MglruResult\.seeds: expected int, got '1'"):
        RESULT.from_dict({**plain, "seeds": "1"})
