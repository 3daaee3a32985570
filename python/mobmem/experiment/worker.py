"""One run, in whatever process runs it (a local worker or a Dask worker). A worker keeps each
trace it has loaded, so a trace is read once per worker, not once per run, and every run reports the
content hash of the bytes it replayed (hashed as they were read): what keys its result.

A worker process started for a sweep ends with the process that started it, even when that one is
killed with ``kill -9`` (:func:`die_with_parent`)."""

from __future__ import annotations

import os
import time
from typing import Any

#: Traces loaded, by path and the file's state then (a changed file is read again), most recent last.
_TRACES: dict[tuple[str, int, int, int], Any] = {}
#: Traces a worker keeps.
KEEP = 4


def die_with_parent(parent: int) -> None:
    """Makes this process end when ``parent`` does: the kernel's parent-death signal on Linux,
    a thread watching the parent elsewhere. For pool initialisers (and Dask's ``client.run``)."""
    import signal

    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        if libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl")
    except (OSError, AttributeError):
        import threading

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, name="mobmem-parent-watch", daemon=True).start()
    if os.getppid() != parent:  # the parent ended before the signal was asked for
        os._exit(1)


def _trace(path: str) -> Any:
    from ..api import Trace

    st = os.stat(path)
    key = (path, st.st_ino, st.st_size, st.st_mtime_ns)
    t = _TRACES.pop(key, None)
    if t is None:
        t = Trace.open(path, digest=True)
        while len(_TRACES) >= KEEP:
            del _TRACES[next(iter(_TRACES))]
    _TRACES[key] = t
    return t


def run_task(task: dict[str, Any]) -> dict[str, Any]:
    """Runs ``task`` (a ``spec.Run`` as a dict) and returns what the store keeps, with the content
    hash of what it replayed (``digest``); a mobmem error comes back as ``{"error": …}`` naming
    the run, so one bad run stops the sweep with a clear message whatever process it ran in."""
    from ..errors import MobmemError, MobmemIOError
    from .spec import build

    t0 = time.perf_counter()
    try:
        if task["kind"] == "page":
            from ..api import run_configs

            t = _trace(task["source"])
            r = run_configs(t, [task["config"]], threads=1)[0]
            # The trace as the experiment names it (where this process opened it is no part of
            # the result, and differs from machine to machine).
            row, resolved, digest = {**r.row(), "trace": task["name"]}, r.config, t.digest
        else:
            from ..phone import job, phone_grid, usage_file

            cfg = dict(task["config"])
            phone = cfg.pop("phone", "nexus5")
            seed = cfg.pop("seed", 0)
            r = phone_grid([job(usage_file(task["source"]), phone, seed=seed, **cfg)], threads=1)[0]
            row, resolved, digest = r.row(), r.config, r.raw["usage_sha256"]
    except OSError as e:
        e = MobmemIOError(f"{task['source']}: cannot read it ({e.strerror})")
        return {"key": task["key"], "error": f"{type(e).__name__}: {e}", "error_type": type(e).__name__}
    except MobmemError as e:
        return {"key": task["key"], "error": f"{type(e).__name__}: {e}", "error_type": type(e).__name__}
    return {
        "key": task["key"],
        "build": build(),
        "row": row,
        "resolved": resolved,
        "digest": digest,
        "wall_s": time.perf_counter() - t0,
    }
