"""Every setting is checked once, where it is resolved, over the whole schema of both levels and
every way in — Python, a flag, ``--set``, a TOML file (a run file, a phones file, a devices file):

- a finite value whose totals would overflow is refused by name (exit 3), never an ``inf`` or a
  ``null`` where a number belongs, never an internal error;
- a table named as a preset (a phone, a device) overrides the fields it sets and keeps the others,
  or is refused;
- a setting the rest of the config makes meaningless is refused by name;
- a thread or worker count past the cores is capped with a message; a negative one is refused.

Each way in costs a process start, so the command-line ways are sampled (hypothesis) and Python,
in-process, takes every field."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mobmem
from mobmem import phone as ph

from conftest import DATA, cli, write

TRACE = DATA / "sqlite_60k.txt.zst"
SMALL = mobmem.Trace.from_pages([1, 2, 3, 1, 2, 4, 5, 1] * 40)
PAGE, PHONE = mobmem.Config.fields(), ph.fields()
#: Finite values past anything physical: past 1e18 (`limits::MAX_PER_OP`), u64 and i64.
HUGE = [1e300, 1.7e308, 1e19, 2**63 - 1, 2**64 + 5]
#: Page-run flags not named after their knob.
PAGE_FLAG = {"params": None, "tiers": None, "swap_admission_params": None}


def numeric(fields: dict[str, dict[str, Any]]) -> list[str]:
    """The knobs holding a number (or nothing by default: a size, a duration, a level)."""
    return [
        k
        for k, f in fields.items()
        if f["default"] is None
        or (isinstance(f["default"], int | float) and not isinstance(f["default"], bool))
    ]


def bad_numbers(got: Any, base: Any, path: str = "") -> list[str]:
    """Paths where `base` holds a number and `got` does not hold a finite one."""
    if isinstance(base, dict):
        return [
            p
            for k, v in base.items()
            if isinstance(got, dict)
            for p in bad_numbers(got.get(k), v, f"{path}.{k}")
        ]
    if isinstance(base, int | float) and not isinstance(base, bool):
        ok = isinstance(got, int | float) and not isinstance(got, bool) and math.isfinite(got)
        return [] if ok else [f"{path} = {got!r}"]
    return []


def toml_value(v: Any) -> str:
    return json.dumps(v) if isinstance(v, str | bool) else repr(v)


def run_python(level: str, over: dict[str, Any]) -> dict[str, Any]:
    if level == "page":
        return mobmem.simulate(SMALL, **{"swap": "emmc-inand", "memory": 3, **over}).to_dict()
    return ph.simulate_phone(ph.rounds(rounds=1), **over).to_dict()


def run_cli(level: str, way: str, over: dict[str, Any], tmp: Path) -> Any:
    """The run of `over` through `way`; its exit code, stdout and stderr."""
    args: list[str] = []
    if level == "page":
        base = ["run", "-t", str(TRACE), "--memory", "5%", "--json"]
        over = {"swap": "emmc-inand", **over}
    else:
        base = ["phone", "--emmc", "random", "--rounds", "1", "--json"]
    for k, v in over.items():
        if way == "flag":
            args += ["--" + k.replace("_", "-"), str(v)]
        elif way == "set":
            args += ["--set", f"{'sim.' if level == 'page' else ''}{k}={toml_value(v)}"]
    if way == "toml":
        body = "".join(f"{k} = {toml_value(v)}\n" for k, v in over.items())
        if level == "page":
            f = write(tmp, "run.toml", f'[trace]\npath = "{TRACE}"\n[sim]\nmemory = "5%"\n{body}')
            base, args = ["run", "--config", str(f), "--json"], []
        else:
            args = ["--phones", str(write(tmp, "phones.toml", f"[nexus5]\n{body}"))]
    return cli(*base, *args, ok=False)


BASE = {level: run_python(level, {}) for level in ("page", "phone")}


@pytest.mark.parametrize(
    "level,field,value",
    [(lv, k, v) for lv, fs in (("page", PAGE), ("phone", PHONE)) for k in numeric(fs) for v in HUGE],
)
def test_a_huge_finite_value_is_refused_by_name_or_runs_finite_from_python(level, field, value):
    try:
        got = run_python(level, {field: value})
    except mobmem.ConfigError as e:
        assert field in str(e), e
        return
    assert bad_numbers(got, BASE[level]) == [], (field, value)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.sampled_from([(lv, k) for lv, fs in (("page", PAGE), ("phone", PHONE)) for k in numeric(fs)]),
    st.sampled_from(HUGE),
    st.sampled_from(["flag", "set", "toml"]),
)
def test_a_huge_finite_value_is_refused_by_name_or_runs_finite_from_the_command_line(
    tmp_path, where, value, way
):
    level, field = where
    if way == "flag" and level == "page" and field in PAGE_FLAG:
        way = "set"
    p = run_cli(level, way, {field: value}, tmp_path)
    # A value the file's types refuse is the file's error (exit 4), at its line; the resolver's, 3.
    assert p.returncode in ((0, 3, 4) if way == "toml" else (0, 3)), p.stderr
    if p.returncode:
        assert field in p.stderr and (way != "toml" or p.returncode == 3 or ".toml:" in p.stderr), p.stderr
        assert "Traceback" not in p.stderr and "internal" not in p.stderr, p.stderr
    else:
        assert bad_numbers(json.loads(p.stdout), BASE[level]) == [], (field, value, way)


def other_values(presets: dict[str, dict[str, Any]]) -> list[tuple[str, str, Any]]:
    """(preset, field, a value another preset gives it): single values only."""
    out = []
    for name, fields in presets.items():
        for other in presets.values():
            for k, v in other.items():
                if k not in ("name", "description") and v is not None and not isinstance(v, dict | list):
                    if v != fields.get(k):
                        out.append((name, k, v))
    return sorted(set((n, k, json.dumps(v)) for n, k, v in out))


PHONE_OVERRIDES = other_values(ph.phones())
PARAMS_OF = {"killer": "killer_params", "policy": "params", "swap_admission": "swap_admission_params"}
DEVICE_OVERRIDES = other_values(mobmem.devices())


def overridden(tmp_path: Path, case: tuple[str, str, str], load: Any, refused_as: str) -> Any:
    """The preset `case` names as a file with one table overriding one field loads it, and the
    preset with that field set; None when the file is refused by the table's name."""
    name, field, value = case[0], case[1], json.loads(case[2])
    f = write(tmp_path, "over.toml", f"[{name}]\n{field} = {toml_value(value)}\n")
    try:
        got = load(f)[name]
    except mobmem.ConfigError as e:
        # Refused by the table's name (a field the change needs, e.g. zram's ratio, is missing).
        assert f"{refused_as}{name}." in str(e), e
        return None
    return got, {**load(None)[name], field: value}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(PHONE_OVERRIDES))
