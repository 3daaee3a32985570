"""`mobmem reproduce PAPER` and `mobmem reproduce scoreboard`: the papers' results beside ours."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def cmd_reproduce(args: argparse.Namespace) -> int:
    from ..reproduce import run

    return run(args.paper, args)


def cmd_scoreboard(args: argparse.Namespace) -> int:
    from ..reproduce.scoreboard import main

    return main(args)


def _described(doc: str) -> tuple[str, str]:
    """A reproduction's docstring as help: its first paragraph whole, and the whole text, without
    reStructuredText's backticks or the leading command name."""
    text = doc.strip().replace("``", "")
    first = " ".join(text.split("\n\n")[0].split())
    if ": " in first and first.startswith("mobmem reproduce"):
        first = first.split(": ", 1)[1]
    return first.replace("%", "%%"), text


def add_parsers(sub: Any) -> None:
    from ..reproduce import REPRODUCTIONS

    p = sub.add_parser("reproduce", help="a paper's headline results beside ours")
    rsub = p.add_subparsers(dest="paper", required=True)
    for name, mod in REPRODUCTIONS.items():
        summary, whole = _described(mod.__doc__ or "")
        rp = rsub.add_parser(name, help=summary, description=whole)
        mod.add_arguments(rp)
        rp.add_argument(
            "--report", metavar="HTML", help="also write the results as one self-contained HTML page"
        )
        rp.add_argument(
            "--store",
            metavar="FILE",
            help="keep every run in this results store: runs stored before are reused, a killed run resumes",
        )
        rp.set_defaults(func=cmd_reproduce)
    sp = rsub.add_parser(
        "scoreboard",
        help="every paper's claims by verdict: reproduced, direction only, not, fitted, echo (docs/FIDELITY.md)",
    )
    sp.add_argument("--papers", default=",".join(REPRODUCTIONS), help="the reproductions to run")
    sp.add_argument(
        "--claims", action="store_true", help="also print one row per claim, and the inputs ledger"
    )
    sp.add_argument(
        "--no-sensitivity",
        dest="sensitivity",
        action="store_false",
        help="skip the reruns over every assumed input's range (no input found to flip a verdict, no C)",
    )
    sp.add_argument(
        "--no-seeds",
        dest="seeds",
        action="store_false",
        help="skip the reruns at each reproduction's other seeds (no noise test, no spread)",
    )
    sp.add_argument("--json", action="store_true", help="print the whole scoreboard as JSON")
    sp.add_argument("--report", metavar="HTML", help="also write it as one self-contained HTML page")
    sp.add_argument(
        "--store", metavar="FILE", help="keep every run in this results store (reruns reuse them)"
    )
    sp.set_defaults(func=cmd_scoreboard)
