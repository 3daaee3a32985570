"""An experiment file: what to run (page traces, or app usage on phones) and the axes whose product
is the set of runs.

```toml
[experiment]
name = "policies-on-sqlite"
trace = "tests/data/sqlite_60k.txt.zst"    # or traces = [...]; or usage = "u.csv" / usages = [...]
[base]                                     # settings every run shares
swap = "emmc-inand"
[axes]
policy = ["lru", "clock", "arc", "2q", "opt"]
memory = ["5%", "10%", "25%"]
seed = [1, 2, 3]
[baselines]
lru = { policy = "lru" }                   # a run's baseline: the same run with these values
```

Page traces take any run setting (``mobmem run``'s ``[sim]`` keys) as an axis, a policy parameter as
``"params.NAME"``, and ``seed``, which only names a repeat (a page trace's run is deterministic);
usage traces take ``phone``, ``seed`` and any phone field. Paths are relative to
the experiment file's folder. A run's key is a hash of what decides its result — its resolved
settings, the trace's content hash and mobmem's version — so a changed trace, setting or version
makes new runs, never a stale hit.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError, TraceNotFoundError

#: Most runs one experiment may name (a typo in an axis should not plan a billion runs).
MAX_RUNS = 1_000_000
PAGE_SOURCES = ("trace", "traces")
PHONE_SOURCES = ("usage", "usages")


@dataclass(frozen=True)
class Run:
    """One run of an experiment: its axes' values, the settings it runs with, and its key."""

    key: str
    kind: str  # "page" or "phone"
    source: str  # the trace or usage file
    axes: dict[str, Any]
    config: dict[str, Any]


@dataclass
class Experiment:
    name: str
    path: Path
    kind: str
    sources: list[str]
    base: dict[str, Any]
    axes: dict[str, list[Any]]
    baselines: dict[str, dict[str, Any]]
    store: Path
    runs: list[Run] = field(default_factory=list)


def _fail(path: Path, what: str) -> ConfigError:
    return ConfigError(f"{path}: {what}", what.split(":")[0])


def _nest(flat: dict[str, Any]) -> dict[str, Any]:
    """``{"params.max_age": 3}`` → ``{"params": {"max_age": 3}}``."""
    out: dict[str, Any] = {}
    for k, v in flat.items():
        head, _, rest = k.partition(".")
        if rest:
            out.setdefault(head, {})[rest] = v
        else:
            out[k] = v
    return out


def file_hash(path: str) -> str:
    """The content hash of a file (SHA-256, streamed)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _sources(raw: dict[str, Any], path: Path) -> tuple[str, list[str]]:
    page = [k for k in PAGE_SOURCES if k in raw]
    phone = [k for k in PHONE_SOURCES if k in raw]
    if len(page) + len(phone) != 1:
        raise _fail(path, "experiment: give exactly one of trace, traces, usage, usages")
    kind = "page" if page else "phone"
    key = (page or phone)[0]
    v = raw[key]
    items = [v] if isinstance(v, str) else v
    if not isinstance(items, list) or not items or not all(isinstance(x, str) for x in items):
        raise _fail(path, f"experiment.{key}: a path or a non-empty list of paths")
    out = []
    for s in items:
        p = (path.parent / s) if not os.path.isabs(s) else Path(s)
        if not p.is_file():
            raise TraceNotFoundError(f"{path}: experiment.{key}: no such file {s!r} (looked at {p})", str(p))
        out.append(str(p))
    return kind, out


def load(path: str | os.PathLike[str]) -> Experiment:
    """Reads an experiment file and plans its runs (``Experiment.runs``)."""
    from .. import __version__

    p = Path(path)
    if not p.is_file():
        raise TraceNotFoundError(f"{p}: no such experiment file", str(p))
    try:
        doc = tomllib.loads(p.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise _fail(p, f"experiment: not a TOML file ({e})") from None
    unknown = set(doc) - {"experiment", "base", "axes", "baselines"}
    if unknown:
        raise _fail(p, f"{sorted(unknown)[0]}: unknown table; known: experiment, base, axes, baselines")
    raw = doc.get("experiment")
    if not isinstance(raw, dict):
        raise _fail(p, "experiment: the [experiment] table is missing")
    name = raw.get("name", p.stem)
    if "store" in raw and not isinstance(raw["store"], str):
        raise _fail(p, f"experiment.store: {raw['store']!r} is not a path")
    kind, sources = _sources(raw, p)
    base = doc.get("base", {})
    axes = doc.get("axes", {})
    baselines = doc.get("baselines", {})
    for t, v in (("base", base), ("axes", axes), ("baselines", baselines)):
        if not isinstance(v, dict):
            raise _fail(p, f"{t}: must be a table")
    for k, v in axes.items():
        if not isinstance(v, list) or not v:
            raise _fail(p, f"axes.{k}: a non-empty list of values")
    for v in [*axes.get("seed", []), *([base["seed"]] if "seed" in base else [])]:
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise _fail(p, f"seed: {v!r} is not a whole number ≥ 0")
    for b, v in baselines.items():
        if not isinstance(v, dict) or not set(v) <= set(axes):
            raise _fail(p, f"baselines.{b}: a table of axis values (axes: {', '.join(axes)})")
    n = len(sources)
    for v in axes.values():
        n *= len(v)
    if n > MAX_RUNS:
        raise _fail(p, f"axes: {n:,} runs planned; at most {MAX_RUNS:,}")
    store = Path(raw["store"]) if "store" in raw else p.with_suffix(".results.sqlite")
    if not store.is_absolute():
        store = p.parent / store if "store" in raw else store
    exp = Experiment(str(name), p, kind, sources, base, axes, baselines, store)
    hashes = {s: file_hash(s) for s in sources}
    names = list(axes)
    for src in sources:
        for values in itertools.product(*(axes[k] for k in names)):
            point = dict(zip(names, values, strict=True))
            config = _nest({**base, **point})
            ident = {"kind": kind, "source": hashes[src], "config": config, "version": __version__}
            key = hashlib.sha256(json.dumps(ident, sort_keys=True, default=str).encode()).hexdigest()
            if kind == "page":
                # A page trace's run is deterministic: its seed only names a repeat (in the key).
                config = {k: v for k, v in config.items() if k != "seed"}
            exp.runs.append(Run(key, kind, src, {"source": Path(src).name, **point}, config))
    return exp
