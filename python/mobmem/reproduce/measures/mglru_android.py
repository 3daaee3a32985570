"""Our number for each claim of claims/mglru-android.toml, from the reproduction's JSON
(`mobmem reproduce mglru-android --json`).

Every claim is read under the PSI killer over all runs (the generated usages and the real windows
pooled: `res.changes["psi"]["all"]`), as MGLRU's change against the active/inactive lists, in %
(negative: fewer or shorter). A change whose baseline is 0 is not measured (N).
"""

from __future__ import annotations

from typing import Any

from ..results.mglru_android import MglruResult

NOTES: dict[str, str] = {
    "rfc-android-fewer-lmk-kills": "low-memory kills (the killer's, not the cached-process limit's), summed over all runs, psi killer",
    "rfc-android-fewer-cold-starts": "cold starts of apps launched before in the run (a first launch is cold under either policy), summed over all runs, psi killer",
    "v14-fleet-kswapd-cpu": "pages kswapd reclaimed (the model counts no scanning work), summed over all runs, psi killer; a fleet's CPU read as one phone's reclaim work",
    "v14-fleet-lmk-kills-p75": "75th percentile over the runs (usages, not devices) of a run's low-memory kills, psi killer",
    "v14-fleet-launch-time-p50": "median launch time over all launches of all runs, psi killer",
}

_KEYS = {
    "rfc-android-fewer-lmk-kills": "lmk_kills",
    "rfc-android-fewer-cold-starts": "relaunch_cold",
    "v14-fleet-kswapd-cpu": "kswapd_pages",
    "v14-fleet-lmk-kills-p75": "lmk_kills_p75",
    "v14-fleet-launch-time-p50": "launch_p50_ms",
}


def measure(res: MglruResult) -> dict[str, Any]:
    changes = res.changes["psi"]["all"]
    return {cid: getattr(changes, key) for cid, key in _KEYS.items()}
