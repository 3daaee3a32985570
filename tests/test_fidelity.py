"""Fidelity: the one verdict rule, echo detection by measurement, and the claims files."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mobmem.errors import ConfigError
from mobmem.reproduce import fidelity as fd
from mobmem.reproduce.fidelity import Claim


def value(paper: float, unit: str = "MB", kind: str = "value") -> Claim:
    return Claim("c", "Table 1", kind, unit, "", "", paper=paper)


@pytest.mark.parametrize(
    ("claim", "ours", "verdict"),
    [
        # A value: within 25% relative, else N (an absolute number has no direction).
        (value(100.0), 125.0, "R"),
        (value(100.0), 75.0, "R"),
        (value(100.0), 125.1, "N"),
        (value(100.0), 60.0, "N"),
        # A change in %: the sign is a direction (D when same sign but farther).
        (value(-24.0, "%"), -20.0, "R"),
        (value(-24.0, "%"), -10.0, "D"),
        (value(-24.0, "%"), 5.0, "N"),
        # Small percentages: at least 3 points either way.
        (value(4.0, "%"), 6.9, "R"),
        (value(4.0, "%"), 7.1, "D"),
        (value(10.0, "%", "share"), 12.9, "R"),
        (value(10.0, "%", "share"), 13.5, "N"),
        # A share is judged on both sides: 61% with 76.1% is 25% off the share but 38% off the
        # other 39%; 9.75 points (25% of the complement) is the most it may be.
        (value(61.0, "%", "share"), 76.1, "N"),
        (value(61.0, "%", "share"), 70.7, "R"),
        (value(61.0, "%", "share"), 70.8, "N"),
        (value(95.0, "%", "share"), 92.0, "R"),
        (value(95.0, "%", "share"), 91.9, "N"),
        # Bounds hold or not.
        (value(55.0, "%", "at-least"), 55.0, "R"),
        # A failed bound never agrees, however near (59.1 against "at least 60").
        (value(55.0, "%", "at-least"), 40.0, "N"),
        (value(60.0, "%", "at-least"), 59.1, "N"),
        (value(55.0, "%", "at-least"), -1.0, "N"),
        (value(2.0, "ms", "at-most"), 2.5, "N"),
        (value(2.0, "ms", "at-most"), 1.0, "R"),
        # Not measured, or not a number.
        (value(100.0), None, "N"),
        (value(100.0), float("nan"), "N"),
        # Directions and orderings.
        (Claim("c", "", "direction", "", "", "", sign="-"), -3.0, "R"),
        (Claim("c", "", "direction", "", "", "", sign="-"), 0.0, "N"),
        (Claim("c", "", "ordering", "", "", "", order=("a", "b", "c")), ["a", "b", "c"], "R"),
        (Claim("c", "", "ordering", "", "", "", order=("a", "b", "c")), ["a", "c", "b"], "D"),
        (Claim("c", "", "ordering", "", "", "", order=("a", "b", "c")), ["b", "a", "c"], "N"),
    ],
)
def test_the_one_verdict_rule(claim, ours, verdict):
    assert fd.rule(claim, ours) == verdict


def toy(workload: float, assumption: float) -> dict[str, float]:
    """A toy reproduction: `saving` is set by its assumption alone (as an energy saving that is a
    ratio of background powers); `faults` comes from the workload."""
    return {"saving": 60.0 + 0.0 * workload + (assumption - 1.0) * 5.0, "faults": 1000.0 * workload}


def toy_paper() -> fd.Paper:
    claims = (
        Claim("saving", "", "value", "%", "", "", paper=59.0),
        Claim("faults", "", "value", "faults", "", "", paper=1100.0),
        Claim("fit", "", "value", "MB", "", "", paper=128.0, fitted="reserved"),
    )
    return fd.Paper("toy", "", "", claims, ())


def test_an_echo_is_found_by_taking_the_workload_away():
    paper = toy_paper()
    base, idle = toy(1.0, 1.0), toy(0.0, 1.0)
    assert fd.echoes(paper, base, idle) == {"saving"}
    recs = {
        r.id: r
        for r in fd.score(
            paper, {**base, "fit": 128.0}, echo=fd.echoes(paper, base, idle), echo_inputs="powers"
        )
    }
    # The echo would pass the rule (60 vs 59) but is not a prediction; the prediction is R; the
    # fitted number is F whatever its value.
    assert fd.rule(paper.claim("saving"), base["saving"]) == "R"
    assert (recs["saving"].verdict, recs["saving"].set_by) == ("E", "powers")
    assert recs["faults"].verdict == "R"
    assert recs["fit"].verdict == "F"


def test_a_claim_already_the_papers_with_the_workload_idle_is_an_echo_though_it_moves():
    # Four cold starts of 2.0 s are the paper's 8 s with or without the page touches: the touches
    # move the total by 10%, but the agreement was there without them.
    paper = fd.Paper("toy", "", "", (Claim("total", "", "value", "s", "", "", paper=8.0),), ())
    base, idle = {"total": 8.8}, {"total": 8.0}
    assert fd.differs(paper.claim("total"), base["total"], idle["total"])
    assert fd.echoes(paper, base, idle) == {"total"}
    (r,) = fd.score(paper, base, echo=fd.echoes(paper, base, idle), echo_inputs="load times")
    assert (r.verdict, r.set_by) == ("E", "load times")
    # Where the idle value is not the paper's, the workload brought the agreement: a prediction.
    far = {"total": 4.0}
    assert fd.echoes(paper, base, far) == set()
    (r,) = fd.score(paper, base, echo=fd.echoes(paper, base, far))
    assert r.verdict == "R"
    # And a claim that does not agree is never made an echo by its idle value agreeing.
    assert fd.echoes(paper, {"total": 20.0}, idle) == set()


def test_an_echo_that_disagrees_with_the_paper_stays_n_and_is_never_c():
    paper = fd.Paper("toy", "", "", (Claim("swap-ins", "", "value", "pages", "", "", paper=1857.0),), ())
    # No swap-in with the workload or without: set by the inputs, and not the paper's number.
    base, idle = {"swap-ins": 0.0}, {"swap-ins": 0.0}
    echo = fd.echoes(paper, base, idle)
    assert echo == {"swap-ins"}
    (r,) = fd.score(
        paper, base, echo=echo, echo_inputs="inputs", sensitivity={"x": {"swap-ins": [(2, 1800.0)]}}
    )
    assert (r.verdict, r.set_by, r.holds_for) == ("N", "inputs", "")
    assert "the same with the workload idle" in r.note


def test_a_claim_that_holds_only_for_another_value_of_an_assumption_is_c_and_its_input_flips_it():
    paper = fd.Paper("toy", "", "", (Claim("gain", "", "value", "%", "", "", paper=-15.0),), ())
    tried = [(2.0, -5.0), (4.0, -9.0), (8.0, -14.0)]  # (write:read cost, our gain)
    recs = fd.score(paper, {"gain": -6.0}, sensitivity={"write_read_ratio": {"gain": tried}})
    r = recs[0]
    assert r.verdict == "C" and r.flips == ["write_read_ratio"] and "write_read_ratio ∈ {8.0}" in r.holds_for
    # An input that never changes the verdict does not flip it.
    recs = fd.score(paper, {"gain": -6.0}, sensitivity={"seed": {"gain": [(1, -6.1), (2, -5.9)]}})
    assert recs[0].verdict == "D" and recs[0].flips == []
    assert fd.counts(recs) == {"R": 0, "C": 0, "D": 1, "N": 0, "E": 0, "F": 0, "claims": 1, "not_measured": 0}


def _write(tmp: Path, body: str) -> Path:
    (tmp / "p.toml").write_text('paper = "p"\n' + body)
    return tmp


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        (
            '[[claim]]\nid = "a"\nkind = "value"\npaper = 1.0\n[[claim]]\nid = "a"\nkind = "value"\npaper = 2.0\n',
            "given twice",
        ),
        ('[[claim]]\nid = "a"\nkind = "guess"\npaper = 1.0\n', "kind 'guess'"),
        ('[[claim]]\nid = "a"\nkind = "value"\n', "`paper` must be the paper's number"),
        ('[[claim]]\nid = "a"\nkind = "ordering"\norder = ["x"]\n', "two names or more"),
        ('[[claim]]\nid = "a"\nkind = "direction"\n', "sign"),
        (
            '[[claim]]\nid = "a"\nkind = "value"\npaper = 1.0\nfitted = "x"\n'
            '[[claim]]\nid = "b"\nkind = "value"\npaper = 1.0\nfitted = "y"\n',
            "one fitted input",
        ),
    ],
)
def test_bad_claims_files_are_errors(tmp_path, body, needle):
    body = body.replace('kind = "', 'subject = "workload: the toy"\nkind = "')
    with pytest.raises(ConfigError, match=needle):
        fd.load("p", _write(tmp_path, body))


def test_a_well_formed_series_and_seeds_load(tmp_path):
    body = (
        CELL.format(id="a", p=1)
        + 'series = "s"\nsetting = "mb=128"\n'
        + CELL.format(id="b", p=2)
        + 'series = "s"\nsetting = "mb=256"\n'
        + '[seeds]\nparam = "seed"\nvalues = [2, 3]\n'
    )
    p = fd.load("p", _write(tmp_path, body))
    assert [(c.subject_kind, c.series, c.setting_value) for c in p.claims] == [
        ("apps", "s", 128.0),
        ("apps", "s", 256.0),
    ]
    assert (p.seed_param, p.seeds) == ("seed", (2, 3))


def cell(cid: str, paper: float, mb: int, unit: str = "swap-ins") -> Claim:
    return Claim(
        cid, "", "value", unit, "", "", paper=paper, subject="apps: a", series="t4", setting=f"mb={mb}"
    )


def test_a_number_that_stays_with_its_subject_idle_is_e_though_the_workload_idle_moves_it():
    # The apps make no swap-in; the system processes make them all: with the apps idle the
    # number stays (E), while the whole workload idle would have moved it (then R).
    c = Claim("swap-ins", "", "value", "swap-ins", "", "", paper=1000.0, subject="apps: the browsers")
    paper = fd.Paper("toy", "", "", (c,), ())
    base, idle = {"swap-ins": 900.0}, {"swap-ins": 0.0}
    assert fd.echoes(paper, base, idle) == set()
    assert fd.echoes(paper, base, idle, {"apps": {"swap-ins": 900.0}}) == {"swap-ins"}
    (r,) = fd.score(paper, base, echo={"swap-ins"}, echo_inputs="the rest")
    assert (r.verdict, r.judged_by) == ("E", "subject")
    # When the apps idle take it away, it is theirs: R.
    assert fd.echoes(paper, base, idle, {"apps": {"swap-ins": 10.0}}) == set()
    # A claim about the workload is judged by the workload idle, whatever the apps idle give.
    w = fd.Paper(
        "toy", "", "", (Claim("e", "", "value", "J", "", "", paper=10.0, subject="workload: x"),), ()
    )
    assert fd.echoes(w, {"e": 10.0}, {"e": 0.0}, {"apps": {"e": 10.0}}) == set()


def test_an_ordering_the_idle_run_already_gives_is_e_and_one_it_does_not_stays_r():
    c = Claim("order", "", "ordering", "", "", "", order=("flash", "dr", "dram"), subject="workload: x")
    paper = fd.Paper("toy", "", "", (c,), ())
    base = {"order": ["flash", "dr", "dram"]}
    assert fd.echoes(paper, base, {"order": ["flash", "dr", "dram"]}) == {"order"}
    assert fd.echoes(paper, base, {"order": ["dr", "flash", "dram"]}) == set()


def test_a_series_flat_where_the_papers_moves_is_n_in_every_cell_and_one_that_moves_is_judged_by_cell():
    cells = (cell("a", 1000.0, 128), cell("b", 800.0, 256), cell("c", 700.0, 512))
    paper = fd.Paper("toy", "", "", cells, ())
    flat = {"a": 820.0, "b": 820.0, "c": 820.0}  # each cell within 25% of its paper's number
    assert {fd.rule(c, flat[c.id]) for c in cells} == {"R"}
    recs = fd.score(paper, flat)
    assert [(r.verdict, r.judged_by) for r in recs] == [("N", "series")] * 3
    assert "flat across mb = 128, 256, 512" in recs[0].note
    moving = {"a": 980.0, "b": 820.0, "c": 690.0}
    assert [r.verdict for r in fd.score(paper, moving)] == ["R", "R", "R"]
    # A paper's series that is flat itself asks nothing of ours.
    still = fd.Paper("toy", "", "", (cell("a", 800.0, 128), cell("b", 800.0, 256)), ())
    assert [r.verdict for r in fd.score(still, {"a": 820.0, "b": 820.0})] == ["R", "R"]


def test_a_direction_or_difference_within_the_seeds_spread_is_noise_and_one_beyond_it_stands():
    d = Claim("ux", "", "direction", "points", "", "", sign="-", subject="apps: x")
    paper = fd.Paper("toy", "", "", (d,), ())
    (r,) = fd.score(paper, {"ux": -0.1}, at_seeds={"ux": [0.2, -0.3]})
    assert (r.verdict, r.judged_by, r.spread) == ("N", "noise", pytest.approx(0.5))
    assert "within noise" in r.note
    (r,) = fd.score(paper, {"ux": -2.0}, at_seeds={"ux": [-1.8, -2.3]})
    assert (r.verdict, r.spread) == ("R", pytest.approx(0.5))
    # An ordering must be the same at every seed.
    o = Claim("o", "", "ordering", "", "", "", order=("a", "b"), subject="apps: x")
    po = fd.Paper("toy", "", "", (o,), ())
    assert fd.score(po, {"o": ["a", "b"]}, at_seeds={"o": [["b", "a"]]})[0].verdict == "N"
    assert fd.score(po, {"o": ["a", "b"]}, at_seeds={"o": [["a", "b"]]})[0].verdict == "R"
    # A level's spread is printed, never turned into noise.
    lv = Claim("l", "", "value", "MB", "", "", paper=10.0, subject="apps: x")
    (r,) = fd.score(fd.Paper("t", "", "", (lv,), ()), {"l": 10.0}, at_seeds={"l": [8.0]})
    assert (r.verdict, r.spread) == ("R", 2.0)


def test_every_papers_claims_file_loads_with_unique_ids_and_its_quotes_are_in_the_paper():
    papers = Path(__file__).resolve().parent.parent.parent / "shared" / "papers"
    # A source that is not a paper of ../shared/papers is kept beside the claims (posts' text).
    kept = fd.CLAIMS_DIR / "sources"
    for name in ("dr-swap", "spo-clock", "hybrid", "emmc-swap", "a2s", "mglru-android", "ariadne"):
        p = fd.load(name)
        assert p.claims and p.name == name
        assert any(c.headline for c in p.claims), name
        path = next((d / p.file for d in (papers, kept) if (d / p.file).exists()), None)
        if name in ("mglru-android", "ariadne"):
            assert path == kept / p.file
        if path is None:
            continue  # the papers are beside the checkout on the project's machines only
        text = path.read_text()
        norm = " ".join(text.split())
        for c in p.claims:
            assert " ".join(c.quote.split()) in norm, (name, c.id)


CELL = '[[claim]]\nid = "{id}"\nkind = "value"\npaper = {p}\nunit = "faults"\nsubject = "apps: the toy"\n'


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        (
            '[[input]]\nname = "a"\nvalue = 1\nsource = "paper, Table 1"\nrange = [2]\nparam = "x"\n',
            "a range is for",
        ),
        (
            '[[input]]\nname = "a"\nvalue = 1\nsource = "assumed"\nrange = [2]\nparam = "x"\nphone = "y"\n',
            "one way",
        ),
        (
            '[[input]]\nname = "a"\nvalue = 1\nsource = "assumed"\nscale = true\nphone = "y"\n',
            "`scale` goes with",
        ),
        ('[[input]]\nname = "a"\nvalue = 1\nsource = "assumed"\nrnage = [2]\n', "unknown key 'rnage'"),
        ('[[input]]\nname = "a"\nvalue = 1\n', "no source"),
        ('[[input]]\nname = "a"\nsource = "assumed"\n', "no value"),
        ('[[input]]\nname = "a"\nvalue = 1\nsource = "assumed"\nphone = ""\n', "must name what it moves"),
        (
            '[[input]]\nname = "a"\nvalue = 1\nsource = "assumed"\n[[input]]\nname = "a"\nvalue = 2\nsource = "assumed"\n',
            "given twice",
        ),
        ('[[claim]]\nid = "a"\nkind = "value"\npaper = 1.0\n', "`subject` must be"),
        ('[[claim]]\nid = "a"\nkind = "value"\npaper = 1.0\nsubject = "phone: x"\n', "KIND one of"),
        ('[[claim]]\nid = "a"\nkind = "value"\npaper = 1.0\nsubject = "apps:"\n', "`subject` must be"),
        (CELL.format(id="a", p=1) + 'series = "s"\n', "both `series` and `setting`"),
        (CELL.format(id="a", p=1) + 'series = "s"\nsetting = "mb=big"\n', "'key=number'"),
        (CELL.format(id="a", p=1) + 'series = "s"\nsetting = "mb=1"\n', "one cell"),
        (
            CELL.format(id="a", p=1)
            + 'series = "s"\nsetting = "mb=1"\n'
            + CELL.format(id="b", p=2)
            + 'series = "s"\nsetting = "gb=2"\n',
            "setting key",
        ),
        (
            '[[claim]]\nid = "a"\nkind = "at-least"\npaper = 1.0\nsubject = "apps: x"\nseries = "s"\n'
            'setting = "mb=1"\n',
            "values or shares",
        ),
        ('[seeds]\nparam = "seed"\n', "`values`"),
        ('[seeds]\nparam = "seed"\nvalues = [1.5]\n', "whole numbers"),
        (
            '[[input]]\nname = "usage-seed"\nvalue = 7\nsource = "assumed"\nrange = [1, 2]\nparam = "seed"\n',
            "a seed is no assumed input",
        ),
    ],
)
def test_bad_ledger_entries_subjects_series_and_seeds_are_errors(tmp_path, body, needle):
    with pytest.raises(ConfigError, match=needle):
        fd.load("p", _write(tmp_path, body))


def test_every_ledger_move_names_something_that_exists_and_a_wrong_one_is_refused(tmp_path):
    from mobmem.reproduce import scoreboard

    for name in ("dr-swap", "spo-clock", "hybrid", "emmc-swap", "a2s", "mglru-android", "ariadne"):
        scoreboard.check_moves(name)
        p = fd.load(name)
        assert [i for i in p.inputs if i.assumed], name  # every paper leaves something unstated
    for move in (
        'phone = "kernel.swap_out_usec"',
        'apps = "fg_write_shares"',
        'device = "optane-m10.write_iop"',
    ):
        _write(tmp_path, f'[[input]]\nname = "a"\nvalue = 1\nsource = "assumed"\nrange = [2]\n{move}\n')
        with pytest.raises(ConfigError, match="names nothing"):
            scoreboard.check_moves("p", tmp_path)


def test_every_claim_a_cause_module_names_is_a_claim_of_its_paper():
    """The claim ids the cause modules list (the generated ones are checked on each reproduction's
    run, in ``judged_by_the_rule``)."""
    from mobmem.reproduce.measures import (
        a2s_causes,
        ariadne_causes,
        dr_swap_causes,
        emmc_swap_causes,
        hybrid_causes,
        mglru_android_causes,
        spo_clock_causes,
    )

    named = {
        "dr-swap": set(dr_swap_causes.NOT_RUN),
        "emmc-swap": {
            *emmc_swap_causes.CITED,
            *emmc_swap_causes.PER_ROUND,
            *emmc_swap_causes.SWAP_VOLUME,
            *emmc_swap_causes.FIRST_LOADS,
            *(i for ids in emmc_swap_causes.UNMETERED.values() for i in ids),
        },
        "a2s": {*a2s_causes.NOT_RUN, *a2s_causes.FIG9, *a2s_causes.SWAP_IN_CUT},
        "hybrid": {*hybrid_causes.ELAPSED_CUTS, *hybrid_causes.SATURATION},
        "mglru-android": {*mglru_android_causes.COLD_STARTS, *mglru_android_causes.LAUNCH_TIME},
        "ariadne": {*ariadne_causes.RELAUNCH, *ariadne_causes.DECOMPRESSION, *ariadne_causes.CPU},
        "spo-clock": {
            *spo_clock_causes.VS_ARC,
            *spo_clock_causes.VS_CLOCK,
            *spo_clock_causes.NOT_RUN,
            spo_clock_causes.BEST_VS_CLOCK,
            spo_clock_causes.WRITES_DOMINATE,
        },
    }
    for paper, ids in named.items():
        claims = {c.id for c in fd.load(paper).claims}
        assert ids and ids <= claims, (paper, ids - claims)


@given(p=st.floats(0.0, 100.0), x=st.floats(0.0, 100.0))
def test_a_share_is_judged_the_same_as_its_complement(p, x):
    # Judged on both sides: 61% with 76% is the same verdict as 39% with 24%.
    share = Claim("s", "", "share", "%", "", "", paper=p)
    other = Claim("s", "", "share", "%", "", "", paper=100.0 - p)
    assert fd.rule(share, x) == fd.rule(other, 100.0 - x)


@given(ours=st.floats(-50.0, 50.0), seeds=st.lists(st.floats(-50.0, 50.0), min_size=1, max_size=4))
def test_the_noise_test_never_makes_an_agreement(ours, seeds):
    c = Claim("d", "", "value", "%", "", "", paper=-10.0, subject="apps: x")
    paper = fd.Paper("t", "", "", (c,), ())
    (r,) = fd.score(paper, {"d": ours}, at_seeds={"d": seeds})
    assert r.verdict == fd.rule(c, ours) or (r.verdict == "N" and r.judged_by == "noise")
