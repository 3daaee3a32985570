"""Running an experiment: the runs not yet in the store, on local processes (all cores by default,
no service to start) or on a Dask cluster, each result stored the moment it arrives.

Memory follows the work in flight, not the plan: runs are made from the plan as they are handed
out, a few per worker at a time, and what is stored is looked up in batches."""

from __future__ import annotations

import itertools
import os
import re
import sys
import threading
import time
from array import array
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from typing import Any, TextIO

from ..errors import (
    ConfigError,
    InvariantError,
    MobmemError,
    MobmemIOError,
    OutOfMemoryError,
    TraceFormatError,
    TraceNotFoundError,
)
from .spec import Experiment, Run
from .store import BATCH, Store

_ERRORS: dict[str, type[MobmemError]] = {
    "ConfigError": ConfigError,
    "TraceFormatError": TraceFormatError,
    "TraceNotFoundError": TraceNotFoundError,
    "MobmemIOError": MobmemIOError,
    "OutOfMemoryError": OutOfMemoryError,
}
#: Runs handed out per worker ahead of the one it runs.
AHEAD = 3
#: What `--dask` takes: a local cluster, or a scheduler's address (Dask's protocols).
_ADDRESS = re.compile(r"local|((tcp|tls|inproc|ucx|ws|wss)://)?[\w.\-\[\]:]*[\w\]]:\d{1,5}")


class Progress:
    """Runs done of total, rate and time left: a bar redrawn in place on a terminal, a plain line
    every few seconds otherwise (logs, CI)."""

    def __init__(self, total: int, stream: TextIO | None = None, every_s: float = 5.0) -> None:
        self.total, self.done = total, 0
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty()) if callable(isatty) else False
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
        flush = getattr(self.stream, "flush", None)
        if callable(flush):
            flush()


@contextmanager
def _main_script_hidden() -> Iterator[None]:
    """While inside, ``__main__`` is an empty module. A spawned worker starts by importing the
    parent's ``__main__`` script (or ``-m`` module) again; a script that calls ``sweep`` without an
    ``if __name__ == "__main__":`` guard would then sweep again in every worker (and fail). The
    workers need only mobmem (``run_task`` and plain dicts), so they are started without it: a pool
    starts its processes in ``submit``, which runs inside this. Sweeps in several threads share one
    hiding (counted, under a lock), and the real ``__main__`` is back when the last leaves; meanwhile
    (a ``submit``, a local cluster's start) other threads see the empty one too."""
    import types

    with _HIDING:
        if _HIDDEN["depth"] == 0:
            _HIDDEN["main"] = sys.modules.get("__main__")
            sys.modules["__main__"] = types.ModuleType("__main__")
        _HIDDEN["depth"] += 1
    try:
        yield
    finally:
        with _HIDING:
            _HIDDEN["depth"] -= 1
            if _HIDDEN["depth"] == 0:
                if _HIDDEN["main"] is not None:
                    sys.modules["__main__"] = _HIDDEN["main"]
                else:
                    sys.modules.pop("__main__", None)
                _HIDDEN["main"] = None


_HIDING = threading.Lock()
_HIDDEN: dict[str, Any] = {"depth": 0, "main": None}


def _local(tasks: Iterable[dict[str, Any]], workers: int) -> Iterator[dict[str, Any]]:
    from .worker import run_task

    if workers == 1:
        for t in tasks:
            yield run_task(t)
        return
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    from .worker import die_with_parent

    # spawn: the parent may hold the core's thread pool, which a forked child must not inherit.
    ctx = multiprocessing.get_context("spawn")
    ex = ProcessPoolExecutor(
        max_workers=workers, mp_context=ctx, initializer=die_with_parent, initargs=(os.getpid(),)
    )
    it = iter(tasks)
    pending: set[Any] = set()
    try:
        while True:
            for t in it:
                with _main_script_hidden():
                    pending.add(ex.submit(run_task, t))
                if len(pending) >= workers * (1 + AHEAD):
                    break
            if not pending:
                return
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                try:
                    yield f.result()
                except BrokenProcessPool:
                    raise InvariantError(
                        "a worker process ended while running (killed from outside, or by the system"
                        " when memory ran out); the runs finished before it are stored"
                    ) from None
    finally:
        # Stopped early (an error, Ctrl-C): runs not started are dropped, not run.
        ex.shutdown(wait=True, cancel_futures=True)


