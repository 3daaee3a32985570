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
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from .store import Store

_STATE: dict[str, Any] = {"store": None, "name": "", "ran": 0, "reused": 0, "moves": {}, "made": 0}


def runs_made() -> int:
    """Runs the reproductions have asked for in this process (stored or made): their progress."""
    return int(_STATE["made"])


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


@contextmanager
def moved(
    phone: Mapping[str, Any] | None = None,
    apps: Mapping[str, tuple[Any, bool]] | None = None,
    devices: Mapping[str, Any] | None = None,
) -> Iterator[None]:
    """Every run inside has some of its settings moved, whatever the caller asks for:

    - ``phone``: a phone field (dotted for a nested table, ``kernel.swap_out_us``; in a list of
      tables an index or ``*``, ``system.*.write_share``) → its value in every phone run;
    - ``apps``: an app catalog field → (value, scale), set on every app (scale: the value
      multiplies each app's own; a share, ``*_share`` or ``*_prob``, scaled up stops at 1);
    - ``devices``: ``preset.field`` (``tiers.pcm.field`` for a tier) → its value in every run.

    How the fidelity scoreboard reruns a reproduction with an input moved (its inputs ledger) or
    with its workload idle, and how a reproduction runs its own sensitivities; the moved runs are
    stored under their own keys."""
    prev = _STATE["moves"]
    scaled = dict(prev.get("apps", {}))
    for field, (value, scale) in (apps or {}).items():
        was = scaled.get(field)
        # A scale inside a scale of the same field compounds (a reproduction's own sensitivity
        # rerun by the scoreboard); a value set replaces.
        scaled[field] = (was[0] * value, True) if scale and was and was[1] else (value, scale)
    _STATE["moves"] = {
        "phone": {**prev.get("phone", {}), **(phone or {})},
        "apps": scaled,
        "devices": {**prev.get("devices", {}), **(devices or {})},
    }
    try:
        yield
    finally:
        _STATE["moves"] = prev


def idle() -> AbstractContextManager[None]:
    """Phone runs inside replay their launches with no page touched (the phone's ``activity`` 0):
    a reproduction's idle workload, for the fidelity scoreboard's echo test."""
    return moved(phone={"activity": 0.0})


def idle_subject(kind: str) -> AbstractContextManager[None]:
    """Phone runs inside have one subject idle — ``apps`` (the apps touch no page) or ``system``
    (the system processes touch none) — and everything else as before: the fidelity scoreboard's
    subject test, which finds a number that is not its subject's."""
    return moved(phone={f"{kind}_activity": 0.0})


def _set(table: dict[str, Any], dotted: str, value: Any) -> None:
    """Sets ``dotted`` in ``table``: keys of nested tables, and in a list of tables (a phone's
    system processes) an index or ``*`` for every one."""
    from ..errors import ConfigError

    def put(node: Any, keys: list[str]) -> None:
        k, rest = keys[0], keys[1:]
        if isinstance(node, list):
            if k != "*" and not (k.isdigit() and int(k) < len(node)):
                raise ConfigError(
                    f"{dotted}: {k} is not one of the list's {len(node)} entries (or *)", dotted
                )
            for i in range(len(node)) if k == "*" else [int(k)]:
                if rest:
                    put(node[i], rest)
                else:
                    node[i] = value
            return
        if not isinstance(node, dict):
            raise ConfigError(f"{dotted}: {k} is not in a table of settings", dotted)
        if rest:
            put(node.setdefault(k, {}), rest)
            return
        node[k] = value
        # A latency is given as ns or as IOPS, one of each pair: the moved one replaces the other.
        twin = {
            "read_iops": "read_ns",
            "write_iops": "write_ns",
            "read_ns": "read_iops",
            "write_ns": "write_iops",
        }
        node.pop(twin.get(k, ""), None)

    put(table, dotted.split("."))


def _load(path: Any) -> dict[str, Any]:
    import tomllib

    if path is None:
        return {}
    return tomllib.loads(Path(os.fspath(path)).read_text(encoding="utf-8-sig"))


def moved_devices(devices: Any, tmp: str) -> Any:
    """The devices file of a run with the moved device fields: the caller's file (if any), each
    moved preset's table taken from it or from the built-in presets, one field changed."""
    import tomllib

    from .. import _core, _toml

    moves = _STATE["moves"].get("devices")
    if not moves:
        return devices
    doc = _load(devices)
    builtin = tomllib.loads(_core.device_presets())
    for dotted, value in moves.items():
        parts = dotted.split(".")
        at = parts[:2] if parts[0] == "tiers" else parts[:1]
        mine, theirs = doc, builtin
        for k in at:
            mine = mine.setdefault(k, {})
            theirs = theirs.get(k, {})
        if not mine:
            mine.update(theirs)
        _set(mine, ".".join(parts[len(at) :]), value)
    path = Path(tmp) / "devices.toml"
    path.write_text(_toml.dumps(doc), encoding="utf-8")
    return path


