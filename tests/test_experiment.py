"""Experiments: planning runs from an experiment file, the crash-safe results store (a real
``kill -9`` mid-sweep), local and Dask executors, and the results commands."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import mobmem
from mobmem.errors import ConfigError, MobmemIOError, TraceNotFoundError
from mobmem.experiment import load, load_results, records, relative, sweep

ROOT = Path(__file__).resolve().parent.parent
SQLITE = ROOT / "tests" / "data" / "sqlite_60k.txt.zst"


def experiment(tmp: Path, body: str, trace: Path = SQLITE, name: str = "exp.toml") -> Path:
    p = tmp / name
    p.write_text(f'[experiment]\nname = "t"\ntrace = "{trace}"\n{body}')
    return p


def cli(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    p = subprocess.run(
        [sys.executable, "-m", "mobmem.cli", *args], capture_output=True, text=True, timeout=600
    )
    if ok:
        assert p.returncode == 0, p.stderr
    return p


def _with_store(tmp: Path) -> Path:
    p = tmp / "st.toml"
    p.write_text(f'[experiment]\ntrace = "{SQLITE}"\nstore = 5\n')
    return p


def kill_when_stored(proc: subprocess.Popen[bytes], store: Path, runs: int) -> None:
    """SIGKILLs ``proc`` once ``store`` holds ``runs`` runs (or lets it end), then waits for it."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        stored = 0
        try:
            with sqlite3.connect(store, timeout=1) as db:
                stored = db.execute("SELECT count(*) FROM runs").fetchone()[0]
        except sqlite3.Error:
            pass  # not created yet, or its schema not there yet
        if stored >= runs:
            os.kill(proc.pid, signal.SIGKILL)
            break
        time.sleep(0.01)
    proc.wait(timeout=60)


def test_runs_are_the_product_of_the_axes_and_keyed_by_what_decides_them(tmp_path):
    p = experiment(
        tmp_path, '[axes]\npolicy = ["lru", "clock"]\nmemory = ["5%", "10%", "25%"]\nseed = [1, 2]\n'
    )
    exp = load(p)
    assert len(exp.runs) == 12 and len({r.key for r in exp.runs}) == 12
    assert exp.store == tmp_path / "exp.results.sqlite"
    assert all("seed" not in r.config for r in exp.runs)  # a page run is deterministic: seed names a repeat
    # The same experiment plans the same keys; a changed setting or trace content makes new ones.
    assert [r.key for r in load(p).runs] == [r.key for r in exp.runs]
    p2 = experiment(
        tmp_path, '[base]\nswap = "emmc-inand"\n[axes]\npolicy = ["lru"]\nmemory = ["5%"]\n', name="b.toml"
    )
    k_before = load(p2).runs[0].key
    p2.write_text(p2.read_text().replace("emmc-inand", "ufs31"))
    assert load(p2).runs[0].key != k_before
    copy = tmp_path / "copy.txt"
    copy.write_text("1 R\n2 W\n")
    p3 = experiment(tmp_path, '[axes]\npolicy = ["lru"]\nmemory = ["50%"]\n', trace=copy, name="c.toml")
    k = load(p3).runs[0].key
    copy.write_text("1 R\n3 W\n")
    assert load(p3).runs[0].key != k


