"""The calibration set (bench/kernel/set.toml): each program run by this machine's kernel at three
limits, with zram swap and without swap, beside mobmem's prediction (`mobmem kernel-check`), as one
table. Needs root, a free zram0, the cgroup v1 memory controller, gcc and valgrind.

    .venv/bin/python bench/kernel/calibrate.py [--only NAME ...] [--json FILE]

A cell is `kernel / mobmem (difference)`; a difference beyond 10% is marked `*`. docs/CALIBRATION.md
shows the table as this printed it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import asdict
from pathlib import Path

from mobmem.capture import capture
from mobmem.kernel import COUNTERS, kernel_check
from mobmem.kernel.check import fmt_diff, relative_difference
from mobmem.table import num, render

HERE = Path(__file__).resolve().parent
GOAL = 0.10
WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november".split()


def make_input(kind: str, mib: float, path: Path) -> None:
    rng = random.Random(1)
    size_bytes = int(mib * 2**20)
    with open(path, "wb") as f:
        if kind == "random":
            f.write(rng.randbytes(size_bytes))
            return
        size = 0
        while size < size_bytes:
            line = (" ".join(rng.choice(WORDS) for _ in range(8)) + f" {rng.randrange(10**9)}\n").encode()
            f.write(line)
            size += len(line)


def program(p: dict, work: Path) -> list[str] | None:
    """The program's command line, built and with its input made; None (with a reason printed)
    when a program it needs is not installed."""
    python = os.path.realpath(sys.executable)
    subst = {"python": python}
    if "input" in p:
        path = work / f"{p['name']}.input"
        make_input(p["input"], float(p["input_mib"]), path)
        path.read_bytes()  # cached now, charged to this process's cgroup, not the check's
        subst["input"] = str(path)
    if "build" in p:
        exe = work / p["name"]
        subprocess.run(["gcc", "-O2", "-o", str(exe), str(HERE / "progs" / p["build"])], check=True)
        cmd = [str(exe), *p.get("args", [])]
    else:
        cmd = list(p["cmd"])
        if cmd[0] != "{python}":
            found = shutil.which(cmd[0])
            if found is None:
                print(f"{p['name']}: skipped: {cmd[0]} is not installed", file=sys.stderr)
                return None
            cmd[0] = os.path.realpath(found)
    return [a.format(**subst) for a in cmd]


def tlb_reach(work: Path) -> tuple[int, list[str]]:
    """The TLB's reach in 4 KiB translations on x86, measured (progs/tlbreach.c); 0 elsewhere (arm64
    flushes a page's entry when it clears its accessed bit). A chase through N pages costs the
    same lines packed into N/64 pages times a ratio that is flat while the TLB holds the N
    translations and climbs once each access walks the page table: the reach is the most pages
    whose ratio is at most 25% above the median of the first three (1,024–2,048 pages, past any
    first-level TLB). With the lines it measured."""
    if platform.machine().lower() not in ("x86_64", "amd64", "i686", "i386"):
        return 0, [f"{platform.machine()}: not x86, no TLB"]
    exe = work / "tlbreach"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(HERE / "progs" / "tlbreach.c")], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    rows = [(int(n), float(a), float(b)) for n, a, b in (line.split() for line in out.splitlines())]
    base = sorted(ns / packed for _, ns, packed in rows[:3])[1]
    reach = 0
    for n, ns, packed in rows:
        if ns / packed > 1.25 * base:
            break
        reach = n
    lines = [
        f"{n:>6} pages: {ns:.2f} ns per access ({packed:.2f} packed in {max(1, n // 64)} pages)"
        for n, ns, packed in rows
    ]
    return reach, lines


def cell(row: dict, name: str) -> str:
    d = relative_difference(row["kernel"][name], row["mobmem"][name])
    mark = " *" if d is not None and abs(d) > GOAL else ""
    return f"{num(row['kernel'][name])} / {num(row['mobmem'][name])} ({fmt_diff(d)}){mark}"


def both_out_of_memory(row: dict) -> bool:
    """The kernel's OOM killer killed the program and mobmem ran out of memory too: the outcome
    agrees, and the counters (up to each one's end) are not compared."""
    return bool(row["oom_kills"]) and "mobmem: out of memory" in row["note"]


def report(checks: list[dict]) -> str:
    """The table as docs/CALIBRATION.md shows it, from the checks (a run's or its JSON)."""
    lines, rows, compared = [], [], []
    tlbs = sorted({c.get("tlb_entries", 0) for c in checks})
    lines.append(f"linux-2q with a TLB of {', '.join(num(t) for t in tlbs)} translations (0: none)")
    for c in checks:
        u = c["unlimited"]
        lines.append(
            f"{c['name']:>9} {c['swap']:>4}: trace {num(c['trace_pages'])} pages ({num(c['trace_file_pages'])} file"
            f"{'' if c.get('file_pages_replayed', True) else ', left out'});"
            f" unlimited peak {num(u['peak_bytes'] // 1024)} KiB, kernel memory {num(u['kmem_peak_bytes'] // 1024)} KiB,"
            f" page cache {num(u['cache_bytes'] // 1024)} KiB; limit = (L - offset) / 4 KiB frames, offset"
            f" {num(c['offset_bytes'] // 1024)} KiB"
        )
        for r in c["rows"]:
            ratio = "-" if r["compression_ratio"] is None else f"{r['compression_ratio']:.2f}"
            head = [c["name"], c["swap"], f"{r['limit_bytes'] / 1048576:.1f}", num(r["frames"])]
            if both_out_of_memory(r):
                rows.append(head + ["out of memory, both"] + [""] * (len(COUNTERS) - 1) + [ratio])
                continue
            cells = [cell(r, n) for n in COUNTERS]
            compared += cells
            note = r["note"] if len(r["note"]) <= 70 else r["note"][:69] + "…"
            rows.append(head + cells + [ratio + (f"  {note}" if note else "")])
    heads = ["program", "swap", "limit MiB", "frames"] + [f"{n}: kernel / mobmem" for n in COUNTERS]
    heads.append("zram ratio")
    off = sum(c.endswith("*") for c in compared)
    both = sum(both_out_of_memory(r) for c in checks for r in c["rows"])
    return "\n".join(
        [
            *lines,
            "",
            render(heads, rows),
            "",
            f"{len(compared) - off} of {len(compared)} counters within {GOAL:.0%} of the kernel (* beyond);"
            f" {both} runs out of memory in both",
        ]
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", help="programs to run (default: all)")
    ap.add_argument("--json", help="write every check as JSON here")
    ap.add_argument("--from-json", help="print the table of a run's JSON instead of running")
    args = ap.parse_args()
    if args.from_json:
        print(report(json.loads(Path(args.from_json).read_text())))
        return 0
    programs = tomllib.loads((HERE / "set.toml").read_text())["program"]
    if args.only:
        programs = [p for p in programs if p["name"] in args.only]
    checks: list[dict] = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mobmem-calibrate-") as tmp:
        work = Path(tmp)
        tlb, measured = tlb_reach(work)
        print("\n".join(["TLB reach (progs/tlbreach.c):", *measured, f"-> {tlb} translations"]), flush=True)
        for p in programs:
            cmd = program(p, work)
            if cmd is None:
                continue
            trace, status = capture(cmd, cwd=tmp)
            if status != 0:
                print(f"{p['name']}: the captured run failed (exit status {status})", file=sys.stderr)
            for swap in ("zram", "none"):
                c = kernel_check(cmd, p["limits"], swap=swap, trace=trace, cwd=tmp, tlb_entries=tlb)
                checks.append({"name": p["name"], **asdict(c)})
                print(f"{p['name']} {swap}: done", file=sys.stderr, flush=True)
    print(report(checks))
    print(f"({time.perf_counter() - t0:.0f} s)")
    if args.json:
        Path(args.json).write_text(json.dumps(checks, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
