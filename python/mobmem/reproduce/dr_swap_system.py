"""DR. Swap on the system level: Table III's apps switching on the ``nexus5`` phone, the swap area
(PCM, DRAM or flash) at 128/256/512 MiB, the low memory killer acting when memory runs out — and
the one fitted parameter, the memory kept from the apps.

The paper's phone ran Android with its own services beside the five apps of a category; how much
memory they left the apps it does not say. mobmem fits that one quantity (``reserved``: DRAM the
model's apps and system processes cannot use) to Table IV's average DR-disabled swap-ins at
128 MB (3,298), on a grid, and predicts everything else with it: the other swap sizes, Direct
Read's swap-ins, each category, the switching delay and the energy.

How many pages a swap-in copies is a reading (the paper counts "swap-ins" without saying): with
``page_cluster`` 3 (Linux 3.4's default, ``swapin_readahead`` for every swap device) a fault copies
the aligned cluster of 8 slots around it; with 0 only the faulting page. Direct Read maps the
faulting page in place and reads nothing around it. Each reading has its own fit.
"""

from __future__ import annotations

import argparse
from typing import Any

#: Table IV, average, 128 MB, DR disabled: the figure the memory kept from apps is fitted to.
FIT_TARGET = 3298
FIT_FIGURE = "Table IV (average swap-ins, 128 MB, DR disabled: 3,298)"
#: The grid of the fit, MiB of the nexus5's 2,048 kept from apps.
FIT_GRID_MIB = tuple(range(1400, 1801, 10))
#: Readings of a swap-in's copies: the page cluster (log2 of the slots read around a fault).
READINGS = {"readahead": 3, "fault-only": 0}
DEFAULT_READING = "readahead"
SWAP_MB = (128, 256, 512)
PHONE = "nexus5"


def categories(args: argparse.Namespace) -> dict[str, list[str]]:
    """The Table III categories asked for, with their apps."""
    from .. import _core
    from ..errors import ConfigError

    cats = {name: [a for a, _ in members] for name, members in _core.categories()}
    wanted = [c.strip() for c in args.categories.split(",") if c.strip()]
    unknown = [c for c in wanted if c not in cats]
    if unknown or not wanted:
        raise ConfigError(
            f"config error in categories: unknown {unknown}; known: {', '.join(cats)}", "categories"
        )
    return {c: cats[c] for c in wanted}


def job(
    members: list[str], args: argparse.Namespace, reserved: int, device: str, mb: int, **over: Any
) -> Any:
    """A category's apps in the foreground a minute each, round robin, ``args.rounds`` rounds."""
    from ..phone import job as phone_job
    from ..phone import rounds

    usage = rounds(members, rounds=args.rounds - 1, random=False, seed=args.seed, gap_s=60.0)
    return phone_job(
        usage, PHONE, seed=args.seed, swap=device, swap_size=f"{mb}MiB", reserved=f"{reserved}MiB", **over
    )


def fit(
    cats: dict[str, list[str]], args: argparse.Namespace, page_cluster: int
) -> tuple[int, list[dict[str, Any]]]:
    """The memory kept from apps whose average DR-disabled swap-ins at 128 MB are nearest 3,298."""
    from ..experiment.runner import phone_grid

    jobs = [
        job(m, args, res, "lpddr2-pcm", 128, page_cluster=page_cluster)
        for res in FIT_GRID_MIB
        for m in cats.values()
    ]
    rs = phone_grid(jobs, threads=args.threads)
    n = len(cats)
    sweep = [
        {"reserved_mib": res, "swap_ins": sum(r.meters.swap_in_pages for r in rs[i * n : (i + 1) * n]) / n}
        for i, res in enumerate(FIT_GRID_MIB)
    ]
    best = min(sweep, key=lambda p: (abs(p["swap_ins"] - FIT_TARGET), p["reserved_mib"]))
    return int(best["reserved_mib"]), sweep


def _row(off: Any, on: Any) -> dict[str, Any]:
    si_off, si_on = off.meters.swap_in_pages, on.meters.swap_in_pages
    return {
        "swap_ins_dr_off": si_off,
        "swap_ins_dr_on": si_on,
        "reduction_pct": 100.0 * (1 - si_on / si_off) if si_off else None,
        "swap_outs_dr_off": off.meters.swap_out_pages,
        "swap_outs_dr_on": on.meters.swap_out_pages,
        "swap_faults_dr_on": on.pages["swap_faults"],
        "dr_maps": on.pages["dr_maps"],
        "dr_promotions": on.pages["dr_promotions"],
        "kills_dr_off": off.meters.kills_total,
        "kills_dr_on": on.meters.kills_total,
        "peak_swap_mib_dr_off": off.pages["peak_swap_pages"] * 4096 / 1048576,
        "swap_full_dr_off": off.pages["swap_full_at"] is not None,
        "cold_dr_off": off.meters.cold,
        # Whose pages the DR-off run's swap faults found in swap: the apps', or the system processes'.
        "app_swap_faults_dr_off": sum(a["swap_faults"] for a in off.meters.apps),
        "system_swap_faults_dr_off": off.meters.system_swap_faults,
        "app_swap_faults_dr_on": sum(a["swap_faults"] for a in on.meters.apps),
        "system_swap_faults_dr_on": on.meters.system_swap_faults,
    }