def _moved_apps(apps: Any, tmp: str) -> Any:
    """The apps file of a phone run with the moved catalog fields set on every app."""
    from .. import _toml
    from .. import phone as ph
    from ..errors import ConfigError

    moves = _STATE["moves"].get("apps")
    if not moves:
        return apps
    doc = _load(apps)
    for field, (value, scale) in moves.items():
        if not scale:  # an app the catalog does not name runs with its defaults: set there too
            doc.setdefault("defaults", {})[field] = value
    for a in ph.apps(apps):
        entry = doc.setdefault("apps", {}).setdefault(a["name"], {})
        for field, (value, scale) in moves.items():
            if scale and not isinstance(a.get(field), int | float):
                raise ConfigError(
                    f"apps: {a['name']} has no {field} to scale (it is {a.get(field)!r})", field
                )
            entry[field] = a[field] * value if scale else value
            if scale and field.endswith(("_share", "_prob")):
                entry[field] = min(1.0, entry[field])  # a share scaled up stops at all
    path = Path(tmp) / "apps.toml"
    path.write_text(_toml.dumps(doc), encoding="utf-8")
    return path


#: A table of parameters and the choice it belongs to: a job that makes another choice (another
#: policy, killer or admission) does not get the phone's parameters for the old one moved.
_CHOICE = {"params": "policy", "killer_params": "killer", "swap_admission_params": "swap_admission"}


def moved_jobs(jobs: Sequence[Mapping[str, Any]], phones: Any) -> list[Any]:
    """The jobs with the moved phone fields in their overrides (a nested table is the job's own,
    or its phone's, with the one field changed)."""
    import copy

    from .. import _args
    from .. import phone as ph

    moves = _STATE["moves"].get("phone")
    if not moves:
        return list(jobs)
    known = ph.phones(phones)
    out = []
    for j in _args.mappings("jobs", jobs):
        over = copy.deepcopy(dict(j.get("overrides", {})))
        mine = known.get(j.get("phone", "nexus5"), {})
        for dotted, value in moves.items():
            top = dotted.split(".")[0]
            choice = _CHOICE.get(top)
            if "." in dotted and choice and over.get(choice, mine.get(choice)) != mine.get(choice):
                continue  # the job runs another policy, killer or admission than the phone's
            if "." in dotted and top not in over:
                over[top] = copy.deepcopy(mine.get(top) or {})  # a table, or a list of tables
            _set(over, dotted, value)
        out.append({**j, "overrides": over})
    return out


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
    # A run asked for twice in one call is one run: made once, stored once, counted once.
    first: dict[str, int] = {}
    for i, k in enumerate(keys):
        first.setdefault(k, i)
    missing = [i for k, i in first.items() if k not in have]
    _STATE["reused"] += len(first) - len(missing)
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
    """:func:`mobmem.phone.phone_grid`, through the store when one is set, with the settings
    :func:`moved` moves."""
    from .. import _args

    jobs = _args.mappings("jobs", jobs)
    with tempfile.TemporaryDirectory() as tmp:
        return _phone_grid(
            moved_jobs(jobs, phones),
            threads,
            phones,
            _moved_apps(apps, tmp),
            moved_devices(devices, tmp),
        )


def _named(job: dict[str, Any]) -> dict[str, Any]:
    """A job as its key names it: a usage file by its name and content (hashed beside it), not its
    folder — a reproduction writes the usage files it makes (re-timed windows) to a temporary folder
    of its own, which is another folder at every run."""
    u = job.get("usage", {})
    if u.get("kind") != "file":
        return job
    return {**job, "usage": {**u, "path": os.path.basename(os.fspath(u["path"]))}}


def _phone_grid(jobs: list[dict[str, Any]], threads: int, phones: Any, apps: Any, devices: Any) -> list[Any]:
    from .. import phone as ph

    _STATE["made"] += len(jobs)
    if _STATE["store"] is None:
        return list(ph.phone_grid(jobs, threads=threads, phones=phones, apps=apps, devices=devices))
    files = [f for f in (phones, apps, devices) if f is not None]
    hashes = _side(files)
    # A usage file's content is part of its run's identity, checked against what the run read.
    usage = [
        _file_hash(j["usage"]["path"]) if j.get("usage", {}).get("kind") == "file" else None for j in jobs
    ]
    keys = [_key("phone", _named(j), [*hashes, u]) for j, u in zip(jobs, usage, strict=True)]

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
    """:func:`mobmem.api.run_configs`, through the store when one is set, with the device fields
    :func:`moved` moves."""
    with tempfile.TemporaryDirectory() as tmp:
        return _run_configs(trace, configs, moved_devices(devices, tmp), threads)


def _run_configs(trace: Any, configs: Sequence[Mapping[str, Any]], devices: Any, threads: int) -> list[Any]:
    from .. import api

    _STATE["made"] += len(configs)
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