def test_a_phones_table_named_as_a_preset_overrides_only_the_fields_it_sets(tmp_path, case):
    if (both := overridden(tmp_path, case, ph.phones, "")) is None:
        return
    got, want = both
    if case[1] in PARAMS_OF:
        # The preset's parameters were its killer's (policy's, admission's): another starts without.
        want[PARAMS_OF[case[1]]] = {}
    assert got == want, case


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(DEVICE_OVERRIDES))
def test_a_devices_table_named_as_a_preset_overrides_only_the_fields_it_sets(tmp_path, case):
    if (both := overridden(tmp_path, case, mobmem.devices, "devices.")) is None:
        return
    got, want = both
    # A device's energy per operation and its latency follow the energy model it names.
    derived = (
        {"read_nj", "write_nj", "background_mw", "read_ns", "write_ns"}
        if case[1] == "energy_model"
        else set()
    )
    assert {k: v for k, v in got.items() if k not in derived} == {
        k: v for k, v in want.items() if k not in derived
    }


def test_a_preset_named_in_a_run_file_or_on_the_command_line_is_overridden_not_replaced(tmp_path):
    """A run file's [devices.NAME] naming a preset, a --phones table and a --devices table: the
    preset's other fields stay (one example per way; the properties above take every preset)."""
    preset = mobmem.devices()["emmc-inand"]
    run = write(
        tmp_path,
        "run.toml",
        f'[trace]\npath = "{TRACE}"\n[sim]\nswap = "emmc-inand"\n[devices.emmc-inand]\nbackground_mw = 7.0\n',
    )
    swap = json.loads(cli("run", "--config", str(run), "--json").stdout)["config"]["swap"]
    assert swap == {**{k: swap[k] for k in swap if k not in preset}, **preset, "background_mw": 7.0}
    devices = write(tmp_path, "d.toml", "[emmc-inand]\nbackground_mw = 7.0\n")
    by_file = json.loads(
        cli("run", "-t", str(TRACE), "--swap", "emmc-inand", "--devices", str(devices), "--json").stdout
    )
    assert by_file["config"]["swap"] == swap
    phones = write(tmp_path, "p.toml", "[nexus5]\nmax_cached = 3\n")
    echo = json.loads(
        cli("phone", "--emmc", "random", "--rounds", "1", "--phones", str(phones), "--json").stdout
    )
    assert echo["config"]["phone"]["max_cached"] == 3
    assert echo["config"]["phone"]["swap_size"] == ph.phones()["nexus5"]["swap_size"]
    # A new device in a run file is still typed from its text: an error names the line.
    bad = write(tmp_path, "bad.toml", f'[trace]\npath = "{TRACE}"\n[sim]\n[devices.mine]\nread_ns = 1\n')
    p = cli("run", "--config", str(bad), ok=False)
    assert (
        p.returncode == 4 and "bad.toml:4" in p.stderr and "devices.mine: missing field `kind`" in p.stderr
    ), p.stderr


