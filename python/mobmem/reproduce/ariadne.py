"""``mobmem reproduce ariadne``: hotness-aware, size-adaptive compressed swap (Liang et al., HPCA
2025) against stock zram, with each of its techniques alone, beside the paper's figures: about 50%
shorter relaunches than zram (Fig. 10), about 15% less compression and decompression CPU (Fig. 11),
decompression in relaunches 60–90% shorter (Fig. 12), and zram's relaunch 2.1× the relaunch with
everything in DRAM (Fig. 2); its ratios (Fig. 13) are printed, not judged (they follow from Fig. 6's
table, an input).

Method, as far as the paper describes it (Section 5): a Pixel 7 with 12 GB of DRAM and a 3 GB zram
pool (``pixel-7`` at ``--dram``), LZO, its ten apps (``mobmem/data/ariadne/apps.toml``: Table 1's
anonymous data, Fig. 2's DRAM relaunch times, the artifact's hot-list lengths). For each of the five
apps it plots, the target: launch it and use it, put it in the background, launch the nine others,
relaunch it; then the same again ("the nine applications in different orders", ``--orders``
orders); the second relaunch is read, as the paper's artifact reads its second round. Runs:

- ``zram``: stock zram (device ``zram-lzo``: LZO in 4 KiB pages, nothing decompressed ahead);
- ``ariadne-ehl``: ``ariadne-lzo`` (1K-2K-16K, one page ahead) with the hot list kept in DRAM
  (swap admission ``hot-list``: the paper's "EHL");
- ``ariadne-al``: the same with every list compressed (admission ``all``: "AL");
- each technique alone: ``hotness`` (``zram-lzo`` with ``hot-list``), ``adaptive`` (1K-2K-16K, nothing
  ahead), ``predecomp`` (4 KiB chunks, one page ahead);
- ``ehl-1k-4k-16k`` (the configuration of Fig. 13's best ratio) and ``ehl-size-blind`` (every chunk
  size at Fig. 6's 4 KB time per byte: the other reading of its small-chunk times, docs/SYSTEM.md);
- ``dram``: the same usage with DRAM enough for everything (``--dram-all``), nothing swapped.

Relaunch latency is the model's (CPU time, the waits for zram, direct reclaim and files) under every
scheme alike; the paper measured zram's and DRAM's on the phone but computed Ariadne's as the DRAM
relaunch plus its replayed decompression time (its artifact, AppTrace/scripts/extract_eva.py).
"""

from __future__ import annotations

import argparse
import random
import statistics
from pathlib import Path
from typing import Any

from .verdict import pct

