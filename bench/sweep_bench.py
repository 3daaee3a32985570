"""A sweep of 5 traces × 8 policies × 5 memory sizes (200 runs) on one local worker, two local
workers, and a local Dask cluster of two workers, side by side in one run, as ratios to one worker.
Each executor starts from an empty store. Not a test: it prints numbers for BENCHMARKS.md.

    python bench/sweep_bench.py
"""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path

from mobmem.experiment import load, sweep

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(__file__).resolve().parent / "out"
TRACES = [
    *sorted(str(p) for p in (ROOT / "tests" / "data" / "captures").glob("*.txt.zst")),
    str(ROOT / "tests" / "data" / "sqlite_60k.txt.zst"),
]
POLICIES = ["lru", "clock", "fifo", "arc", "2q", "linux-2q", "mglru", "spo-clock"]
MEMORY = ["5%", "10%", "25%", "50%", "75%"]


def main() -> None:
    OUT.mkdir(exist_ok=True)
    exp_file = OUT / "sweep-bench.toml"
    exp_file.write_text(
        f'[experiment]\nname = "sweep-bench"\ntraces = {TRACES!r}\n'.replace("'", '"')
        + f"[axes]\npolicy = {POLICIES!r}\nmemory = {MEMORY!r}\n".replace("'", '"')
    )
    rows = []
    for label, kw in (
        ("local, 1 worker", {"workers": 1}),
        ("local, 2 workers", {"workers": 2}),
        ("Dask LocalCluster, 2 workers", {"workers": 2, "dask": "local"}),
    ):
        exp = load(exp_file)
        for suffix in ("", "-wal", "-shm"):
            Path(str(exp.store) + suffix).unlink(missing_ok=True)
        t0 = time.perf_counter()
        out = sweep(exp, progress=False, **kw)
        wall = time.perf_counter() - t0
        assert out["ran"] == len(exp.runs) == 200, out
        rows.append((label, wall))
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores; 200 runs")
    print("| executor | wall s | runs/s | vs 1 worker |\n|---|---:|---:|---:|")
    base = rows[0][1]
    for label, wall in rows:
        print(f"| {label} | {wall:.1f} | {200 / wall:.1f} | {base / wall:.2f}× |")


if __name__ == "__main__":
    main()
