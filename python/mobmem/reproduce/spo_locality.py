"""The synthetic apps' locality for ``mobmem reproduce spo-clock``: the paper describes its five apps by
category only (section 3: Angrybirds and Farmstory games, Youtube video streaming, Chrome a browser,
Facebook a social app), so each preset can take the locality measured on the app-like capture of
its category (`Trace.locality()` on tests/data/corpus, made by captures/make_corpus.py), or one
assumed model for all five."""

from __future__ import annotations

import argparse
import functools
from pathlib import Path
from typing import Any

#: Locality of the synthetic apps, the first the default: `stand-ins` (each app's code and written
#: shares, hot set and sequential share measured on the app-like capture of its category,
#: `STAND_INS`: the paper describes the apps by category only) or `assumed` (one model for all
#: five, `GenParams::default` in gen.rs).
LOCALITIES = ("stand-ins", "assumed")
#: The corpus capture standing in for each app's category, as section 3 names them: Angrybirds and
#: Farmstory are games, Youtube video streaming, Chrome a browser, Facebook a social app.
STAND_INS = {
    "angrybirds": "game-loop",
    "youtube": "media-decode",
    "chrome": "page-render",
    "facebook": "social-feed",
    "farmstory": "game-loop",
}


def stand_in_params(loc: dict[str, Any], hot_prob: float = 0.85) -> dict[str, Any]:
    """Generator parameters from a capture's locality (`Trace.locality()`): its code and written
    shares; a hot window as large as the share of the data pages that takes `hot_prob` of the data
    accesses, taking `hot_prob` of them and not drifting (the share is over the whole capture); and
    the sequential share of the moves as scans of the accesses outside the hot window."""
    return {
        "code_share": loc["code_share"],
        "anon_share": loc["written_share"],
        "hot_share": loc[f"hot_pages_{round(hot_prob * 100)}"],
        "hot_prob": hot_prob,
        "scan_share": min(1.0, loc["sequential_share"] / (1.0 - hot_prob)),
        "phase_len": 2**62,
    }


def stand_in(app: str, args: argparse.Namespace) -> dict[str, Any]:
    """`app`'s generator parameters under `--locality stand-ins`, from the corpus (`--corpus` when
    it names a directory, else the checkout's tests/data/corpus)."""
    from ..errors import ConfigError

    if app not in STAND_INS:
        raise ConfigError(
            f"--locality stand-ins: no stand-in for app {app!r}; known: {', '.join(STAND_INS)}", "locality"
        )
    where = args.corpus if args.corpus not in ("", "auto") else None
    d = Path(where) if where else Path(__file__).resolve().parents[3] / "tests" / "data" / "corpus"
    path = d / f"{STAND_INS[app]}.txt.zst"
    if not path.is_file():
        raise ConfigError(
            f"--locality stand-ins: {path}: no such capture (--corpus names the directory)", "locality"
        )
    return stand_in_params(_measured(str(path)))


@functools.lru_cache(maxsize=16)
def _measured(path: str) -> dict[str, Any]:
    """A capture's locality, measured once per process (the scoreboard reruns the reproduction)."""
    from ..api import Trace

    return Trace.open(path).locality()


def locality_of(args: argparse.Namespace) -> str:
    return str(getattr(args, "locality", LOCALITIES[0]))
