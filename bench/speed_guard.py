"""The speed guard (CI runs it after the tests). Two measurements of each policy on one generated
trace:

- **Counted** (the gate): the instructions and the first-level data-cache misses of one run
  (`run_plan`, inclusive: the resolved plan to the finished meters) under Valgrind's callgrind,
  with its cache simulation at fixed cache sizes, per access. Counts do not depend on the machine
  or its neighbours, so the margin can be small; the guard fails when either is more than its
  margin above the value recorded in bench/speed_guard.toml.
- **Timed** (printed, never a gate): the policy's best replay time over a bare reference loop's
  (`mobmem._core.reference_loop`), alternated in one process. A shared host moves these ratios by
  tens of percent between two runs of one build (BENCHMARKS.md, "Speed guard"): comparing builds
  by time is for bench/, side by side in one run.

    python bench/speed_guard.py                 # check against the recorded counts
    python bench/speed_guard.py --record        # measure and write them (after a deliberate change)
    python bench/speed_guard.py --no-time       # counts only
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

FILE = Path(__file__).resolve().parent / "speed_guard.toml"

#: callgrind's cache model, fixed so the counts do not follow the host's caches.
CACHES = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"]

RUN = """
import sys, mobmem
t = mobmem.Trace.open(sys.argv[1])
mobmem.simulate(t, policy=sys.argv[2], memory=int(sys.argv[3]))
"""


def counted(trace: Path, policy: str, memory: int, work: Path) -> dict[str, int]:
    """Instructions (`ir`) and D1 misses, reads and writes (`d1`), of `run_plan` in one run."""
    out = work / f"callgrind.{policy}.out"
    cmd = ["valgrind", "--tool=callgrind", "--cache-sim=yes", *CACHES, f"--callgrind-out-file={out}"]
    subprocess.run(
        [*cmd, sys.executable, "-c", RUN, str(trace), policy, str(memory)], check=True, capture_output=True
    )
    text = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", str(out)], check=True, capture_output=True, text=True
    ).stdout
    events = next(line.split()[1:] for line in text.splitlines() if line.startswith("Events shown:"))
    for line in text.splitlines():
        if re.search(r"mobmem_core::replay::run_plan", line):
            nums = [int(x.replace(",", "")) for x in re.findall(r"([\d,]+) \(", line)]
            got = dict(zip(events, nums, strict=False))
            return {"ir": got["Ir"], "d1": got["D1mr"] + got["D1mw"]}
    raise SystemExit(f"speed guard: no run_plan in callgrind's profile of {policy} ({out})")


def timed(trace: Path, policies: list[str], memory: int, runs: int) -> dict[str, float]:
    """Each policy's best replay time over the reference loop's best, the two alternated."""
    import mobmem
    from mobmem import _core

    t = mobmem.Trace.open(str(trace))
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
    ap.add_argument("--record", action="store_true", help="write the measured counts to speed_guard.toml")
    ap.add_argument("--no-time", action="store_true", help="skip the timed ratios (they are printed only)")
    ap.add_argument("--file", type=Path, default=FILE, help="workload, margins and recorded counts")
    a = ap.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        print("speed guard: valgrind is missing (`make capture-deps` installs it)", file=sys.stderr)
        return 2
    import mobmem

    cfg = tomllib.loads(a.file.read_text())
    w = cfg["workload"]
    margin = cfg["margin"]
    rec = cfg["per_access"]
    policies = list(rec)
    with tempfile.TemporaryDirectory() as d:
        trace = Path(d) / "guard.mobt"
        t = mobmem.Trace.generate(
            accesses=w["accesses"], footprint_pages=w["footprint_pages"], seed=w["seed"]
        )
        t.save(str(trace))
        n, memory = len(t), t.num_pages * w["memory_percent"] // 100
        got = {p: {k: v / n for k, v in counted(trace, p, memory, Path(d)).items()} for p in policies}
        ratios = {} if a.no_time else timed(trace, policies, memory, w["runs"])
    print(f"speed guard: {n:,} accesses over {t.num_pages:,} pages at {memory:,} frames")
    print(
        f"{'policy':10s} {'instr/access':>13s} {'change':>8s} {'D1 miss/access':>15s} {'change':>8s}"
        + ("  time ÷ reference (printed only)" if ratios else "")
    )
    failed = []
    for p in policies:
        line = f"{p:10s}"
        bad = []
        for k in ("ir", "d1"):
            r, g = rec[p][k], got[p][k]
            line += f" {g:13.4f} {g / r - 1:+8.2%}" if k == "ir" else f" {g:15.4f} {g / r - 1:+8.2%}"
            if g > r * (1 + margin[k]):
                bad.append(f"{k} above {r:.4f} × {1 + margin[k]:.2f}")
        if ratios:
            line += f"  {ratios[p]:.2f}"
        if bad:
            failed.append(p)
            line += "  " + "; ".join(bad)
        print(line)
    if a.record:
        body = a.file.read_text().split("[per_access]")[0] + "[per_access]\n"
        body += "".join(f"{p} = {{ ir = {got[p]['ir']:.4f}, d1 = {got[p]['d1']:.4f} }}\n" for p in policies)
        a.file.write_text(body)
        print(f"wrote {a.file}")
        return 0
    if failed:
        print(
            f"speed guard: {', '.join(failed)} counted more than the margin above the record", file=sys.stderr
        )
        return 1
    print(
        f"speed guard: every policy's counts within their margins (instructions {margin['ir']:.0%}, D1 misses {margin['d1']:.0%})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
