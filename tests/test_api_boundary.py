"""The Python API's boundary: whatever a notebook passes to a public function, the answer is a
result or a :class:`mobmem.MobmemError` naming the argument — never a raw ``TypeError``,
``ValueError``, ``KeyError`` or ``OverflowError`` from inside. Hypothesis draws every argument of
every public function from hostile values mixed with valid ones."""

from __future__ import annotations

import math
import os
import typing
from pathlib import Path
from typing import Any

import hypothesis
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mobmem
from mobmem import capacity, experiment, mrc, reproduce
from mobmem import phone as ph

from conftest import DATA

SQLITE = DATA / "sqlite_60k.txt.zst"
USAGE = DATA / "usage_window_12apps.csv"


def _gen() -> Any:
    return (i for i in range(3))


#: Values no argument should crash on (a fresh generator is made per draw).
HOSTILE: list[Any] = [
    None,
    0,
    -1,
    1.5,
    math.nan,
    math.inf,
    2**70,
    True,
    "",
    "x",
    "10%",
    b"bytes",
    [],
    [1.5],
    ["a", 1],
    {},
    {"a": 1},
    {"memory": math.nan},
    object(),
    _gen,
    Path("/no/such/file"),
    "/no/such/file",
    "12345",
]


def hostile() -> st.SearchStrategy[Any]:
    return st.sampled_from(HOSTILE).map(lambda v: v() if v is _gen else v)


