"""``mobmem phone-curve``: a phone's capacity curves for one usage trace — cold starts, kills and
live apps against DRAM size, for each swap setting — as a table, JSON or a plot."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..progress import wrote


def cmd_phone_curve(args: argparse.Namespace) -> int:
    from .. import capacity
    from ..table import num, render
    from ._common import params
    from .phone import usage_config

    if args.plot:  # checked before the work, not after it
        from .._optional import need as require

        require("matplotlib.pyplot", "--plot")
    overrides = params(args.set, "--set")
    for flag in ("reserved", "policy", "killer", "storage"):
        v = getattr(args, flag)
        if v is not None:
            overrides[flag] = v
    rows = capacity.curve(
        usage_config(args),
        args.phone,
        drams=None if args.dram is None else [d.strip() for d in args.dram.split(",") if d.strip()],
        swaps=None if args.swap is None else [s.strip() for s in args.swap.split(",") if s.strip()],
        swap_size=args.swap_size,
        seed=args.seed,
        threads=args.threads,
        phones_file=args.phones,
        apps=args.apps,
        devices=args.devices,
        **overrides,
    )
    need = None if args.live is None else capacity.dram_for(rows, args.live)
    if args.json:
        json.dump({"rows": rows, "dram_for_live_apps": need, "live_apps": args.live}, sys.stdout, indent=2)
        print()
    else:
        table = [
            (
                r["swap_setting"],
                r["dram"],
                f"{r['cold']} / {r['launches']}",
                f"{100 * r['cold_share']:.1f}",
                r["kills"],
                f"{r['live_apps_mean']:.1f} / {r['live_apps_max']}",
                num(r["mean_launch_ms"]),
                num(r["swap_in_pages"]),
                num(r["flash_write_mb"]),
            )
            for r in rows
        ]
        heads = ["swap", "DRAM", "cold/launches", "cold %", "kills", "live mean/most"]
        heads += ["launch ms", "swap-in pages", "flash MB"]
        print(render(heads, table, title=f"{args.phone}: capacity against DRAM"))
        if need is not None:
            for s, d in need.items():
                tried = ", ".join(r["dram"] for r in rows if r["swap_setting"] == s)
                print(
                    f"swap {s}: {args.live:g} live apps on average from {d}"
                    if d
                    else f"swap {s}: no size tried ({tried}) keeps {args.live:g} apps live on average"
                )
    if args.plot:
        from ..report import html, plots

        fig = plots.capacity(rows, f"{args.phone}: capacity against DRAM")
        html.write_via(args.plot, lambda tmp: fig.savefig(tmp, format=args.plot.rsplit(".", 1)[-1]))
        wrote("plot", args.plot)
    return 0


def add_parsers(sub: Any) -> None:
    from .phone import catalog_arguments, usage_arguments

    p = sub.add_parser(
        "phone-curve",
        help="a phone's capacity curves: cold starts, kills and live apps against DRAM (and swap)",
    )
    usage_arguments(p)
    p.add_argument(
        "--dram",
        help="DRAM sizes, comma-separated (default: 1GiB … 8GiB, those above the phone's reserved)",
    )
    p.add_argument("--swap", help="swap settings, comma-separated devices or off (default: the phone's)")
    p.add_argument("--swap-size", help="swap capacity for every setting, over the preset's")
    p.add_argument("--reserved", help="DRAM out of the model's reach (fixed across sizes)")
    p.add_argument("--storage", help="file-store device, over the preset's")
    p.add_argument("--policy", help="page reclamation policy")
    p.add_argument("--killer", help="low memory killer")
    catalog_arguments(p)
    p.add_argument("--live", type=float, metavar="N", help="also say the smallest DRAM keeping N apps live")
    p.add_argument("--threads", type=int, default=0, help="runs in parallel (0: every core)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--plot", metavar="FILE", help="also draw it (.svg, .png or .pdf)")
    p.set_defaults(func=cmd_phone_curve)
