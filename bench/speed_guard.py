"""The speed guard (CI runs it after the tests): each policy's replay time over a bare reference
loop's (`mobmem._core.reference_loop`: one load and one store of per-page state per access), on
the same generated trace in the same process, best of several runs alternated with the
reference's. The ratio cancels most of a machine's speed and load; it fails when a policy's ratio
is more than the margin above the one recorded in bench/speed_guard.toml. BENCHMARKS.md says how
the margin was chosen.

    python bench/speed_guard.py                 # check against the recorded ratios
    python bench/speed_guard.py --record        # measure and write them (after a deliberate change)
    python bench/speed_guard.py --repeat 10     # the spread of each ratio over 10 measurements
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tomllib
from pathlib import Path

import mobmem
from mobmem import _core

FILE = Path(__file__).resolve().parent / "speed_guard.toml"


def measure(t: mobmem.Trace, policies: list[str], memory: int, runs: int) -> dict[str, float]:
    """Each policy's best replay time over the reference loop's best, the two alternated."""
    out = {}
    for policy in policies:
        ref, own = [], []
        for _ in range(runs):
            ref.append(_core.reference_loop(t._t)[1])
            own.append(mobmem.simulate(t, policy=policy, memory=memory).wall_time_s)
        out[policy] = min(own) / min(ref)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--record", action="store_true", help="write the measured ratios to speed_guard.toml")
    ap.add_argument("--repeat", type=int, default=1, help="measure this many times and print the spread")
    ap.add_argument("--runs", type=int, help="runs per measurement (default: the file's)")
    ap.add_argument("--file", type=Path, default=FILE, help="workload, margin and recorded ratios")
    a = ap.parse_args()
    cfg = tomllib.loads(a.file.read_text())
    w = cfg["workload"]
    runs = a.runs or w["runs"]
    t = mobmem.Trace.generate(accesses=w["accesses"], footprint_pages=w["footprint_pages"], seed=w["seed"])
    memory = t.num_pages * w["memory_percent"] // 100
    policies = list(cfg["ratio"])
    rounds = [measure(t, policies, memory, runs) for _ in range(a.repeat)]
    margin = cfg["margin"]
    failed = []
    print(f"speed guard: {len(t):,} accesses over {t.num_pages:,} pages at {memory:,} frames, best of {runs}")
    print(
        f"{'policy':10s} {'recorded':>9s} {'measured':>9s} {'change':>8s}"
        + ("  spread" if a.repeat > 1 else "")
    )
    for p in policies:
        got = statistics.median(r[p] for r in rounds)
        rec = cfg["ratio"][p]
        line = f"{p:10s} {rec:9.2f} {got:9.2f} {got / rec - 1:+8.1%}"
        if a.repeat > 1:
            vals = [r[p] for r in rounds]
            line += f"  {min(vals):.2f}–{max(vals):.2f} ({max(vals) / min(vals) - 1:.1%})"
        if got > rec * (1 + margin):
            failed.append(p)
            line += f"  slower than {rec:.2f} × {1 + margin:.2f}"
        print(line)
    if a.record:
        body = a.file.read_text().split("[ratio]")[0] + "[ratio]\n"
        body += "".join(f"{p} = {statistics.median(r[p] for r in rounds):.2f}\n" for p in policies)
        a.file.write_text(body)
        print(f"wrote {a.file}")
        return 0
    if failed:
        print(f"speed guard: {', '.join(failed)} regressed by more than {margin:.0%}", file=sys.stderr)
        return 1
    print(f"speed guard: every policy within {margin:.0%} of its recorded ratio")
    return 0


if __name__ == "__main__":
    sys.exit(main())
