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
    p = experiment(tmp_path, '[axes]\npolicy = ["lru", "clock"]\nmemory = ["5%", "10%", "25%"]\nseed = [1]\n')
    exp = load(p)
    assert len(exp.runs) == 6 and len({r.key for r in exp.runs}) == 6
    assert exp.store == tmp_path / "exp.results.sqlite"
    assert all("seed" not in r.config for r in exp.runs)  # a page run is deterministic: seed names a repeat
    # Several seeds on a page trace would be identical repeats (error bars of zero): refused.
    with pytest.raises(ConfigError, match=r"axes\.seed: 2 seeds on page traces would store 2 identical"):
        load(experiment(tmp_path, '[axes]\npolicy = ["lru"]\nseed = [1, 2]\n', name="seeds.toml"))
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
                tmp_path,
                "[axes]\n" + "".join(f"a{i} = [{', '.join(map(str, range(20)))}]\n" for i in range(6)),
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
    assert first == {"runs": 6, "stored_before": 0, "ran": 6, "stored": 6, "store": str(exp.store)}
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
    assert isinstance(rel, pd.DataFrame) and list(rel.columns[:3]) == list(load_results(p).columns[:3])
    by = {(r["policy"], r["memory"]): r["faults"] for r in rel.to_dict("records")}
    for r in rel.to_dict("records"):
        assert r["faults / lru"] == pytest.approx(r["faults"] / by[("lru", r["memory"])])
    with pytest.raises(ConfigError, match="no baseline 'fifo'"):
        relative(p, "fifo", "faults")
    shown = json.loads(cli("results", str(p), "--relative", "lru:faults", "--json").stdout)
    assert [r["faults / lru"] for r in shown] == pytest.approx(list(rel["faults / lru"]))
    # The table names the column (its heading may break over lines to fit 100 columns).
    table = cli("results", str(p), "--relative", "lru:faults").stdout
    assert "faults / lru" in table or ("faults" in table and "/ lru" in table)


def test_a_sweep_killed_mid_write_loses_no_finished_run_and_repeats_none(tmp_path):
    # A trace whose runs take long enough to kill the sweep between them.
    trace = tmp_path / "big.bin"
    mobmem.Trace.generate(accesses=2_000_000, seed=3).save(trace)
    sizes = ", ".join(f'"{m}%"' for m in range(2, 42, 2))
    p = experiment(tmp_path, f'[axes]\npolicy = ["lru", "clock"]\nmemory = [{sizes}]\n', trace=trace)
    exp = load(p)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mobmem.cli", "sweep", str(p), "--threads", "1", "--quiet"],
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


