"""Our number for each claim of claims/ariadne.toml, from the reproduction's JSON
(``mobmem reproduce ariadne --json``). Changes are against stock zram (the ``zram`` scheme), in %,
as the mean of the five apps' own changes unless said.
"""

from __future__ import annotations

import statistics
from typing import Any

NOTES: dict[str, str] = {
    "relaunch-vs-zram": "mean of the five apps' changes of their second relaunch (3 orders each), ariadne-ehl against zram",
    "relaunch-vs-zram-al": "mean of the five apps' changes of their second relaunch, ariadne-al against zram",
    "relaunch-near-dram": "mean of the five apps' relaunch over the same relaunch with DRAM enough for everything, ariadne-ehl",
    "zram-over-dram": "mean relaunch of the five apps under zram over their mean with DRAM enough for everything",
    "cpu-vs-zram": "compression + decompression CPU of the runs (all apps), mean of the five apps' changes, averaged over ariadne-ehl, ariadne-al and ehl-1k-4k-16k",
    "cpu-youtube": "compression + decompression CPU of YouTube's runs, ariadne-ehl against zram",
    "cpu-twitter": "compression + decompression CPU of Twitter's runs, ariadne-ehl against zram",
    "decompression-youtube-twitter": "decompression CPU during the relaunch (its faults' and PreDecomp's), mean of YouTube's and Twitter's changes, ariadne-ehl",
    "decompression-bangdream": "decompression CPU during BangDream's relaunch, ariadne-ehl against zram",
    "compression-youtube-twitter": "compression CPU of YouTube's and Twitter's runs (mean of the two changes), ariadne-ehl",
}

CONFIGURATIONS = ("ariadne-ehl", "ariadne-al", "ehl-1k-4k-16k")


def _per(res: dict[str, Any], scheme: str, key: str, apps: tuple[str, ...]) -> float | None:
    vals = [res["changes"][scheme]["per_target"][a][key] for a in apps]
    return None if any(v is None for v in vals) else statistics.fmean(vals)


def measure(res: dict[str, Any]) -> dict[str, Any]:
    ch = res["changes"]
    yt_tw = ("YouTube", "Twitter")
    return {
        "relaunch-vs-zram": ch["ariadne-ehl"]["mean"]["relaunch_ms"],
        "relaunch-vs-zram-al": ch["ariadne-al"]["mean"]["relaunch_ms"],
        "relaunch-near-dram": statistics.fmean(res["over_dram_pct"]["ariadne-ehl"].values()),
        "zram-over-dram": res["zram_over_dram"],
        "cpu-vs-zram": statistics.fmean(ch[s]["mean"]["cpu_s"] for s in CONFIGURATIONS),
        "cpu-youtube": _per(res, "ariadne-ehl", "cpu_s", ("YouTube",)),
        "cpu-twitter": _per(res, "ariadne-ehl", "cpu_s", ("Twitter",)),
        "decompression-youtube-twitter": _per(res, "ariadne-ehl", "decompress_ms", yt_tw),
        "decompression-bangdream": _per(res, "ariadne-ehl", "decompress_ms", ("BangDream",)),
        "compression-youtube-twitter": _per(res, "ariadne-ehl", "compress_s", yt_tw),
    }
