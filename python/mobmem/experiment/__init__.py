"""Experiments at scale: an experiment file names traces and axes whose product is the set of runs
(:mod:`.spec`); ``sweep`` runs what the results store (:mod:`.store`) lacks, on local processes or a
Dask cluster (:mod:`.run`); ``load_results`` reads the store as a DataFrame. docs/EXPERIMENTS.md."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .run import Progress, sweep
from .spec import Experiment, Run, load
from .store import BATCH, Store

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Experiment",
    "Progress",
    "Run",
    "Store",
    "load",
    "load_results",
    "records",
    "relative",
    "relative_records",
    "sweep",
]


def records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The stored runs of an experiment file, one flat record each, in the experiment's order: its
    axes' values (from the file), then the run's meters (from the store; the experiment's current
    runs only: a changed setting's old runs are left out). The store is opened read-only."""
    exp = load(path)
    try:
        if not Path(exp.store).exists():
            return []
    except OSError as e:
        from ..errors import MobmemIOError

        raise MobmemIOError(f"{exp.store}: cannot look at it ({e.strerror})") from None
    store = Store(exp.store, readonly=True)
    out: list[dict[str, Any]] = []
    try:
        runs = exp.runs
        for b in range(0, len(runs), BATCH):
            chunk = runs[b : b + BATCH]
            have = store.get([r.key for r in chunk], flat=True)
            for r in chunk:
                rec = have.get(r.key)
                if rec is None:
                    continue
                meters = rec["row"]
                out.append({**r.axes, **{k: v for k, v in meters.items() if k not in r.axes}})
    finally:
        store.close()
    return out


def load_results(path: str | os.PathLike[str]) -> pd.DataFrame:
    """An experiment's stored runs as a DataFrame (:func:`records`)."""
    from .._optional import need

    pd = need("pandas", "a DataFrame")

    return pd.DataFrame(records(path))


def relative(path: str | os.PathLike[str], baseline: str, metric: str) -> pd.DataFrame:
    """The stored runs as a DataFrame (as :func:`load_results`) with a column ``METRIC / BASELINE``:
    each run's ``metric`` over that of the run with the same axes but the baseline's values
    (``[baselines]`` in the experiment file); None where that run is not stored or its value is 0."""
    from .._optional import need

    pd = need("pandas", "a DataFrame")
    return pd.DataFrame(relative_records(path, baseline, metric))


def relative_records(path: str | os.PathLike[str], baseline: str, metric: str) -> list[dict[str, Any]]:
    """:func:`relative`'s rows as records (one dict per run), without pandas."""
    from .._args import text

    exp = load(path)
    baseline, metric = text("baseline", baseline), text("metric", metric)
    if baseline not in exp.baselines:
        from ..errors import ConfigError

        known = ", ".join(exp.baselines) or "none"
        raise ConfigError(f"{exp.path}: no baseline {baseline!r}; known: {known}", "baseline")
    from .spec import _canonical

    recs = records(path)
    axes = ["source", *exp.axes]
    index = {_canonical([r.get(a) for a in axes]): r for r in recs}
    over = exp.baselines[baseline]
    col = f"{metric} / {baseline}"
    for r in recs:
        if metric not in r:
            from ..errors import ConfigError

            raise ConfigError(f"no meter {metric!r} in the runs; e.g. faults, io_total_ns", "metric")
        base = index.get(_canonical([over.get(a, r.get(a)) for a in axes]))
        b = base.get(metric) if base else None
        v = r[metric]
        numeric = all(isinstance(x, int | float) and not isinstance(x, bool) for x in (v, b))
        r[col] = v / b if numeric and b else None
    return recs
