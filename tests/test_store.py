"""The results store under hostile use: damaged or foreign files, rows holding what no run has, a
store that cannot be written, and experiment files a careless hand wrote. Every one is a clear error
naming the store (and the row) with exit code 4 — never a traceback, never a run taken as done, and
a file that is not a store is never written to."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

import mobmem
from mobmem.errors import ConfigError, MobmemIOError
from mobmem.experiment import Store, load, records, sweep
from mobmem.experiment.runner import run_configs, stored

from conftest import DATA, cli

SQLITE = DATA / "sqlite_60k.txt.zst"


def experiment(tmp: Path, body: str = '[axes]\npolicy = ["lru", "clock"]\nmemory = ["5%"]\n') -> Path:
    p = tmp / "exp.toml"
    p.write_text(f'[experiment]\nname = "t"\ntrace = "{SQLITE}"\n{body}')
    return p


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An experiment of two runs, swept: its store is copied and damaged by each test."""
    d = tmp_path_factory.mktemp("swept")
    p = experiment(d)
    sweep(load(p), workers=1, progress=False)
    return p


def _damaged(swept: Path, tmp: Path, sql: str, args: tuple[object, ...] = ()) -> Path:
    """A copy of the swept experiment whose store had ``sql`` done to it (on a runs table without
    constraints, as a hand-made file may have)."""
    shutil.copy(swept, tmp / "exp.toml")
    store = tmp / "exp.results.sqlite"
    src = sqlite3.connect(swept.with_suffix(".results.sqlite"))
    dst = sqlite3.connect(store)
    src.backup(dst)
    src.close()
    with dst:
        dst.execute("CREATE TABLE loose AS SELECT * FROM runs")
        dst.execute("DROP TABLE runs")
        dst.execute("ALTER TABLE loose RENAME TO runs")
        dst.execute(sql, args)
    dst.close()
    return tmp / "exp.toml"


DEEP = "[" * 5000 + "]" * 5000
HOSTILE = [
    ("row", None, "row is null"),
    ("row", 7, "row is int"),
    ("row", "[1, 2]", "row is a list, not a JSON object"),
    ("row", b'{"faults": 1}', "row is a blob of 13 bytes"),
    ("row", '{"faults": NaN}', "NaN is not a number"),
    ("row", '{"faults": Infinity}', "Infinity is not a number"),
    ("row", '{"a": ' + DEEP + "}", "nested deeper"),
    ("row", "{not json", "not JSON of a run"),
    ("row", '{"faults": {"x": 1}}', "meter 'faults' is a dict, not a value"),
    ("axes", "null", "axes is null, not a JSON object"),
    ("config", 1.5, "config is float"),
    ("wall_s", None, "wall_s is null"),
    ("wall_s", "fast", "wall_s is str"),
    ("key", None, None),  # a row whose key is no run's: not any planned run, so not read
]


@pytest.mark.parametrize(("column", "value", "needle"), HOSTILE)
def test_a_hostile_row_is_an_error_naming_the_store_and_the_row(swept, tmp_path, column, value, needle):
    p = _damaged(swept, tmp_path, f"UPDATE runs SET {column} = ? WHERE rowid = 1", (value,))
    store = str(p.with_suffix(".results.sqlite"))
    res = cli("results", str(p), "--json", ok=False)
    sw = cli("sweep", str(p), "--workers", "1", "--quiet", ok=False)
    if needle is None:
        # Its run is not stored any more: results shows the other, sweep runs it again.
        assert res.returncode == 0 and len(json.loads(res.stdout)) == 1, res.stderr
        assert sw.returncode == 0 and "1 stored before, 1 run now" in sw.stdout, sw.stderr
        return
    for e in (res, sw):
        assert e.returncode == 4, e.stderr
        assert store in e.stderr and "row 1" in e.stderr and needle in e.stderr, e.stderr
        assert "Traceback" not in e.stderr
    assert "NaN" not in res.stdout


def test_a_row_changed_but_still_well_formed_is_caught_by_its_seal(swept, tmp_path):
    # A flipped digit of a meter still reads as a run: the row's seal does not match it.
    with sqlite3.connect(swept.with_suffix(".results.sqlite")) as db:
        row = db.execute("SELECT row FROM runs WHERE rowid = 1").fetchone()[0]
    meters = json.loads(row)
    meters["faults"] += 1
    p = _damaged(swept, tmp_path, "UPDATE runs SET row = ? WHERE rowid = 1", (json.dumps(meters),))
    for args in (["results", str(p), "--json"], ["sweep", str(p), "--quiet"]):
        e = cli(*args, ok=False)
        assert e.returncode == 4 and "row 1" in e.stderr and "do not match their seal" in e.stderr, e.stderr


