"""Why a claim of claims/mglru-android.toml is not reproduced, as a run of ``mobmem reproduce
mglru-android --json`` shows it: printed beside the claim's verdict by the scoreboard. Each reason
is read off the run's own counts (psi killer, all runs pooled, as the claims are).

Standard library only, as the measurements (``measures/mglru_android.py``).
"""

from __future__ import annotations

from typing import Any

#: Claims whose number the kills' victims decide (kills of apps never launched again cause no
#: cold start).
COLD_STARTS = ("rfc-android-fewer-cold-starts",)
#: Claims read from launch times that mostly wait for nothing.
LAUNCH_TIME = ("v14-fleet-launch-time-p50",)


def causes(res: dict[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    pts = res["points"]["psi"]
    base, mg = pts["linux-2q"]["all"], pts["mglru"]["all"]
    for cid in COLD_STARTS:
        parts = []
        for name, p in (("linux-2q", base), ("mglru", mg)):
            parts.append(f"{name} {p['lmk_kills']} kills, {p['relaunch_cold']} apps cold-started again")
        out[cid] = (
            "most kills take apps not launched again in the run, "
            "so kills cause few cold starts: " + "; ".join(parts)
        )
    for cid in LAUNCH_TIME:
        share = {
            name: 100 * p["launches_without_waits"] / p["launches"]
            for name, p in (("linux-2q", base), ("mglru", mg))
            if p["launches"]
        }
        if len(share) < 2 or min(share.values()) <= 50:
            continue  # the median waits for I/O: no reason of this kind
        shares = [f"{name} {v:.0f}%" for name, v in share.items()]
        out[cid] = (
            "the median launch waits for no I/O under either policy, so it is its CPU time (apps.toml); "
            "launches with no wait: " + ", ".join(shares)
        )
    return out