def _dask(tasks: Iterable[dict[str, Any]], address: str, workers: int) -> Iterator[dict[str, Any]]:
    from .._optional import need

    distributed = need("dask.distributed", "--dask")
    Client, LocalCluster, as_completed = (
        distributed.Client,
        distributed.LocalCluster,
        distributed.as_completed,
    )
    from .worker import die_with_parent, run_task

    cluster = None
    if address == "local":
        # The scheduler's HTTP server (dashboard, health checks) on a free port: its default 8787
        # may be taken. Its worker processes start here, without the caller's script (as the local
        # pool's).
        with _main_script_hidden():
            cluster = LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
            )
    try:
        client = Client(cluster if cluster is not None else address, timeout="20s")
    except (OSError, ValueError, TimeoutError, AssertionError) as e:
        # (AssertionError: what distributed's loop runner raises when the connection fails early.)
        if cluster is not None:
            cluster.close()
        raise MobmemIOError(f"--dask {address}: cannot reach a Dask scheduler there ({e})") from None
    try:
        if cluster is not None:
            # The local cluster's workers are this process's children: they end with it.
            client.run(die_with_parent, os.getpid())
        n = max(1, len(client.scheduler_info().get("workers", {})) or workers)
        it = iter(tasks)
        queue = as_completed()
        for t in it:
            queue.add(client.submit(run_task, t, pure=False))
            if queue.count() >= n * (1 + AHEAD):
                break
        for f in queue:
            yield f.result()
            for t in it:
                queue.add(client.submit(run_task, t, pure=False))
                break
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _refuse_twins(exp: Experiment, prefixes: array[int]) -> None:
    """Two runs of one plan that are the same run (the same key: settings that come out equal from
    different axis values) would be stored once and counted twice: refused, naming both. The keys'
    first 64 bits are compared (8 bytes a run), and a match confirmed on the whole keys."""
    order = sorted(range(len(prefixes)), key=prefixes.__getitem__)
    for i, j in itertools.pairwise(order):
        if prefixes[i] == prefixes[j]:
            a, b = exp.runs[i], exp.runs[j]
            if a.key == b.key:
                raise ConfigError(f"{exp.path}: runs ({_axes(a)}) and ({_axes(b)}) are the same run", "axes")


def _axes(run: Run) -> str:
    return ", ".join(f"{k}={v}" for k, v in run.axes.items())


def _changed(exp: Experiment, run: Run, read: str | None) -> MobmemIOError:
    return MobmemIOError(
        f"{exp.path}: {run.name} changed while the sweep ran (planned with content {run.digest[:12]}…,"
        f" a run read {str(read)[:12]}…); runs on the new content are not stored: run the sweep again"
    )


def sweep(
    exp: Experiment,
    workers: int = 0,
    dask: str | None = None,
    progress: TextIO | bool | None = True,
) -> dict[str, Any]:
    """Runs what the store lacks; returns how many runs there are, were stored before, ran now,
    and how many the store holds at the end (counted there, never assumed)."""
    from .._args import workers as worker_count
    from .spec import build

    if not isinstance(exp, Experiment):
        raise ConfigError(f"sweep: an Experiment (from experiment.load), got {exp!r}", "experiment")
    workers = worker_count("workers", workers)
    if dask is not None and not (isinstance(dask, str) and _ADDRESS.fullmatch(dask)):
        raise ConfigError(
            f"dask: 'local' or a scheduler's address (tcp://host:8786, host:8786), got {dask!r}", "dask"
        )
    if not (progress is None or isinstance(progress, bool) or hasattr(progress, "write")):
        raise ConfigError(f"progress: True, False or a stream to write to, got {progress!r}", "progress")
    runs = exp.runs
    store = Store(exp.store)
    try:
        missing = array("q")
        prefixes = array("Q")
        for b in range(0, len(runs), BATCH):
            chunk = runs[b : b + BATCH]
            prefixes.extend(int(r.key[:16], 16) for r in chunk)
            have = store.get([r.key for r in chunk], flat=True)  # every stored row is checked as read
            missing.extend(b + j for j, r in enumerate(chunk) if r.key not in have)
        _refuse_twins(exp, prefixes)
        stored_before = len(runs) - len(missing)
        n = max(1, min(workers or os.cpu_count() or 1, len(missing)))
        inflight: dict[str, Run] = {}

        def tasks() -> Iterator[dict[str, Any]]:
            for i in missing:
                run = runs[i]
                inflight[run.key] = run
                yield asdict(run)

        stream = None if progress is False else (sys.stderr if progress is True else progress)
        bar = Progress(len(missing), stream) if stream is not None and missing else None
        results = _dask(tasks(), dask, n) if dask else _local(tasks(), n)
        ran = 0
        for res in results:
            run = inflight.pop(res["key"])
            if "error" in res:
                err = _ERRORS.get(res["error_type"], MobmemError)
                raise err(f"{exp.path}: run ({_axes(run)}): {res['error']}")
            if res["digest"] != run.digest:
                raise _changed(exp, run, res["digest"])
            if res["build"] != build():
                raise MobmemIOError(
                    f"{exp.path}: a worker runs another build of mobmem ({res['build']}; this sweep is"
                    f" {build()}): its results are not stored"
                )
            store.put(
                {
                    "key": run.key,
                    "experiment": exp.name,
                    "kind": run.kind,
                    "source": run.name,
                    "digest": run.digest,
                    "axes": run.axes,
                    "config": run.config,
                    "resolved": res["resolved"],
                    "row": res["row"],
                    "version": build(),
                    "wall_s": res["wall_s"],
                }
            )
            ran += 1
            if bar:
                bar.step()
        held = store.count(r.key for r in runs)
        if held != len(runs):
            raise InvariantError(f"{exp.store}: holds {held} of the {len(runs)} runs after the sweep")
        return {
            "runs": len(runs),
            "stored_before": stored_before,
            "ran": ran,
            "stored": held,
            "store": str(exp.store),
        }
    finally:
        store.close()