def _script(tmp_path: Path, p: Path, how: str) -> subprocess.CompletedProcess[str]:
    """The documented call in a plain script, without an ``if __name__ == "__main__":`` guard,
    warnings as errors."""
    script = tmp_path / "plain.py"
    script.write_text(
        "from mobmem.experiment import load, sweep\n"
        f"print(sweep(load({str(p)!r}), workers=2, progress=False{how})['ran'])\n"
    )
    return subprocess.run(
        [sys.executable, "-W", "error", str(script)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )


def test_a_plain_script_sweeps_without_a_main_guard(tmp_path):
    """Worker processes start without the caller's script: `sweep(load(...), workers=2)` at a
    script's top level runs once, not again in every worker."""
    p = experiment(tmp_path, '[axes]\npolicy = ["lru", "clock"]\nmemory = ["5%", "25%"]\n')
    r = _script(tmp_path, p, "")
    assert r.returncode == 0 and r.stdout.split() == ["4"], r.stderr[-2000:]


def test_dask_local_cluster_runs_the_same_sweep(tmp_path):
    pytest.importorskip("dask.distributed")
    import socket

    p = experiment(tmp_path, '[axes]\npolicy = ["lru", "clock"]\nmemory = ["5%", "25%"]\n')
    out = json.loads(cli("sweep", str(p), "--dask", "local", "--threads", "2", "--json", "--quiet").stdout)
    assert out["ran"] == 4
    for r in records(p):
        direct = mobmem.simulate(SQLITE, policy=r["policy"], memory=r["memory"])
        assert r["faults"] == direct.faults
    # With Dask's usual dashboard port taken, from a plain script: still runs, warns of nothing.
    busy = socket.socket()
    try:
        busy.bind(("127.0.0.1", 8787))
        busy.listen()
    except OSError:
        pass  # taken already: the case itself
    try:
        p2 = experiment(tmp_path, '[axes]\npolicy = ["arc"]\nmemory = ["5%", "25%"]\n', name="d.toml")
        r = _script(tmp_path, p2, ", dask='local'")
        assert r.returncode == 0 and r.stdout.split() == ["2"], r.stderr[-2000:]
    finally:
        busy.close()


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


def _toml(v: object) -> str:
    """A TOML value of a run's settings (strings, numbers, booleans)."""
    return json.dumps(v)


def _direct_page(tmp: Path, trace: Path, config: dict[str, object]) -> dict[str, object]:
    """The run made directly: ``mobmem run --config`` with the stored settings as its [sim]."""
    lines = ["[trace]", f"path = {_toml(str(trace))}", "[sim]"]
    tables = {k: v for k, v in config.items() if isinstance(v, dict)}
    lines += [f"{k} = {_toml(v)}" for k, v in config.items() if k not in tables]
    for k, t in tables.items():
        lines += [f"[sim.{k}]", *(f"{a} = {_toml(b)}" for a, b in t.items())]
    run = tmp / "direct.toml"
    run.write_text("\n".join(lines) + "\n")
    return json.loads(cli("run", "--config", str(run), "--json").stdout)


def _same(stored: dict[str, object], direct: dict[str, object]) -> None:
    clock = {"wall_time_s", "accesses_per_s"}
    a = {k: v for k, v in stored.items() if k not in clock}
    b = {k: v for k, v in direct.items() if k not in clock}
    assert a == b


def test_every_stored_run_equals_the_same_run_made_directly_page_axes(tmp_path):
    # Every kind of axis at once: policy, memory, a dotted parameter over a [base] one
    # (the settings table every run once shared), and the trace; each stored run is then made
    # directly with `mobmem run` and must agree to the last meter, and with its own settings.
    synth = ROOT / "tests" / "data" / "synthetic_40k.txt.zst"
    p = tmp_path / "all.toml"
    p.write_text(
        f'[experiment]\ntraces = ["{SQLITE}", "{synth}"]\n[base]\nmemory = "10%"\nparams.aout_ratio = 0.5\n'
        '[axes]\npolicy = ["2q"]\n"params.ain_ratio" = [0.1, 0.3, 0.9]\n'
    )
    exp = load(p)
    assert sweep(exp, workers=2, progress=False)["stored"] == 6
    store = mobmem.experiment.Store(exp.store, readonly=True)
    rows = store.get([r.key for r in exp.runs])
    faults = set()
    for run in exp.runs:
        rec = rows[run.key]
        assert rec["config"]["params"] == {"aout_ratio": 0.5, "ain_ratio": run.axes["params.ain_ratio"]}
        direct = _direct_page(tmp_path, Path(run.source), rec["config"])
        assert rec["resolved"] == direct["config"]
        _same(rec["row"], mobmem.RunResult(direct).row())
        faults.add((run.name, rec["row"]["faults"]))
    assert len(faults) == 6  # three ain_ratio values on two traces: six distinct results
    p2 = experiment(tmp_path, '[axes]\npolicy = ["lru", "arc"]\nmemory = ["5%", "64"]\n', name="pm.toml")
    exp2 = load(p2)
    sweep(exp2, workers=1, progress=False)
    rows = mobmem.experiment.Store(exp2.store, readonly=True).get([r.key for r in exp2.runs])
    for run in exp2.runs:
        direct = _direct_page(tmp_path, SQLITE, rows[run.key]["config"])
        _same(rows[run.key]["row"], mobmem.RunResult(direct).row())


def test_every_stored_run_equals_the_same_run_made_directly_phone_axes(tmp_path):
    usage = ROOT / "tests" / "data" / "usage_window_12apps.csv"
    p = tmp_path / "ph.toml"
    p.write_text(
        f'[experiment]\nusage = "{usage}"\n[base]\nphone = "nexus5"\nreserved = "400MiB"\n'
        '[axes]\nswap = ["off", "zram-lz4"]\ndram = ["1GiB", "1.25GiB"]\nseed = [1, 2]\n'
    )
    exp = load(p)
    sweep(exp, workers=2, progress=False)
    rows = mobmem.experiment.Store(exp.store, readonly=True).get([r.key for r in exp.runs])
    from mobmem.phone import PhoneResult

    for run in exp.runs:
        rec = rows[run.key]
        cfg = dict(rec["config"])
        args = [str(usage), "--phone", cfg.pop("phone"), "--seed", str(cfg.pop("seed")), "--json"]
        for k, v in cfg.items():
            args += ["--set", f"{k}={v}"]
        direct = json.loads(cli("phone", *args).stdout)
        assert rec["resolved"] == direct["config"]
        _same(rec["row"], PhoneResult(direct).row())


def test_a_run_is_its_settings_its_trace_as_named_and_the_traces_content(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("1 R\n2 W\n3 R\n1 R\n")
    b.write_bytes(a.read_bytes())
    p = tmp_path / "two.toml"
    p.write_text('[experiment]\ntraces = ["a.txt", "b.txt"]\n[axes]\nmemory = [1, 2]\n')
    exp = load(p)
    assert len({r.key for r in exp.runs}) == 4  # same bytes, two files: two runs each
    out = sweep(exp, workers=1, progress=False)
    assert out["ran"] == out["stored"] == 4
    assert [r["source"] for r in records(p)] == ["a.txt", "a.txt", "b.txt", "b.txt"]
    with sqlite3.connect(exp.store) as db:
        assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == 4
    # The same file twice, or a value twice on an axis, is refused before anything runs.
    p.write_text('[experiment]\ntraces = ["a.txt", "./a.txt"]\n')
    with pytest.raises(ConfigError, match=r"'a\.txt' and '\./a\.txt' are the same file"):
        load(p)
    p.write_text('[experiment]\ntrace = "a.txt"\n[axes]\nmemory = [1, 2, 1.0]\n')
    with pytest.raises(ConfigError, match=r"axes\.memory: 1\.0 is given twice"):
        load(p)
    p.write_text('[experiment]\ntrace = "a.txt"\n[axes]\npolicy = ["lru", "lru"]\n')
    e = cli("sweep", str(p), ok=False)
    assert e.returncode == 3 and "'lru' is given twice" in e.stderr


def test_a_trace_changed_after_planning_is_never_stored_under_its_old_content(tmp_path):
    t = tmp_path / "t.txt"
    t.write_text("1 R\n2 W\n3 R\n1 R\n")
    p = tmp_path / "ch.toml"
    p.write_text('[experiment]\ntrace = "t.txt"\n[axes]\nmemory = [1, 2]\n')
    exp = load(p)  # planned on the first content
    t.write_text("1 R\n2 W\n3 R\n4 W\n5 R\n1 R\n")  # replaced before the workers read it
    with pytest.raises(MobmemIOError, match=r"t\.txt changed while the sweep ran"):
        sweep(exp, workers=1, progress=False)
    assert sweep(load(p), workers=1, progress=False)["ran"] == 2  # nothing was stored under the old key
    for r in records(p):
        direct = mobmem.simulate(t, memory=r["memory"])
        assert r["faults"] == direct.faults
    # The same for usage files, whose runs report the hash of the bytes the core read.
    usage = tmp_path / "u.csv"
    usage.write_text("time_s,app\n0,chrome\n60,youtube\n")
    pu = tmp_path / "u.toml"
    pu.write_text('[experiment]\nusage = "u.csv"\n[axes]\nswap = ["off"]\n')
    exp = load(pu)
    usage.write_text("time_s,app\n0,chrome\n60,gmail\n")
    with pytest.raises(MobmemIOError, match=r"u\.csv changed while the sweep ran"):
        sweep(exp, workers=1, progress=False)


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                out.append(int(d))
    return out


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc to find the workers")
def test_killing_a_sweep_kills_its_workers(tmp_path):
    trace = tmp_path / "big.bin"
    mobmem.Trace.generate(accesses=2_000_000, seed=3).save(trace)
    sizes = ", ".join(f'"{m}%"' for m in range(2, 42, 2))
    p = experiment(tmp_path, f'[axes]\npolicy = ["lru", "opt"]\nmemory = [{sizes}]\n', trace=trace)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mobmem.cli", "sweep", str(p), "--workers", "2", "--quiet"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and len(workers) < 2:
        workers = _children(proc.pid)
        time.sleep(0.02)
    kill_when_stored(proc, load(p).store, 1)
    assert proc.returncode == -signal.SIGKILL and len(workers) >= 2, (
        "the sweep ended before it could be killed"
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.05)
    left = [w for w in workers if _alive(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    assert not left, f"workers {left} outlived their sweep"


def test_another_build_of_mobmem_never_reuses_a_stored_run(tmp_path, monkeypatch):
    from mobmem.experiment import spec

    p = experiment(tmp_path, '[axes]\npolicy = ["lru"]\nmemory = ["5%", "10%"]\n')
    assert sweep(load(p), workers=1, progress=False)["ran"] == 2
    assert spec.build().startswith(mobmem.__version__ + "+")
    # The same release number, other code (an engine fix): the runs are made again.
    monkeypatch.setattr(spec, "build", lambda: mobmem.__version__ + "+another")
    again = sweep(load(p), workers=1, progress=False)
    assert again["stored_before"] == 0 and again["ran"] == 2


def test_settings_set_twice_and_runs_that_are_one_run_are_refused(tmp_path):
    p = experiment(
        tmp_path, '[axes]\nparams = [{ain_ratio = 0.1}, {ain_ratio = 0.3}]\n"params.ain_ratio" = [0.5]\n'
    )
    with pytest.raises(ConfigError, match=r"axes\.params\.ain_ratio: axes\.params sets it too"):
        load(p)
    # Different values that make the same settings (the base's value given again, or not): one run.
    p = experiment(
        tmp_path,
        '[base]\npolicy = "2q"\nparams.aout_ratio = 0.5\n[axes]\nmemory = ["5%"]\nparams = [{aout_ratio = 0.5}, {}]\n',
        name="twins.toml",
    )
    with pytest.raises(ConfigError, match=r"runs \(.*\) and \(.*\) are the same run"):
        sweep(load(p), workers=2, progress=False)
    e = cli("sweep", str(p), "--quiet", ok=False)
    assert e.returncode == 3 and "are the same run" in e.stderr, e.stderr
    # A phone run's usage is the experiment's, not a setting.
    usage = ROOT / "tests" / "data" / "usage_window_12apps.csv"
    ph = tmp_path / "ph.toml"
    ph.write_text(f'[experiment]\nusage = "{usage}"\n[axes]\nusage = ["x"]\n')
    with pytest.raises(ConfigError, match="usage: not a phone setting"):
        load(ph)


def test_a_notebook_sweeps_a_changed_trace_again(tmp_path):
    # One worker runs in the calling process and keeps the traces it read: a file changed since
    # is read again, not refused for ever.
    t = tmp_path / "t.txt"
    t.write_text("1 R\n2 W\n3 R\n1 R\n")
    p = tmp_path / "n.toml"
    p.write_text('[experiment]\ntrace = "t.txt"\n[axes]\nmemory = [1, 2]\n')
    assert sweep(load(p), workers=1, progress=False)["ran"] == 2
    t.write_text("1 R\n2 W\n3 R\n4 W\n5 R\n1 R\n")
    assert sweep(load(p), workers=1, progress=False)["ran"] == 2
    assert [r["faults"] for r in records(p)] == [mobmem.simulate(t, memory=m).faults for m in (1, 2)]


def test_a_worker_of_another_build_is_not_stored(tmp_path, monkeypatch):
    from mobmem.experiment import worker

    real = worker.run_task

    def other_build(task):
        return {**real(task), "build": "0.0.0+elsewhere"}

    monkeypatch.setattr(worker, "run_task", other_build)
    p = experiment(tmp_path, '[axes]\npolicy = ["lru"]\nmemory = ["5%"]\n')
    with pytest.raises(MobmemIOError, match=r"another build of mobmem \(0\.0\.0\+elsewhere"):
        sweep(load(p), workers=1, progress=False)
    assert records(p) == []


def test_progress_goes_to_anything_with_write(tmp_path):
    class Sink:
        def __init__(self) -> None:
            self.text = ""

        def write(self, s: str) -> None:
            self.text += s

    sink = Sink()
    p = experiment(tmp_path, '[axes]\npolicy = ["lru"]\nmemory = ["5%"]\n')
    sweep(load(p), workers=1, progress=sink)  # type: ignore[arg-type]
    assert "1/1 runs" in sink.text
