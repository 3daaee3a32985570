"""``mobmem mrc``: a policy's exact miss-ratio curve in one pass, as a table, JSON or a plot."""

from __future__ import annotations

import argparse
import json
from typing import Any


def _points(footprint: int, n: int) -> list[int]:
    """About ``n`` sizes from 1 frame to the footprint, spaced evenly on a log scale."""
    if footprint <= n:
        return list(range(1, footprint + 1))
    out = {max(1, round(footprint ** (i / (n - 1)))) for i in range(n)}
    return sorted(out | {footprint})


def cmd_mrc(args: argparse.Namespace) -> int:
    from . import mrc
    from .api import Trace, names
    from .table import num, render

    t = Trace.open(args.trace)
    curves = [mrc.curve(t, p) for p in names("policy", args.policy)]
    if args.json:
        out: Any = [c.to_dict() for c in curves]
        print(json.dumps(out if len(out) > 1 else out[0]))
    else:
        sizes = curves[0].sizes if args.all else _points(len(curves[0].sizes), args.points)
        rows = [
            [s, *(num(c.at(s)) for c in curves), *(f"{c.at(s) / c.accesses:.4f}" for c in curves)]
            for s in sizes
        ]
        heads = [
            "frames",
            *(f"{c.policy} faults" for c in curves),
            *(f"{c.policy} miss ratio" for c in curves),
        ]
        print(
            render(
                heads,
                rows,
                title=f"{args.trace}: {curves[0].accesses:,} accesses, {len(curves[0].sizes):,} pages",
            )
        )
    if args.plot:
        from .report import html, plots

        recs = [
            {"policy": c.policy, "memory": s, "faults": f, "accesses": c.accesses}
            for c in curves
            for s, f in zip(c.sizes, c.faults, strict=True)
        ]
        fig = plots.miss_ratio_curve(recs)
        html.write_via(args.plot, lambda tmp: fig.savefig(tmp, format=args.plot.rsplit(".", 1)[-1]))
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("mrc", help="a policy's exact miss-ratio curve in one pass (every memory size)")
    p.add_argument("--trace", "-t", required=True, help="page trace")
    p.add_argument("--policy", default="lru", help="lru, opt, or both comma-separated (default lru)")
    p.add_argument("--points", type=int, default=20, help="sizes in the table, log-spaced (default 20)")
    p.add_argument("--all", action="store_true", help="every size in the table")
    p.add_argument(
        "--json", action="store_true", help='the whole curve: {"sizes": [...], "faults": [...], …}'
    )
    p.add_argument("--plot", metavar="FILE", help="also draw it (.svg, .png or .pdf)")
    p.set_defaults(func=cmd_mrc)
