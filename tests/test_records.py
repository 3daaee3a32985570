"""Results are typed records generated from the core's structs: the checked-in module is what the
generator makes from the built core, every field reads as an attribute of its type, and a checker
sees the types (``mypy --strict`` on ``examples/typed_results.py`` in ``make lint``)."""

import json
import pickle
import subprocess
import sys

import pytest

import mobmem
from mobmem import _core, _gen_records, records

from conftest import ROOT


def test_the_checked_in_records_are_what_the_core_generates():
    generated = _gen_records.generate(json.loads(_core.result_schemas()))
    assert (ROOT / "python/mobmem/records.py").read_text() == generated, "run `make records`"


def _check_fields(rec, cls):
    """Every key of a record is an attribute of its class, and nested records have their class."""
    assert type(rec) is cls
    for key in rec:
        assert getattr(rec, key + "_" if key in ("from", "class") else key) is rec[key]
    for key, (shape, nested) in cls._nested.items():
        v = rec.get(key)
        if v is None:
            continue
        items = [v] if shape == "one" else (v if shape == "list" else list(v.values()))
        for x in items:
            _check_fields(x, nested)


def test_a_runs_parts_are_typed_records_and_still_dicts(sqlite_slice):
    r = mobmem.simulate(sqlite_slice, policy="lru", memory=16, swap="zram-writeback")
    _check_fields(r.raw, records.RunResult)
    assert isinstance(r.meters, records.Meters) and isinstance(r.meters.io, records.IoTime)
    assert r.meters.faults == r.meters["faults"] == r.faults > 0
    assert r.config.swap.name == "zram-writeback" and r.config.frames == 16
    plain = r.to_dict()
    assert type(plain["meters"]) is dict and type(plain["meters"]["io"]) is dict
    assert mobmem.RunResult(json.loads(json.dumps(plain))) == r
    again = pickle.loads(pickle.dumps(r))
    assert again == r and type(again.meters.io) is records.IoTime


def test_a_phones_parts_are_typed_records():
    r = mobmem.simulate_phone(mobmem.phone.rounds(rounds=1), "gt-i9300")
    _check_fields(r.raw, records.PhoneResult)
    assert all(type(x) is records.LaunchRecord for x in r.launches)
    assert r.launches[0].app == r.launches[0]["app"] and r.pages.faults == r.pages["faults"]
    assert sum(r.meters.kills.values()) == r.meters.kills_total


def test_a_grids_memory_column_sorts_by_size(sqlite_slice):
    pytest.importorskip("pandas")
    df = mobmem.grid(sqlite_slice, policies="lru", memories="10%,5%,20%,64KiB", frame=True)
    ordered = df.sort_values("memory")
    assert list(ordered.frames) == sorted(df.frames)
    labels = list(ordered.memory.astype(str))
    assert labels.index("5%") < labels.index("10%") < labels.index("20%"), labels


def test_the_checker_sees_a_misspelt_field(tmp_path):
    pytest.importorskip("mypy")
    bad = tmp_path / "bad.py"
    bad.write_text("import mobmem\n\nr = mobmem.simulate('t')\nprint(r.meters.faultz + r.config.frames)\n")
    cmd = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), str(bad)]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 1 and '"Meters" has no attribute "faultz"' in out.stdout, out.stdout
    good = [*cmd[:-1], str(ROOT / "examples/typed_results.py")]
    assert subprocess.run(good, capture_output=True, text=True, cwd=ROOT).returncode == 0


def test_the_typed_example_runs():
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples/typed_results.py")], capture_output=True, text=True, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr
    assert "frames on emmc-inand" in out.stdout and "launches" in out.stdout
