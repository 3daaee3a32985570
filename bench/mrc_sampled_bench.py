"""Sampled miss-ratio curves against exact sweeps, side by side in one run: for each policy, the
miniature simulation (SHARDS for LRU) at a sampling rate against `run_configs` at the same 20
sizes on one thread, with the mean absolute miss-ratio error, on the 18 M-access, 20,000-page
generated anchor trace, a 100,000-page generated trace and the four real captures. Each estimate is read three ways (realized,
the default; adjusted, SHARDS-adj; drawn) over several seeds (the sample's pages). Not a test: it
prints numbers for BENCHMARKS.md and docs/MRC.md. bench/mrc_peer_bench.py puts LRU and two
miniature simulations beside libCacheSim's mrcProfiler.

    python bench/mrc_sampled_bench.py [--rate 0.01] [--seeds 5] [--policies lru,clock,...] [--large]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import mobmem
from mobmem import mrc
from mobmem.errors import ConfigError

ROOT = Path(__file__).resolve().parent.parent
POLICIES = "lru,clock,arc,2q,fifo,linux-2q,mglru,spo-clock,opt"


def traces(large: bool) -> dict[str, mobmem.Trace]:
    out = {
        "generated 18M/20,000 pages": mobmem.Trace.generate(
            accesses=18_000_000, footprint_pages=20_000, seed=1
        ),
        "generated 6M/100,000 pages": mobmem.Trace.generate(
            accesses=6_000_000, footprint_pages=100_000, seed=1
        ),
    }
    if large:
        out["generated 60M/1,000,000 pages"] = mobmem.Trace.generate(
            accesses=60_000_000, footprint_pages=1_000_000, seed=1
        )
    for f in sorted((ROOT / "tests" / "data" / "captures").glob("*.txt.zst")):
        out[f.name.removesuffix(".txt.zst")] = mobmem.Trace.open(f)
    return out


def main() -> None:
    from bench import machine  # type: ignore[import-not-found]

    ap = argparse.ArgumentParser()
    ap.add_argument("--rate", type=float, default=0.01)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--policies", default=POLICIES)
    ap.add_argument("--large", action="store_true", help="also a 60 M-access, 1,000,000-page trace")
    a = ap.parse_args()
    print(machine())
    print(f"rate {a.rate}, 20 evenly spaced sizes, seeds 0–{a.seeds - 1}; error = mean absolute miss-ratio")
    print("error over the sizes; per trace and policy: the mean over seeds (worst seed), each reading\n")
    print(
        "| trace | policy | method, sampled pages | exact miss ratio, range | error, realized | error, adjusted |"
        " error, drawn | sample (s) | sweep, 1 thread (s) | speed-up |"
    )
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|")
    for name, t in traces(a.large).items():
        sizes = mrc.grid(t.num_pages, 20)
        for item in a.policies.split(","):
            policy, _, how = item.partition(":")  # lru:shards runs SHARDS (mini is the default)
            start = time.perf_counter()
            runs = mobmem.run_configs(t, [{"policy": policy, "memory": s} for s in sizes], threads=1)
            sweep_s = time.perf_counter() - start
            exact = [r.faults / len(t) for r in runs]
            errors: dict[str, list[float]] = {r: [] for r in mrc.readings()}
            walls, method, empty, pages = [], "", 0, []
            for seed in range(a.seeds):
                for reading, out in errors.items():
                    try:
                        e = mrc.sampled(
                            t,
                            policy,
                            rate=a.rate,
                            method=how or None,
                            sizes=sizes,
                            seed=seed,
                            reading=reading,
                            threads=1,
                        )
                    except ConfigError:  # the sample holds no page
                        empty += reading == "realized"
                        continue
                    pages.append(e.sampled_pages)
                    # SHARDS gives every size; compare at the sweep's.
                    at = dict(zip(e.sizes, e.miss_ratio, strict=True))
                    out.append(sum(abs(at[s] - x) for s, x in zip(sizes, exact, strict=True)) / len(sizes))
                    walls.append(e.wall_s)
                    method = e.method
            if not walls:
                print(f"| {name} | {policy} | — | — | every sample empty | | | | {sweep_s:.2f} | |")
                continue
            wall = statistics.median(walls)
            print(
                f"| {name} | {policy} | {method}, {min(pages)}–{max(pages)} pages"
                + (f", {empty} empty" if empty else "")
                + f" | {min(exact):.4f}–{max(exact):.4f} "
                + "".join(f"| {statistics.mean(v):.4f} ({max(v):.4f}) " for v in errors.values())
                + f"| {wall:.3f} | {sweep_s:.2f} | {sweep_s / wall:.0f}× |"
            )


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
