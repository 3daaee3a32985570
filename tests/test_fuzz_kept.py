"""The Python side of the fuzzing harness (fuzz/pyfuzz.py): every kept input under
tests/data/fuzz/<target>/ — experiment files, results stores, usage files, API seeds — replayed
under the harness's limits and checks (exit codes, tracebacks, hangs, NaN in JSON, a refused file
left unwritten, every stored run equal to the same run made directly)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import DATA, ROOT

sys.path.insert(0, str(ROOT / "fuzz"))
import pyfuzz

TARGETS = {t.name: t for t in pyfuzz.TARGETS}
KEPT = [(t, f) for t in TARGETS for f in sorted((DATA / "fuzz" / t).glob(f"*{TARGETS[t].ext}"))]


@pytest.mark.parametrize(("target", "path"), KEPT, ids=[f"{t}/{f.name}" for t, f in KEPT])
def test_a_kept_input_passes(target: str, path: Path) -> None:
    o = pyfuzz.check(TARGETS[target], path.read_bytes(), pyfuzz.Limits(), 0)
    assert o.failed is None, o.failed


def test_every_target_has_kept_inputs_and_the_checks_can_fail(tmp_path: Path) -> None:
    assert {t for t, _ in KEPT} == set(TARGETS)
    # A stored run that differs from the same run made directly is a failure: a store whose meter
    # was changed and resealed (as only a deliberate hand could) is caught by the direct runs.
    import json
    import sqlite3

    from mobmem.experiment.store import COLUMNS, seal

    store = tmp_path / "s.sqlite"
    store.write_bytes(pyfuzz.store_seeds()[0])  # of this build: its runs are the ones planned
    with sqlite3.connect(store) as db:
        row = list(db.execute(f"SELECT {', '.join(COLUMNS)} FROM runs WHERE rowid = 1").fetchone())
        meters = json.loads(row[COLUMNS.index("row")])
        meters["faults"] += 1
        row[COLUMNS.index("row")] = json.dumps(meters)
        row[-1] = seal(tuple(row[:-1]))
        db.execute("UPDATE runs SET row = ?, seal = ? WHERE rowid = 1", (row[COLUMNS.index("row")], row[-1]))
    db.close()
    o = pyfuzz.check(TARGETS["store"], store.read_bytes(), pyfuzz.Limits(), 0)
    assert o.failed and "differs from the same run made directly" in o.failed, o
