"""What sets Direct Read's reduction of swap-ins: the share of swapped pages that are only read
after they come back. Table III gives no such figure, so every model of it is an assumption — this
module prints how the reduction follows each assumption, and measures the share on real captures.

- Page level: the synthetic categories' ``anon_rw_share`` (share of an app's anon pages that keep
  being written; the rest are written once, then only read).
- System level: the app catalog's write shares (``fg_write_share``, ``resume_write_share``: the
  share of a foreground or resume touch of an anon page that writes), scaled together.
- Real programs: the reduction Direct Read gives on each capture (Lackey traces of real programs,
  page-level replay, no read-around), at half and a quarter of its footprint: the share of its swap
  faults that read a page not written again while mapped.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path
from typing import Any

#: Page level: shares of anon pages kept written that the sensitivity tries.
RW_SHARES = (1.0, 0.6, 0.3, 0.1)
#: System level: factors on the catalog's write shares.
WRITE_FACTORS = (0.0, 0.5, 1.0, 2.0)
#: Memory of a capture, share of its footprint.
CAPTURE_MEMORY = ("50%", "25%")


def page_level(args: argparse.Namespace, cats: list[str]) -> dict[str, float]:
    """Average DR reduction of swap-ins (128 MB, page-level replay) as ``anon_rw_share`` varies."""
    from ..api import Trace
    from ..experiment.runner import run_configs

    out = {}
    for share in sorted({*RW_SHARES, args.anon_rw_share}, reverse=True):
        off_sum = on_sum = 0
        for cat in cats:
            t = Trace.category(cat, args.rounds, args.accesses_per_turn, args.seed, share)
            cfg = {"memory": args.memory, "policy": args.policy, "swap": "lpddr2-pcm", "swap_size": "128MiB"}
            off, on = run_configs(t, [cfg, {**cfg, "direct_read": True}], threads=args.threads)
            off_sum += off.meters.swap_ins
            on_sum += on.meters.swap_ins
        out[str(share)] = 100.0 * (1 - on_sum / off_sum) if off_sum else float("nan")
    return out


def system_level(
    cats: dict[str, list[str]], args: argparse.Namespace, reserved: int, page_cluster: int
) -> dict[str, float]:
    """Average DR reduction of swap-ins (system level, 128 MB, fitted memory) as every write share
    is scaled: the apps' (``fg_write_share`` 0.3, ``resume_write_share`` 0.2 in the catalog) and
    the system processes' (``write_share`` 0.3), all assumed."""
    from ..experiment.runner import moved, phone_grid
    from .dr_swap_system import job, system_processes

    out = {}
    for f in WRITE_FACTORS:
        procs = [{**p, "write_share": min(1.0, f * p["write_share"])} for p in system_processes()]
        jobs = [
            job(m, args, reserved, "lpddr2-pcm", 128, direct_read=dr, page_cluster=page_cluster, system=procs)
            for m in cats.values()
            for dr in (False, True)
        ]
        with moved(apps={"fg_write_share": (f, True), "resume_write_share": (f, True)}):
            rs = phone_grid(jobs, threads=args.threads)
        off = sum(r.meters.swap_in_pages for r in rs[0::2])
        on = sum(r.meters.swap_in_pages for r in rs[1::2])
        out[str(f)] = 100.0 * (1 - on / off) if off else float("nan")
    return out


def captures(paths: list[str], args: argparse.Namespace) -> list[dict[str, Any]]:
    """Direct Read's reduction of swap-ins on each capture (no read-around): the share of its swap
    faults served in place."""
    from ..api import Trace
    from ..experiment.runner import run_configs

    out = []
    for p in paths:
        t = Trace.open(p)
        row: dict[str, Any] = {"trace": Path(p).name.split(".")[0], "pages": t.num_pages}
        for mem in CAPTURE_MEMORY:
            cfg = {"memory": mem, "policy": args.policy, "swap": "lpddr2-pcm"}
            off, on = run_configs(t, [cfg, {**cfg, "direct_read": True}], threads=args.threads)
            si = off.meters.swap_ins
            row[mem] = {
                "swap_ins_dr_off": si,
                "swap_ins_dr_on": on.meters.swap_ins,
                "reduction_pct": 100.0 * (1 - on.meters.swap_ins / si) if si else None,
            }
        out.append(row)
    return out


def report(res: dict[str, Any], settings: dict[str, Any]) -> list[str]:
    from ..table import render

    lines = [
        "Direct Read's reduction is set by an input, not predicted: it is the share of swapped pages"
        " that are only read once they come back, and Table III gives no such figure. How it follows"
        " each assumption:",
        "  page level (synthetic categories, 128 MB): "
        + ", ".join(
            f"{100 * (1 - float(k)):.0f}% read-mostly → {v:.1f}%" for k, v in res["page_level"].items()
        )
        + f" (default: {100 * (1 - settings['anon_rw_share']):.0f}% read-mostly, assumed)",
        f"  system level (every write share — the apps' {settings['write_shares']['fg']} in the foreground"
        f" and {settings['write_shares']['resume']} at a resume, the system processes'"
        f" {settings['write_shares']['system']}, all assumed — scaled by a factor): "
        + ", ".join(f"× {k} → {v:.1f}%" for k, v in res["system_level"].items()),
        "  and the reading: with read-around (page_cluster 3) a copy brings up to 8 pages, of which Direct"
        " Read's mapping brings none, so it removes more of the copies than of the faults (Table IV's two"
        " average rows below).",
    ]
    if res["captures"]:
        rows = []
        for c in res["captures"]:
            cells = []
            for mem in CAPTURE_MEMORY:
                r = c[mem]
                red = r["reduction_pct"]
                cells.append(f"{r['swap_ins_dr_off']:,} → {r['swap_ins_dr_on']:,}")
                cells.append("—" if red is None else f"{red:.1f}%")
            rows.append((c["trace"], f"{c['pages']:,}", *cells))
        heads = (
            "capture",
            "pages",
            *(h for m in CAPTURE_MEMORY for h in (f"swap-ins at {m}", "served in place")),
        )
        lines += [
            "",
            render(
                heads,
                rows,
                title=(
                    "Measured on real programs (Lackey captures, page-level replay, no read-around): the share"
                    " of swap faults Direct Read serves without a copy — their swapped pages read, and not"
                    f" written again while mapped ({settings['policy']}, lpddr2-pcm swap)"
                ),
            ),
        ]
        shares = [
            c[m]["reduction_pct"]
            for c in res["captures"]
            for m in CAPTURE_MEMORY
            if c[m]["reduction_pct"] is not None
        ]
        if shares:
            lines.append(
                f"  Real programs: Direct Read serves {min(shares):.1f}–{max(shares):.1f}% of their swap faults in"
                f" place (median {statistics.median(shares):.1f}%). The defaults give"
                f" {res['page_level'][str(settings['anon_rw_share'])]:.1f}% (page level) and"
                f" {res['system_level']['1.0']:.1f}% (system level); the paper 50–75%."
            )
    return lines
