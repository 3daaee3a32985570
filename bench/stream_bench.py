"""Streamed replay: peak memory (RSS) and wall time of whole `mobmem run` processes, streamed and
from memory, on generated traces of 10 M and 200 M accesses over the same 20,000 pages (CLOCK,
10% of the footprint), in mobmem's binary format. Not a test: it prints numbers for BENCHMARKS.md.

    python bench/stream_bench.py [--sizes 10000000,200000000]

Peak RSS is GNU time's "maximum resident set size" of each process (Debian's `time` package).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import mobmem

OUT = Path(__file__).resolve().parent / "out"


def measure(argv: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one whole process."""
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", *argv], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"{argv} failed: {p.stderr[-1000:]}")
    return wall, int(p.stderr.strip().splitlines()[-1])


def main() -> None:
    from bench import machine  # type: ignore[import-not-found]

    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000000,200000000")
    ap.add_argument("--footprint", type=int, default=20_000)
    a = ap.parse_args()
    OUT.mkdir(exist_ok=True)
    mobmem_bin = str(Path(sys.executable).parent / "mobmem")
    print(machine())
    print("| accesses | run | wall (s) | peak RSS (MiB) | faults |")
    print("|---:|---|---:|---:|---:|")
    peaks: dict[tuple[int, str], int] = {}
    for n in (int(x) for x in a.sizes.split(",")):
        path = OUT / f"stream_{n}_{a.footprint}.mobt"
        if not path.exists():
            mobmem.Trace.generate(accesses=n, footprint_pages=a.footprint, seed=3).save(path, "binary")
        for how, extra in (("streamed", ["--stream"]), ("from memory", [])):
            argv = [mobmem_bin, "run", "-t", str(path), "-p", "clock", "-m", "10%", "--json", *extra]
            wall, rss = measure(argv)
            faults = mobmem.RunResult.from_json(
                subprocess.run(argv, capture_output=True, text=True, check=True).stdout
            ).faults
            peaks[(n, how)] = rss
            print(f"| {n:,} | {how} | {wall:.2f} | {rss / 1024:.0f} | {faults:,} |")
    sizes = sorted({n for n, _ in peaks})
    for how in ("streamed", "from memory"):
        lo, hi = peaks[(sizes[0], how)], peaks[(sizes[-1], how)]
        print(f"{how}: peak RSS at {sizes[-1]:,} accesses is {hi / lo:.2f}× that at {sizes[0]:,}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
