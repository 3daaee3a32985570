"""Why a claim of claims/mglru-android.toml is not reproduced, as a run of ``mobmem reproduce
mglru-android --json`` shows it: printed beside the claim's verdict by the scoreboard. Each reason
is read off the run's own counts (psi killer, all runs pooled, as the claims are).

Standard library only, as the measurements (``measures/mglru_android.py``); it reads the typed
result (``results/mglru_android.py``).
"""

from __future__ import annotations

from ..results.mglru_android import MglruResult

#: Claims whose number the kills' victims decide (kills of apps never launched again cause no
#: cold start).
COLD_STARTS = ("rfc-android-fewer-cold-starts",)
#: Claims read from launch times that mostly wait for nothing.
LAUNCH_TIME = ("v14-fleet-launch-time-p50",)


def causes(res: MglruResult) -> dict[str, str]:
    out: dict[str, str] = {}
    pts = res.points["psi"]
    both = (("linux-2q", pts["linux-2q"].all), ("mglru", pts["mglru"].all))
    # Kills that cause no cold start: an app killed and not launched again in the run (counted per
    # app: its kills beyond its later cold starts).
    if all(p.app_kills and 2 * p.kills_not_relaunched > p.app_kills for _, p in both):
        said = "; ".join(
            f"{name}: {p.kills_not_relaunched} of {p.app_kills} kills of apps, "
            f"{p.relaunch_cold} cold starts of apps launched before"
            for name, p in both
        )
        for cid in COLD_STARTS:
            out[cid] = (
                "most kills take apps that are not launched again in the run, so kills cause few cold starts: "
                + said
            )
    # The median launch waits for nothing under either policy: it is its CPU time.
    if all(p.launches and p.median_launch_waits_ms == 0 for _, p in both):
        shares = ", ".join(f"{name} {100 * p.launches_without_waits / p.launches:.0f}%" for name, p in both)
        for cid in LAUNCH_TIME:
            out[cid] = (
                "the median launch waits for no I/O under either policy, so it is its CPU time "
                "(apps.toml; the real windows' apps run with [defaults]); launches with no wait: " + shares
            )
    return out
