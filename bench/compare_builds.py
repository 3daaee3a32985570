"""Two builds of mobmem side by side, in one run, as ratios: trace loading (binary with its checksum,
text), replay on the hit path and the miss path (a generated trace, and a real capture full of
repeated accesses), and whole phone runs.

    python bench/compare_builds.py --a OLD_VENV/bin/python --b .venv/bin/python [--rounds 3]

Each build runs the same measurements in its own interpreter; the two alternate ``--rounds`` times
and each figure is the best seen. A build loads a binary trace it wrote itself (so each pays for its
own format's checks). Not a test: it prints numbers for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(__file__).resolve().parent / "out"
#: `bench/bench.py`'s trace (GenParams defaults, seed 42), written by it when missing.
DEFAULT_TRACE = str(OUT / "gen_18M_70000p_s42.txt")

#: Run inside each build's interpreter: prints one JSON object of seconds per measurement.
PROBE = r"""
import json, sys, time
import mobmem
from mobmem import phone as ph
txt, mobt, usage = sys.argv[1], sys.argv[2], sys.argv[3]
def best(n, f):
    b = float("inf")
    for _ in range(n):
        t0 = time.perf_counter(); f(); b = min(b, time.perf_counter() - t0)
    return b
import os
if not os.path.exists(mobt):
    mobmem.Trace.open(txt).save(mobt, "binary")
out = {"load binary": best(15, lambda: mobmem.Trace.open(mobt)), "load text": best(2, lambda: mobmem.Trace.open(txt))}
t = mobmem.Trace.open(mobt)
for pol, mem in (("clock", "95%"), ("clock", "10%"), ("linux-2q", "10%")):
    out[f"replay {pol} {mem}"] = best(9, lambda: mobmem.simulate(t, policy=pol, memory=mem))
# A real capture: 35.5% of its accesses repeat the one just before, page and op (merged where a
# policy says a repeated hit changes nothing).
cap = mobmem.Trace.open("tests/data/captures/sqlite3_btree.txt.zst")
for pol in ("lru", "clock", "arc", "opt"):
    out[f"replay {pol} 10%, sqlite3 capture"] = best(3, lambda: mobmem.simulate(cap, policy=pol, memory="10%"))
# Mostly hits: gzip's instruction fetches repeat their page.
gz = mobmem.Trace.open("tests/data/captures/gzip6_150k.txt.zst")
for pol in ("lru", "clock", "mglru"):
    out[f"replay {pol} 50%, gzip capture"] = best(5, lambda: mobmem.simulate(gz, policy=pol, memory="50%"))
out["phone: real window, nexus5"] = best(3, lambda: mobmem.simulate_phone(ph.usage_file(usage), "nexus5"))
out["phone: A2S Large, 1 GiB"] = best(
    3, lambda: mobmem.simulate_phone(ph.synthetic(36, 256, 6.10, seed=1), "nexus5", dram="1GiB", reserved="400MiB")
)
print(json.dumps(out))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="python of build A (the baseline)")
    ap.add_argument("--b", required=True, help="python of build B")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--trace", default=DEFAULT_TRACE, help="text trace to load and replay")
    ap.add_argument("--usage", default=str(ROOT / "tests" / "data" / "usage_window_12apps.csv"))
    args = ap.parse_args()
    OUT.mkdir(exist_ok=True)
    if args.trace == DEFAULT_TRACE and not Path(args.trace).exists():
        from bench import make_trace  # this directory's bench.py, which writes the default trace

        make_trace(70_000, 18_000_000, seed=42)
    best: dict[str, dict[str, float]] = {"a": {}, "b": {}}
    for _ in range(args.rounds):
        for side in ("a", "b"):
            py = getattr(args, side)
            mobt = str(OUT / f"compare_{side}.mobt")
            p = subprocess.run(
                [py, "-c", PROBE, args.trace, mobt, args.usage], capture_output=True, text=True, cwd=ROOT
            )
            if p.returncode != 0:
                raise SystemExit(f"build {side} failed: {p.stderr[-2000:]}")
            for k, v in json.loads(p.stdout).items():
                best[side][k] = min(best[side].get(k, float("inf")), v)
    print("| measurement | A (s) | B (s) | B / A |\n|---|---:|---:|---:|")
    for k, a in best["a"].items():
        b = best["b"][k]
        print(f"| {k} | {a:.3f} | {b:.3f} | {b / a:.3f} |")


if __name__ == "__main__":
    main()
