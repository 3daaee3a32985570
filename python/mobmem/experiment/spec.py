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
[baselines]
lru = { policy = "lru" }                   # a run's baseline: the same run with these values
```

Page traces take any run setting (``mobmem run``'s ``[sim]`` keys) as an axis, a policy parameter as
``"params.NAME"``; a page trace's run is deterministic, so a ``seed`` axis of more than one value
(identical repeats) is refused. Usage traces take ``phone``, ``seed`` (which varies the phone's
run) and any phone field. Paths are relative to the experiment
file's folder.

A run's identity (its key) is what decides its result and how it is shown: its settings, the seed,
the trace's path as the file gives it, the trace's content (SHA-256 of its bytes) and mobmem's
build (``build``). A changed trace, setting or version makes new runs, never a stale hit; two files with the
same bytes are two runs; a value given twice on an axis, or one file named twice, is an error.
Each run's settings are built afresh from the file (no two runs share a table), and runs are made
one at a time as they are needed (``Runs``): a plan of a million runs costs no memory until used.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import os
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from ..errors import ConfigError, TraceNotFoundError

#: Most runs one experiment may name (a typo in an axis should not plan a billion runs).
MAX_RUNS = 1_000_000
PAGE_SOURCES = ("trace", "traces")
PHONE_SOURCES = ("usage", "usages")
#: Names a phone run's settings cannot take: what the run is, not how the phone is set.
PHONE_RESERVED = ("usage", "usages", "checks")
#: The keys of ``[experiment]``.
EXPERIMENT_KEYS = ("name", *PAGE_SOURCES, *PHONE_SOURCES, "store")


@dataclass(frozen=True)
class Run:
    """One run of an experiment: its axes' values, the settings it runs with, and its key."""

    key: str
    kind: str  # "page" or "phone"
    source: str  # the trace or usage file, as a path this process can open
    name: str  # the same file as the experiment names it (part of the run's identity)
    digest: str  # SHA-256 of the file's bytes when the run was planned
    axes: dict[str, Any]
    config: dict[str, Any]


@functools.cache
def build() -> str:
    """This mobmem's version and build: its release number and a hash of the code that makes a
    result (the compiled core and the package's Python files). A stored run is reused only by the
    same build, so a fix to the engine is never answered with a result of the code before it.
    Hashed once a process, at its first run: the code a process runs is the code it started with,
    and a file edited meanwhile does not give its results another build's key."""
    from .. import __version__, _core

    h = hashlib.sha256()
    pkg = Path(__file__).resolve().parent.parent
    for f in [Path(_core.__file__), *sorted(pkg.rglob("*.py"))]:
        h.update(f.relative_to(pkg).as_posix().encode() if f.is_relative_to(pkg) else b"_core")
        h.update(f.read_bytes())
    return f"{__version__}+{h.hexdigest()[:16]}"


def run_key(kind: str, name: str, digest: str, config: dict[str, Any], repeat: Any) -> str:
    """The key of a run: a SHA-256 of what decides its result (``repeat`` is a page run's seed)."""
    ident = {
        "kind": kind,
        "source": name,
        "content": digest,
        "config": config,
        "repeat": repeat,
        "version": build(),
    }
    return hashlib.sha256(json.dumps(ident, sort_keys=True, allow_nan=False).encode()).hexdigest()


class Runs(Sequence[Run]):
    """The runs of an experiment, made on demand: sources outermost, then the axes in file order
    (so runs of one trace come together)."""

    def __init__(self, exp: Experiment, digests: list[str]) -> None:
        self._exp = exp
        self._digests = digests
        self._names = list(exp.axes)
        self._sizes = [len(exp.axes[k]) for k in self._names]
        n = len(exp.sources)
        for s in self._sizes:
            n *= s
        self._n = n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Run: ...
    @overload
    def __getitem__(self, i: slice) -> list[Run]: ...
    def __getitem__(self, i: int | slice) -> Run | list[Run]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        exp = self._exp
        point: dict[str, Any] = {}
        rest = i
        for name, size in zip(reversed(self._names), reversed(self._sizes), strict=True):
            rest, j = divmod(rest, size)
            point[name] = exp.axes[name][j]
        point = {k: point[k] for k in self._names}
        src = rest
        config = settings(exp.path, exp.base, point)
        repeat = None
        if exp.kind == "page":
            # A page trace's run is deterministic: its seed only names a repeat (in the key).
            repeat = config.pop("seed", None)
        name = exp.names[src]
        key = run_key(exp.kind, name, self._digests[src], config, repeat)
        axes = {"source": name, **_copy(point)}
        return Run(key, exp.kind, exp.sources[src], name, self._digests[src], axes, config)

    def __iter__(self) -> Iterator[Run]:
        for i in range(self._n):
            yield self[i]


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
    #: The sources as the file names them (``sources`` are the same, openable from here).
    names: list[str] = field(default_factory=list)
    runs: Sequence[Run] = field(default_factory=list)


def _fail(path: Path, what: str) -> ConfigError:
    return ConfigError(f"{path}: {what}", what.split(":")[0])


def _put(out: dict[str, Any], dotted: str, value: Any, path: Path, where: str) -> None:
    """Sets ``out[a][b]… = value`` for ``dotted = "a.b…"`` (a table's keys merged one by one),
    copying ``value``: nothing of the file's tables is shared."""
    parts = dotted.split(".")
    if not all(parts):
        raise _fail(path, f"{where}.{dotted}: an empty part in a dotted name")
    cur = out
    for i, part in enumerate(parts[:-1]):
        nxt = cur.setdefault(part, {})
        if not isinstance(nxt, dict):
            raise _fail(
                path, f"{where}.{dotted}: {'.'.join(parts[: i + 1])} is a value ({nxt!r}), not a table"
            )
        cur = nxt
    last = parts[-1]
    if isinstance(value, dict):
        table = cur.setdefault(last, {})
        if not isinstance(table, dict):
            raise _fail(path, f"{where}.{dotted}: a table, but a value ({table!r}) is set there too")
        for k, v in value.items():
            _put(table, k, v, path, f"{where}.{dotted}")
    else:
        cur[last] = _copy(value)


def _copy(v: Any) -> Any:
    """A copy of a TOML value (tables and arrays copied, the rest immutable)."""
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v


def settings(path: Path, base: dict[str, Any], point: dict[str, Any]) -> dict[str, Any]:
    """A run's settings: ``base`` with the axes' values on top (``"params.NAME"`` names a nested
    setting), built afresh: no table is shared with another run or with the file's."""
    out: dict[str, Any] = {}
    for k, v in base.items():
        _put(out, k, v, path, "base")
    for k, v in point.items():
        _put(out, k, v, path, "axes")
    return out


def file_hash(path: str) -> str:
    """The content hash of a file (SHA-256, streamed)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _canonical(v: Any) -> str:
    """A value as a comparable text: 1 and 1.0 are one value, True and 1 are not."""

    def norm(x: Any) -> Any:
        if isinstance(x, float) and x.is_integer():
            return int(x)
        if isinstance(x, dict):
            return {k: norm(y) for k, y in x.items()}
        if isinstance(x, list):
            return [norm(y) for y in x]
        return x

    return json.dumps(norm(v), sort_keys=True, default=str)


def _no_nan(path: Path, where: str, v: Any) -> None:
    """TOML has ``nan`` and ``inf``; no setting takes them."""
    if isinstance(v, float) and not math.isfinite(v):
        raise _fail(path, f"{where}: {v} is not a value any setting takes")
    if isinstance(v, dict):
        for k, x in v.items():
            _no_nan(path, f"{where}.{k}", x)
    if isinstance(v, list):
        for x in v:
            _no_nan(path, where, x)


def _sources(raw: dict[str, Any], path: Path) -> tuple[str, list[str], list[str]]:
    page = [k for k in PAGE_SOURCES if k in raw]
    phone = [k for k in PHONE_SOURCES if k in raw]
    if len(page) + len(phone) != 1:
        raise _fail(path, "experiment: give exactly one of trace, traces, usage, usages")
    kind = "page" if page else "phone"
    key = (page or phone)[0]
    v = raw[key]
    items = [v] if isinstance(v, str) else v
    if not isinstance(items, list) or not items or not all(isinstance(x, str) and x for x in items):
        raise _fail(path, f"experiment.{key}: a path or a non-empty list of paths")
    out: list[str] = []
    seen: dict[str, str] = {}
    for s in items:
        p = (path.parent / s) if not os.path.isabs(s) else Path(s)
        try:
            is_file = p.is_file()
        except OSError as e:  # a name too long, a folder that cannot be searched
            raise TraceNotFoundError(
                f"{path}: experiment.{key}: cannot look at {s!r} ({e.strerror})", str(p)
            ) from None
        if not is_file:
            raise TraceNotFoundError(f"{path}: experiment.{key}: no such file {s!r} (looked at {p})", str(p))
        real = os.path.realpath(p)
        if real in seen:
            raise _fail(path, f"experiment.{key}: {seen[real]!r} and {s!r} are the same file")
        seen[real] = s
        out.append(os.path.abspath(p))
    return kind, out, list(items)


def load(path: str | os.PathLike[str]) -> Experiment:
    """Reads an experiment file and plans its runs (``Experiment.runs``)."""
    from .._args import path as a_path

    p = Path(a_path("experiment", path))
    try:
        is_file = p.is_file()
    except OSError as e:
        raise TraceNotFoundError(f"{p}: cannot look at the experiment file ({e.strerror})", str(p)) from None
    if not is_file:
        raise TraceNotFoundError(f"{p}: no such experiment file", str(p))
    try:
        # utf-8-sig: a byte-order mark, as some editors write, is skipped as everywhere else.
        doc = tomllib.loads(p.read_bytes().decode("utf-8-sig"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise _fail(p, f"experiment: not a TOML file ({e})") from None
    except OSError as e:
        raise TraceNotFoundError(f"{p}: cannot read the experiment file ({e.strerror})", str(p)) from None
    unknown = set(doc) - {"experiment", "base", "axes", "baselines"}
    if unknown:
        raise _fail(p, f"{sorted(unknown)[0]}: unknown table; known: experiment, base, axes, baselines")
    raw = doc.get("experiment")
    if not isinstance(raw, dict):
        raise _fail(p, "experiment: the [experiment] table is missing")
    for k in raw:
        if k not in EXPERIMENT_KEYS:
            raise _fail(p, f"experiment.{k}: unknown key; known: {', '.join(EXPERIMENT_KEYS)}")
    name = raw.get("name", p.stem)
    if not isinstance(name, str):
        raise _fail(p, f"experiment.name: {name!r} is not a string")
    if "store" in raw and not (isinstance(raw["store"], str) and raw["store"]):
        raise _fail(p, f"experiment.store: {raw['store']!r} is not a path")
    kind, sources, names = _sources(raw, p)
    base = doc.get("base", {})
    axes = doc.get("axes", {})
    baselines = doc.get("baselines", {})
    for t, v in (("base", base), ("axes", axes), ("baselines", baselines)):
        if not isinstance(v, dict):
            raise _fail(p, f"{t}: must be a table")
    _no_nan(p, "base", base)
    for k, v in axes.items():
        if not isinstance(v, list) or not v:
            raise _fail(p, f"axes.{k}: a non-empty list of values")
        _no_nan(p, f"axes.{k}", v)
        seen: set[str] = set()
        for x in v:
            c = _canonical(x)
            if c in seen:
                raise _fail(p, f"axes.{k}: {x!r} is given twice (each value names one run)")
            seen.add(c)
    for v in [*axes.get("seed", []), *([base["seed"]] if "seed" in base else [])]:
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise _fail(p, f"seed: {v!r} is not a whole number ≥ 0")
    if kind == "page" and len(axes.get("seed", [])) > 1:
        raise _fail(
            p,
            f"axes.seed: {len(axes['seed'])} seeds on page traces would store {len(axes['seed'])} identical "
            "runs (a page trace's replay is deterministic); seeds vary phone runs (usage traces): drop the axis",
        )
    for b, v in baselines.items():
        if not isinstance(v, dict) or not set(v) <= set(axes):
            raise _fail(p, f"baselines.{b}: a table of axis values (axes: {', '.join(axes)})")
    n = len(sources)
    for v in axes.values():
        n *= len(v)
    if n > MAX_RUNS:
        raise _fail(p, f"axes: {n:,} runs planned; at most {MAX_RUNS:,}")
    # Every run's settings are checked for conflicts (a value where a table is) on the first one:
    # all runs have the same keys.
    if n:
        settings(p, base, {k: v[0] for k, v in axes.items()})
    # Two axes that set the same setting (`params` and `params.ain_ratio`) could make two runs of
    # one: refused. (Runs that still come out the same are refused by `sweep`, which sees every key.)
    dotted = sorted(axes, key=lambda k: k.split("."))
    for a, b in itertools.pairwise(dotted):
        if b.split(".")[: len(a.split("."))] == a.split("."):
            raise _fail(p, f"axes.{b}: axes.{a} sets it too (an axis may not set part of another's table)")
    if kind == "phone":
        for k in [*base, *axes]:
            if k.split(".")[0] in PHONE_RESERVED:
                raise _fail(
                    p,
                    f"{k}: not a phone setting (the usage is the experiment's {' or '.join(PHONE_SOURCES)})",
                )
    store = Path(raw["store"]) if "store" in raw else p.with_suffix(".results.sqlite")
    if not store.is_absolute():
        store = p.parent / store if "store" in raw else store
    exp = Experiment(str(name), p, kind, sources, base, axes, baselines, store, names)
    try:
        digests = [file_hash(s) for s in sources]
    except OSError as e:
        raise TraceNotFoundError(f"{p}: cannot read {e.filename} ({e.strerror})", str(e.filename)) from None
    exp.runs = Runs(exp, digests)
    return exp