#: The five apps the paper plots (Figs. 10-13) and the five others it runs (Section 5).
TARGETS = ("YouTube", "Twitter", "Firefox", "GoogleEarth", "BangDream")
OTHERS = ("TikTok", "Edge", "GoogleMaps", "AngryBirds", "TwitchTV")
#: Each scheme: its swap device and swap admission (None: DRAM enough for everything).
SCHEMES: dict[str, tuple[str, str] | None] = {
    "zram": ("zram-lzo", "all"),
    "ariadne-ehl": ("ariadne-lzo", "hot-list"),
    "ariadne-al": ("ariadne-lzo", "all"),
    "hotness": ("zram-lzo", "hot-list"),
    "adaptive": ("ariadne-adaptive", "all"),
    "predecomp": ("ariadne-predecomp", "all"),
    "ehl-1k-4k-16k": ("ariadne-1k-4k-16k", "hot-list"),
    "ehl-size-blind": ("ariadne-size-blind", "hot-list"),
    "dram": None,
}
DATA = Path(__file__).resolve().parent.parent / "data" / "ariadne"
#: The paper's numbers (changes against zram, %, unless said).
PAPER: dict[str, float] = {
    "relaunch_pct": -50.0,
    "cpu_pct": -15.0,
    "decompress_youtube_twitter_pct": -60.0,
    "decompress_bangdream_pct": -90.0,
    "compress_youtube_twitter_pct": -20.0,
    "zram_over_dram": 2.1,
    "ariadne_over_dram_pct_at_most": 10.0,
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dram", default="12GiB", help="the phone's DRAM (Table 4: 12 GB)")
    p.add_argument(
        "--reserved", default="6.75GiB", help="DRAM out of the apps' reach (assumed; the ledger says why)"
    )
    p.add_argument(
        "--dram-all", default="64GiB", help="the DRAM of the 'dram' scheme (enough for everything)"
    )
    p.add_argument(
        "--orders", type=int, default=3, help="orders of the nine other apps per target (the paper: three)"
    )
    p.add_argument("--use", type=float, default=300.0, help="seconds the target is used after each launch")
    p.add_argument("--gap", type=float, default=10.0, help="seconds between the other apps' launches")
    p.add_argument("--threads", type=int, default=0, help="worker threads (0: all cores)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")


def scenario(target: str, order: int, use_s: float, gap_s: float) -> list[tuple[float, str]]:
    """The paper's trace procedure (Section 5) as launches: the target, then the nine others in
    order ``order`` (a shuffle seeded by it), the target again; twice."""
    others = [a for a in TARGETS + OTHERS if a != target]
    random.Random(order).shuffle(others)
    rows, t = [(0.0, target)], use_s
    for _ in range(2):
        for a in others:
            rows.append((t, a))
            t += gap_s
        rows.append((t, target))
        t += use_s
    return rows


def _usage(target: str, order: int, args: argparse.Namespace) -> Any:
    from ..errors import ConfigError
    from ..phone import launches

    for name, v in (("use", args.use), ("gap", args.gap)):
        if not v > 0:
            raise ConfigError(f"--{name} {v}: need a positive number of seconds", name)
    return launches(scenario(target, order, args.use, args.gap))


def _relaunch(r: Any, target: str) -> dict[str, Any]:
    """The target's last launch (its second relaunch) in run ``r``."""
    rec = [x for x in r.launches if x["app"] == target][-1]
    return {
        "latency_ms": rec["latency_ms"],
        "cold": rec["cold"],
        "swap_wait_ms": rec["swap_wait_ms"],
        "file_wait_ms": rec["file_wait_ms"],
        "reclaim_wait_ms": rec["reclaim_wait_ms"],
        "decompress_ms": rec["decompress_ms"],
        "swap_pages_read": rec["swap_pages_read"],
    }


def _run(r: Any, target: str) -> dict[str, Any]:
    m = r.meters
    out = _relaunch(r, target)
    out.update(
        compress_s=m["cpu"]["compress_s"],
        decompress_s=m["cpu"]["decompress_s"],
        swap_out_pages=m["swap_out_pages"],
        swap_in_pages=m["swap_in_pages"],
        kills=m["kills_total"],
        zram_ratio=m["zram_ratio"],
        compressed={c: m[f"compressed_{c}_pages"] for c in ("hot", "warm", "cold")},
        decompressed={c: m[f"decompressed_{c}_pages"] for c in ("hot", "warm", "cold")},
        predecomp=m["predecomp_pages"],
        predecomp_used=m["predecomp_used"],
    )
    return out


def _mean(xs: list[float]) -> float:
    return statistics.fmean(xs) if xs else 0.0


def _per_target(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """A target's runs (one per order): relaunch means, CPU sums, the pooled ratio."""
    pages = sum(sum(x["compressed"].values()) for x in runs)
    frames = sum(sum(x["compressed"].values()) / x["zram_ratio"] for x in runs if x["zram_ratio"])
    return {
        "relaunch_ms": _mean([x["latency_ms"] for x in runs]),
        "cold_relaunches": sum(x["cold"] for x in runs),
        "swap_wait_ms": _mean([x["swap_wait_ms"] for x in runs]),
        "file_wait_ms": _mean([x["file_wait_ms"] for x in runs]),
        "reclaim_wait_ms": _mean([x["reclaim_wait_ms"] for x in runs]),
        "decompress_ms": _mean([x["decompress_ms"] for x in runs]),
        "compress_s": sum(x["compress_s"] for x in runs),
        "decompress_s": sum(x["decompress_s"] for x in runs),
        "cpu_s": sum(x["compress_s"] + x["decompress_s"] for x in runs),
        "zram_ratio": pages / frames if frames else None,
        "kills": sum(x["kills"] for x in runs),
        "compressed": {c: sum(x["compressed"][c] for x in runs) for c in ("hot", "warm", "cold")},
        "decompressed": {c: sum(x["decompressed"][c] for x in runs) for c in ("hot", "warm", "cold")},
        "predecomp": sum(x["predecomp"] for x in runs),
        "predecomp_used": sum(x["predecomp_used"] for x in runs),
    }


def _change(a: float | None, b: float | None) -> float | None:
    return pct(a, b) if a is not None and b else None


def compute(args: argparse.Namespace) -> dict[str, Any]:
    from ..errors import ConfigError
    from ..experiment.runner import phone_grid
    from ..phone import job

    if args.orders < 1:
        raise ConfigError(f"--orders: {args.orders}; need at least 1", "orders")
    keys, jobs = [], []
    for scheme, how in SCHEMES.items():
        for target in TARGETS:
            for order in range(1, args.orders + 1):
                u = _usage(target, order, args)
                # A foreground session lasts until the next launch, at most session_s: the target's use.
                over: dict[str, Any] = {"reserved": args.reserved, "session_s": args.use}
                if how is None:
                    over.update(dram=args.dram_all, swap="zram-lzo")
                else:
                    over.update(dram=args.dram, swap=how[0], swap_admission=how[1])
                keys.append((scheme, target))
                jobs.append(job(u, "pixel-7", seed=order, **over))
    rs = phone_grid(jobs, threads=args.threads, apps=DATA / "apps.toml", devices=DATA / "devices.toml")
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for (scheme, target), r in zip(keys, rs, strict=True):
        runs.setdefault(scheme, {}).setdefault(target, []).append(_run(r, target))
    points = {s: {t: _per_target(v) for t, v in ts.items()} for s, ts in runs.items()}
    base = points["zram"]
    changes: dict[str, Any] = {}
    for s, ts in points.items():
        per = {
            t: {
                k: _change(p[k], base[t][k])
                for k in ("relaunch_ms", "cpu_s", "compress_s", "decompress_s", "decompress_ms", "zram_ratio")
            }
            for t, p in ts.items()
        }
        mean = {
            k: _mean([x for v in per.values() if (x := v[k]) is not None])
            for k in ("relaunch_ms", "cpu_s", "compress_s", "decompress_s", "decompress_ms", "zram_ratio")
        }
        changes[s] = {"per_target": per, "mean": mean}
    dram = points["dram"]
    over_dram = {
        s: {t: pct(p["relaunch_ms"], dram[t]["relaunch_ms"]) for t, p in ts.items()}
        for s, ts in points.items()
    }
    return {
        "paper": PAPER,
        "dram": args.dram,
        "reserved": args.reserved,
        "orders": args.orders,
        "points": points,
        "changes": changes,
        "over_dram_pct": over_dram,
        "zram_over_dram": _mean([base[t]["relaunch_ms"] for t in TARGETS])
        / _mean([dram[t]["relaunch_ms"] for t in TARGETS]),
    }


def _ratio(xs: list[float | None]) -> str:
    known = [x for x in xs if x is not None]
    return f"{_mean(known):.2f}" if known else "—"


def report(res: dict[str, Any]) -> str:
    from ..table import render

    pts, ch = res["points"], res["changes"]
    total = lambda s, f: sum(f(pts[s][t]) for t in TARGETS)  # noqa: E731
    mean = lambda s, k: _mean([pts[s][t][k] for t in TARGETS])  # noqa: E731
    lines = [
        f"Ariadne vs stock zram on pixel-7 at {res['dram']} DRAM ({res['reserved']} out of the apps' reach, "
        f"3 GiB zram, LZO): each of the paper's five apps relaunched after the nine others, in "
        f"{res['orders']} orders; the second relaunch is read.",
        "",
    ]
    rows = [
        (s, *(f"{pts[s][t]['relaunch_ms']:.1f}" for t in TARGETS), f"{ch[s]['mean']['relaunch_ms']:+.1f}%")
        for s in SCHEMES
    ]
    lines.append(render(("relaunch (ms)", *TARGETS, "vs zram"), rows))
    lines.append("")
    rows = [
        (
            s,
            f"{mean(s, 'swap_wait_ms'):.2f}",
            f"{mean(s, 'file_wait_ms'):.2f}",
            f"{mean(s, 'reclaim_wait_ms'):.2f}",
            f"{mean(s, 'decompress_ms'):.2f}",
            f"{total(s, lambda p: p['compress_s']):.1f}",
            f"{total(s, lambda p: p['decompress_s']):.2f}",
            f"{ch[s]['mean']['cpu_s']:+.1f}%",
            _ratio([pts[s][t]["zram_ratio"] for t in TARGETS]),
            f"{total(s, lambda p: p['kills'])}",
        )
        for s in SCHEMES
    ]
    head = ("scheme", "zram wait", "file wait", "reclaim", "decomp.", "comp. CPU s", "decomp. CPU s")
    lines.append(
        "A relaunch's waits and decompression (ms, mean over the apps); the runs' CPU (all apps) and ratio:"
    )
    lines.append(render((*head, "CPU vs zram", "ratio", "kills"), rows))
    lines.append("")
    rows = [
        (
            s,
            *(f"{total(s, lambda p, c=c: p['compressed'][c]):,}" for c in ("hot", "warm", "cold")),
            f"{total(s, lambda p: p['decompressed']['cold']):,}",
            f"{total(s, lambda p: p['predecomp']):,}",
            f"{total(s, lambda p: p['predecomp_used']):,}",
        )
        for s in SCHEMES
        if s != "dram"
    ]
    lines.append(
        render(("pages", "compressed hot", "warm", "cold", "cold faults", "ahead", "ahead, used"), rows)
    )
    lines.append("")
    lines.append(f"zram's relaunch over DRAM's: {res['zram_over_dram']:.2f}× (the paper: 2.1×).")
    return "\n".join(lines)


def held_args(args: argparse.Namespace, res: dict[str, Any]) -> dict[str, Any]:
    """Nothing is fitted."""
    return {}


def idle_args(args: argparse.Namespace, res: dict[str, Any]) -> dict[str, Any]:
    """The idle workload of the scoreboard's echo test (the phone's activity 0 makes it idle)."""
    return {}
