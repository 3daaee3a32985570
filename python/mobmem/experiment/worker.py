"""One run, in whatever process runs it (a local worker or a Dask worker). A worker keeps each
trace it has loaded, so a trace is read once per worker, not once per run."""

from __future__ import annotations

import time
from typing import Any

_TRACES: dict[str, Any] = {}


def _trace(path: str) -> Any:
    from ..api import Trace

    t = _TRACES.get(path)
    if t is None:
        t = _TRACES[path] = Trace.open(path)
    return t


def run_task(task: dict[str, Any]) -> dict[str, Any]:
    """Runs ``task`` (a run of ``spec.Run`` as a dict) and returns what the store keeps; a
    mobmem error comes back as ``{"error": …}`` naming the run, so one bad run stops the sweep
    with a clear message whatever process it ran in."""
    from ..errors import MobmemError

    t0 = time.perf_counter()
    try:
        if task["kind"] == "page":
            from ..api import run_configs

            r = run_configs(_trace(task["source"]), [task["config"]], threads=1)[0]
            row, resolved = r.row(), r.config
        else:
            from ..phone import job, phone_grid, usage_file

            cfg = dict(task["config"])
            phone = cfg.pop("phone", "nexus5")
            seed = int(cfg.pop("seed", 0))
            r = phone_grid([job(usage_file(task["source"]), phone, seed=seed, **cfg)], threads=1)[0]
            row, resolved = r.row(), r.config
    except MobmemError as e:
        return {"key": task["key"], "error": f"{type(e).__name__}: {e}", "error_type": type(e).__name__}
    return {"key": task["key"], "row": row, "resolved": resolved, "wall_s": time.perf_counter() - t0}
