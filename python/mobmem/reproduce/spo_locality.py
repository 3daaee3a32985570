"""The synthetic apps' locality for ``mobmem reproduce spo-clock``. The paper gives its five apps'
Table 1 counts and no locality figure but one (Chrome's and Facebook's locality is high, section 3);
it names Angrybirds a game and Youtube video streaming, and Chrome, Facebook and Farmstory are a
browser, a social app and a game. So each preset can take a locality derived from the app-like
capture of its category (`Trace.locality()` on tests/data/corpus, made by captures/make_corpus.py;
which capture stands in for which app is an assumption), or one assumed model for all five."""

from __future__ import annotations

import argparse
import functools
from pathlib import Path
from typing import Any

#: Locality of the synthetic apps, the first the default: `stand-ins` (each app's code and written
#: shares, hot set and sequential share derived from the app-like capture of its category,
#: `STAND_INS`) or `assumed` (one model for all five, `GenParams::default` in gen.rs).
LOCALITIES = ("stand-ins", "assumed")
#: The corpus capture standing in for each app (assumed): the games (Angrybirds, Farmstory) by the
#: game loop, Youtube (video streaming) by the decoder, Chrome by the page renderer, Facebook by the
#: social feed. The paper calls Chrome's and Facebook's locality high; of the stand-ins the social
#: feed's is the least concentrated, so for Facebook the stand-in goes against the paper's one word.
STAND_INS = {
    "angrybirds": "game-loop",
    "youtube": "media-decode",
    "chrome": "page-render",
    "facebook": "social-feed",
    "farmstory": "game-loop",
}


#: The share of the data accesses the hot window takes, and the concentration point it is read at.
HOT_PROB = 0.85


def stand_in_params(loc: dict[str, Any]) -> dict[str, Any]:
    """Generator parameters derived from a capture's locality (`Trace.locality()`): its code and
    written shares; a hot window as large as the share of the data pages that takes 85% of the data
    accesses, taking 85% of them and not drifting (the share is over the whole capture); and the
    sequential share of the moves as scans of the accesses outside the hot window. A preset so made
    matches the capture's code and written shares and its 85% point; not its 50% and 95% points
    (the window's skew is the generator's), and its sequential share comes out lower (the generator
    interleaves scans with hot accesses)."""
    return {
        "code_share": loc["code_share"],
        "anon_share": loc["written_share"],
        "hot_share": loc["hot_pages_85"],
        "hot_prob": HOT_PROB,
        "scan_share": min(1.0, loc["sequential_share"] / (1.0 - HOT_PROB)),
        "phase_len": 2**62,
    }


def stand_in(app: str, args: argparse.Namespace) -> dict[str, Any]:
    """`app`'s generator parameters under `--locality stand-ins`, from the captures in
    `--stand-ins` (auto: the corpus bundled with the package)."""
    from .. import _data
    from ..errors import ConfigError

    if app not in STAND_INS:
        raise ConfigError(
            f"--locality stand-ins: no stand-in for app {app!r}; known: {', '.join(STAND_INS)}", "locality"
        )
    where = str(getattr(args, "stand_ins", "auto") or "auto")
    d = Path(_data.path("corpus")) if where == "auto" else Path(where)
    path = d / f"{STAND_INS[app]}.txt.zst"
    if not path.is_file():
        raise ConfigError(
            f"--locality stand-ins: {path}: no such capture (--stand-ins DIR names the directory of the"
            " corpus made by captures/make_corpus.py; --locality assumed needs none)",
            "stand_ins",
        )
    return stand_in_params(measured(str(path)))


@functools.lru_cache(maxsize=16)
def measured(path: str) -> dict[str, Any]:
    """A capture's locality, measured once per process (the scoreboard reruns the reproduction)."""
    from ..api import Trace

    return Trace.open(path).locality()


def locality_of(args: argparse.Namespace) -> str:
    return str(getattr(args, "locality", LOCALITIES[0]))