def args(valid: dict[str, list[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """Each named argument absent, valid, or hostile."""
    return st.fixed_dictionaries(
        {}, optional={k: st.one_of(st.sampled_from(vs), hostile()) for k, vs in valid.items()}
    )


TRACE = mobmem.Trace.open(SQLITE)
SMALL = mobmem.Trace.from_pages([1, 2, 3, 1, 2, 4], "RWRRWR")


def _tiny_usage(tmp: Path) -> Path:
    p = tmp / "u.csv"
    p.write_text("time_s,app\n0,chrome\n30,youtube\n60,chrome\n")
    return p


#: Every public function: how to call it with one dict of keyword arguments, and valid values.
CALLS: dict[str, tuple[Any, dict[str, list[Any]]]] = {
    "Trace.open": (
        mobmem.Trace.open,
        {"path": [SQLITE], "format": [None, "lackey"], "procs": [None], "map": [False]},
    ),
    "Trace.from_pages": (
        mobmem.Trace.from_pages,
        {"pages": [[1, 2, 3]], "ops": [None, "RWR"], "name": ["t"]},
    ),
    "Trace.generate": (
        lambda **k: mobmem.Trace.generate("angrybirds", **k),
        {"accesses": [1000], "seed": [1]},
    ),
    "Trace.hybrid": (mobmem.Trace.hybrid, {"workload": ["balanced"], "scale": [0.001], "seed": [1]}),
    "Trace.category": (
        mobmem.Trace.category,
        {"name": ["news"], "rounds": [1], "accesses_per_turn": [1000], "anon_rw_share": [0.3]},
    ),
    "Trace.stats": (lambda **k: SMALL.stats(**k), {"page_size": [4096]}),
    "Trace.head": (lambda **k: SMALL.head(**k), {"n": [3], "start": [0]}),
    "simulate": (
        mobmem.simulate,
        {
            "trace": [SMALL, SQLITE],
            "config": [None, {"policy": "lru"}],
            "memory": ["50%", 2],
            "policy": ["clock"],
        },
    ),
    "simulate_stream": (mobmem.simulate_stream, {"path": [SQLITE], "memory": ["10%"], "format": [None]}),
    "grid": (
        mobmem.grid,
        {"trace": [SMALL], "policies": [["lru"], "lru,clock"], "memories": [["50%"]], "threads": [1]},
    ),
    "run_configs": (mobmem.run_configs, {"trace": [SMALL], "configs": [[{"memory": 2}]], "threads": [1]}),
    "swap_energy": (
        mobmem.swap_energy,
        {
            "model": ["lpddr2-pcm"],
            "swap_ins": [10],
            "swap_outs": [10],
            "duration_s": [60.0],
            "swap_size": [1 << 20],
        },
    ),
    "devices": (mobmem.devices, {"devices": [None]}),
    "tiers": (mobmem.tiers, {"devices": [None]}),
    "Config": (lambda **k: mobmem.Config(**k), {"policy": ["lru"], "memory": ["10%"]}),
    "simulate_phone": (
        mobmem.simulate_phone,
        {"usage": ["USAGE"], "phone": ["nexus5"], "seed": [1], "swap": ["off"], "phones": [None]},
    ),
    "phone_grid": (ph.phone_grid, {"jobs": [[ph.job("USAGE", "nexus5")]], "threads": [1], "frame": [False]}),
    "phone.job": (ph.job, {"usage": ["USAGE"], "phone": ["nexus5"], "seed": [0]}),
    "phone.rounds": (
        lambda **k: mobmem.simulate_phone(ph.rounds(**k), "gt-i9300", reserved="814MiB"),
        {"rounds": [0], "random": [False], "seed": [1], "gap_s": [0.0]},
    ),
    "phone.synthetic": (
        lambda **k: ph.usage(ph.synthetic(**k)),
        {
            "apps": [5],
            "launches": [20],
            "reuse": [2.0],
            "seed": [1],
            "gap_s": [1.0],
            "rare": [1],
            "rare_launches": [1],
        },
    ),
    "phone.usage": (ph.usage, {"spec": ["USAGE"]}),
    "phone.phones": (ph.phones, {"phones": [None]}),
    "phone.apps": (ph.apps, {"apps": [None]}),
    "mrc.curve": (mrc.curve, {"trace": [SMALL], "policy": ["lru", "opt"]}),
    "mrc.sampled": (
        mrc.sampled,
        {"trace": [SMALL], "policy": ["lru"], "rate": [0.5], "sizes": [[1, 2]], "seed": [1]},
    ),
    "mrc.grid": (mrc.grid, {"footprint": [10], "points": [5]}),
    "capacity.curve": (
        capacity.curve,
        {"usage": ["USAGE"], "phone": ["nexus5"], "drams": [["1GiB"]], "swaps": [["off"]], "threads": [1]},
    ),
    "experiment.load": (experiment.load, {"path": ["EXP"]}),
    "experiment.records": (experiment.records, {"path": ["EXP"]}),
    "experiment.sweep": (
        lambda **k: experiment.sweep(experiment.load(k.pop("path", "EXP")), progress=False, **k),
        {"path": ["EXP"], "workers": [1], "dask": [None]},
    ),
    "experiment.relative": (
        experiment.relative,
        {"path": ["EXP"], "baseline": ["lru"], "metric": ["faults"]},
    ),
    "reproduce.params": (reproduce.params, {"name": ["spo-clock"]}),
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("boundary")
    exp = d / "e.toml"
    exp.write_text(
        f'[experiment]\ntrace = "{SQLITE}"\n[axes]\npolicy = ["lru"]\nmemory = ["5%"]\n[baselines]\nlru = {{ policy = "lru" }}\n'
    )
    return {"USAGE": _tiny_usage(d), "EXP": exp}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_public_function_answers_or_raises_a_mobmem_error(name, files):
    fn, valid = CALLS[name]

    def real(v: Any) -> Any:
        if isinstance(v, str) and v in files:
            return files[v]
        if isinstance(v, list) and v and isinstance(v[0], dict) and "usage" in v[0]:
            return [{**j, "usage": ph.usage_file(files["USAGE"])} for j in v]
        return v

    # The fuzzing harness (fuzz/pyfuzz.py, target `api`) runs this with more examples and a seed.
    examples = int(os.environ.get("MOBMEM_API_EXAMPLES", "60"))
    seed = os.environ.get("MOBMEM_API_SEED")

    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=seed is None,
    )
    @given(args(valid))
    def check(kwargs: dict[str, Any]) -> None:
        kwargs = {k: real(v) for k, v in kwargs.items()}
        try:
            fn(**kwargs)
        except mobmem.MobmemError:
            pass
        except TypeError as e:
            # A missing required argument is Python's own call error, not the API's boundary.
            if "required" in str(e) and "argument" in str(e):
                return
            raise

    if seed is not None:
        check = hypothesis.seed(int(seed))(check)
    check()


def test_page_numbers_are_whole_and_a_string_is_not_a_list_of_them():
    with pytest.raises(mobmem.ConfigError, match=r"pages.*1\.5") as e:
        mobmem.Trace.from_pages([1.5, 2.9])
    assert e.value.field == "pages"
    with pytest.raises(mobmem.ConfigError, match="pages") as e:
        mobmem.Trace.from_pages("12345")
    with pytest.raises(mobmem.ConfigError, match="pages"):
        mobmem.Trace.from_pages(b"12345")
    # A generator of page numbers is a list of them, read once.
    t = mobmem.Trace.from_pages(p for p in [1, 2, 1])
    assert len(t) == 3 and t.num_pages == 2
    np = pytest.importorskip("numpy")
    assert len(mobmem.Trace.from_pages(np.array([3, 4], dtype=np.int32))) == 2
    with pytest.raises(mobmem.ConfigError, match="pages"):
        mobmem.Trace.from_pages(np.array([1.5, 2.0]))


def test_bad_arguments_name_themselves():
    cases = [
        (lambda: mobmem.Trace.open(None), "path"),
        (lambda: mobmem.Trace.open(SQLITE, procs=5), "procs"),
        (lambda: mobmem.simulate(SMALL, memory=object()), "memory"),
        (lambda: mobmem.simulate(SMALL, config="clock"), "config"),
        (lambda: mobmem.run_configs(SMALL, 5), "configs"),
        (lambda: mobmem.simulate_phone(None), "usage"),
        (lambda: experiment.load(None), "experiment"),
        (lambda: mrc.sampled(SMALL, rate="x"), "rate"),
        (lambda: mobmem.simulate(SMALL, memory=math.nan), "memory"),
        (lambda: mobmem.simulate(SMALL, params={"ain_ratio": math.nan}, policy="2q"), "params.ain_ratio"),
    ]
    for call, field in cases:
        with pytest.raises(mobmem.ConfigError) as e:
            call()
        assert e.value.field == field, (field, str(e.value))
    with pytest.raises(mobmem.ConfigError, match="NaN"):
        mobmem.simulate(SMALL, memory=math.nan)


def test_type_hints_resolve_at_run_time():
    for fn in (
        mobmem.simulate,
        mobmem.simulate_stream,
        mobmem.grid,
        mobmem.run_configs,
        mobmem.simulate_phone,
        mobmem.phone_grid,
        mobmem.Trace.open,
        mobmem.Trace.from_pages,
        mobmem.swap_energy,
        mobmem.Config.of,
    ):
        hints = typing.get_type_hints(fn)
        assert "return" in hints, fn.__name__


def test_a_thread_or_worker_count_past_the_cores_is_capped_with_a_message(capsys):
    cores = len(os.sched_getaffinity(0))
    configs = [{"policy": p, "memory": "50%"} for p in ("lru", "fifo", "clock")]
    few = mobmem.run_configs(SMALL, configs, threads=1)
    assert capsys.readouterr().err == ""
    many = mobmem.run_configs(SMALL, configs, threads=10**9)
    err = capsys.readouterr().err
    assert f"threads = {10**9} is more than the {cores} cores there are" in err, err
    # The same runs, in the same order, whatever the count.
    assert [r.faults for r in many] == [r.faults for r in few]
    two = ph.phone_grid([ph.job(USAGE, "nexus5")] * 2, threads=10**6)
    assert "threads = 1000000 is more than" in capsys.readouterr().err
    assert two[0].row() == two[1].row()
    with pytest.raises(mobmem.ConfigError) as e:
        mobmem.run_configs(SMALL, configs, threads=-1)
    assert e.value.field == "threads"
