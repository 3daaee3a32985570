"""The system level against the number of distinct apps a usage trace names: whole `mobmem phone`
runs (wall time and peak RSS, GNU time) and the core's own wall time, on usage CSVs of N distinct
apps each launched twice (round robin, a minute apart, every app with the catalog's defaults), and
a control of a few apps launched many times. A launch's cost must not grow with N. Not a test: it
prints numbers for BENCHMARKS.md.

    python bench/phone_apps_bench.py [--apps 1000,10000,100000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"


def usage(n_apps: int, launches: int) -> Path:
    OUT.mkdir(exist_ok=True)
    p = OUT / f"usage_{n_apps}apps_{launches}launches.csv"
    if not p.exists():
        rows = "".join(f"{i * 60},app{i % n_apps}\n" for i in range(launches))
        p.write_text("time_s,app\n" + rows)
    return p


def measure(csv: Path) -> tuple[float, int, float, int]:
    """Whole-process wall seconds, peak RSS (KiB), the core's wall seconds, launches."""
    argv = ["/usr/bin/time", "-f", "%M", sys.executable, "-m", "mobmem.cli", "phone", str(csv), "--json"]
    t0 = time.perf_counter()
    p = subprocess.run(argv, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"{csv} failed: {p.stderr[-1000:]}")
    r = json.loads(p.stdout)
    return wall, int(p.stderr.strip().splitlines()[-1]), r["wall_time_s"], r["meters"]["launches"]


def main() -> None:
    from bench import machine  # type: ignore[import-not-found]

    ap = argparse.ArgumentParser()
    ap.add_argument("--apps", default="1000,10000,100000")
    a = ap.parse_args()
    print(f"machine: {machine()}")
    cases = [(n, 2 * n) for n in map(int, a.apps.split(","))] + [(100, 5000)]
    print("| distinct apps | launches | process s | peak RSS MiB | core s | core µs per launch |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n, launches in cases:
        wall, rss, core, got = measure(usage(n, launches))
        print(f"| {n:,} | {got:,} | {wall:.2f} | {rss / 1024:.0f} | {core:.2f} | {1e6 * core / got:.0f} |")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
