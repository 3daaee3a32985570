"""Two builds of mobmem side by side, counted in instructions (callgrind), which do not depend on
the machine's noise: each page-trace loop (the flat hit-first loop per policy, the loop under a
swap admission, the tiered loop) and the whole run around it.

    python bench/instructions.py --a OLD_VENV/bin/python --b .venv/bin/python [--cases clock,a2s,tiers]

A case is a flat policy's name (``mobmem.simulate`` at 95% memory of a generated trace of 2,000,000
accesses, 70,000 pages, seed 42), ``a2s`` (CLOCK at 40% of a three-round news category trace under
A2S), or ``tiers`` (fg-aware at 20% of the balanced hybrid workload, 90% PCM). For each it prints
the instructions of the run (``run_plan``, inclusive: everything from the resolved plan to the
finished meters) and, for a flat policy, of its hit-first loop (``replay_words``, exclusive). Needs
valgrind. Not a test: it prints numbers for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
from pathlib import Path

CASES = {
    "flat": (
        "import mobmem\n"
        "t = mobmem.Trace.generate(None, accesses=2_000_000, footprint_pages=70_000, seed=42)\n"
        "mobmem.simulate(t, policy={policy!r}, memory='95%')\n"
    ),
    "a2s": (
        "import mobmem\n"
        "t = mobmem.Trace.category('news', rounds=3, accesses_per_turn=200_000, seed=2)\n"
        "mobmem.simulate(t, policy='clock', memory='40%', swap_admission='a2s')\n"
    ),
    "tiers": (
        "import mobmem\n"
        "t = mobmem.Trace.hybrid('balanced', scale=0.5)\n"
        "mobmem.simulate(t, policy='fg-aware', memory='20%', tiers={'pcm_share': 0.9})\n"
    ),
}


def count(python: str, code: str, work: Path) -> dict[str, int]:
    """Instructions of `run_plan` (inclusive) and `replay_words` (exclusive) in one run of `code`."""
    out = work / "callgrind.out"
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python, "-c", code],
        check=True,
        capture_output=True,
    )
    found: dict[str, int] = {}
    for inclusive, name, pattern in [("yes", "run", r"::run_plan \["), ("no", "loop", r"::replay_words \[")]:
        text = subprocess.run(
            ["callgrind_annotate", f"--inclusive={inclusive}", str(out)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        for line in text.splitlines():
            if re.search(pattern, line):
                found[name] = int(line.split()[0].replace(",", ""))
                break
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="the build before: its python")
    ap.add_argument("--b", required=True, help="the build after: its python")
    ap.add_argument(
        "--cases",
        default="fifo,lru,clock,arc,2q,spo-clock,linux-2q,mglru,opt,a2s,tiers",
        help="comma-separated",
    )
    args = ap.parse_args()
    print("| case | A run | B run | B / A | A loop | B loop |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as d:
        for case in args.cases.split(","):
            code = CASES.get(case) or CASES["flat"].format(policy=case)
            a, b = (count(py, code, Path(d)) for py in (args.a, args.b))
            loops = [f"{x['loop']:,}" if "loop" in x and case not in ("a2s", "tiers") else "" for x in (a, b)]
            ratio = b["run"] / a["run"]
            print(
                f"| {case} | {a['run']:,} | {b['run']:,} | {ratio:.4f}× | {loops[0]} | {loops[1]} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
