"""``mobmem run --stream`` and ``mobmem.simulate_stream``: replayed while read, counted the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import mobmem

DATA = Path(__file__).resolve().parent / "data"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mobmem.cli", *args], capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("policy", ["clock", "arc", "mglru", "spo-clock"])
def test_a_streamed_run_equals_a_run_from_memory(policy):
    path = DATA / "lackey_true.txt.zst"
    whole = mobmem.simulate(path, policy=policy, memory="15%", swap_size="8")
    streamed = mobmem.simulate_stream(path, policy=policy, memory="15%", swap_size="8")
    assert streamed.meters == whole.meters and streamed.trace == whole.trace


def test_read_around_streams_as_it_runs_from_memory():
    # Read-around (`page_cluster`) runs its own loop over each chunk: the counts equal a run from
    # memory, and it reads ahead (a reclaim batch leaves the free frames it reads into).
    path = DATA / "sqlite_60k.txt.zst"
    knobs = {
        "policy": "linux-2q",
        "memory": "5%",
        "swap": "emmc-inand",
        "reclaim_batch": 32,
        "page_cluster": 3,
    }
    whole = mobmem.simulate(path, **knobs)
    streamed = mobmem.simulate_stream(path, **knobs)
    assert streamed.meters == whole.meters and whole.meters.swap_readahead > 0


def test_tiers_stream_as_they_run_from_memory():
    # The driver feeds tiers as it feeds flat memory: chunk by chunk, with the same counts.
    path = DATA / "lackey_true.txt.zst"
    for policy in ["fg-aware", "lru"]:
        knobs = {"policy": policy, "memory": "30%", "tiers": {"pcm_share": 0.8}}
        whole = mobmem.simulate(path, **knobs)
        streamed = mobmem.simulate_stream(path, **knobs)
        assert streamed.meters == whole.meters and whole.meters.tiers.pcm.hits > 0, policy


def test_a_side_process_table_streams_as_it_runs_from_memory(tmp_path):
    # A table keyed by access streams; one keyed by time_ns needs times a streamed trace drops.
    path = DATA / "sqlite_60k.txt.zst"
    procs = tmp_path / "procs.csv"
    procs.write_text("pid,adj,access\n0,0,0\n0,900,20000\n0,0,40000\n")
    knobs = {"policy": "clock", "memory": "10%", "swap_admission": "adj-limit"}
    whole = mobmem.simulate(mobmem.Trace.open(path, procs=procs), **knobs)
    streamed = mobmem.simulate_stream(path, procs=procs, **knobs)
    assert streamed.meters == whole.meters and whole.meters.swap_outs > 0
    timed = tmp_path / "timed.csv"
    timed.write_text("pid,adj,time_ns\n0,0,0\n")
    with pytest.raises(mobmem.MobmemError, match="key the table by `access`"):
        mobmem.simulate_stream(path, procs=timed, **knobs)


def test_run_stream_command():
    args = ["run", "-t", str(DATA / "sqlite_60k.txt.zst"), "-p", "linux-2q", "-m", "20%", "--json"]
    a = json.loads(cli(*args).stdout)
    b = json.loads(cli(*args, "--stream").stdout)
    assert a["meters"] == b["meters"] and a["meters"]["faults"] > 0
    for extra, words in [
        (["-p", "opt"], "opt looks ahead"),
        (["--swap-admission", "a2s"], "swap_admission"),
    ]:
        bad = cli("run", "-t", str(DATA / "sqlite_60k.txt.zst"), "--stream", *extra)
        assert bad.returncode in (2, 3) and words in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
    # A side process table streams too; a file that is not one is a format error naming it.
    bad = cli(
        "run", "-t", str(DATA / "sqlite_60k.txt.zst"), "--stream", "--procs", str(DATA / "sqlite_60k.txt.zst")
    )
    assert bad.returncode == 4 and "sqlite_60k.txt.zst:1: unknown column" in bad.stderr, bad.stderr
    missing = cli("run", "-t", str(DATA / "nope.txt"), "--stream")
    assert missing.returncode != 0 and "nope.txt" in missing.stderr and "Traceback" not in missing.stderr


def test_a_pipe_cannot_be_streamed_and_says_so_at_once(tmp_path):
    # A streamed replay reads its input twice; a FIFO or a pipe on standard input reads once.
    text = "1 R\n2 W\n3 R\n"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    p = cli("run", "-t", str(fifo), "--memory", "2", "--stream")  # nothing writes to it: no wait
    assert p.returncode == 4 and str(fifo) in p.stderr and "reads its input twice" in p.stderr, p.stderr
    p = subprocess.run(
        [sys.executable, "-m", "mobmem.cli", "run", "-t", "/dev/stdin", "--memory", "2", "--stream"],
        input=text,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 4 and "not a regular file" in p.stderr, p.stderr
    with pytest.raises(mobmem.TraceFormatError, match="reads its input twice"):
        mobmem.simulate_stream(fifo, memory=2)
    # Read once (no --stream), standard input is a trace like any other; a file redirected to it
    # streams, being a file.
    p = subprocess.run(
        [sys.executable, "-m", "mobmem.cli", "run", "-t", "/dev/stdin", "--memory", "2", "--json"],
        input=text,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 0 and json.loads(p.stdout)["meters"]["faults"] == 3, p.stderr
    f = tmp_path / "t.txt"
    f.write_text(text)
    with f.open() as stdin:
        p = subprocess.run(
            [
                sys.executable,
                "-m",
                "mobmem.cli",
                "run",
                "-t",
                "/dev/stdin",
                "--memory",
                "2",
                "--stream",
                "--json",
            ],
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert p.returncode == 0 and json.loads(p.stdout)["meters"]["faults"] == 3, p.stderr