def test_a_hostile_row_stops_a_reproduction_through_the_store(tmp_path):
    trace = mobmem.Trace.open(SQLITE)
    path = tmp_path / "rep.sqlite"
    with stored(path, "t") as counts:
        first = run_configs(trace, [{"policy": "lru", "memory": "5%"}])
        assert counts["ran"] == 1
    with sqlite3.connect(path) as db:
        db.execute("UPDATE runs SET row = ? WHERE rowid = 1", ('{"meters": NaN}',))
    with pytest.raises(MobmemIOError, match=r"rep\.sqlite: row 1 .* is damaged: row is not JSON .*NaN"):
        with stored(path, "t"):
            run_configs(trace, [{"policy": "lru", "memory": "5%"}])
    path.unlink()
    with stored(path, "t") as counts:
        again = run_configs(trace, [{"policy": "lru", "memory": "5%"}])
    assert again[0].faults == first[0].faults


def test_a_sqlite_file_that_is_not_a_store_is_refused_and_left_as_it_was(tmp_path):
    foreign = tmp_path / "theirs.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE notes (body TEXT)")
        db.execute("INSERT INTO notes VALUES ('keep me')")
    p = experiment(tmp_path, '[axes]\npolicy = ["lru"]\n')
    p.write_text(p.read_text().replace('name = "t"', 'name = "t"\nstore = "theirs.sqlite"'))
    before = foreign.read_bytes()
    listing = sorted(os.listdir(tmp_path))
    for args in (
        ["sweep", str(p), "--quiet"],
        ["results", str(p)],
        ["report", str(p), "-o", str(tmp_path / "r.html")],
    ):
        e = cli(*args, ok=False)
        assert e.returncode == 4 and "not a mobmem results store" in e.stderr and str(foreign) in e.stderr, (
            e.stderr
        )
    e = cli("reproduce", "spo-clock", "--store", str(foreign), ok=False)
    assert e.returncode == 4 and "not a mobmem results store" in e.stderr, e.stderr
    assert foreign.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == listing  # no journal, no write-ahead log left beside it
    # Nor is a store of the earlier schema (whose sweeps could store wrong numbers) trusted.
    old = tmp_path / "old.sqlite"
    with sqlite3.connect(old) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("CREATE TABLE runs (key TEXT PRIMARY KEY)")
        db.execute("INSERT INTO meta VALUES ('schema', '1')")
    with pytest.raises(MobmemIOError, match=r"schema 1.*remove it"):
        Store(old)


