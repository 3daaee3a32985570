"""``mobmem reproduce emmc-swap``: the eMMC swap paper (Lee et al., "Swap in Android app switching
on eMMC") — ten games loaded in order, then switched three more rounds, in random order or in order,
with swap on a 1 GB eMMC swap file or off (cases 1–4) — beside its Figs. 7–10 and Tables VI–VII.

Method: the ``gt-i9300`` phone (1 GB DRAM, ~460 MB usable as the paper's Fig. 5 says, Jelly Bean's
low memory killer levels, linux-2q reclaim at swappiness 77, page-cluster 3, the eMMC's Table VIII
bandwidths by request size) and the ten games of Table V (sizes and loading times measured; file
data read at a cold start from Table VI in aggregate; the anon share, resume CPU time and working
sets assumed — see docs/SYSTEM.md). The next game is launched as soon as the previous one has
loaded (the paper switches each to the background when its loading completes).

Run at the paper's 460 MB, the ten games fit (the model kills nothing, swap on or off), so the
paper's contrasts cannot appear there. The reproduction therefore also finds the usable memory at
which case 2 (random order, no swap) keeps about four games alive through the reloads — the paper's
one figure about memory capacity — and reports all four cases there: every other number is then a
prediction to compare with the paper's.

Beyond the paper, the swap cases run again there with zram (``zram-lz4``, compressed pages in the
usable memory) in place of the eMMC swap file, and random order once more with the killer's levels
scaled by the calibration's factor, which shows what decides zram's outcome.
"""

from __future__ import annotations

import argparse
from typing import Any

#: (case, random order, swap on) as the paper numbers them.
CASES = ((1, True, True), (2, True, False), (3, False, True), (4, False, False))
#: Section III-B and Tables VI–VII.
PAPER = {
    "cut_1_vs_4_pct": 54.0,
    "cut_1_vs_2_pct": 45.0,
    "cut_2_vs_4_pct": 17.0,
    "reload_speedup_pct": 76.0,
    "first_load_overhead_s": 1.53,
    "first_load_s": {"on": 68.49, "off": 66.96},
    "switching_total_s": {"on": 113.86, "off": 247.73},
    "write_mb": {"on": 89.66, "off": 7.13},
    "read_mb": {"on": 631.87, "off": 906.24},
    "case2_live_apps": 4.0,
    "energy_cut_1_vs_4_pct": 54.0,
    "first_load_energy_pct": 3.0,
}
USABLE_MB = 460
SWEEP_MB = tuple(range(USABLE_MB, 159, -10))
SWAP = "emmc-gt-i9300"
#: Beyond the paper: the same scenario with zram (of the swap file's size) instead of the eMMC.
ZRAM = "zram-lz4"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rounds", type=int, default=3, help="reload rounds after the first (paper: 3)")
    p.add_argument(
        "--usable", type=int, help="usable memory in MB for the second block (default: calibrated)"
    )
    p.add_argument("--seed", type=int, default=7, help="seed of the random orders")
    p.add_argument("--threads", type=int, default=0, help="worker threads (0: all cores)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")


def _reserved(usable_mb: int) -> str:
    return f"{1024 - usable_mb}MiB"


