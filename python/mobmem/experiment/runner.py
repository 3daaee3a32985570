"""The reproductions' runs through the results store. ``phone_grid`` and ``run_configs`` here are
the ones in :mod:`mobmem.phone` and :mod:`mobmem.api`, unless a store is set (``mobmem reproduce
NAME --store FILE``, or :func:`stored`): then each run is looked up by its key — what decides its
result: the job or settings, the content of every file it reads (trace, phones, apps, devices) and
mobmem's version — only the missing runs run, in batches of a few per thread, and each batch is
stored the moment it returns. A reproduction killed at any moment loses at most the batch in flight
and, run again with the same store, repeats no stored run.

The content that keys a run is the content it ran on: a usage file's run reports the hash of the
bytes it read, and the side files (phones, apps, devices: small TOML files read whole) are hashed
again after each batch — a file changed meanwhile stops the reproduction, its batch not stored.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .store import Store

_STATE: dict[str, Any] = {"store": None, "name": "", "ran": 0, "reused": 0}
#: Runs per thread in one batch (each batch is stored when it returns).
BATCH_PER_THREAD = 2


@contextmanager
def stored(path: str | os.PathLike[str], name: str) -> Iterator[dict[str, Any]]:
    """Runs inside go through the store at ``path``; yields counts (``ran``, ``reused``)."""
    store = Store(path)
    prev = dict(_STATE)
    _STATE.update(store=store, name=name, ran=0, reused=0)
    try:
        yield _STATE
    finally:
        store.close()
        counts = {k: _STATE[k] for k in ("ran", "reused")}
        _STATE.update(prev)
        _STATE["last"] = counts


def _file_hash(path: Any) -> str | None:
    if path is None:
        return None
    from .spec import file_hash

    return file_hash(os.fspath(path))


def _key(kind: str, what: Any, hashes: Sequence[str | None]) -> str:
    from .spec import build

    ident = {"kind": kind, "what": what, "files": list(hashes), "version": build()}
    return hashlib.sha256(json.dumps(ident, sort_keys=True, default=str).encode()).hexdigest()


def _side(files: Sequence[Any]) -> list[str | None]:
    return [_file_hash(f) for f in files]


def _through(
    kind: str,
    items: list[Any],
    keys: list[str],
    run: Any,
    threads: int,
    config: Any,
    side: tuple[Sequence[Any], list[str | None]] = ((), []),
    digests: Sequence[str | None] = (),
) -> list[dict[str, Any]]:
    """The stored result of each key, running (and storing) the missing ones in batches.
    ``side`` is the side files and their hashes in the keys, checked again after each batch;
    ``digests`` the content hash each item's usage file must have been read with."""
    from ..errors import MobmemIOError
    from .spec import build

    store: Store = _STATE["store"]
    have = store.get(keys)
    missing = [i for i, k in enumerate(keys) if k not in have]
    _STATE["reused"] += len(keys) - len(missing)
    step = max(1, (threads or os.cpu_count() or 1) * BATCH_PER_THREAD)
    for b in range(0, len(missing), step):
        idx = missing[b : b + step]
        raws = run([items[i] for i in idx])
        for f, h in zip(side[0], side[1], strict=True):
            if _file_hash(f) != h:
                raise MobmemIOError(
                    f"{f} changed while the runs read it; nothing of theirs stored: run again"
                )
        for i, raw in zip(idx, raws, strict=True):
            if digests and digests[i] is not None and raw.get("usage_sha256") != digests[i]:
                path = items[i]["usage"]["path"]
                raise MobmemIOError(
                    f"{path} changed while the runs read it; nothing of theirs stored: run again"
                )
            rec = {
                "key": keys[i],
                "experiment": _STATE["name"],
                "kind": kind,
                "source": "",
                "digest": "",
                "axes": {},
                "config": config(items[i]),
                "resolved": raw.get("config", {}),
                "row": raw,
                "version": build(),
                "wall_s": float(raw.get("wall_time_s", 0.0)),
            }
            store.put(rec)
            have[keys[i]] = rec
            _STATE["ran"] += 1
    return [have[k]["row"] for k in keys]


def phone_grid(
    jobs: Sequence[Mapping[str, Any]],
    *,
    threads: int = 0,
    phones: Any = None,
    apps: Any = None,
    devices: Any = None,
) -> list[Any]:
    """:func:`mobmem.phone.phone_grid`, through the store when one is set."""
    from .. import phone as ph

    if _STATE["store"] is None:
        return list(ph.phone_grid(jobs, threads=threads, phones=phones, apps=apps, devices=devices))
    jobs = [dict(j) for j in jobs]
    files = [f for f in (phones, apps, devices) if f is not None]
    hashes = _side(files)
    # A usage file's content is part of its run's identity, checked against what the run read.
    usage = [
        _file_hash(j["usage"]["path"]) if j.get("usage", {}).get("kind") == "file" else None for j in jobs
    ]
    keys = [_key("phone", j, [*hashes, u]) for j, u in zip(jobs, usage, strict=True)]

    def run(batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
        rs = ph.phone_grid(batch, threads=threads, phones=phones, apps=apps, devices=devices)
        return [r.raw for r in rs]

    raws = _through("phone", jobs, keys, run, threads, lambda j: j, (files, hashes), usage)
    return [ph.PhoneResult(d) for d in raws]


def _trace_hash(trace: Any) -> str:
    """The content hash of a trace held in memory (written to a temporary binary file: once per call,
    as a reproduction hands each trace over once)."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "t.mobt"
        trace.save(path, "binary")
        return _file_hash(path) or ""


def run_configs(
    trace: Any, configs: Sequence[Mapping[str, Any]], devices: Any = None, threads: int = 0
) -> list[Any]:
    """:func:`mobmem.api.run_configs`, through the store when one is set."""
    from .. import api

    if _STATE["store"] is None:
        return api.run_configs(trace, configs, devices=devices, threads=threads)
    t = api._as_trace(trace)
    th = _trace_hash(t)
    cfgs = [dict(c) for c in configs]
    files = [f for f in (devices,) if f is not None]
    hashes = _side(files)
    keys = [_key("page", {"trace": th, "config": c}, hashes) for c in cfgs]

    def run(batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [r.to_dict() for r in api.run_configs(t, batch, devices=devices, threads=threads)]

    raws = _through("page", cfgs, keys, run, threads, lambda c: c, (files, hashes))
    return [api.RunResult(d) for d in raws]
