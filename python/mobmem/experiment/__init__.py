"""Experiments at scale: an experiment file names traces and axes whose product is the set of runs
(:mod:`.spec`); ``sweep`` runs what the results store (:mod:`.store`) lacks, on local processes or a
Dask cluster (:mod:`.run`); ``load_results`` reads the store as a DataFrame. docs/EXPERIMENTS.md."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .run import Progress, sweep
from .spec import Experiment, Run, load
from .store import Store

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Experiment", "Progress", "Run", "Store", "load", "load_results", "records", "relative", "sweep"]


def records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The stored runs of an experiment file, one flat record each: its axes' values, then the
    run's meters (the experiment's current runs only: a changed setting's old runs are left out)."""
    exp = load(path)
    store = Store(exp.store) if Path(exp.store).exists() else None
    if store is None:
        return []
    order = {r.key: i for i, r in enumerate(exp.runs)}
    try:
        recs = store.records(set(order))
    finally:
        store.close()
    recs.sort(key=lambda r: order[r["key"]])  # the experiment's order, not the finishing order
    return [{**r["axes"], **{k: v for k, v in r["row"].items() if k not in r["axes"]}} for r in recs]


def load_results(path: str | os.PathLike[str]) -> pd.DataFrame:
    """An experiment's stored runs as a DataFrame (:func:`records`)."""
    import pandas as pd

    return pd.DataFrame(records(path))


def relative(path: str | os.PathLike[str], baseline: str, metric: str) -> list[dict[str, Any]]:
    """The stored runs with ``METRIC / BASELINE``: each run's ``metric`` over that of the run with
    the same axes but the baseline's values (``[baselines]`` in the experiment file); None where
    that run is not stored or its value is 0."""
    exp = load(path)
    if baseline not in exp.baselines:
        from ..errors import ConfigError

        known = ", ".join(exp.baselines) or "none"
        raise ConfigError(f"{exp.path}: no baseline {baseline!r}; known: {known}", "baseline")
    recs = records(path)
    axes = ["source", *exp.axes]
    index = {tuple(r.get(a) for a in axes): r for r in recs}
    over = exp.baselines[baseline]
    col = f"{metric} / {baseline}"
    for r in recs:
        if metric not in r:
            from ..errors import ConfigError

            raise ConfigError(f"no meter {metric!r} in the runs; e.g. faults, io_total_ns", "metric")
        base = index.get(tuple(over.get(a, r.get(a)) for a in axes))
        b = base.get(metric) if base else None
        r[col] = r[metric] / b if b else None
    return recs
