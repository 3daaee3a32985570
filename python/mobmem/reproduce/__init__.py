"""Reproductions of the papers' headline results: each is one module with ``add_arguments(parser)``,
``compute(args) -> dict`` and ``report(result) -> str``, registered in ``REPRODUCTIONS``."""

from __future__ import annotations

import argparse
import json
import sys

from . import dr_swap, emmc_swap, hybrid, spo_clock

#: name → module; ``mobmem reproduce NAME`` runs it.
REPRODUCTIONS = {"dr-swap": dr_swap, "spo-clock": spo_clock, "hybrid": hybrid, "emmc-swap": emmc_swap}


def run(name: str, args: argparse.Namespace) -> int:
    """Computes reproduction ``name`` and prints its report, or its result as JSON with ``--json``."""
    mod = REPRODUCTIONS[name]
    res = mod.compute(args)
    if args.json:
        json.dump(res, sys.stdout, indent=1)
        print()
    else:
        print(mod.report(res))
    return 0