def test_bad_experiment_files_name_the_file_and_the_value(tmp_path):
    with pytest.raises(TraceNotFoundError, match=r"nope\.toml"):
        load(tmp_path / "nope.toml")
    with pytest.raises(TraceNotFoundError, match=r"missing\.txt"):
        load(experiment(tmp_path, "", trace=tmp_path / "missing.txt"))
    with pytest.raises(ConfigError, match=r"axes\.memory"):
        load(experiment(tmp_path, "[axes]\nmemory = []\n"))
    with pytest.raises(ConfigError, match="runs planned"):
        load(
            experiment(
                tmp_path, "[axes]\n" + "".join(f"a{i} = [{', '.join(['1'] * 20)}]\n" for i in range(6))
            )
        )
    with pytest.raises(ConfigError, match=r"experiment\.store"):
        load(_with_store(tmp_path))
    with pytest.raises(ConfigError, match=r"seed.*'one'"):
        load(experiment(tmp_path, '[axes]\nseed = ["one"]\n', name="s.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("[experiment\n")
    with pytest.raises(ConfigError, match=r"bad\.toml"):
        load(bad)
    # A run the engine refuses stops the sweep with the run named, exit code 3 on the command line.
    p = experiment(tmp_path, '[axes]\npolicy = ["lru", "nosuch"]\nmemory = ["5%"]\n', name="r.toml")
    with pytest.raises(ConfigError, match=r"policy=nosuch"):
        sweep(load(p), workers=1, progress=False)
    e = cli("sweep", str(p), "--quiet", ok=False)
    assert e.returncode == 3 and "policy=nosuch" in e.stderr and "Traceback" not in e.stderr


def test_sweep_stores_every_run_once_and_matches_a_direct_run(tmp_path):
    p = experiment(tmp_path, '[axes]\npolicy = ["lru", "arc", "opt"]\nmemory = ["5%", "25%"]\n')
    exp = load(p)
    first = sweep(exp, workers=2, progress=False)
    assert first == {"runs": 6, "stored_before": 0, "ran": 6, "store": str(exp.store)}
    again = sweep(load(p), workers=2, progress=False)
    assert again["ran"] == 0 and again["stored_before"] == 6
    recs = records(p)
    assert [(r["policy"], r["memory"]) for r in recs] == [
        (r.axes["policy"], r.axes["memory"]) for r in exp.runs
    ]
    for r in recs:
        direct = mobmem.simulate(SQLITE, policy=r["policy"], memory=r["memory"])
        assert r["faults"] == direct.faults and r["hits"] == direct.hits
    df = load_results(p)
    assert len(df) == 6 and {"policy", "memory", "faults", "io_total_ns"} <= set(df.columns)
    # The command line: a summary, then the records as JSON and CSV.
    out = json.loads(cli("sweep", str(p), "--json", "--quiet").stdout)
    assert out["ran"] == 0 and out["runs"] == 6
    j = json.loads(cli("results", str(p), "--json").stdout)
    assert j == json.loads(json.dumps(recs))
    csv = cli("results", str(p), "--csv").stdout.splitlines()
    assert csv[0].startswith("source,policy,memory") and len(csv) == 7
    pq = tmp_path / "r.parquet"
    cli("results", str(p), "--parquet", str(pq))
    import pandas as pd

    back = pd.read_parquet(pq)
    assert list(back["faults"]) == [r["faults"] for r in recs]
    # Relative figures against a named baseline: the same run with the baseline's values.
    p.write_text(p.read_text() + '[baselines]\nlru = { policy = "lru" }\n')
    rel = relative(p, "lru", "faults")
    by = {(r["policy"], r["memory"]): r["faults"] for r in rel}
    for r in rel:
        assert r["faults / lru"] == pytest.approx(r["faults"] / by[("lru", r["memory"])])
    with pytest.raises(ConfigError, match="no baseline 'fifo'"):
        relative(p, "fifo", "faults")
    assert "faults / lru" in cli("results", str(p), "--relative", "lru:faults").stdout


def test_a_sweep_killed_mid_write_loses_no_finished_run_and_repeats_none(tmp_path):
    # A trace whose runs take long enough to kill the sweep between them.
    trace = tmp_path / "big.bin"
    mobmem.Trace.generate(accesses=2_000_000, seed=3).save(trace)
    sizes = ", ".join(f'"{m}%"' for m in range(2, 42, 2))
    p = experiment(tmp_path, f'[axes]\npolicy = ["lru", "clock"]\nmemory = [{sizes}]\n', trace=trace)
    exp = load(p)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mobmem.cli", "sweep", str(p), "--workers", "1", "--quiet"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    kill_when_stored(proc, exp.store, 3)
    assert proc.returncode == -signal.SIGKILL, "the sweep ended before it could be killed"
    kept = {r["key"] for r in mobmem.experiment.Store(exp.store).records()}
    assert 3 <= len(kept) < len(exp.runs)
    out = sweep(load(p), workers=1, progress=False)
    assert out["stored_before"] == len(kept) and out["ran"] == len(exp.runs) - len(kept)
    assert {r["key"] for r in mobmem.experiment.Store(exp.store).records()} == {r.key for r in exp.runs}


def test_a_corrupted_store_is_an_error_naming_it(tmp_path):
    p = experiment(tmp_path, '[axes]\npolicy = ["lru"]\nmemory = ["5%"]\n')
    store = load(p).store
    store.write_bytes(b"this is not a database, just bytes" * 100)
    with pytest.raises(MobmemIOError, match=re.escape(str(store))):
        sweep(load(p), workers=1, progress=False)
    e = cli("results", str(p), ok=False)
    assert e.returncode == 4 and str(store) in e.stderr and "Traceback" not in e.stderr


def test_dask_local_cluster_runs_the_same_sweep(tmp_path):
    pytest.importorskip("dask.distributed")
    p = experiment(tmp_path, '[axes]\npolicy = ["lru", "clock"]\nmemory = ["5%", "25%"]\n')
    out = json.loads(cli("sweep", str(p), "--dask", "local", "--workers", "2", "--json", "--quiet").stdout)
    assert out["ran"] == 4
    for r in records(p):
        direct = mobmem.simulate(SQLITE, policy=r["policy"], memory=r["memory"])
        assert r["faults"] == direct.faults


def test_progress_is_a_bar_on_a_terminal_and_lines_otherwise():
    import io

    from mobmem.experiment import Progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty, plain = Tty(), io.StringIO()
    for stream in (tty, plain):
        bar = Progress(3, stream, every_s=3600)
        for _ in range(3):
            bar.step()
    assert tty.getvalue().count("\r") == 3 and "[" in tty.getvalue() and "3/3 runs" in tty.getvalue()
    assert (
        plain.getvalue().splitlines() == [plain.getvalue().splitlines()[-1]]
        and "3/3 runs" in plain.getvalue()
    )


def test_reproductions_run_through_the_store_and_resume_after_kill(tmp_path):
    store = tmp_path / "emmc.sqlite"
    args = ["reproduce", "emmc-swap", "--rounds", "1", "--json", "--store", str(store)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "mobmem.cli", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    kill_when_stored(proc, store, 20)
    assert proc.returncode == -signal.SIGKILL, "the reproduction ended before it could be killed"
    with sqlite3.connect(store) as db:
        kept = db.execute("SELECT count(*) FROM runs").fetchone()[0]
    resumed = cli(*args)
    m = re.search(r"(\d+) runs run, (\d+) reused", resumed.stderr)
    assert m, resumed.stderr
    with sqlite3.connect(store) as db:
        final = db.execute("SELECT count(*) FROM runs").fetchone()[0]
    assert final == kept + int(m.group(1))  # the resumed run stored only what was missing
    assert int(m.group(2)) >= kept
    again = cli(*args)
    assert re.search(r"\b0 runs run", again.stderr), again.stderr
    plain = cli("reproduce", "emmc-swap", "--rounds", "1", "--json")
    assert json.loads(again.stdout) == json.loads(resumed.stdout) == json.loads(plain.stdout)


def test_app_usage_experiments_run_on_phones(tmp_path):
    usage = ROOT / "tests" / "data" / "usage_window_12apps.csv"
    p = tmp_path / "phone.toml"
    p.write_text(
        f'[experiment]\nname = "ph"\nusage = "{usage}"\n[base]\nphone = "nexus5"\n'
        '[axes]\nswap = ["off", "emmc-inand"]\nseed = [1, 2]\n'
    )
    exp = load(p)
    assert exp.kind == "phone" and len(exp.runs) == 4
    assert sweep(exp, workers=2, progress=False)["ran"] == 4
    recs = records(p)
    from mobmem import phone as ph

    for r in recs:
        direct = ph.simulate_phone(ph.usage_file(usage), "nexus5", seed=r["seed"], swap=r["swap"])
        assert r["kills_total"] == direct.kills and r["mean_launch_ms"] == pytest.approx(
            direct.mean_launch_ms
        )
    page = tmp_path / "phone.html"
    cli("report", str(p), "-o", str(page))
    assert "delay class" in page.read_text()
