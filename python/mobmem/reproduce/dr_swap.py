"""``mobmem reproduce dr-swap``: Table IV (swap-ins with Direct Read off and on) and Fig. 7 (energy of
DRAM-backed, flash-backed and DR. Swap over 15 minutes) of the DR. Swap paper, on mobmem's synthetic
versions of its eight app categories (Table III: the apps' sizes are the paper's; their access
behaviour is mobmem's generator, not the apps').

Method, as the paper's section V: each category runs its five apps round robin, three rounds; the
swap area is 128, 256 or 512 MiB of PCM; each run is replayed with Direct Read off and on. Energy
uses the paper's model with t_TOTAL = 900 s: DRAM-backed and flash-backed swap take the copies of
the DR-off run (N_rd, N_wr), DR. Swap those of the DR-on run (N'_rd, N'_wr).
"""

from __future__ import annotations

import argparse
from typing import Any

#: Table IV of the paper: category → swap MB → (DR disabled, DR enabled, reduction %).
PAPER_TABLE_IV: dict[str, dict[int, tuple[int, int, float]]] = {
    "browser": {128: (6017, 1771, 70.57), 256: (5830, 1224, 79.01), 512: (3172, 1102, 65.26)},
    "news": {128: (1857, 428, 76.95), 256: (2200, 449, 79.59), 512: (1945, 342, 82.42)},
    "multimedia": {128: (3038, 1438, 52.67), 256: (2172, 807, 62.85), 512: (1056, 475, 55.02)},
    "social": {128: (4295, 1150, 73.22), 256: (2137, 450, 78.94), 512: (2086, 583, 72.05)},
    "gaming": {128: (2174, 711, 67.30), 256: (1590, 515, 67.61), 512: (1795, 592, 67.02)},
    "shopping": {128: (2382, 864, 63.73), 256: (765, 264, 65.49), 512: (1136, 385, 66.11)},
    "mix1": {128: (3280, 1145, 65.09), 256: (2685, 1014, 62.23), 512: (1836, 796, 56.64)},
    "mix2": {128: (3343, 996, 70.21), 256: (2856, 935, 67.26), 512: (2166, 673, 68.93)},
}
PAPER_AVERAGE = {128: (3298, 1066, 67.68), 256: (2529, 707, 72.04), 512: (1899, 618, 67.46)}
#: Section V-E: DR. Swap saves more than this share of DRAM-backed swap's energy.
PAPER_ENERGY_SAVING = {128: 55.0, 256: 60.0, 512: 65.0}
#: Section V-D: DR removes around 50–75% of swap-ins.
PAPER_DR_BAND = (50.0, 75.0)
SWAP_MB = (128, 256, 512)
DURATION_S = 900.0
#: Assumed share of an app's anon pages that keep being written (the rest: written once, then read).
ANON_RW_SHARE = 0.3
#: Shares tried in the sensitivity line.
SENSITIVITY = (1.0, 0.6, 0.3, 0.1)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--policy", default="clock", help="page reclamation policy (default clock)")
    p.add_argument(
        "--memory", default="40%", help="DRAM for the apps, share of a category's footprint (default 40%%)"
    )
    p.add_argument(
        "--accesses-per-turn", type=int, default=400_000, help="accesses of one app's turn (default 400k)"
    )
    p.add_argument("--rounds", type=int, default=3, help="round-robin rounds of each category's apps")
    p.add_argument(
        "--categories", default=",".join(PAPER_TABLE_IV), help="Table III categories, comma-separated"
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the synthetic traces")
    p.add_argument("--threads", type=int, default=0, help="worker threads (0: all cores)")
    p.add_argument(
        "--anon-rw-share", type=float, default=ANON_RW_SHARE, help="assumed share of anon pages kept written"
    )
    p.add_argument(
        "--switching",
        action="store_true",
        help="instead: switching delay of DRAM-backed, DR. Swap and flash swap on the system level (Fig. 8)",
    )
    p.add_argument(
        "--memory-share",
        type=float,
        default=0.5,
        help="--switching: usable memory = system + this share of the category's apps (default 0.5)",
    )
    p.add_argument("--json", action="store_true", help="print the results as JSON")


def sensitivity(args: argparse.Namespace, cats: list[str]) -> dict[float, float]:
    """Average DR reduction of swap-ins (128 MB) as the read-mostly share of the heap varies."""
    from ..api import Trace, run_configs

    out = {}
    for share in SENSITIVITY:
        off_sum = on_sum = 0
        for cat in cats:
            t = Trace.category(cat, args.rounds, args.accesses_per_turn, args.seed, share)
            cfg = {"memory": args.memory, "policy": args.policy, "swap": "lpddr2-pcm", "swap_size": "128MiB"}
            off, on = run_configs(t, [cfg, {**cfg, "direct_read": True}], threads=args.threads)
            off_sum += off.meters["swap_ins"]
            on_sum += on.meters["swap_ins"]
        out[share] = 100.0 * (1 - on_sum / off_sum) if off_sum else float("nan")
    return out


def compute(args: argparse.Namespace) -> dict[str, Any]:
    if args.switching:
        from . import dr_swap_switching

        return {"switching": dr_swap_switching.compute(args)}
    from ..api import Trace, run_configs, swap_energy

    cats = [c.strip() for c in args.categories.split(",") if c.strip()]
    out: dict[str, Any] = {"categories": {}, "settings": {k: v for k, v in vars(args).items() if k != "func"}}
    for cat in cats:
        trace = Trace.category(cat, args.rounds, args.accesses_per_turn, args.seed, args.anon_rw_share)
        cfgs = [
            {
                "memory": args.memory,
                "policy": args.policy,
                "swap": "lpddr2-pcm",
                "swap_size": f"{mb}MiB",
                "direct_read": dr,
                "energy_duration_s": DURATION_S,
            }
            for mb in SWAP_MB
            for dr in (False, True)
        ]
        runs = run_configs(trace, cfgs, threads=args.threads)
        rows = {}
        for i, mb in enumerate(SWAP_MB):
            off, on = runs[2 * i].meters, runs[2 * i + 1].meters
            size = mb << 20
            dram = swap_energy("lpddr2-dram", off["swap_ins"], off["swap_outs"], DURATION_S, size)
            flash = swap_energy("emmc-inand", off["swap_ins"], off["swap_outs"], DURATION_S, size)
            pcm = runs[2 * i + 1].swap_energy
            assert pcm is not None
            rows[mb] = {
                "swap_ins_dr_off": off["swap_ins"],
                "swap_ins_dr_on": on["swap_ins"],
                "reduction_pct": 100.0 * (1 - on["swap_ins"] / off["swap_ins"]) if off["swap_ins"] else None,
                "swap_outs_dr_off": off["swap_outs"],
                "swap_outs_dr_on": on["swap_outs"],
                "dr_maps": on["dr_maps"],
                "dr_promotions": on["dr_promotions"],
                "swap_full_at": off["swap_full_at"],
                "energy_j": {"dram": dram["total_j"], "flash": flash["total_j"], "dr_swap": pcm["total_j"]},
                "energy_background_j": {
                    "dram": dram["background_j"],
                    "flash": flash["background_j"],
                    "dr_swap": pcm["background_j"],
                },
                "dr_swap_saving_vs_dram_pct": 100.0 * (1 - pcm["total_j"] / dram["total_j"]),
            }
        out["categories"][cat] = {
            "accesses": len(trace),
            "pages": trace.num_pages,
            "frames": runs[0].frames,
            "rows": rows,
        }
    out["sensitivity"] = sensitivity(args, cats)
    return out


def report(res: dict[str, Any]) -> str:
    if "switching" in res:
        from . import dr_swap_switching

        return dr_swap_switching.report(res["switching"])
    from ..table import num, render

    cats = res["categories"]
    lines = [
        "DR. Swap (Zhong et al.) — Table IV and Fig. 7, reproduced on synthetic app categories",
        "Workload: Table III's apps with the paper's app sizes as footprints; access behaviour is mobmem's",
        f"generator (synthetic). Policy {res['settings']['policy']}, DRAM {res['settings']['memory']} of each"
        f" category's footprint, {res['settings']['rounds']} rounds × 5 apps × {res['settings']['accesses_per_turn']:,}"
        " accesses, PCM swap area (lpddr2-pcm).",
        "",
    ]
    rows = []
    sums = {mb: [0, 0] for mb in SWAP_MB}
    for cat, d in cats.items():
        for mb in SWAP_MB:
            r = d["rows"][mb]
            p_off, p_on, p_red = PAPER_TABLE_IV[cat][mb]
            sums[mb][0] += r["swap_ins_dr_off"]
            sums[mb][1] += r["swap_ins_dr_on"]
            red = r["reduction_pct"]
            rows.append(
                [
                    cat,
                    f"{mb} MB",
                    num(r["swap_ins_dr_off"]),
                    num(r["swap_ins_dr_on"]),
                    "—" if red is None else f"{red:.1f}%",
                    num(p_off),
                    num(p_on),
                    f"{p_red:.1f}%",
                ]
            )
    n = len(cats)
    avg_red = {}
    for mb in SWAP_MB:
        off, on = sums[mb][0] / n, sums[mb][1] / n
        avg_red[mb] = 100.0 * (1 - on / off) if off else None
        p_off, p_on, p_red = PAPER_AVERAGE[mb]
        rows.append(
            [
                "average",
                f"{mb} MB",
                num(round(off)),
                num(round(on)),
                "—" if avg_red[mb] is None else f"{avg_red[mb]:.1f}%",
                num(p_off),
                num(p_on),
                f"{p_red:.1f}%",
            ]
        )
    lines.append(
        render(
            ["category", "swap", "DR off", "DR on", "↓", "paper off", "paper on", "paper ↓"],
            rows,
            title="Table IV — swap-ins (page copies PCM → DRAM), Direct Read disabled vs enabled",
        )
    )
    lines.append("")
    erows = []
    savings: dict[int, list[float]] = {mb: [] for mb in SWAP_MB}
    for cat, d in cats.items():
        for mb in SWAP_MB:
            r = d["rows"][mb]
            e = r["energy_j"]
            savings[mb].append(r["dr_swap_saving_vs_dram_pct"])
            erows.append(
                [
                    cat,
                    f"{mb} MB",
                    f"{e['dram']:.3f}",
                    f"{e['flash']:.3f}",
                    f"{e['dr_swap']:.3f}",
                    f"{r['dr_swap_saving_vs_dram_pct']:.1f}%",
                    f"> {PAPER_ENERGY_SAVING[mb]:.0f}%",
                ]
            )
    lines.append(
        render(
            ["category", "swap", "DRAM-backed J", "flash J", "DR. Swap J", "DR. Swap saves", "paper"],
            erows,
            title="Fig. 7 — energy of the swap area over 15 minutes (paper's model, eqs. 1–14)",
        )
    )
    lines.append("")
    lines.append("Against the paper:")
    reds = [
        r["reduction_pct"]
        for d in cats.values()
        for r in d["rows"].values()
        if r["reduction_pct"] is not None
    ]
    if reds:
        lo, hi = min(reds), max(reds)
        inside = PAPER_DR_BAND[0] <= lo and hi <= PAPER_DR_BAND[1]
        lines.append(
            f"- Direct Read removed {lo:.1f}–{hi:.1f}% of swap-ins (paper: about {PAPER_DR_BAND[0]:.0f}–{PAPER_DR_BAND[1]:.0f}%): "
            + ("within the paper's range." if inside else "DIFFERS from the paper's range.")
        )
    for mb in SWAP_MB:
        lo = min(savings[mb])
        ok = lo > PAPER_ENERGY_SAVING[mb]
        lines.append(
            f"- {mb} MB: DR. Swap saves {lo:.1f}–{max(savings[mb]):.1f}% of DRAM-backed swap's energy"
            f" (paper: more than {PAPER_ENERGY_SAVING[mb]:.0f}%): " + ("agrees." if ok else "DIFFERS.")
        )
    flash_lowest = all(
        r["energy_j"]["flash"] < r["energy_j"]["dr_swap"] < r["energy_j"]["dram"]
        for d in cats.values()
        for r in d["rows"].values()
    )
    lines.append(
        "- Order flash < DR. Swap < DRAM-backed in every case (paper: the same): "
        + ("agrees." if flash_lowest else "DIFFERS.")
    )
    lines.append("")
    lines.append("Why ours can differ:")
    lines.append(
        "- The workloads are synthetic: Table III gives app sizes only. Absolute swap-in counts depend on the"
        " access behaviour and DRAM size chosen here, so compare the reductions, not the counts."
    )
    same_sizes = all(len({d["rows"][mb]["swap_ins_dr_off"] for mb in SWAP_MB}) == 1 for d in cats.values())
    if same_sizes:
        lines.append(
            "- Swap size did not change our swap-ins: page-level replay swaps the same pages whatever the area's"
            " size until it fills, and it never filled. The paper's fall with swap size comes from the phone as a"
            " whole (fewer processes killed and relaunched), which needs the system-level model (apps and the low"
            " memory killer), not this page-level replay."
        )
    sens = res["sensitivity"]
    lines.append(
        f"- Direct Read pays on pages that are only read after they were swapped out. Table III gives no such"
        f" figure: mobmem assumes {res['settings']['anon_rw_share']:.0%} of each app's anon pages keep being"
        " written (the rest are written once, then read). The reduction follows that assumption: "
        + ", ".join(f"{100 * (1 - k):.0f}% read-mostly → {v:.1f}%" for k, v in sens.items())
        + " fewer swap-ins (average, 128 MB)."
    )
    lines.append(
        "- Energy is dominated by background power over 900 s (the paper says so too), so the saving mostly"
        " reflects Table II's background powers and DRAM refresh scaled by swap size; the copies matter little."
    )
    return "\n".join(lines)