def _job(
    random: bool,
    swap: bool | str,
    usable_mb: int,
    args: argparse.Namespace,
    killer_params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A case; ``swap`` is on (the eMMC swap file), off, or another swap device's name."""
    from ..phone import job, rounds

    usage = rounds(random=random, rounds=args.rounds, seed=args.seed, gap_s=0.0)
    device = swap if isinstance(swap, str) else SWAP if swap else "off"
    over: dict[str, Any] = {"swap": device, "reserved": _reserved(usable_mb)}
    if killer_params is not None:
        over["killer_params"] = killer_params
    if device == ZRAM:
        # Android sets vm.page-cluster to 0 with zram: reading ahead would only decompress more.
        over["page_cluster"] = 0
    return job(usage, "gt-i9300", seed=args.seed, **over)


def _case(r: Any) -> dict[str, Any]:
    m = r.meters
    ls = r.launches
    first, reload = ls[:10], ls[10:]
    mb = 4096 / 1e6
    active_w = r.config["phone"]["active_mw"] / 1e3
    return {
        "total_s": m["total_launch_ms"] / 1e3,
        "first_s": sum(x["latency_ms"] for x in first) / 1e3,
        "reload_s": sum(x["latency_ms"] for x in reload) / 1e3,
        "first_mean_s": sum(x["latency_ms"] for x in first) / 1e3 / max(len(first), 1),
        "reload_mean_s": sum(x["latency_ms"] for x in reload) / 1e3 / max(len(reload), 1),
        "live_reload": sum(x["live_apps"] for x in reload) / max(len(reload), 1),
        "resumed": m["resumed"],
        "cold": m["cold"],
        "kills": m["kills_total"],
        "swap_write_mb": m["swap_out_pages"] * mb,
        "swap_read_mb": m["swap_in_pages"] * mb,
        "file_read_mb": m["file_read_pages"] * mb,
        "flash_write_mb": m["flash_write_bytes"] / 1e6,
        "flash_read_mb": m["flash_read_bytes"] / 1e6,
        "pe_cycles": m["pe_cycles_used"],
        "energy_j": m["energy"]["launch_j"] + m["energy"]["swap_device_j"] + m["energy"]["storage_device_j"],
        "first_energy_j": active_w * sum(x["latency_ms"] for x in first) / 1e3,
        "ux": m["ux"],
    }


def _zram_case(r: Any) -> dict[str, Any]:
    """A case with zram, with what explains its kills: the DRAM its compressed pages took and the
    killer's highest level (the free memory and file cache below which cached apps die)."""
    mib = r.config["phone"]["page_size"] / 1048576
    levels = r.config["killer_levels"]
    return {
        **_case(r),
        "peak_zram_mib": r.pages["peak_zram_frames"] * mib,
        "cached_level_mib": max(p for _, p in levels) * mib if levels else None,
        "usable_mib": r.config["layout"]["frames"] * mib,
    }


def _block(results: list[Any]) -> dict[str, Any]:
    cases = {str(n): _case(r) for (n, _, _), r in zip(CASES, results, strict=True)}
    c = {int(k): v for k, v in cases.items()}

    def cut(a: int, b: int, key: str = "total_s") -> float:
        return 100.0 * (1 - c[a][key] / c[b][key])

    return {
        "cases": cases,
        "cut_1_vs_4_pct": cut(1, 4),
        "cut_1_vs_2_pct": cut(1, 2),
        "cut_2_vs_4_pct": cut(2, 4),
        "reload_speedup_pct": 100.0 * (1 - c[1]["reload_mean_s"] / c[1]["first_mean_s"]),
        "first_load_overhead_s": c[3]["first_s"] - c[4]["first_s"],
        "energy_cut_1_vs_4_pct": cut(1, 4, "energy_j"),
        "first_load_energy_pct": 100.0 * (c[3]["first_energy_j"] / c[4]["first_energy_j"] - 1),
    }


def compute(args: argparse.Namespace) -> dict[str, Any]:
    from ..phone import phone_grid

    jobs = [_job(rnd, swap, USABLE_MB, args) for _, rnd, swap in CASES]
    # The sweep: case 2 (random, no swap) and case 1 (random, swap) at each usable size.
    sweep = [(mb, swap) for mb in SWEEP_MB for swap in (False, True)]
    jobs += [_job(True, swap, mb, args) for mb, swap in sweep]
    rs = phone_grid(jobs, threads=args.threads)
    stated = _block(rs[:4])
    points = []
    for (mb, swap), r in zip(sweep, rs[4:], strict=True):
        c = _case(r)
        points.append(
            {"usable_mb": mb, "swap": swap, "live_reload": c["live_reload"], "total_s": c["total_s"]}
        )
    target = PAPER["case2_live_apps"]
    off = [p for p in points if not p["swap"]]
    if args.usable is not None:
        usable, how = args.usable, "given"
    else:
        best = min(off, key=lambda p: (abs(p["live_reload"] - target), -p["usable_mb"]))
        usable, how = best["usable_mb"], "calibrated"
    second = phone_grid(
        [_job(rnd, swap, usable, args) for _, rnd, swap in CASES]
        + [_job(rnd, ZRAM, usable, args) for rnd in (True, False)],
        threads=args.threads,
    )
    calibrated = _block(second[:4])
    zram: dict[str, Any] = {"random": _zram_case(second[4]), "in_order": _zram_case(second[5])}
    # The killer's levels were made for the phone's real usable memory: scaled by the calibration's
    # factor, random order again with each swap setting.
    factor = usable / USABLE_MB
    cfg = second[4].config
    kib = [int(p * cfg["phone"]["page_size"] / 1024 * factor) for _, p in cfg["killer_levels"]]
    kp = {**cfg["killer_params"], "minfree_kib": kib}
    scaled = phone_grid(
        [_job(True, swap, usable, args, kp) for swap in (True, ZRAM, False)], threads=args.threads
    )
    zram["scaled_levels"] = {
        "factor": factor,
        "minfree_kib": kib,
        "cases": {k: _zram_case(r) for k, r in zip(("swap", "zram", "off"), scaled, strict=True)},
    }
    return {
        "paper": PAPER,
        "stated": {"usable_mb": USABLE_MB, **stated},
        "second": {"usable_mb": usable, "how": how, **calibrated, "zram": zram},
        "sweep": points,
        "rounds": args.rounds,
        "seed": args.seed,
    }


def _verdict(ours: float, paper: float, points: float) -> str:
    return "close" if abs(ours - paper) <= points else "DIFFERS"


def _rel(ours: float, paper: float, share: float = 0.25) -> str:
    return "close" if abs(ours - paper) <= share * abs(paper) else "DIFFERS"


def _report_block(title: str, b: dict[str, Any], paper: dict[str, Any]) -> list[str]:
    from ..table import render

    c = {int(k): v for k, v in b["cases"].items()}
    rows = []
    for n, rnd, swap in CASES:
        v = c[n]
        rows.append(
            (
                f"case {n}: {'random' if rnd else 'in order'}, swap {'on' if swap else 'off'}",
                f"{v['total_s']:.1f}",
                f"{v['first_s']:.1f}",
                f"{v['reload_mean_s']:.2f}",
                f"{v['live_reload']:.1f}",
                f"{v['resumed']}",
                f"{v['kills']}",
                f"{v['swap_write_mb']:.1f}",
                f"{v['file_read_mb'] + v['swap_read_mb']:.1f}",
                f"{v['energy_j']:.0f}",
            )
        )
    out = [
        render(
            (
                "",
                "total s",
                "1st load s",
                "reload s (mean)",
                "live apps",
                "resumed",
                "kills",
                "swap write MB",
                "read MB",
                "energy J",
            ),
            rows,
            title=title,
        ),
        "",
    ]
    # (claim, ours, paper, how to print, points within which it is close)
    claims = [
        ("total loading time, case 1 vs case 4", b["cut_1_vs_4_pct"], paper["cut_1_vs_4_pct"], "cut", 10.0),
        ("total loading time, case 1 vs case 2", b["cut_1_vs_2_pct"], paper["cut_1_vs_2_pct"], "cut", 10.0),
        ("total loading time, case 2 vs case 4", b["cut_2_vs_4_pct"], paper["cut_2_vs_4_pct"], "cut", 10.0),
        (
            "reloads vs first loads (case 1)",
            b["reload_speedup_pct"],
            paper["reload_speedup_pct"],
            "faster",
            10.0,
        ),
        ("energy, case 1 vs case 4", b["energy_cut_1_vs_4_pct"], paper["energy_cut_1_vs_4_pct"], "cut", 10.0),
        (
            "first-load energy, swap on vs off",
            b["first_load_energy_pct"],
            paper["first_load_energy_pct"],
            "more",
            5.0,
        ),
    ]
    for name, ours, p, how, pts in claims:
        if how == "cut":
            text = f"{-ours:+.1f}% (paper −{p:.0f}%)"
        elif how == "faster":
            text = f"{ours:.1f}% faster (paper {p:.0f}% faster)"
        else:
            text = f"{ours:+.1f}% (paper +{p:.0f}%)"
        out.append(f"  {name}: {text}: {_verdict(ours, p, pts)}")
    ov = b["first_load_overhead_s"]
    out.append(
        f"  first-load overhead of swap (case 3 − case 4, ten loads): {ov:+.2f} s"
        f" (paper +{paper['first_load_overhead_s']} s): {_rel(ov, paper['first_load_overhead_s'], 0.5)}"
    )
    on, off = c[3], c[4]
    for key, label, ours_on, ours_off in (
        ("switching_total_s", "in order, all 40 launches, s", on["total_s"], off["total_s"]),
        ("write_mb", "flash writes, MB", on["flash_write_mb"], off["flash_write_mb"]),
        ("read_mb", "flash reads, MB", on["flash_read_mb"], off["flash_read_mb"]),
    ):
        p_on, p_off = paper[key][("on")], paper[key]["off"]
        out.append(
            f"  Table VII {label}: swap on {ours_on:.1f} (paper {p_on}) {_rel(ours_on, p_on)},"
            f" off {ours_off:.1f} (paper {p_off}) {_rel(ours_off, p_off)}"
        )
    if off["flash_write_mb"] > 0:
        out.append(
            f"  writes with swap / without: {on['flash_write_mb'] / off['flash_write_mb']:.1f}× (paper 12.5×)"
        )
    else:
        out.append(
            "  writes with swap / without: no ratio — the model writes no file-system metadata, which is"
            " all the paper's 7.13 MB without swap are (paper 12.5×)"
        )
    if on["pe_cycles"] is not None:
        out.append(
            f"  P/E cycles used by this scenario with swap: {on['pe_cycles']:.2e} of the 3-bit MLC's 1,000"
        )
    return out


def _report_zram(b: dict[str, Any]) -> list[str]:
    """The calibrated block's swap cases beside the same runs with zram (not in the paper)."""
    from ..table import render

    c, sc = b["cases"], b["zram"]["scaled_levels"]
    groups = (
        ("random", (c["1"], b["zram"]["random"], c["2"])),
        ("in order", (c["3"], b["zram"]["in_order"], c["4"])),
        (
            f"random, levels × {sc['factor']:.2f}",
            (sc["cases"]["swap"], sc["cases"]["zram"], sc["cases"]["off"]),
        ),
    )
    rows = [
        (
            group if label == "eMMC swap" else "",
            label,
            f"{v['total_s']:.1f}",
            f"{v['reload_mean_s']:.2f}",
            f"{v['live_reload']:.1f}",
            f"{v['kills']}",
            f"{v['flash_write_mb']:.1f}",
            f"{v['energy_j']:.0f}",
        )
        for group, cases in groups
        for label, v in zip(("eMMC swap", "zram", "swap off"), cases, strict=True)
    ]
    title = (
        f"Beyond the paper, at {b['usable_mb']} MB usable: zram ({ZRAM}, the swap file's 1 GB"
        " uncompressed, its compressed pages in the usable memory) instead of the eMMC swap file"
    )
    heads = ("order", "swap", "total s", "reload s", "live apps", "kills", "flash write MB", "energy J")
    out = [render(heads, rows, title=title), ""]
    z, zs = b["zram"]["random"], sc["cases"]["zram"]
    out.append(
        f"  zram took at most {z['peak_zram_mib']:.0f} MiB of {z['usable_mib']:.0f} MiB (random order),"
        f" {zs['peak_zram_mib']:.0f} MiB with the scaled levels."
    )
    if z["cached_level_mib"] is not None:
        out.append(
            "  The low memory killer decides: its levels (ProcessList's for this phone: cached apps die"
            f" when free memory and file cache are both under {z['cached_level_mib']:.0f} MiB) were made"
            f" for ~{USABLE_MB} MB usable; zram's compressed pages stay in DRAM and shrink the file"
            " cache that rule measures, where swapped pages on eMMC leave DRAM. With the levels scaled"
            f" by {b['usable_mb']}/{USABLE_MB} (minfree_kib = {sc['minfree_kib']}), zram kills"
            f" {zs['kills']} and totals {zs['total_s']:.1f} s against eMMC swap's"
            f" {sc['cases']['swap']['total_s']:.1f} s, with no flash writes."
        )
    return out


def report(res: dict[str, Any]) -> str:
    from ..table import render

    paper = res["paper"]
    s, c = res["stated"], res["second"]
    out = [
        "eMMC swap paper: ten games (Table V), loaded in order then switched "
        f"{res['rounds']} more rounds; GT-I9300 model (docs/SYSTEM.md)",
        "",
    ]
    out += _report_block(f"At the paper's {s['usable_mb']} MB usable memory", s, paper)
    live2 = s["cases"]["2"]["live_reload"]
    out.append(
        f"  live apps during reloads, case 2: {live2:.1f} (paper ~{paper['case2_live_apps']:.0f}):"
        f" {_rel(live2, paper['case2_live_apps'])}"
        + (" — at this size the games fit and nothing is killed." if s["cases"]["4"]["kills"] == 0 else "")
    )
    out.append("")
    rows = []
    by_mb: dict[int, dict[bool, float]] = {}
    for p in res["sweep"]:
        by_mb.setdefault(p["usable_mb"], {})[p["swap"]] = p["live_reload"]
    for mb, v in sorted(by_mb.items(), reverse=True):
        rows.append((f"{mb} MB", f"{v[False]:.1f}", f"{v[True]:.1f}"))
    out.append(
        render(
            ("usable memory", "live apps, swap off", "swap on"),
            rows,
            title="Random order: live apps during reloads",
        )
    )
    out.append("")
    how = (
        f"calibrated: case 2 keeps ~{paper['case2_live_apps']:.0f} games alive"
        if c["how"] == "calibrated"
        else "given with --usable"
    )
    out += _report_block(f"At {c['usable_mb']} MB usable ({how})", c, paper)
    out.append(
        f"  live apps during reloads, case 2: {c['cases']['2']['live_reload']:.1f}"
        f" (paper ~{paper['case2_live_apps']:.0f}; the calibration target)"
    )
    if c["how"] == "calibrated":
        out.append(
            f"  The model matches the paper's kills with {c['usable_mb']} MB for the games, not"
            f" {s['usable_mb']} MB: the real games (or the rest of the phone) held more memory than"
            " Table V's execution sizes and the model's file cache account for."
        )
    out.append("")
    out += _report_zram(c)
    out.append("")
    out.append(
        "Notes: launch time = CPU time (95% of Table V's loading time for a cold start; 0.5 s to resume a"
        " game, assumed) + the I/O it waits for on the eMMC model; the paper measured whole-phone time"
        " and energy, the model's energy is an assumed active power × launch time + device operations."
    )
    return "\n".join(out)
