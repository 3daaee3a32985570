"""`mobmem gen`: a synthetic page trace: an app preset, a hybrid-paper workload or a DR. Swap app category."""

from __future__ import annotations

import argparse

from ..errors import MobmemError
from ._common import count, params, writable_formats

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def cmd_gen(args: argparse.Namespace) -> int:
    from ..api import Trace, format_for_path, hybrid_workloads
    from ..table import num

    if args.hybrid:
        if args.preset or args.accesses or args.footprint or args.set:
            raise MobmemError("--hybrid takes --scale and --seed only")
        t = Trace.hybrid(args.hybrid, scale=args.scale, seed=args.seed)
        fmt = args.to or format_for_path(args.output)
        t.save(args.output, fmt)
        _, _, about = hybrid_workloads()[args.hybrid]
        print(
            f"synthetic hybrid workload {args.hybrid!r} ({about}; Table 2 counts × {args.scale}, seed {args.seed})"
            f" → {args.output} ({fmt}): {num(len(t))} accesses, {num(t.num_pages)} pages,"
            f" {len(t.stats()['pids'])} processes"
        )
        return 0
    if args.category:
        if args.preset or args.footprint or args.set:
            raise MobmemError("--category takes --rounds, --accesses (per turn) and --seed only")
        per_turn = count("accesses", args.accesses) if args.accesses is not None else 400_000
        t = Trace.category(args.category, rounds=args.rounds, accesses_per_turn=per_turn, seed=args.seed)
        fmt = args.to or format_for_path(args.output)
        t.save(args.output, fmt)
        print(
            f"synthetic round robin of DR. Swap's Table III {args.category!r} apps ({args.rounds} rounds of"
            f" {num(per_turn)} accesses a turn, seed {args.seed}) → {args.output} ({fmt}):"
            f" {num(len(t))} accesses, {num(t.num_pages)} pages, {len(t.stats()['pids'])} processes"
        )
        return 0
    overrides: dict[str, Any] = params(args.set)
    if args.accesses is not None:
        overrides["accesses"] = count("accesses", args.accesses)
    if args.footprint is not None:
        overrides["footprint_pages"] = count("footprint", args.footprint)
    overrides["seed"] = args.seed
    t = Trace.generate(args.preset, **overrides)
    fmt = args.to or format_for_path(args.output)
    t.save(args.output, fmt)
    s = t.stats()
    ratio = s["read_write_ratio"]
    print(
        f"synthetic trace ({args.preset or 'default'} parameters, seed {args.seed}) → {args.output} ({fmt}):"
        f" {num(s['accesses'])} accesses, {num(s['distinct_pages'])} pages,"
        f" R:W {'—' if ratio is None else f'{ratio:.2f}'}, I {s['instr'] / max(s['accesses'], 1):.1%}"
    )
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("gen", help="generate a synthetic app-like page trace")
    p.add_argument("--preset", help="angrybirds, youtube, chrome, facebook or farmstory (SPO-CLOCK Table 1)")
    p.add_argument("--accesses", "-n", help="number of accesses (e.g. 2M); --category: a turn's")
    p.add_argument("--footprint", help="distinct pages")
    p.add_argument("--seed", type=int, default=1, help="seed of the generator")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="any generator parameter (repeatable)")
    p.add_argument(
        "--hybrid",
        metavar="WORKLOAD",
        help="a hybrid-paper workload instead: critical-intensive, non-critical-intensive, balanced, stand-by",
    )
    p.add_argument("--scale", type=float, default=0.1, help="--hybrid: times Table 2's request counts")
    p.add_argument(
        "--category",
        metavar="NAME",
        help="a DR. Swap Table III app category as a round robin of processes with their "
        "oom_score_adj (browser, news, multimedia, social, gaming, shopping, mix1, mix2)",
    )
    p.add_argument("--rounds", type=int, default=3, help="--category: rounds of turns")
    p.add_argument("--output", "-o", required=True, help="file to write (format from its extension)")
    p.add_argument("--to", choices=writable_formats(), help="output format, instead of the extension's")
    p.set_defaults(func=cmd_gen)
