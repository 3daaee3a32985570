"""`mobmem stats`: a trace's accesses, I/R/W, read:write, footprint and per-pid counts, and with
`--locality` its locality in the app generator's terms."""

from __future__ import annotations

import argparse
import json
import sys

from ._common import add_trace_args, open_trace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _print_stats(s: dict[str, Any], out) -> None:
    from ..table import num, render

    ratio = s["read_write_ratio"]
    rows = [
        ("format", s["format"]),
        ("accesses", num(s["accesses"])),
        ("instruction fetches (I)", num(s["instr"])),
        ("data reads (R)", num(s["reads"])),
        ("data writes (W)", num(s["writes"])),
        ("read:write (R/W)", "—" if ratio is None else f"{ratio:.2f}:1"),
        ("distinct pages", num(s["distinct_pages"])),
        ("footprint (KiB)", num(s["footprint_kib"])),
    ]
    if s["duration_ns"] is not None:
        rows.append(("duration (ms)", num(s["duration_ns"] / 1e6)))
    sk = s["skipped"]
    for k in ("banner_lines", "blank_lines", "comment_lines", "bad_lines"):
        if sk[k]:
            rows.append((f"skipped {k.replace('_', ' ')}", num(sk[k])))
    print(render(("trace " + s["path"], "value"), rows), file=out)
    if s["pids"]:
        print(file=out)
        print(
            render(
                ("pid", "accesses", "pages"),
                [(p["pid"], num(p["accesses"]), num(p["pages"])) for p in s["pids"]],
            ),
            file=out,
        )
    if sk["first_bad_line"]:
        print(f"first skipped line: {sk['first_bad_line']}", file=out)


def _print_locality(loc: dict[str, Any], out) -> None:
    from ..table import num, render

    rows = [
        ("code pages (fetched as instructions)", num(loc["code_pages"])),
        ("data pages", num(loc["data_pages"])),
        ("written data pages", num(loc["written_pages"])),
        ("code share of the pages", f"{loc['code_share']:.3f}"),
        ("written share of the data pages", f"{loc['written_share']:.3f}"),
        *((f"data pages taking {q}% of data accesses", f"{loc[f'hot_pages_{q}']:.3f}") for q in (50, 85, 95)),
        ("sequential share of the moves", f"{loc['sequential_share']:.3f}"),
    ]
    print(render(("locality", "value"), rows), file=out)


def cmd_stats(args: argparse.Namespace) -> int:
    t = open_trace(args)
    s = t.stats(args.page_size)
    if args.locality:
        s["locality"] = t.locality()
    if args.json:
        json.dump(s, sys.stdout, indent=2)
        print()
    else:
        _print_stats(s, sys.stdout)
        if args.locality:
            print(file=sys.stdout)
            _print_locality(s["locality"], sys.stdout)
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("stats", help="accesses, I/R/W, read:write, footprint, per-pid counts")
    add_trace_args(p, positional=True)
    p.add_argument("--page-size", type=int, default=4096, help="page size in bytes (for the footprint)")
    p.add_argument(
        "--locality",
        action="store_true",
        help="also the locality in the app generator's terms (code and written shares, the data pages"
        " taking 50/85/95%% of the data accesses, the sequential share)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=cmd_stats)
