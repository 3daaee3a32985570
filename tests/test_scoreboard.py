"""The fidelity scoreboard end to end: settings moved in every run reach the runs (and are stored
under their own keys), the one-at-a-time reruns over an input's range, and the command."""

from __future__ import annotations

import json
import tomllib

import pytest

from mobmem import _core, _toml
from mobmem import phone as ph
from mobmem.experiment import runner
from mobmem.reproduce import fidelity, judge, scoreboard

from conftest import cli


def _run(**kw):
    usage = ph.synthetic(12, 40, 4.0, seed=3)
    return runner.phone_grid([ph.job(usage, "nexus5", seed=1, dram="1GiB", swap_size="256MiB")], **kw)[0]


def test_a_moved_phone_field_reaches_every_run_and_keeps_the_rest_of_its_table():
    base = _run()
    with runner.moved(phone={"kernel.swap_out_us": 1000.0}):
        moved = _run()
    assert base.meters["swap_out_pages"] > 0
    # The same swap-outs, each costing 100x the CPU time; the other kernel costs as they were.
    assert moved.meters["swap_out_pages"] == base.meters["swap_out_pages"]
    assert moved.meters["cpu"]["swap_s"] > 50 * base.meters["cpu"]["swap_s"]
    assert moved.meters["cpu"]["fault_s"] == base.meters["cpu"]["fault_s"]
    with runner.moved(phone={"kernel.swap_out_us": 10.0}):
        same = _run()  # nexus5's own value: the same run
    assert same.meters == base.meters


def test_moved_app_fields_and_device_fields_equal_the_same_settings_given_as_files(tmp_path):
    # An app catalog field scaled on every app, against a catalog file saying the same.
    with runner.moved(apps={"size_mib": (1.5, True)}):
        moved = _run()
    text = "".join(f'[apps."{a["name"]}"]\nsize_mib = {a["size_mib"] * 1.5!r}\n' for a in ph.apps())
    (tmp_path / "apps.toml").write_text(text)
    direct = _run(apps=tmp_path / "apps.toml")
    assert moved.meters == direct.meters and moved.meters != _run().meters
    # A device preset's field, against a devices file with the preset's table and that field.
    with runner.moved(devices={"emmc-inand.write_iops": 2000}):
        moved = _run()
    preset = tomllib.loads(_core.device_presets())["emmc-inand"]
    preset.pop("write_ns", None)
    (tmp_path / "devices.toml").write_text(_toml.dumps({"emmc-inand": {**preset, "write_iops": 2000}}))
    direct = _run(devices=tmp_path / "devices.toml")
    assert moved.meters == direct.meters and moved.meters["cpu"] != _run().meters["cpu"]


def test_moved_runs_are_stored_under_their_own_keys(tmp_path):
    store = tmp_path / "s.sqlite"
    with runner.stored(store, "t") as counts:
        a = _run()
        with runner.moved(phone={"kernel.swap_out_us": 1000.0}):
            b = _run()
        assert (counts["ran"], counts["reused"]) == (2, 0)
        with runner.moved(phone={"kernel.swap_out_us": 1000.0}):
            again = _run()
        assert (counts["ran"], counts["reused"]) == (2, 1)
    assert again.meters == b.meters != a.meters


def _args(**kw):
    import argparse

    from mobmem import reproduce

    return argparse.Namespace(json=True, **{**reproduce.params("emmc-swap"), **kw})


def test_the_reruns_over_an_inputs_range_are_direct_runs_and_decide_what_flips_a_verdict():
    from mobmem import reproduce

    mod = reproduce.REPRODUCTIONS["emmc-swap"]
    args = _args(rounds=1)
    res = mod.compute(args)
    only = {"launch-gap-s", "game-anon-share"}
    sens = scoreboard.sensitivity("emmc-swap", mod, args, res, only)
    assert set(sens) == only
    recs = {r.id: r for r in judge.records("emmc-swap", mod, args, res, echo_test=False, sens=sens)}
    # A rerun with a parameter moved is the reproduction run with it, the fit held: gap 5 s's claims.
    fit = res["fits"][res["reading"]]["value"]
    direct = reproduce.compute("emmc-swap", rounds=1, gap_s=5.0, value=fit, echo_test=False)
    ours5 = {r["id"]: r["ours"] for r in direct["claims"]}
    paper = fidelity.load("emmc-swap")
    for cid, tried in sens["launch-gap-s"].items():
        assert dict(tried)[5.0] == ours5[cid], cid
        # An input flips a claim exactly when one of its values gives another verdict by the rule.
        c, r = paper.claim(cid), recs[cid]
        base = fidelity.rule(c, r.ours)
        assert ("launch-gap-s" in r.flips) == any(fidelity.rule(c, o) != base for _, o in tried), cid
    assert any("game-anon-share" in r.flips for r in recs.values()), "the games' anon share decides swap"
    for r in recs.values():
        assert (r.verdict == "C") == bool(r.holds_for)
    # A reading moved keeps that reading's own fit: the rerun is the reproduction run with it.
    reading = scoreboard.sensitivity("emmc-swap", mod, args, res, {"missing-memory-reading"})
    held = res["fits"]["held"]["value"]
    direct = reproduce.compute("emmc-swap", rounds=1, reading="held", value=held, echo_test=False)
    for r in direct["claims"]:
        assert dict(reading["missing-memory-reading"][r["id"]])["held"] == r["ours"], r["id"]
    led = {i["name"]: i for i in scoreboard.ledger("emmc-swap", list(recs.values()), sens)}
    assert led["game-anon-share"]["tried"] and led["game-anon-share"]["flips"]
    assert not led["page-cluster"]["tried"]  # not among those asked for


