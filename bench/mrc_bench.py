"""One-pass miss-ratio curves against a sweep of sizes, side by side in one run: the exact LRU and
OPT curves (every size) against `run_configs` at 20 sizes (one thread, and all cores), on the
18 M-access, 20,000-page generated anchor trace and on the sqlite3 capture. Not a test: it prints
numbers for BENCHMARKS.md.

    python bench/mrc_bench.py
"""

from __future__ import annotations

from pathlib import Path

import mobmem
from mobmem import mrc

ROOT = Path(__file__).resolve().parent.parent
SIZES = 20


def main() -> None:
    from policy_probe import best  # type: ignore[import-not-found]

    from bench import machine  # type: ignore[import-not-found]

    traces = {
        "generated 18M accesses, 20,000 pages": mobmem.Trace.generate(
            accesses=18_000_000, footprint_pages=20_000, seed=1
        ),
        "sqlite3_btree capture (54M, 655 pages)": mobmem.Trace.open(
            ROOT / "tests" / "data" / "captures" / "sqlite3_btree.txt.zst"
        ),
    }
    print(machine())
    print(
        "| trace | policy | exact curve, all sizes (s) | 20 runs, 1 thread (s) | 20 runs, all cores (s) | curve vs 1 thread |"
    )
    print("|---|---|---:|---:|---:|---:|")
    for name, t in traces.items():
        pages = t.num_pages
        sizes = sorted({max(1, round(pages * (i + 1) / SIZES)) for i in range(SIZES)})
        for policy in ("lru", "opt"):
            c = mrc.curve(t, policy)
            cfgs = [{"policy": policy, "memory": s} for s in sizes]
            runs = mobmem.run_configs(t, cfgs, threads=1)
            assert [r.faults for r in runs] == [c.at(s) for s in sizes], "the curve must equal the runs"
            t_curve = best(3, lambda t=t, p=policy: mrc.curve(t, p))
            t_one = best(1, lambda t=t, c=cfgs: mobmem.run_configs(t, c, threads=1))
            t_all = best(1, lambda t=t, c=cfgs: mobmem.run_configs(t, c, threads=0))
            print(
                f"| {name} | {policy} | {t_curve:.2f} | {t_one:.2f} | {t_all:.2f} | {t_one / t_curve:.1f}× |"
            )


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
