"""`mobmem energy`: the DR. Swap paper's energy model alone, three swap schemes side by side."""

from __future__ import annotations

import argparse
import json
import sys

from ._common import byte_size, seconds

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def cmd_energy(args: argparse.Namespace) -> int:
    """The DR. Swap paper's energy model alone: three swap schemes side by side."""
    from ..api import swap_energy
    from ..table import render

    size = byte_size("swap-size", args.swap_size)
    dur = seconds(args.duration)
    schemes = [
        ("DRAM-backed", args.dram_model, args.swap_ins),
        ("flash-backed", args.flash_model, args.swap_ins),
        (
            "DR. Swap (PCM)",
            args.nvm_model,
            args.dr_swap_ins if args.dr_swap_ins is not None else args.swap_ins,
        ),
    ]
    res = [
        (label, swap_energy(model, n_rd, args.swap_outs, dur, size, args.page_size, args.devices))
        for label, model, n_rd in schemes
    ]
    if args.json:
        json.dump({label: e for label, e in res}, sys.stdout, indent=2)
        print()
        return 0
    keys = [
        ("swap-ins copied (N_rd)", "n_rd", "{:,}"),
        ("swap-outs (N_wr)", "n_wr", "{:,}"),
        ("refresh scale", "refresh_scale", "{:.4f}"),
        ("t_RD (ms)", "t_rd_s", "ms"),
        ("t_WR (ms)", "t_wr_s", "ms"),
        ("t_ACT (ms)", "t_act_s", "ms"),
        ("t_DQ (ms)", "t_dq_s", "ms"),
        ("background (J)", "background_j", "{:.6f}"),
        ("activate (J)", "activate_j", "{:.6f}"),
        ("read (J)", "read_j", "{:.6f}"),
        ("write (J)", "write_j", "{:.6f}"),
        ("I/O, DQ (J)", "io_j", "{:.6f}"),
        ("total (J)", "total_j", "{:.6f}"),
        ("total (mAh at 3.8 V)", "total_mah", "{:.6f}"),
    ]
    rows = []
    for label, key, fmt in keys:
        cells = []
        for _, e in res:
            v = e[key]
            cells.append(f"{v * 1e3:.6f}" if fmt == "ms" else fmt.format(v))
        rows.append([label, *cells])
    dram = res[0][1]["total_j"]
    rows.append(["vs DRAM-backed", *(f"{100 * (e['total_j'] / dram - 1):+.2f}%" for _, e in res)])
    print(
        f"swap area {args.swap_size}, up time {dur:g} s, page {args.page_size} B"
        " (DR. Swap paper, section IV: eqs. 1–5 DRAM, 6–12 flash, 13–14 PCM; choices in docs/ENERGY.md)"
    )
    print(render(["", *(label for label, _ in res)], rows))
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "energy", help="the DR. Swap energy model alone: DRAM, flash and DR. Swap side by side"
    )
    p.add_argument("--swap-ins", type=int, required=True, help="swap-ins without Direct Read (N_rd)")
    p.add_argument("--swap-outs", type=int, required=True, help="swap-outs (N_wr)")
    p.add_argument("--dr-swap-ins", type=int, help="swap-ins that still copy with Direct Read (N'_rd)")
    p.add_argument("--duration", default="900s", help="up time t_TOTAL")
    p.add_argument("--swap-size", default="128MiB", help="swap area size; scales DRAM refresh")
    p.add_argument("--page-size", type=int, default=4096, help="page size in bytes")
    p.add_argument("--dram-model", default="lpddr2-dram", help="energy model of the DRAM-backed scheme")
    p.add_argument("--flash-model", default="emmc-inand", help="energy model of the flash-backed scheme")
    p.add_argument("--nvm-model", default="lpddr2-pcm", help="energy model of DR. Swap's NVM")
    p.add_argument("--devices", help="TOML file with [energy_models.NAME] tables (and devices)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=cmd_energy)
