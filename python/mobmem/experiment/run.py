"""Running an experiment: the runs not yet in the store, on local processes (all cores by default,
no service to start) or on a Dask cluster, each result stored the moment it arrives."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict
from typing import Any, TextIO

from ..errors import ConfigError, MobmemError, MobmemIOError, OutOfMemoryError, TraceFormatError
from .spec import Experiment
from .store import Store

_ERRORS: dict[str, type[MobmemError]] = {
    "ConfigError": ConfigError,
    "TraceFormatError": TraceFormatError,
    "MobmemIOError": MobmemIOError,
    "OutOfMemoryError": OutOfMemoryError,
}


class Progress:
    """Runs done of total, rate and time left: a bar redrawn in place on a terminal, a plain line
    every few seconds otherwise (logs, CI)."""

    def __init__(self, total: int, stream: TextIO | None = None, every_s: float = 5.0) -> None:
        self.total, self.done = total, 0
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.every_s = every_s
        self.t0 = self.last = time.monotonic()

    def step(self) -> None:
        self.done += 1
        now = time.monotonic()
        if self.tty or now - self.last >= self.every_s or self.done == self.total:
            self.last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        rate = self.done / max(now - self.t0, 1e-9)
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        text = f"{self.done}/{self.total} runs, {rate:.1f}/s, {left:.0f} s left"
        if self.tty:
            width = 30
            fill = int(width * self.done / max(self.total, 1))
            end = "\n" if self.done == self.total else ""
            self.stream.write(f"\r[{'#' * fill}{'-' * (width - fill)}] {text}{end}")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()


def _local(tasks: list[dict[str, Any]], workers: int) -> Iterator[dict[str, Any]]:
    from .worker import run_task

    if workers == 1:
        for t in tasks:
            yield run_task(t)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    # spawn: the parent may hold the core's thread pool, which a forked child must not inherit.
    ctx = multiprocessing.get_context("spawn")
    ex = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
    try:
        futures = [ex.submit(run_task, t) for t in tasks]
        for f in as_completed(futures):
            yield f.result()
    finally:
        # Stopped early (an error, Ctrl-C): runs not started are dropped, not run.
        ex.shutdown(wait=True, cancel_futures=True)


def _dask(tasks: list[dict[str, Any]], address: str, workers: int) -> Iterator[dict[str, Any]]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ConfigError("--dask needs dask[distributed]: pip install 'mobmem[dask]'", "dask") from None
    from .worker import run_task

    cluster = (
        LocalCluster(n_workers=workers, threads_per_worker=1, processes=True) if address == "local" else None
    )
    client = Client(cluster if cluster is not None else address)
    try:
        futures = client.map(run_task, tasks, pure=False)
        for f in as_completed(futures):
            yield f.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def sweep(
    exp: Experiment,
    workers: int = 0,
    dask: str | None = None,
    progress: TextIO | bool | None = True,
) -> dict[str, Any]:
    """Runs what the store lacks; returns how many runs there are, were stored before, ran now."""
    from .. import __version__

    store = Store(exp.store)
    try:
        before = store.done()
        todo = [r for r in exp.runs if r.key not in before]
        # Grouped by source, so a worker mostly meets the trace it has already loaded.
        todo.sort(key=lambda r: r.source)
        n = workers or os.cpu_count() or 1
        n = max(1, min(n, len(todo)))
        tasks = [asdict(r) for r in todo]
        by_key = {r.key: r for r in todo}
        stream = None if progress is False else (sys.stderr if progress is True else progress)
        bar = Progress(len(todo), stream) if stream is not None and todo else None
        results = _dask(tasks, dask, n) if dask else _local(tasks, n)
        ran = 0
        for res in results:
            run = by_key[res["key"]]
            if "error" in res:
                err = _ERRORS.get(res["error_type"], MobmemError)
                axes = ", ".join(f"{k}={v}" for k, v in run.axes.items())
                raise err(f"{exp.path}: run ({axes}): {res['error']}")
            store.put(
                {
                    "key": run.key,
                    "experiment": exp.name,
                    "kind": run.kind,
                    "source": run.source,
                    "axes": run.axes,
                    "config": run.config,
                    "resolved": res["resolved"],
                    "row": res["row"],
                    "version": __version__,
                    "wall_s": res["wall_s"],
                }
            )
            ran += 1
            if bar:
                bar.step()
        return {
            "runs": len(exp.runs),
            "stored_before": len(exp.runs) - len(todo),
            "ran": ran,
            "store": str(exp.store),
        }
    finally:
        store.close()
