"""The results store: one SQLite file beside the experiment, one row per finished run.

Why SQLite: it is in Python's standard library (no service, no extra wheel), and each run is written
in a transaction of its own. In WAL mode with ``synchronous=FULL`` a transaction is in the file
once ``commit`` returns, and one interrupted by ``kill -9`` (or a power cut) is rolled back when
the file is next opened — the store holds every finished run and no half-written one. Parquet parts
would need a file per run to get the same; DuckDB is a wheel more for no gain here.

A file that is not such a store (or is damaged) is a clear error naming it, not a traceback.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from ..errors import MobmemIOError

SCHEMA = 1
_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    key TEXT PRIMARY KEY,
    experiment TEXT NOT NULL,
    kind TEXT NOT NULL,
    source TEXT NOT NULL,
    axes TEXT NOT NULL,
    config TEXT NOT NULL,
    resolved TEXT NOT NULL,
    row TEXT NOT NULL,
    version TEXT NOT NULL,
    wall_s REAL NOT NULL,
    finished REAL NOT NULL
);
"""


class Store:
    """Opens (or creates) the store at ``path``."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path, timeout=30.0)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            ok = self.db.execute("PRAGMA quick_check").fetchone()
            if not ok or ok[0] != "ok":
                raise sqlite3.DatabaseError(f"quick_check: {ok[0] if ok else 'no answer'}")
            with self.db:
                self.db.executescript(_TABLES)
                self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
            schema = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.Error as e:
            raise MobmemIOError(f"{self.path}: not a readable mobmem results store ({e})") from None
        if schema is None or schema[0] != str(SCHEMA):
            found = schema[0] if schema else "none"
            raise MobmemIOError(f"{self.path}: results store schema {found}, this mobmem reads {SCHEMA}")

    def done(self) -> set[str]:
        """Keys of the runs already stored."""
        return {k for (k,) in self._query("SELECT key FROM runs")}

    def put(self, rec: dict[str, Any]) -> None:
        """Stores one finished run, in a transaction of its own."""
        values = (
            rec["key"],
            rec["experiment"],
            rec["kind"],
            rec["source"],
            json.dumps(rec["axes"]),
            json.dumps(rec["config"]),
            json.dumps(rec["resolved"]),
            json.dumps(rec["row"]),
            rec["version"],
            rec["wall_s"],
            time.time(),
        )
        try:
            with self.db:
                self.db.execute("INSERT OR REPLACE INTO runs VALUES (?,?,?,?,?,?,?,?,?,?,?)", values)
        except sqlite3.Error as e:
            raise MobmemIOError(f"{self.path}: cannot store a run ({e})") from None

    def get(self, keys: set[str]) -> dict[str, dict[str, Any]]:
        """The stored runs among ``keys``, by key (looked up in batches: no full scan)."""
        out: dict[str, dict[str, Any]] = {}
        ks = sorted(keys)
        for b in range(0, len(ks), 500):
            part = ks[b : b + 500]
            marks = ",".join("?" * len(part))
            try:
                rows = self.db.execute(
                    f"SELECT key, experiment, kind, source, axes, config, resolved, row, version, wall_s, finished"
                    f" FROM runs WHERE key IN ({marks})",
                    part,
                ).fetchall()
            except sqlite3.Error as e:
                raise MobmemIOError(f"{self.path}: not a readable mobmem results store ({e})") from None
            for rec in self._parse(rows):
                out[rec["key"]] = rec
        return out

    def records(self, keys: set[str] | None = None) -> list[dict[str, Any]]:
        """The stored runs (those of ``keys`` only, when given), oldest first."""
        rows = self._query(
            "SELECT key, experiment, kind, source, axes, config, resolved, row, version, wall_s, finished"
            " FROM runs ORDER BY finished"
        )
        return [r for r in self._parse(rows) if keys is None or r["key"] in keys]

    def _parse(self, rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
        out = []
        for k, exp, kind, src, axes, config, resolved, row, version, wall, fin in rows:
            try:
                out.append(
                    {
                        "key": k,
                        "experiment": exp,
                        "kind": kind,
                        "source": src,
                        "axes": json.loads(axes),
                        "config": json.loads(config),
                        "resolved": json.loads(resolved),
                        "row": json.loads(row),
                        "version": version,
                        "wall_s": wall,
                        "finished": fin,
                    }
                )
            except json.JSONDecodeError as e:
                raise MobmemIOError(f"{self.path}: run {k[:12]} is damaged ({e})") from None
        return out

    def _query(self, sql: str) -> list[tuple[Any, ...]]:
        try:
            return self.db.execute(sql).fetchall()
        except sqlite3.Error as e:
            raise MobmemIOError(f"{self.path}: not a readable mobmem results store ({e})") from None

    def close(self) -> None:
        self.db.close()
