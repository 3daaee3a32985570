"""Miss-ratio curves in one pass: a trace's faults at every memory size, from 1 frame to its
footprint, without a run per size. Exact for LRU and OPT (Mattson's stack distances; MIN is a stack
algorithm); the counts equal ``mobmem run`` at each size."""

from __future__ import annotations

import json
import os
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
        import pandas as pd

        return pd.DataFrame({"frames": self.sizes, "faults": self.faults, "miss_ratio": self.miss_ratio})


def exact_policies() -> list[str]:
    """Policies with an exact one-pass curve."""
    return list(_core.mrc_exact())


def curve(trace: Any, policy: str = "lru") -> Curve:
    """``policy``'s exact curve on ``trace`` (a :class:`mobmem.Trace` or a path)."""
    from .api import _as_trace

    t = _as_trace(trace)
    d = json.loads(_core.mrc(t._t, policy))
    return Curve(policy, d["accesses"], d["cold"], d["sizes"], d["faults"])
