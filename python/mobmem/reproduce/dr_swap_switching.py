"""The DR. Swap paper's application switching delay (its Fig. 8 and Table V) for DRAM-backed swap,
DR. Swap (PCM swap with Direct Read) and flash swap, by app category and swap size, on the system
level — the same phone, usage and fitted memory as Table IV (``dr_swap_system``).

Method, as the paper's section V-B: each category's five apps (Table III) run in the foreground for
one minute each, round robin, three rounds, on ``nexus5``; the switching delay is the mean launch
time of the launches after the first round (as ``am`` timed them).

Launch CPU time, from the paper where it gives it: section V-F says "most of the applications take
2 s to switch back" (Table V: Twitter 2,093 ms with DR. Swap, 2,150 ms DRAM-backed, 128 MB), so a
resume of a Table III app is 2.0 s of CPU (``RESUME_CPU_S``) plus what the model makes it wait for.
The paper gives no cold-start time for these apps: cold starts keep the catalog's assumed CPU time.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from .dr_swap_system import SWAP_MB, job

#: (label, swap device, Direct Read): the paper's three swap areas, and zram beside them (not in
#: the paper: compressed swap taking the phone's own DRAM, page-cluster 0 as Android sets it).
AREAS = (
    ("dram", "lpddr2-dram", False),
    ("dr_swap", "lpddr2-pcm", True),
    ("flash", "emmc-inand", False),
    ("zram", "zram-lz4", False),
)
ZRAM_NOTE = "the swap size is its uncompressed capacity; its compressed pages take usable memory"
#: Section V-F: a switch takes about 2 s; the model's resume CPU time of Table III's apps.
RESUME_CPU_S = 2.0
#: Section V-F and the abstract: DR. Swap switches about 10% faster than flash on average, browsers
#: more than 25% faster, news apps barely.
PAPER_IMPROVEMENT_PCT = 10.0
PAPER_BROWSER_IMPROVEMENT_PCT = 25.0
#: Table V's one pair of absolute delays: Twitter at 128 MB, DR. Swap and DRAM-backed.
PAPER_TWITTER_MS = {"dr_swap": 2093.0, "dram": 2150.0}


def apps_file(apps: list[str], tmp: Path) -> Path:
    """An apps file giving Table III's apps the paper's switching CPU time."""
    path = tmp / "dr_swap_apps.toml"
    path.write_text("".join(f'[apps."{a}"]\nresume_cpu_s = {RESUME_CPU_S}\n\n' for a in apps))
    return path


def compute(
    cats: dict[str, list[str]], args: argparse.Namespace, reserved: int, page_cluster: int
) -> dict[str, Any]:
    from ..experiment.runner import phone_grid

    keys = [(c, mb, a) for c in cats for mb in SWAP_MB for a in AREAS]
    jobs = [
        job(
            cats[c],
            args,
            reserved,
            device,
            mb,
            direct_read=dr,
            page_cluster=0 if label == "zram" else page_cluster,
        )
        for c, mb, (label, device, dr) in keys
    ]
    with tempfile.TemporaryDirectory() as tmp:
        path = apps_file(sorted({a for m in cats.values() for a in m}), Path(tmp))
        results = phone_grid(jobs, threads=args.threads, apps=path)
    out: dict[str, Any] = {"categories": {}, "resume_cpu_s": RESUME_CPU_S, "reserved_mib": reserved}
    for (cat, mb, (label, _, _)), r in zip(keys, results, strict=True):
        later = r.launches[len(cats[cat]) :]
        n = max(len(later), 1)
        c = out["categories"].setdefault(cat, {"sizes": {}})
        c["sizes"].setdefault(str(mb), {})[label] = {
            "delay_ms": sum(x["latency_ms"] for x in later) / n,
            "swap_wait_ms": sum(x["swap_wait_ms"] for x in later) / n,
            "reclaim_wait_ms": sum(x["reclaim_wait_ms"] for x in later) / n,
            "file_wait_ms": sum(x["file_wait_ms"] for x in later) / n,
            "mapped_read_ms": sum(x["mapped_read_ms"] for x in later) / n,
            "cold": sum(x["cold"] for x in later),
            "swap_ins": r.meters.swap_in_pages,
            "swap_outs": r.meters.swap_out_pages,
            "kills": r.meters.kills_total,
            "dr_maps": r.pages["dr_maps"],
            "twitter_ms": _app_mean(later, "Twitter"),
        }
    imps = []
    for c in out["categories"].values():
        for row in c["sizes"].values():
            f, d = row["flash"]["delay_ms"], row["dr_swap"]["delay_ms"]
            row["improvement_pct"] = 100.0 * (1 - d / f) if f > 0 else None
            if row["improvement_pct"] is not None:
                imps.append(row["improvement_pct"])
    out["average_improvement_pct"] = sum(imps) / len(imps) if imps else None
    b = out["categories"].get("browser")
    bi = [r["improvement_pct"] for r in b["sizes"].values() if r["improvement_pct"] is not None] if b else []
    out["browser_improvement_pct"] = sum(bi) / len(bi) if bi else None
    return out


def memory_sensitivity(
    cats: dict[str, list[str]],
    args: argparse.Namespace,
    reserved: int,
    page_cluster: int,
    steps: tuple[int, ...],
) -> list[dict[str, Any]]:
    """DR. Swap against flash at ``reserved`` + each step (MiB): how the switching claims depend on
    the fitted memory."""
    from ..experiment.runner import phone_grid

    keys = [(s, c, mb, dr) for s in steps for c in cats for mb in SWAP_MB for dr in (True, False)]
    jobs = [
        job(
            cats[c],
            args,
            reserved + s,
            "lpddr2-pcm" if dr else "emmc-inand",
            mb,
            direct_read=dr,
            page_cluster=page_cluster,
        )
        for s, c, mb, dr in keys
    ]
    with tempfile.TemporaryDirectory() as tmp:
        path = apps_file(sorted({a for m in cats.values() for a in m}), Path(tmp))
        rs = dict(zip(keys, phone_grid(jobs, threads=args.threads, apps=path), strict=True))
    out = []
    for s in steps:
        imps: dict[str, list[float]] = {}
        kills = 0
        for c in cats:
            for mb in SWAP_MB:
                d, f = (_delay(rs[(s, c, mb, dr)], len(cats[c])) for dr in (True, False))
                imps.setdefault(c, []).append(100.0 * (1 - d / f))
                kills += rs[(s, c, mb, False)].meters.kills_total
        every = [v for vs in imps.values() for v in vs]
        out.append(
            {
                "reserved_mib": reserved + s,
                "average_improvement_pct": sum(every) / len(every),
                "browser_improvement_pct": sum(imps["browser"]) / len(SWAP_MB) if "browser" in imps else None,
                "kills_flash": kills,
            }
        )
    return out


def _delay(r: Any, first: int) -> float:
    later = r.launches[first:]
    return sum(x["latency_ms"] for x in later) / max(len(later), 1)


def _app_mean(launches: list[dict[str, Any]], app: str) -> float | None:
    xs = [x["latency_ms"] for x in launches if x["app"] == app]
    return sum(xs) / len(xs) if xs else None


def report(res: dict[str, Any]) -> list[str]:
    from ..api import devices
    from ..table import render

    rows = []
    for cat, c in res["categories"].items():
        for mb, row in c["sizes"].items():
            imp = row["improvement_pct"]
            rows.append(
                (
                    cat if mb == "128" else "",
                    f"{mb} MB",
                    f"{row['dram']['delay_ms']:.0f}",
                    f"{row['dr_swap']['delay_ms']:.0f}",
                    f"{row['flash']['delay_ms']:.0f}",
                    "—" if imp is None else f"{imp:.1f}%",
                    f"{row['flash']['swap_wait_ms'] + row['flash']['reclaim_wait_ms']:.0f}",
                    f"{row['dr_swap']['mapped_read_ms']:.1f}",
                    f"{row['flash']['kills']}",
                    f"{row['zram']['delay_ms']:.0f}",
                )
            )
    out = [
        render(
            (
                "category",
                "swap",
                "DRAM ms",
                "DR. Swap ms",
                "flash ms",
                "DR. Swap vs flash",
                "flash swap+reclaim wait",
                "DR. Swap NVM reads ms",
                "kills (flash)",
                "zram ms",
            ),
            rows,
            title=(
                "Fig. 8 / Table V: mean switching delay after the first round (nexus5,"
                f" {res['reserved_mib']} MiB kept from apps as fitted; resume CPU {res['resume_cpu_s']} s,"
                " section V-F)"
            ),
        ),
        "",
    ]
    runs = [r for c in res["categories"].values() for r in c["sizes"].values()]
    order = sum(r["dram"]["delay_ms"] <= r["dr_swap"]["delay_ms"] <= r["flash"]["delay_ms"] for r in runs)
    dr_beats_dram = sum(r["dr_swap"]["delay_ms"] < r["dram"]["delay_ms"] for r in runs)
    mapped_ms = sum(r["dr_swap"]["mapped_read_ms"] for r in runs) / len(runs)
    extra_ns = devices()["lpddr2-pcm"]["mapped_read_ns"]
    out.append(
        f"  DRAM ≤ DR. Swap ≤ flash in {order} of {len(runs)} runs (paper: the same, with exceptions where"
        f' DR. Swap beat DRAM-backed through the ramdisk\'s "fake" I/O path, which the model does not have).'
        f" DR. Swap beat DRAM-backed in {dr_beats_dram} runs here. A touch it serves in place costs a PCM"
        f" read (+{extra_ns:,.0f} ns a page over DRAM); its switches spent {mapped_ms:.2f} ms on them on average."
    )
    dram_wait = sum(r["dram"]["delay_ms"] for r in runs) / len(runs) - res["resume_cpu_s"] * 1e3
    tw = res["categories"].get("social", {}).get("sizes", {}).get("128", {})
    if tw and tw["dr_swap"]["twitter_ms"] is not None:
        out.append(
            f"  Input check: section V-F's ~2 s is a measured switching delay; the DRAM-backed switches here wait"
            f" {dram_wait:.1f} ms on average beyond their 2.0 s of CPU, so the CPU time is the delay itself."
            f" Twitter at 128 MB is then {tw['dr_swap']['twitter_ms']:.0f} ms (DR. Swap) and"
            f" {tw['dram']['twitter_ms']:.0f} ms (DRAM-backed) against Table V's"
            f" {PAPER_TWITTER_MS['dr_swap']:,.0f} and {PAPER_TWITTER_MS['dram']:,.0f}: an echo of that input,"
            " not a prediction."
        )
    zr = [(r["zram"]["delay_ms"], r["flash"]["delay_ms"]) for r in runs]
    if zr:
        faster = sum(z < f for z, f in zr)
        out.append(
            f"  zram (not in the paper; {ZRAM_NOTE}): faster than flash swap in {faster} of {len(zr)} runs,"
            f" mean {sum(z for z, _ in zr) / len(zr):.0f} ms against {sum(f for _, f in zr) / len(zr):.0f} ms"
        )
    return out
