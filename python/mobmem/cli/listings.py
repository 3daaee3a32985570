"""`mobmem policies`, `formats`, `devices`: what the core's registries hold."""

from __future__ import annotations

import argparse
import json
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def dump(data: Any) -> int:
    """Prints ``data`` as JSON (a listing's ``--json``)."""
    json.dump(data, sys.stdout, indent=2)
    print()
    return 0


def cmd_policies(args: argparse.Namespace) -> int:
    from ..api import hybrid_policies, policies
    from ..table import render

    rows = [(n, "flat or tiers", d) for n, d in sorted(policies().items())]
    rows += [(n, "tiers only", d) for n, d in sorted(hybrid_policies().items())]
    if args.json:
        return dump([{"policy": n, "memory": m, "description": d} for n, m, d in rows])
    print(render(("policy", "memory", "description"), rows))
    return 0


def cmd_formats(args: argparse.Namespace) -> int:
    from .. import _core
    from ..table import render

    if args.json:
        return dump([{"format": n, "description": d, "writable": w} for n, d, w in _core.trace_formats()])
    print(
        render(
            ("format", "description", "writable"),
            [(n, d, "yes" if w else "no") for n, d, w in _core.trace_formats()],
        )
    )
    return 0


def cmd_devices(args: argparse.Namespace) -> int:
    from ..api import devices, swap_backends, tiers
    from ..table import note, num, render

    ds = devices(args.devices)
    ts = tiers(args.devices)
    if args.json:
        return dump({"devices": ds, "tiers": ts})
    rows = [
        (
            n,
            d["kind"] + (f" {d['compression_ratio']:g}:1" if d.get("compression_ratio") else ""),
            d["backend"],
            num(d["read_ns"]),
            num(d["write_ns"]),
            num(d["read_nj"]),
            num(d["write_nj"]),
            num(d["background_mw"]),
        )
        for n, d in ds.items()
    ]
    heads = ("device", "kind", "as swap", "read ns", "write ns", "read nJ", "write nJ", "idle mW")
    print(render(heads, rows))
    for n, d in ds.items():
        if d["source"]:
            print(note(n, d["source"]))
        if d.get("backend_params"):
            print(
                note(f"{n} {d['backend']}", ", ".join(f"{k} = {v}" for k, v in d["backend_params"].items()))
            )
    print()
    print("swap backends (a device's `backend`):")
    for n, desc in swap_backends().items():
        print(note(n, desc))
    print()
    rows = [
        (
            n,
            t["kind"],
            num(t["read_ns"]),
            num(t["write_ns"]),
            f"{t['read_nj_per_bit']:g}",
            f"{t['write_nj_per_bit']:g}",
            num(t["static_mw_per_gib"]),
            "∞" if t["endurance_cycles"] is None else f"{t['endurance_cycles']:.0e}",
        )
        for n, t in ts.items()
    ]
    heads = (
        "memory tier",
        "kind",
        "read ns/op",
        "write ns/op",
        "read nJ/bit",
        "write nJ/bit",
        "static mW/GiB",
        "endurance",
    )
    print(render(heads, rows))
    for n, t in ts.items():
        if t["source"]:
            print(note(n, t["source"]))
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("policies", help="list the registered policies")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=cmd_policies)
    p = sub.add_parser("formats", help="list the registered trace formats")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=cmd_formats)
    p = sub.add_parser("devices", help="list device models")
    p.add_argument("--devices", help="TOML file with extra device models")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(func=cmd_devices)
