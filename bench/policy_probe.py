"""Flat replay speed (M accesses/s, best of 5) of some policies on bench.py's trace (18,000,000
accesses over 70,000 pages, seed 42), as JSON: run it in two builds' interpreters, alternately, to
compare them side by side (BENCHMARKS.md). Not a test.

    python bench/policy_probe.py [--policies spo-clock,clock] [--memory 10%,95%]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

import mobmem


def best(n: int, f: Callable[[], object]) -> float:
    b = float("inf")
    for _ in range(n):
        t0 = time.perf_counter()
        f()
        b = min(b, time.perf_counter() - t0)
    return b


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--policies", default="spo-clock,clock,lru")
    ap.add_argument("--memory", default="10%,95%")
    a = ap.parse_args()
    t = mobmem.Trace.generate(None, accesses=18_000_000, footprint_pages=70_000, seed=42)
    out = {}
    for pol in a.policies.split(","):
        for mem in a.memory.split(","):
            s = best(5, lambda pol=pol, mem=mem: mobmem.simulate(t, policy=pol, memory=mem))
            out[f"{pol} {mem}"] = round(len(t) / s / 1e6, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