def _as_nobody() -> list[str] | None:
    """A command prefix that runs as an unprivileged user (root ignores file permissions)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"]


def test_an_intact_read_only_store_is_still_readable(swept):
    prefix = _as_nobody()
    if prefix is None:
        pytest.skip("running as root without setpriv: no way to be a user the permissions stop")
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        shutil.copy(swept, folder / "exp.toml")  # the same trace, as named: the same runs
        want = records(swept)
        # The store written in place (its runs in the write-ahead log), then the folder made
        # read-only: results and report read it without writing.
        shutil.copy(swept.with_suffix(".results.sqlite"), folder / "exp.results.sqlite")
        for f in folder.iterdir():
            f.chmod(0o444)
        folder.chmod(0o555)
        try:
            env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
            p = subprocess.run(
                [*prefix, sys.executable, "-m", "mobmem.cli", "results", str(folder / "exp.toml"), "--json"],
                capture_output=True,
                text=True,
                env=env,
                cwd=folder,
                timeout=300,
            )
            if p.returncode != 0 and "No module named" in p.stderr:
                pytest.skip("the unprivileged user cannot read this checkout")
            assert p.returncode == 0, p.stderr
            got = json.loads(p.stdout)
            assert [r["faults"] for r in got] == [r["faults"] for r in want]
            assert sorted(os.listdir(folder)) == ["exp.results.sqlite", "exp.toml"]
        finally:
            folder.chmod(0o755)


def test_experiment_files_name_what_is_wrong(tmp_path):
    p = experiment(tmp_path)
    p.write_text(p.read_text().replace('name = "t"', 'name = "t"\nstroe = "x.sqlite"'))
    with pytest.raises(ConfigError, match=r"experiment\.stroe: unknown key; known: name, trace"):
        load(p)
    p.write_text(f'[experiment]\nname = 5\ntrace = "{SQLITE}"\n')
    with pytest.raises(ConfigError, match=r"experiment\.name: 5 is not a string"):
        load(p)
    p.write_text(f'[experiment]\ntrace = "{SQLITE}"\n[axes]\nmemory = [nan]\n')
    with pytest.raises(ConfigError, match=r"axes\.memory: nan is not a value"):
        load(p)
    p.write_text(f'[experiment]\ntrace = "{SQLITE}"\n[base]\nmemory = "5%"\n[axes]\n"memory.x" = [2]\n')
    with pytest.raises(ConfigError, match=r"axes\.memory\.x: memory is a value \('5%'\), not a table"):
        load(p)
    # A byte-order mark is skipped, as everywhere else.
    p.write_bytes(b"\xef\xbb\xbf" + experiment(tmp_path).read_bytes())
    assert len(load(p).runs) == 2
    with pytest.raises(ConfigError, match="experiment"):
        load(None)  # type: ignore[arg-type]


def test_a_plan_of_a_million_runs_costs_no_memory_until_used(tmp_path):
    values = ", ".join(str(i) for i in range(1000))
    p = experiment(tmp_path, f'[axes]\n"params.a" = [{values}]\n"params.b" = [{values}]\n')
    tracemalloc.start()
    try:
        exp = load(p)
        last = exp.runs[-1]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(exp.runs) == 1_000_000 and last.axes["params.a"] == 999 and last.config["params"]["b"] == 999
    assert peak < 20 << 20, f"planning took {peak / 2**20:.0f} MiB"
    assert exp.runs[1].key != exp.runs[1000].key == exp.runs[1000].key


def test_review_findings_are_clear_errors(swept, tmp_path):
    # A forged row with 1e999 (infinity once read) and a seal made to match.
    from mobmem.experiment.store import COLUMNS, seal

    p = _damaged(swept, tmp_path, "SELECT 1")
    store = p.with_suffix(".results.sqlite")
    with sqlite3.connect(store) as db:
        row = list(db.execute(f"SELECT {', '.join(COLUMNS)} FROM runs WHERE rowid = 1").fetchone())
        row[COLUMNS.index("row")] = row[COLUMNS.index("row")].replace(
            '"faults": ', '"faults": 1e999, "x": ', 1
        )
        row[-1] = seal(tuple(row[:-1]))
        db.execute("UPDATE runs SET row = ?, seal = ? WHERE rowid = 1", (row[COLUMNS.index("row")], row[-1]))
    db.close()
    e = cli("results", str(p), "--json", ok=False)
    assert e.returncode == 4 and "1e999 is not a finite number" in e.stderr, e.stderr
    # A store name too long for the file system, from the command line and from Python.
    long = experiment(tmp_path)
    long.write_text(long.read_text().replace('name = "t"', 'name = "t"\nstore = "' + "s" * 300 + '"'))
    for args in (["results", str(long)], ["sweep", str(long), "--quiet"]):
        e = cli(*args, ok=False)
        assert e.returncode == 4 and "Traceback" not in e.stderr and "s" * 300 in e.stderr, e.stderr
    with pytest.raises(MobmemIOError):
        Store(tmp_path / ("s" * 300))
    # A link to nothing is not made into a store.
    dangling = tmp_path / "dangling.sqlite"
    dangling.symlink_to(tmp_path / "nowhere" / "x.sqlite")
    with pytest.raises(MobmemIOError, match="a link to nothing"):
        Store(dangling)


def test_two_sweeps_making_one_store_at_once_both_succeed(tmp_path):
    p = experiment(tmp_path, '[axes]\npolicy = ["lru", "clock", "arc"]\nmemory = ["5%"]\n')
    argv = [sys.executable, "-m", "mobmem.cli", "sweep", str(p), "--workers", "1", "--quiet"]
    procs = [
        subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)
    ]
    # Every process is waited for before any is judged: none is left running when one fails.
    outs = [proc.communicate(timeout=300) for proc in procs]
    for proc, (out, err) in zip(procs, outs, strict=True):
        assert proc.returncode == 0, err
        assert "3 in " in out
    assert [r["faults"] > 0 for r in records(p)] == [True] * 3


def _open_store(path: str, errors: Any) -> None:
    try:
        Store(path).close()
        errors.put("")
    except Exception as e:  # the test reports whatever a process met
        errors.put(repr(e))


def test_processes_creating_one_store_at_once_all_open_it(tmp_path):
    # Four processes creating one store together, forty times: none may find a file whose tables
    # are not written yet (the race once made one of them report "not a mobmem results store").
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    for trial in range(40):
        path = str(tmp_path / f"s{trial}.sqlite")
        errors = ctx.Queue()
        procs = [ctx.Process(target=_open_store, args=(path, errors)) for _ in range(4)]
        for p in procs:
            p.start()
        got = [errors.get(timeout=60) for _ in procs]
        for p in procs:
            p.join(timeout=60)
        assert got == [""] * 4, (trial, got)
        store = Store(path, readonly=True)
        assert store.records() == []
        store.close()
