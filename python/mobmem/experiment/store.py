"""The results store: one SQLite file beside the experiment, one row per finished run.

Why SQLite: it is in Python's standard library (no service, no extra wheel), and each run is written
in a transaction of its own. In WAL mode with ``synchronous=FULL`` a transaction is in the file
once ``commit`` returns, and one interrupted by ``kill -9`` (or a power cut) is rolled back when
the file is next opened — the store holds every finished run and no half-written one. Parquet parts
would need a file per run to get the same; DuckDB is a wheel more for no gain here.

What is trusted, and what is not: a file is taken for a store only when it has this module's
tables and marks (checked read-only: a SQLite file that is something else is refused and left as
it was), and every row is checked as it is read — each column of its type, each JSON column an
object with no NaN or infinity, nesting bounded, and the whole row matching its seal (a SHA-256 of
its columns written with it) — so a damaged or hostile row is an error naming the store and the
row, never a traceback and never a run taken as done. ``results`` and ``report``
open the store read-only (a read-only store still reads).
"""

from __future__ import annotations

import json
import math
import os
import re
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import InvariantError, MobmemIOError

SCHEMA = 2
#: What marks a SQLite file as a mobmem results store.
FORMAT = "mobmem-results"
COLUMNS = (
    "key",
    "experiment",
    "kind",
    "source",
    "digest",
    "axes",
    "config",
    "resolved",
    "row",
    "version",
    "wall_s",
    "finished",
    "seal",
)
_JSON = ("axes", "config", "resolved", "row")
_TEXT = ("key", "experiment", "kind", "source", "digest", "version")
_TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs (
    key TEXT PRIMARY KEY,
    experiment TEXT NOT NULL,
    kind TEXT NOT NULL,
    source TEXT NOT NULL,
    digest TEXT NOT NULL,
    axes TEXT NOT NULL,
    config TEXT NOT NULL,
    resolved TEXT NOT NULL,
    row TEXT NOT NULL,
    version TEXT NOT NULL,
    wall_s REAL NOT NULL,
    finished REAL NOT NULL,
    seal TEXT NOT NULL
);
"""
_KEY = re.compile(r"[0-9a-f]{64}")
#: Deepest nesting of a stored JSON value (a run's record is a few levels deep).
MAX_DEPTH = 32
#: Keys looked up per query.
BATCH = 500


def _reject(token: str) -> Any:
    raise ValueError(f"{token} is not a number a run can have")


def _finite(token: str) -> float:
    x = float(token)
    if not math.isfinite(x):  # 1e999
        raise ValueError(f"{token} is not a finite number")
    return x


def _depth(v: Any, limit: int) -> int:
    if limit < 0:
        return 0
    if isinstance(v, dict):
        return 1 + max((_depth(x, limit - 1) for x in v.values()), default=0)
    if isinstance(v, list):
        return 1 + max((_depth(x, limit - 1) for x in v), default=0)
    return 0


def seal(values: tuple[Any, ...]) -> str:
    """SHA-256 over a row's columns as stored: a row changed by a flipped byte that still reads as
    a run (a digit of a meter) no longer matches it."""
    import hashlib

    text = json.dumps([repr(v) if isinstance(v, float) else v for v in values])
    return hashlib.sha256(text.encode()).hexdigest()


def encode(v: Any) -> str:
    """A value as the store keeps it: JSON with no NaN or infinity (a run never has one)."""
    try:
        return json.dumps(v, allow_nan=False)
    except (ValueError, TypeError) as e:
        raise InvariantError(f"a run's record cannot be stored: {e}") from None


class Store:
    """Opens the store at ``path``: for writing (created when missing or empty), or with
    ``readonly`` for reading only (it must exist)."""

    def __init__(self, path: str | os.PathLike[str], readonly: bool = False) -> None:
        from .._args import path as a_path

        self.path = Path(a_path("store", path))
        self.readonly = readonly
        try:
            exists = self.path.exists()
            dangling = not exists and self.path.is_symlink()
            fresh = not readonly and (not exists or (self.path.is_file() and self.path.stat().st_size == 0))
        except OSError as e:
            raise MobmemIOError(f"{self.path}: cannot look at it ({e.strerror})") from None
        if dangling:
            raise MobmemIOError(f"{self.path}: a link to nothing; not a results store")
        try:
            if fresh:
                self._create()
                return
            if not exists:
                raise MobmemIOError(f"{self.path}: no such results store")
            if not self.path.is_file():
                raise MobmemIOError(f"{self.path}: not a file, so not a results store")
            # Checked read-only first: a file that is not a store is never written to.
            self.db = self._open_readonly()
            self._check()
            if not readonly:
                self.db.close()
                self.db = sqlite3.connect(self.path, timeout=30.0)
                self._pragmas()
        except MobmemIOError:
            raise
        except (sqlite3.Error, UnicodeDecodeError, OSError) as e:
            # A damaged schema's text may not even decode (SQLite's message quotes it).
            raise MobmemIOError(f"{self.path}: not a readable mobmem results store ({e})") from None

    def _create(self) -> None:
        """A new store, made in one transaction that waits for any other process making it at the
        same moment (two sweeps started together): the second finds the first's and checks it.
        The tables are written before the switch to WAL, so a process that finds the file no
        longer empty waits on the writer's lock instead of reading a file with no tables yet."""
        self.db = sqlite3.connect(self.path, timeout=30.0)
        self.db.text_factory = _text
        self.db.execute("BEGIN IMMEDIATE")
        tables = {n for (n,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            for stmt in _TABLES.strip().split(";"):
                if stmt.strip():
                    self.db.execute(stmt)
            self.db.executemany(
                "INSERT INTO meta VALUES (?, ?)", [("format", FORMAT), ("schema", str(SCHEMA))]
            )
        self.db.commit()
        if tables:
            self._check()
        self._pragmas()

    def _pragmas(self) -> None:
        self.db.text_factory = _text
        deadline = time.monotonic() + 30.0
        while True:
            try:
                self.db.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as e:
                # Switching to WAL takes the file for itself: another process may hold it now.
                if "locked" not in str(e) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
        self.db.execute("PRAGMA synchronous=FULL")

    def _open_readonly(self) -> sqlite3.Connection:
        uri = self.path.resolve().as_uri()
        try:
            db = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=30.0)
            db.text_factory = _text
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return db
        except sqlite3.OperationalError as first:
            # A store in WAL mode whose folder cannot be written has no shared-memory file to
            # open; read it as an unchanging file then — unless runs wait in its write-ahead log,
            # which only a writer can merge (reading without them would show fewer runs).
            wal = Path(f"{self.path}-wal")
            if wal.exists() and wal.stat().st_size > 0:
                raise MobmemIOError(
                    f"{self.path}: cannot be opened read-only ({first}) and runs wait in {wal.name}:"
                    " open it once where it can be written"
                ) from None
            db = sqlite3.connect(f"{uri}?immutable=1", uri=True, timeout=30.0)
            db.text_factory = _text
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return db

    def _check(self) -> None:
        ok = self.db.execute("PRAGMA quick_check").fetchone()
        if not ok or ok[0] != "ok":
            raise MobmemIOError(
                f"{self.path}: damaged results store (quick_check: {ok[0] if ok else 'no answer'})"
            )
        tables = {n for (n,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {"meta", "runs"} <= tables:
            raise MobmemIOError(f"{self.path}: a SQLite file, but not a mobmem results store (left as it is)")
        meta = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("format") != FORMAT:
            if meta.get("schema") == "1":
                raise MobmemIOError(
                    f"{self.path}: results store schema 1, written by an earlier mobmem whose sweeps could"
                    " store a run under another run's settings; remove it and sweep again"
                )
            raise MobmemIOError(f"{self.path}: a SQLite file, but not a mobmem results store (left as it is)")
        if meta.get("schema") != str(SCHEMA):
            raise MobmemIOError(
                f"{self.path}: results store schema {meta.get('schema')!r}, this mobmem reads {SCHEMA}"
            )
        cols = tuple(r[1] for r in self.db.execute("PRAGMA table_info(runs)"))
        if cols != COLUMNS:
            raise MobmemIOError(
                f"{self.path}: its runs table has columns {', '.join(cols)}; expected {', '.join(COLUMNS)}"
            )

    def put(self, rec: dict[str, Any]) -> bool:
        """Stores one finished run, in a transaction of its own; False when a run with its key was
        already there (stored by another process meanwhile) — then the two must agree."""
        if self.readonly:
            raise InvariantError(f"{self.path}: opened read-only")
        values = (
            rec["key"],
            rec["experiment"],
            rec["kind"],
            rec["source"],
            rec["digest"],
            *(encode(rec[c]) for c in _JSON),
            rec["version"],
            float(rec["wall_s"]),
            time.time(),
        )
        values = (*values, seal(values))
        try:
            with self.db:
                cur = self.db.execute(
                    f"INSERT OR IGNORE INTO runs VALUES ({','.join('?' * len(COLUMNS))})", values
                )
        except sqlite3.Error as e:
            raise MobmemIOError(f"{self.path}: cannot store a run ({e})") from None
        if cur.rowcount == 1:
            return True
        there = self.get([rec["key"]]).get(rec["key"])
        if there is None or _meters(there["row"]) != _meters(json.loads(encode(rec["row"]))):
            raise InvariantError(
                f"{self.path}: run {rec['key'][:12]}… is stored with other results than this run gave"
            )
        return False

    def count(self, keys: Iterable[str]) -> int:
        """How many of ``keys`` the store holds."""
        n = 0
        for part in _batches(keys):
            n += self._query(f"SELECT count(*) FROM runs WHERE key IN ({','.join('?' * len(part))})", part)[
                0
            ][0]
        return n

    def get(self, keys: Iterable[str], flat: bool = False) -> dict[str, dict[str, Any]]:
        """The stored runs among ``keys``, by key, each checked (looked up in batches: no full
        scan); with ``flat``, each run's ``row`` must hold values only (a sweep's meters)."""
        out: dict[str, dict[str, Any]] = {}
        for part in _batches(keys):
            rows = self._query(
                f"SELECT rowid, {', '.join(COLUMNS)} FROM runs WHERE key IN ({','.join('?' * len(part))})",
                part,
            )
            for r in rows:
                rec = self._parse(r, flat)
                out[rec["key"]] = rec
        return out

    def records(self) -> list[dict[str, Any]]:
        """Every stored run, checked, oldest first."""
        rows = self._query(f"SELECT rowid, {', '.join(COLUMNS)} FROM runs ORDER BY finished, rowid")
        return [self._parse(r) for r in rows]

    def _parse(self, r: tuple[Any, ...], flat: bool = False) -> dict[str, Any]:
        rowid, *vals = r
        rec = dict(zip(COLUMNS, vals, strict=True))
        key = rec["key"]
        name = f"row {rowid}" + (f" (run {key[:12]}…)" if isinstance(key, str) else "")

        def bad(what: str) -> MobmemIOError:
            return MobmemIOError(f"{self.path}: {name} is damaged: {what}")

        for c in (*_TEXT, "seal", *_JSON):
            v = rec[c]
            if isinstance(v, str) and not v.isascii() and _undecodable(v):
                raise bad(f"{c} is not UTF-8 text")
        for c in (*_TEXT, "seal"):
            if not isinstance(rec[c], str):
                raise bad(f"{c} is {_kind(rec[c])}, not text")
        if not _KEY.fullmatch(key):
            raise bad(f"key {key[:80]!r} is not a run's key")
        if rec["kind"] not in ("page", "phone"):
            raise bad(f"kind {rec['kind'][:80]!r} is neither page nor phone")
        for c in ("wall_s", "finished"):
            v = rec[c]
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise bad(f"{c} is {_kind(v)}, not a finite number")
        for c in _JSON:
            v = rec[c]
            if not isinstance(v, str):
                raise bad(f"{c} is {_kind(v)}, not JSON text")
            try:
                parsed = json.loads(v, parse_constant=_reject, parse_float=_finite)
            except RecursionError:
                raise bad(f"{c} is nested deeper than {MAX_DEPTH} levels") from None
            except ValueError as e:
                raise bad(f"{c} is not JSON of a run ({e})") from None
            if not isinstance(parsed, dict):
                raise bad(f"{c} is {_kind(parsed)}, not a JSON object")
            if _depth(parsed, MAX_DEPTH + 1) > MAX_DEPTH:
                raise bad(f"{c} is nested deeper than {MAX_DEPTH} levels")
            rec[c] = parsed
        if flat:
            for k, v in rec["row"].items():
                if isinstance(v, dict | list):
                    raise bad(f"meter {k[:80]!r} is {_kind(v)}, not a value")
        if rec["seal"] != seal(tuple(vals[:-1])):
            raise bad("its contents do not match their seal (changed since the run was stored)")
        return rec

    def _query(self, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            return self.db.execute(sql, tuple(args)).fetchall()
        except (sqlite3.Error, UnicodeDecodeError) as e:
            raise MobmemIOError(f"{self.path}: not a readable mobmem results store ({e})") from None

    def close(self) -> None:
        self.db.close()


def _text(b: bytes) -> str:
    """A TEXT value as stored; bytes that are not UTF-8 are kept as escapes (and then found to be
    no run's text: the row is reported damaged) rather than failing the read itself."""
    return b.decode("utf-8", "surrogateescape")


def _undecodable(v: str) -> bool:
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _batches(keys: Iterable[str]) -> Iterable[list[str]]:
    part: list[str] = []
    for k in keys:
        part.append(k)
        if len(part) == BATCH:
            yield part
            part = []
    if part:
        yield part


def _meters(row: dict[str, Any]) -> dict[str, Any]:
    """A run's results without its wall-clock times (which differ from run to run)."""
    return {k: v for k, v in row.items() if k not in ("wall_time_s", "accesses_per_s")}


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bytes):
        return f"a blob of {len(v)} bytes"
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if isinstance(v, dict | list):
        return f"a {type(v).__name__}"
    return f"{type(v).__name__} {str(v)[:40]!r}"
