"""`mobmem compare`: policies × memory sizes, in parallel, as tables with ratios to a baseline."""

from __future__ import annotations

import argparse
import json
import sys

from ._common import add_sim_args, add_trace_args, open_trace, sim_overrides

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def compare_tables(runs, policies: list[str], memories: list[str]) -> str:
    """The policies × sizes tables of ``mobmem compare``: faults and I/O time, each with its ratio to
    CLOCK at the same size (or to the first policy when CLOCK is not in the grid), then OPT's gap."""
    from ..table import num, ratio, render, wrap

    by = {(r.policy, r.memory): r for r in runs}
    mem_labels = [by[(policies[0], m)].memory for m in memories] if runs else []
    base = "clock" if "clock" in policies else policies[0]
    out = []
    t = runs[0].trace
    cfg = runs[0].config
    out.append(
        wrap(
            [
                f"trace {t['path']} ({t['format']}): {num(t['accesses'])} accesses, {num(t['distinct_pages'])} pages",
                f"swap {cfg['swap']['name']}, storage {cfg['storage']['name']}",
            ],
            "; ",
        )
    )
    frames = ", ".join(f"{m} = {num(by[(policies[0], m)].frames)}" for m in mem_labels)
    out.append(f"memory in frames: {frames}")
    skipped = t["skipped"]
    if skipped["bad_lines"]:
        out.append(
            f"malformed lines skipped: {num(skipped['bad_lines'])} (first: {skipped['first_bad_line']})"
        )

    def ms(v: float) -> str:
        return num(v / 1e6)

    metrics = [("faults", lambda r: r.faults, num), ("I/O time (ms)", lambda r: r.io_time_ns, ms)]
    if runs[0].tiers:
        metrics.append(("critical elapsed time (ms)", lambda r: r.tiers["critical"]["elapsed_ns"], ms))
        metrics.append(("energy eq. 1 (J)", lambda r: r.tiers["energy"]["eq1_j"], lambda v: f"{v:.4g}"))
    for title, get, show in metrics:
        rows = []
        for p in policies:
            row: list[object] = [p]
            for m in mem_labels:
                r, b = by[(p, m)], by[(base, m)]
                v, bv = get(r), get(b)
                row.append(f"{show(v)} {ratio(v / bv if bv else None)}")
            rows.append(row)
        out.append("")
        out.append(render(["policy", *mem_labels], rows, title=f"{title}, and ratio to {base}"))
    if "opt" in policies:
        rows = []
        for p in policies:
            row = [p]
            for m in mem_labels:
                o = by[("opt", m)].faults
                row.append(ratio(by[(p, m)].faults / o if o else None))
            rows.append(row)
        out.append("")
        out.append(render(["policy", *mem_labels], rows, title="faults relative to OPT (the floor)"))
    return "\n".join(out)


def cmd_compare(args: argparse.Namespace) -> int:
    from ..api import grid

    trace = open_trace(args)
    pols = [x.strip() for x in args.policies.split(",") if x.strip()]
    mems = [x.strip() for x in args.memory.split(",") if x.strip()]
    runs = grid(
        trace,
        policies=pols,
        memories=mems,
        devices=args.devices,
        threads=args.threads,
        **sim_overrides(args),
    )
    if args.json:
        json.dump([r.to_dict() for r in runs], sys.stdout, indent=2)
        print()
        return 0
    # Resolve the memory labels as the runs echo them (e.g. "10%").
    labels = [runs[i].memory for i in range(len(mems))]
    print(compare_tables(runs, pols, labels))
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("compare", help="policies × memory sizes, in parallel, as one table")
    add_trace_args(p)
    from ..config import schema

    grid_defaults = schema()["grid"]
    p.add_argument(
        "--policies",
        "--policy",
        dest="policies",
        default=",".join(grid_defaults["policies"]),
        help="policies, comma-separated",
    )
    p.add_argument(
        "--memory", "-m", default=",".join(grid_defaults["memories"]), help="memory sizes, comma-separated"
    )
    p.add_argument("--threads", type=int, default=0, help="worker threads (0: all cores)")
    add_sim_args(p)
    p.set_defaults(func=cmd_compare)
