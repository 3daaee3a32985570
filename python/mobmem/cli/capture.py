"""`mobmem capture`: a program's page accesses under Valgrind Lackey, streamed into a trace."""

from __future__ import annotations

import argparse

from ._common import EXIT_PROGRAM_FAILED, writable_formats

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def cmd_capture(args: argparse.Namespace) -> int:
    from ..api import format_for_path
    from ..capture import capture
    from ..table import num

    cmd = list(args.cmd)
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    t, status = capture(cmd, stdout=args.stdout)
    fmt = args.to or format_for_path(args.output)
    t.save(args.output, fmt)
    s = t.stats()
    print(
        f"{' '.join(cmd)} (exit status {status}) → {args.output} ({fmt}): {num(len(t))} accesses"
        f" (I {num(s['instr'])}, R {num(s['reads'])}, W {num(s['writes'])}), {num(t.num_pages)} pages"
    )
    return 0 if status == 0 else EXIT_PROGRAM_FAILED


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "capture",
        help="a program's page accesses under Valgrind Lackey, streamed into a trace",
        description="Runs CMD under valgrind --tool=lackey --trace-mem=yes and streams its accesses"
        " into OUTPUT (no text file in between): instruction fetches, loads, stores.",
    )
    p.add_argument(
        "-o", "--output", required=True, help="output trace (.mobt binary; .txt/.csv, .gz/.zst ok)"
    )
    p.add_argument("--to", choices=writable_formats(), help="output format (default: from the extension)")
    p.add_argument("--stdout", help="file for the program's standard output (default: discarded)")
    p.add_argument("cmd", nargs=argparse.REMAINDER, help="-- CMD ARGS…: the program to run")
    p.set_defaults(func=cmd_capture)
