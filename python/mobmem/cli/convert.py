"""`mobmem convert`: a trace written again in another format."""

from __future__ import annotations

import argparse

from ._common import writable_formats

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def cmd_convert(args: argparse.Namespace) -> int:
    from ..api import Trace, format_for_path

    t = Trace.open(args.input, args.format, args.skip_bad_lines)
    fmt = args.to or format_for_path(args.output)
    t.save(args.output, fmt)
    print(f"{args.input} ({t.format}, {len(t):,} accesses, {t.num_pages:,} pages) → {args.output} ({fmt})")
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("convert", help="convert a trace (to mobmem binary for fast re-runs)")
    p.add_argument("input", help="trace to read (any format; gzip/zstd ok)")
    p.add_argument(
        "output", help="output file; format from its extension (.mobt, .csv, .txt), .gz/.zst compress"
    )
    p.add_argument("--to", choices=writable_formats(), help="output format")
    p.add_argument("--format", help="force the input format")
    p.add_argument("--skip-bad-lines", action="store_true", help="count and skip malformed lines")
    p.set_defaults(func=cmd_convert)