def table_iv(
    cats: dict[str, list[str]], args: argparse.Namespace, reserved: int, page_cluster: int
) -> dict[str, dict[str, Any]]:
    """Swap-ins with Direct Read off and on, per category and swap size, at ``reserved``."""
    from ..experiment.runner import phone_grid

    keys = [(c, mb, dr) for c in cats for mb in SWAP_MB for dr in (False, True)]
    jobs = [
        job(cats[c], args, reserved, "lpddr2-pcm", mb, direct_read=dr, page_cluster=page_cluster)
        for c, mb, dr in keys
    ]
    rs = dict(zip(keys, phone_grid(jobs, threads=args.threads), strict=True))
    return {c: {str(mb): _row(rs[(c, mb, False)], rs[(c, mb, True)]) for mb in SWAP_MB} for c in cats}


def averages(table: dict[str, dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Table IV's average row: mean swap-ins over the categories, and the reduction of the means."""
    out = {}
    n = len(table)
    for mb in SWAP_MB:
        off = sum(t[str(mb)]["swap_ins_dr_off"] for t in table.values()) / n
        on = sum(t[str(mb)]["swap_ins_dr_on"] for t in table.values()) / n
        out[str(mb)] = {
            "off": off,
            "on": on,
            "reduction_pct": 100.0 * (1 - on / off) if off else float("nan"),
        }
    return out


def memory_sensitivity(
    cats: dict[str, list[str]],
    args: argparse.Namespace,
    reserved: int,
    page_cluster: int,
    steps: tuple[int, ...],
) -> list[dict[str, Any]]:
    """How the fall of swap-ins with swap size depends on the fitted memory: DR-disabled averages at
    each size, kills and whether the area filled, at ``reserved`` + each step (MiB)."""
    from ..experiment.runner import phone_grid

    keys = [(s, c, mb) for s in steps for c in cats for mb in SWAP_MB]
    jobs = [
        job(cats[c], args, reserved + s, "lpddr2-pcm", mb, page_cluster=page_cluster) for s, c, mb in keys
    ]
    rs = dict(zip(keys, phone_grid(jobs, threads=args.threads), strict=True))
    n = len(cats)
    out = []
    for s in steps:
        row: dict[str, Any] = {"reserved_mib": reserved + s}
        for mb in SWAP_MB:
            runs = [rs[(s, c, mb)] for c in cats]
            row[str(mb)] = {
                "swap_ins": sum(r.meters.swap_in_pages for r in runs) / n,
                "kills": sum(r.meters.kills_total for r in runs),
                "filled": sum(r.pages["swap_full_at"] is not None for r in runs),
            }
        out.append(row)
    return out


#: The memory kept from apps (MiB) over which the apps' own swapping is checked.
ALONE_GRID_MIB = tuple(range(1500, 1951, 50))


def apps_alone(
    cats: dict[str, list[str]], args: argparse.Namespace, page_cluster: int
) -> list[dict[str, Any]]:
    """Whether the apps swap by themselves: each category at 128 MB with Direct Read off and the
    system processes' periodic touches off, at each of :data:`ALONE_GRID_MIB` — the average swap-ins,
    the apps' swap faults (a category's average), and the kills and cold starts (all categories)."""
    from ..experiment.runner import phone_grid

    quiet = system_processes(period_s=0.0, pages=0)
    keys = [(res, c) for res in ALONE_GRID_MIB for c in cats]
    jobs = [
        job(cats[c], args, res, "lpddr2-pcm", 128, page_cluster=page_cluster, system=quiet) for res, c in keys
    ]
    rs = dict(zip(keys, phone_grid(jobs, threads=args.threads), strict=True))
    n = len(cats)
    return [
        {
            "reserved_mib": res,
            "swap_ins": sum(rs[(res, c)].meters.swap_in_pages for c in cats) / n,
            "app_swap_faults": sum(a["swap_faults"] for c in cats for a in rs[(res, c)].meters.apps) / n,
            "kills": sum(rs[(res, c)].meters.kills_total for c in cats),
            "cold": sum(rs[(res, c)].meters.cold for c in cats),
        }
        for res in ALONE_GRID_MIB
    ]


def system_processes(**fields: Any) -> list[dict[str, Any]]:
    """The phone's system processes with ``fields`` changed (a ``system`` override)."""
    from ..phone import phones

    return [{**p, **fields} for p in phones()[PHONE]["system"]]
