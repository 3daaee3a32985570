"""One-pass miss-ratio curves against a sweep of sizes, side by side in one run: the exact LRU and
OPT curves (every size) against `run_configs` at 20 sizes (one thread, and all cores), on the
18 M-access, 20,000-page generated anchor trace and on the sqlite3 capture; and, with --distutil,
the whole `mobmem mrc` process against libCacheSim's `distUtil … stack_dist` on the anchor trace,
alternated, with the counts compared. Not a test: it prints numbers for BENCHMARKS.md.

    python bench/mrc_bench.py [--distutil PATH]

libCacheSim is not part of this project: build it yourself and pass the path of its `distUtil`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import mobmem
from mobmem import mrc

ROOT = Path(__file__).resolve().parent.parent
SIZES = 20


def distutil_faults(cnt: Path, accesses: int) -> list[int]:
    """Faults at every size from distUtil's `cntTxt` output (`dist:count, …`; 0-based distances,
    a huge or negative distance for a first access)."""
    hist: dict[int, int] = {}
    for item in cnt.read_text().replace("\n", " ").split(","):
        if item.strip():
            d, c = item.split(":")
            hist[int(d)] = hist.get(int(d), 0) + int(c)
    assert sum(hist.values()) == accesses, "distUtil counted every access"
    reuse = {d + 1: c for d, c in hist.items() if 0 <= d < 1 << 40}
    cold = accesses - sum(reuse.values())
    pages = cold
    faults, beyond = [0] * pages, 0
    for c in range(pages, 0, -1):
        beyond += reuse.get(c + 1, 0)
        faults[c - 1] = cold + beyond
    return faults


def against_distutil(distutil: str, repeat: int) -> None:
    from bench import OUT, lcs_files  # type: ignore[import-not-found]

    t = mobmem.Trace.generate(accesses=18_000_000, footprint_pages=20_000, seed=1)
    OUT.mkdir(exist_ok=True)
    mobt = OUT / "anchor20k.mobt"
    if not mobt.exists():
        t.save(mobt, "binary")
    _, binp = lcs_files(t, OUT / "anchor20k")
    ours_cmd = [str(Path(sys.executable).parent / "mobmem"), "mrc", "-t", str(mobt), "--json"]
    theirs_cmd = [distutil, str(binp), "oracleGeneralBin", "stack_dist", "cntTxt", str(OUT / "distutil")]
    # The curve is cut into one chunk per core; taskset shows it on one core (Rust's
    # available_parallelism reads the affinity mask).
    one_core = ["taskset", "-c", "0", *ours_cmd]
    times: dict[str, list[float]] = {"mobmem": [], "mobmem, one core": [], "distUtil": []}
    out = ""
    for _ in range(repeat):  # alternated, so all see the same machine
        for name, cmd in (("mobmem", ours_cmd), ("mobmem, one core", one_core), ("distUtil", theirs_cmd)):
            t0 = time.perf_counter()
            p = subprocess.run(cmd, capture_output=True, text=True, check=True)
            times[name].append(time.perf_counter() - t0)
            if name == "mobmem":
                out = p.stdout
    ours = json.loads(out)["faults"]
    theirs = distutil_faults(OUT / "distutil.STACK_DIST.cnt", len(t))
    # distUtil keeps each object's last access time in a GHashTable as a pointer, so the time 0
    # of the first request reads as absent (dist.c, get_stack_dist_add_req): the re-access of the
    # first request's page counts as a first access there. Expected: one more fault from its
    # distance d0 on, and one more "page".
    first = t.head(1)[0][0]
    between: set[int] = set()
    for p, _ in t.head(1_000_000)[1:]:
        if p == first:
            break
        between.add(p)
    d0 = len(between) + 1
    expected = [f + (c >= d0) for c, f in enumerate(ours, 1)]
    same = theirs[: len(ours)] == expected and len(theirs) == len(ours) + 1
    ours_s, theirs_s = statistics.median(times["mobmem"]), statistics.median(times["distUtil"])
    print(
        f"\nexact LRU curve, whole process, {len(t):,} accesses over {t.num_pages:,} pages, median of {repeat}:"
    )
    print("| program | input | wall (s) |")
    print("|---|---|---:|")
    one_s = statistics.median(times["mobmem, one core"])
    print(f"| `mobmem mrc --json` | mobmem binary | {ours_s:.2f} |")
    print(f"| `taskset -c 0 mobmem mrc --json` (one core) | mobmem binary | {one_s:.2f} |")
    print(f"| libCacheSim `distUtil … stack_dist cntTxt` | oracleGeneralBin | {theirs_s:.2f} |")
    print(
        f"speed-up {theirs_s / ours_s:.1f}× ({theirs_s / one_s:.1f}× on one core); faults equal at every size but for distUtil's first-request"
        f" access (its distance {d0} counted as a first access there): {same}"
    )
    if not same:
        raise SystemExit("the curves differ")


def main() -> None:
    from policy_probe import best  # type: ignore[import-not-found]

    from bench import machine  # type: ignore[import-not-found]

    ap = argparse.ArgumentParser()
    ap.add_argument("--distutil", help="path of libCacheSim's distUtil, for the side-by-side")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    if a.distutil:
        print(machine())
        against_distutil(a.distutil, a.repeat)
        return

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
