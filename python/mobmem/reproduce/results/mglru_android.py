"""The result of ``mobmem reproduce mglru-android``: per killer and policy, each kind of usage's
runs pooled, and MGLRU's change against the active/inactive lists."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..record import OMIT_NONE, Record


@dataclass
class RunCounts(Record):
    """One run's counts."""

    #: The killer's kills: not the cached-process limit's (ActivityManager's), nor the kernel's
    #: OOM killer's.
    lmk_kills: int
    cached_kills: int
    oom_kills: int
    app_kills: int
    #: Kills of apps not cold-started again as often: at least this many kills (of apps) were
    #: followed by no launch of their app in the run.
    kills_not_relaunched: int
    defaulted_apps: int
    cold: int
    #: Cold starts of apps launched before in the run.
    relaunch_cold: int
    #: Swap-ins and re-reads of dropped file pages.
    refaults: int
    swap_ins: int
    file_rereads: int
    kswapd_pages: int
    direct_reclaim_pages: int
    stall_ms: float
    #: Launches that waited for no I/O: their time is their CPU time alone.
    launches_without_waits: int


@dataclass
class Pool(RunCounts):
    """Runs pooled: their counts summed, launch times over all their launches."""

    launches: int
    launch_mean_ms: float
    launch_p50_ms: float
    #: The I/O the median launch (both middle ones, for an even count) waited for.
    median_launch_waits_ms: float
    #: The 75th percentile of the runs' low-memory kills.
    lmk_kills_p75: float
    runs: int


@dataclass(kw_only=True)
class PolicyPoints(Record):
    """One policy under one killer: all runs, the generated and the real ones, and each run."""

    all: Pool
    generated: Pool | None = field(default=None, metadata=OMIT_NONE)
    real: Pool | None = field(default=None, metadata=OMIT_NONE)
    runs: dict[str, RunCounts]

    def kind(self, kind: str) -> Pool | None:
        return {"all": self.all, "generated": self.generated, "real": self.real}[kind]


@dataclass
class Change(Record):
    """MGLRU against the lists, in % (None: the lists' count is 0)."""

    lmk_kills: float | None
    relaunch_cold: float | None
    cold: float | None
    refaults: float | None
    kswapd_pages: float | None
    lmk_kills_p75: float | None
    launch_p50_ms: float | None
    launch_mean_ms: float | None
    stall_ms: float | None


@dataclass
class MglruResult(Record):
    #: The letters' numbers (changes of MGLRU against the lists, %).
    paper: dict[str, float]
    dram: str
    seeds: int
    launches: int
    usages: list[str]
    #: killer → policy → the runs.
    points: dict[str, dict[str, PolicyPoints]]
    #: killer → kind of usage → MGLRU's change.
    changes: dict[str, dict[str, Change]]


RESULT = MglruResult