def test_the_command_prints_counts_claims_and_ledger_and_its_json_carries_them_whole(tmp_path):
    out = cli("reproduce", "scoreboard", "--papers", "emmc-swap", "--no-sensitivity", "--json").stdout
    b = json.loads(out)
    (p,) = b["papers"]
    assert p["paper"] == "emmc-swap" and b["sensitivity"] is False
    n = len(fidelity.load("emmc-swap").claims)
    assert p["counts"]["claims"] == n == len(p["claims"]) == b["total"]["claims"]
    assert sum(p["counts"][v] for v in fidelity.VERDICTS) == n
    for r in p["claims"]:
        assert {"id", "paper", "ours", "difference", "verdict", "fitted", "set_by", "flips"} <= set(r)
    assert [r["id"] for r in p["claims"] if r["verdict"] == "F"] == ["fig7-case2-live-apps"]
    assert any(i["source"] == "fitted" for i in p["inputs"])
    page = tmp_path / "board.html"
    text = cli(
        "reproduce",
        "scoreboard",
        "--papers",
        "emmc-swap",
        "--no-sensitivity",
        "--claims",
        "--report",
        str(page),
    ).stdout
    html = page.read_text()
    assert "Inputs ledger" in html and "table7-write-ratio" in html and "game-anon-share" in html
    assert (
        "Fidelity scoreboard" in text and "emmc-swap: inputs ledger" in text and "table7-write-ratio" in text
    )
    e = cli("reproduce", "scoreboard", "--papers", "emmc-swap,nope", ok=False)
    assert e.returncode == 3 and "nope" in e.stderr and "Traceback" not in e.stderr


def test_a_run_asked_for_twice_in_one_call_is_made_stored_and_counted_once(tmp_path):
    usage = ph.synthetic(12, 40, 4.0, seed=3)
    job = ph.job(usage, "nexus5", seed=1, dram="1GiB", swap_size="256MiB")
    with runner.stored(tmp_path / "s.sqlite", "t") as counts:
        a, b = runner.phone_grid([job, job])
        assert (counts["ran"], counts["reused"]) == (1, 0)
    assert a.meters == b.meters


def test_a_usage_file_is_keyed_by_its_name_and_content_not_its_folder(tmp_path):
    text = "time_s,app\n" + "".join(f"{23 * k},{a}\n" for k, a in enumerate(["Facebook", "Twitter"] * 10))
    jobs = []
    for d in ("a", "b", "c"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "w.csv").write_text(text if d != "c" else text.replace("Twitter", "Instagram"))
        jobs.append(ph.job(ph.usage_file(tmp_path / d / "w.csv"), "nexus5", seed=1))
    with runner.stored(tmp_path / "s.sqlite", "t") as counts:
        a, b, c = runner.phone_grid(jobs)
        # The same bytes in another folder are the same run; other bytes are another run.
        assert (counts["ran"], counts["reused"]) == (2, 0)
    assert a.meters == b.meters != c.meters


def test_a_moved_field_of_a_list_of_tables_reaches_each_entry_or_the_one_named():
    base = _run()
    with runner.moved(phone={"system.*.write_share": 0.9}):
        every = _run()
    with runner.moved(phone={"system.0.pages": 512}):
        first = _run()
    assert every.meters != base.meters and first.meters != base.meters
    from mobmem.errors import ConfigError

    with (
        pytest.raises(ConfigError, match="not one of the list's 2 entries"),
        runner.moved(phone={"system.7.pages": 1}),
    ):
        _run()


def test_a_scale_inside_a_scale_of_the_same_field_compounds():
    with runner.moved(apps={"size_mib": (1.5, True)}), runner.moved(apps={"size_mib": (2.0, True)}):
        inner = _run()
    with runner.moved(apps={"size_mib": (3.0, True)}):
        once = _run()
    assert inner.meters == once.meters != _run().meters


def test_the_seeds_reruns_are_direct_runs_at_those_seeds_and_the_subject_test_says_what_it_moved():
    from mobmem import reproduce

    mod = reproduce.REPRODUCTIONS["emmc-swap"]
    args = _args(rounds=1)
    res = mod.compute(args)
    paper = fidelity.load("emmc-swap")
    assert paper.seed_param == "seed" and paper.seeds
    recs, tests = judge.judged("emmc-swap", mod, args, res, seeds=True)
    assert tests["seeds"] == [args.seed, *paper.seeds]
    fit = res["fits"][res["reading"]]["value"]
    other = {
        r["id"]: r["ours"]
        for r in reproduce.compute("emmc-swap", rounds=1, seed=paper.seeds[0], value=fit, echo_test=False)[
            "claims"
        ]
    }
    by = {r.id: r for r in recs}
    for c in paper.claims:
        r = by[c.id]
        if (
            c.kind in ("value", "share", "at-least", "at-most", "direction")
            and r.ours is not None
            and other[c.id] is not None
        ):
            # The spread covers this seed's value and the default's.
            assert r.spread is not None and r.spread >= abs(float(other[c.id]) - float(r.ours)) - 1e-9, c.id
    # Every claim the subject test moved was judged by it; every noise N is within its spread.
    assert all(by[i].judged_by in ("subject", "series") for i in tests["subject_moved"])
    for r in recs:
        if r.judged_by == "noise" and r.kind != "ordering":
            assert r.spread is not None and abs(float(r.ours)) <= r.spread, r.id
