"""`mobmem demo`: the main job on the bundled default workload."""

from __future__ import annotations

import argparse
import os

from .. import _data
from ..errors import TraceNotFoundError
from .compare import compare_tables

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The bundled real trace: sqlite3 running a B-tree workload, captured with Valgrind Lackey
#: (shipped inside the package: an installed wheel has it too).
DEMO_TRACE = _data.path("captures", "sqlite3_btree.txt.zst")


def cmd_demo(args: argparse.Namespace) -> int:
    """The main job on the bundled default workload: a real trace and a synthetic app preset, each
    replayed under every registered policy at 5–25% of its footprint."""
    from ..api import Trace, grid, policies

    pols = list(policies())
    mems = ["5%", "10%", "15%", "20%", "25%"]
    trace_path = args.trace or DEMO_TRACE
    if not os.path.exists(trace_path):
        raise TraceNotFoundError(f"{trace_path}: the bundled demo trace is missing", str(trace_path))
    print("== Real trace (Valgrind Lackey capture of sqlite3 running inserts, indexes and queries) ==")
    real = Trace.open(trace_path)
    print(compare_tables(grid(real, pols, mems, threads=args.threads), pols, mems))
    print()
    print(
        f"== Synthetic trace: preset 'angrybirds' (SPO-CLOCK Table 1 footprint, R:W and instruction share;"
        f" locality assumed), {args.accesses:,} accesses, seed 1 =="
    )
    syn = Trace.generate("angrybirds", accesses=args.accesses, seed=1)
    print(compare_tables(grid(syn, pols, mems, threads=args.threads), pols, mems))
    print()
    print(
        "== Hybrid DRAM + PCM memory (90% PCM): synthetic 'balanced' workload of the hybrid paper's"
        " Table 2 × 0.05, seed 1; every request a 4 KiB buffer-cache page =="
    )
    hyb = Trace.hybrid("balanced", scale=0.05, seed=1)
    hpols = ["fg-aware", "clock-dwf", "lru", "2q"]
    tiers = {"pcm_share": 0.9, "access_bytes": 4096}
    runs = grid(hyb, hpols, mems, storage="emmc-inand", tiers=tiers, threads=args.threads)
    print(compare_tables(runs, hpols, mems))
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("demo", help="the main job on the bundled default workload")
    p.add_argument("--trace", help="replace the bundled real trace")
    p.add_argument("--accesses", type=int, default=2_000_000, help="length of the synthetic trace")
    p.add_argument("--threads", type=int, default=0, help="worker threads (0: all cores)")
    p.set_defaults(func=cmd_demo)
