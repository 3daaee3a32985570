"""Miss-ratio curves in one pass: a trace's faults at every memory size, from 1 frame to its
footprint, without a run per size. Exact for LRU and OPT (Mattson's stack distances; MIN is a stack
algorithm); the counts equal ``mobmem run`` at each size. Estimated for every policy from a spatial
sample of the pages (:func:`sampled`): SHARDS for LRU, miniature simulations for any policy."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import _core

if TYPE_CHECKING:
    import pandas as pd

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class Curve:
    policy: str
    accesses: int
    cold: int
    sizes: list[int]
    faults: list[int]

    def at(self, frames: int) -> int:
        """Faults with ``frames`` frames (past the footprint: the cold misses)."""
        if frames <= 0:
            return self.accesses
        return self.faults[frames - 1] if frames <= len(self.faults) else self.cold

    @property
    def miss_ratio(self) -> list[float]:
        return [f / self.accesses for f in self.faults] if self.accesses else []

    def to_dict(self) -> dict[str, Any]:
        return {
            "policy": self.policy,
            "accesses": self.accesses,
            "cold": self.cold,
            "sizes": self.sizes,
            "faults": self.faults,
        }

    def to_pandas(self) -> pd.DataFrame:
        from ._optional import need

        pd = need("pandas", "a DataFrame")

        return pd.DataFrame({"frames": self.sizes, "faults": self.faults, "miss_ratio": self.miss_ratio})


def exact_policies() -> list[str]:
    """Policies with an exact one-pass curve."""
    return list(_core.mrc_exact())


def curve(trace: Any, policy: str = "lru") -> Curve:
    """``policy``'s exact curve on ``trace`` (a :class:`mobmem.Trace` or a path)."""
    from ._args import text
    from .api import _as_trace

    t = _as_trace(trace)
    d = json.loads(_core.mrc(t._t, text("policy", policy)))
    return Curve(policy, d["accesses"], d["cold"], d["sizes"], d["faults"])


@dataclass(frozen=True)
class Estimate:
    """A curve estimated from a spatial sample of the pages: the miss ratio at each size (frames of
    the whole trace). ``method`` is ``shards`` (LRU's sampled stack distances, every size) or
    ``mini`` (the policy itself run on the sample with scaled memory sizes). ``rate`` is the share
    of the trace the sample stands for under its ``reading`` (its counts scale by it);
    ``nominal_rate`` is the hash threshold's."""

    method: str
    policy: str
    reading: str
    rate: float
    nominal_rate: float
    accesses: int
    sampled_accesses: int
    sampled_pages: int
    sizes: list[int]
    miss_ratio: list[float]
    wall_s: float

    def errors(self, exact: Curve | Sequence[float]) -> list[float]:
        """Absolute miss-ratio error at each size against an exact :class:`Curve` or a list of
        exact miss ratios at this estimate's sizes."""
        if isinstance(exact, Curve):
            truth = [exact.at(s) / exact.accesses for s in self.sizes]
        else:
            truth = list(exact)
        if len(truth) != len(self.sizes):
            from .errors import ConfigError

            raise ConfigError(f"{len(truth)} exact values for {len(self.sizes)} sizes", "exact")
        return [abs(m - e) for m, e in zip(self.miss_ratio, truth, strict=True)]

    def mean_abs_error(self, exact: Curve | Sequence[float]) -> float:
        e = self.errors(exact)
        return sum(e) / len(e) if e else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def readings() -> list[str]:
    """How a sample can stand for the trace, the default first (``sampled(reading=...)``)."""
    return _core.mrc_readings()


def grid(footprint: int, points: int = 20) -> list[int]:
    """``points`` evenly spaced sizes up to the footprint (the sizes of an exact sweep)."""
    from ._args import whole

    footprint, points = whole("footprint", footprint), whole("points", points, 1, 1 << 20)
    return sorted({max(1, round(footprint * k / points)) for k in range(1, points + 1)})


def sampled(
    trace: Any,
    policy: str = "lru",
    *,
    rate: float | None = None,
    sample_size: int | None = None,
    method: str | None = None,
    sizes: Sequence[int] | None = None,
    seed: int = 0,
    reading: str | None = None,
    threads: int = 0,
    config: Any = None,
    devices: PathLike | None = None,
    **overrides: Any,
) -> Estimate:
    """``policy``'s miss-ratio curve from a spatial sample: one of ``rate`` (0 < R ≤ 1, e.g. 0.01)
    or ``sample_size`` (pages). ``method`` is ``mini`` (miniature simulations at ``sizes``, default
    20 evenly spaced; every policy) or ``shards`` (LRU only, every size at once; below 1/rate
    frames it cannot resolve a size: docs/MRC.md).
    ``reading`` is how the sample stands for the trace (:func:`readings`; default ``realized``: at
    the share of the trace's pages it holds; ``adjusted``: SHARDS-adj, at the nominal rate;
    ``drawn``: misses over the accesses it drew; docs/MRC.md measures the three). The run's other
    knobs as in :func:`mobmem.simulate`."""
    import time

    from . import _args
    from .api import Config, _as_trace, _dev, whole
    from .errors import ConfigError

    if (rate is None) == (sample_size is None):
        raise ConfigError("give a sampling rate or a sample size, not both", "sample")
    t = _as_trace(trace)
    cfg = Config.of(config, policy=policy, **overrides)
    m = _args.opt_text("method", method) or "mini"
    pts = grid(t.num_pages) if sizes is None else [whole("sizes", s, 1) for s in _args.listed("sizes", sizes)]
    size = None if sample_size is None else whole("sample_size", sample_size, 1)
    start = time.perf_counter()
    out = _core.mrc_sampled(
        t._t,
        m,
        _args.to_json(cfg.given()),
        pts,
        rate=None if rate is None else _args.number("rate", rate),
        sample_size=size,
        seed=whole("seed", seed),
        reading=_args.opt_text("reading", reading),
        threads=_args.workers("threads", threads),
        devices=_dev(devices),
    )
    wall = time.perf_counter() - start
    d = json.loads(out)
    return Estimate(
        d["method"],
        d["policy"],
        d["sample"]["reading"],
        d["rate"],
        d["nominal_rate"],
        d["accesses"],
        d["sampled_accesses"],
        d["sampled_pages"],
        d["sizes"],
        d["miss_ratio"],
        wall,
    )
