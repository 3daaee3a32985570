"""``mobmem kernel-check``: this machine's kernel running a program under a memory limit with zram
swap, beside mobmem's prediction (python/mobmem/kernel; docs/CALIBRATION.md)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..kernel.check import fmt_diff


def render_check(c: Any) -> str:
    """A check as the table the CLI prints: one row per limit, kernel | mobmem | difference per counter."""
    from ..kernel import COUNTERS
    from ..table import num, render

    heads = ["limit (MiB)", "frames"]
    for name in COUNTERS:
        heads += [f"{name}: kernel", "mobmem", "diff"]
    heads += ["zram ratio"]
    rows = []
    for r in c.rows:
        row: list[object] = [f"{r.limit_bytes / 1048576:g}", num(r.frames)]
        for name in COUNTERS:
            row += [num(r.kernel[name]), num(r.mobmem[name]), fmt_diff(r.diff(name))]
        row.append("-" if r.compression_ratio is None else f"{r.compression_ratio:.2f}")
        rows.append(row)
    u = c.unlimited
    lines = [
        f"{' '.join(c.cmd)}: swap {c.swap}{f' ({c.comp})' if c.comp else ''}, swappiness {c.swappiness},"
        f" page-cluster {c.page_cluster} (zram reads no neighbours),"
        f" {f'TLB of {num(c.tlb_entries)} translations' if c.tlb_entries else 'no TLB'}",
        f"unlimited run: peak charge {num(u.peak_bytes // 1024)} KiB (kernel memory {num(u.kmem_peak_bytes // 1024)} KiB),"
        f" {num(u.counters['major_faults'])} major faults, page cache charged {num(u.cache_bytes // 1024)} KiB;"
        f" trace {num(c.trace_pages)} pages ({num(c.trace_file_pages)} file"
        f"{'' if c.file_pages_replayed else ', held by another cgroup: left out'});"
        f" charge beyond the trace's pages {num(c.offset_bytes // 1024)} KiB",
        render(heads, rows),
    ]
    lines += [f"note ({r.limit_bytes / 1048576:g} MiB): {r.note}" for r in c.rows if r.note]
    if c.capture_status:
        lines.append(f"note: the captured run exited with status {c.capture_status}")
    return "\n".join(lines)


def cmd_kernel_check(args: argparse.Namespace) -> int:
    from ..kernel import Host, KernelCheckError, kernel_check

    host = Host()
    if args.restore:
        if host.euid != 0:
            raise KernelCheckError("kernel-check --restore needs root")
        done = host.restore()
        print("; ".join(done) if done else "nothing to restore")
        return 0
    cmd = list(args.cmd)
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    if not args.limit:
        raise KernelCheckError("--limit SIZE is needed (repeatable): e.g. --limit 64MiB")
    # Checked as the check reads them (a bare number is bytes), before anything is set up.
    limits = list(args.limit)
    if args.swappiness is not None and not 0 <= args.swappiness <= 200:
        raise KernelCheckError(f"--swappiness {args.swappiness}: 0–200")
    c = kernel_check(
        cmd,
        limits,
        swap=args.swap,
        comp=args.comp,
        swappiness=args.swappiness,
        host=host,
        tlb_entries=args.tlb_entries,
    )
    if args.json:
        sys.stdout.write(c.to_json() + "\n")
    else:
        print(render_check(c))
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "kernel-check",
        help="this machine's kernel running a program under a memory limit with zram, beside mobmem",
        description="Runs CMD in a memory cgroup (cgroup v1) under each --limit, with zram0 as swap (or"
        " none), reads the kernel's swap-ins, swap-outs, major faults and refaults, captures CMD with"
        " `mobmem capture` and replays it with linux-2q at the same limit. Needs root, zram0 free and the"
        " memory controller; restores what it changes, even when interrupted.",
    )
    p.add_argument(
        "--limit",
        action="append",
        help="memory limit: 64MiB, bytes, or 50%% of the unlimited run's peak charge; repeatable",
    )
    p.add_argument("--swap", choices=["zram", "none"], default="zram", help="swap device (default: zram)")
    p.add_argument("--comp", default="lz4", help="zram's compressor (default: lz4; lzo-rle, …)")
    p.add_argument(
        "--swappiness", type=int, default=60, help="the cgroup's and linux-2q's swappiness (default: 60)"
    )
    p.add_argument(
        "--tlb-entries",
        type=int,
        default=0,
        help="translations the CPU's TLB caches: x86 sets a page's accessed bit only when it misses"
        " the TLB (bench/kernel/calibrate.py measures it); 0: every touch sets it (default: 0)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--restore", action="store_true", help="undo what a killed check left (its cgroup, zram0)")
    p.add_argument("cmd", nargs=argparse.REMAINDER, help="-- CMD ARGS…: the program to run")
    p.set_defaults(func=cmd_kernel_check)