MEANINGLESS = [
    ("page", {"swap": "emmc-inand", "zram_in_memory": False}, "zram_in_memory"),
    ("page", {"swap": "zram-lz4", "page_cluster": 2, "reclaim_batch": 8}, "page_cluster"),
    ("page", {"swap": "emmc-inand", "page_cluster": 2}, "page_cluster"),
    ("page", {"swap": "emmc-inand", "direct_read": True}, "direct_read"),
    ("phone", {"swap": "emmc-inand", "zram_in_memory": False}, "zram_in_memory"),
    ("phone", {"swap": "off", "zram_in_memory": False}, "zram_in_memory"),
    ("phone", {"swap": "off", "swap_cache": "keep"}, "swap_cache"),
    ("phone", {"swap": "off", "swap_size": "512MiB"}, "swap_size"),
    ("phone", {"swap": "off", "page_cluster": 2}, "page_cluster"),
]


@pytest.mark.parametrize("level,over,field", MEANINGLESS)
def test_a_setting_the_rest_makes_meaningless_is_refused_by_name_over_every_way_in(
    tmp_path, level, over, field
):
    with pytest.raises(mobmem.ConfigError) as e:
        run_python(level, over)
    assert field in str(e.value)
    for way in ("set", "toml"):
        p = run_cli(level, way, over, tmp_path)
        assert p.returncode == 3 and field in p.stderr, (way, p.stderr)


CORES = len(os.sched_getaffinity(0))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(CORES + 1, 2**62))
def test_a_thread_count_past_the_cores_is_capped_with_a_message_at_every_way_in(capfd, n):
    one = mobmem.grid(SMALL, ["lru", "clock"], ["50%"], threads=1)
    capfd.readouterr()
    many = mobmem.grid(SMALL, ["lru", "clock"], ["50%"], threads=n)
    assert f"threads = {n} is more than the {CORES} cores there are" in capfd.readouterr().err
    assert [r.faults for r in many] == [r.faults for r in one]
    from mobmem import capacity

    rows = capacity.curve(ph.rounds(rounds=1), drams=["1GiB"], swaps=["off"], threads=n)
    assert f"threads = {n} is more than" in capfd.readouterr().err and len(rows) == 1


def test_a_thread_count_past_the_cores_or_below_zero_from_the_command_line(tmp_path):
    p = cli(
        "compare", "-t", str(TRACE), "--policies", "lru,clock", "--memory", "10%", "--threads", str(2**40)
    )
    assert f"threads = {2**40} is more than the {CORES} cores there are" in p.stderr, p.stderr
    for args in (
        ["compare", "-t", str(TRACE), "--threads", "-3"],
        ["phone-curve", str(DATA / "usage_window_12apps.csv"), "--threads", "-3"],
    ):
        p = cli(*args, ok=False)
        assert p.returncode == 3 and "threads" in p.stderr, p.stderr
