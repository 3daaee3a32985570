from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import mobmem

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent
SHARED = ROOT.parent / "shared" / "data"

# What a test session may leave in the checkout: the build, the virtual environment and the tools'
# caches (all ignored by git). Anything else new or changed there fails the session: tests write
# only to their own temporary directories.
_BUILD_AND_CACHES = (".venv/", "target/", ".pytest_cache/", ".hypothesis/", ".ruff_cache/", ".mypy_cache/")


def checkout_changes() -> dict[str, tuple[str, int, int]] | None:
    """The checkout's changed, untracked (every file) and ignored (each entry) paths other than the
    build and caches, each with its git status and its modification time and size (a file already
    changed before the session and rewritten by a test differs in them); None outside a git
    checkout."""
    out: dict[str, tuple[str, int, int]] = {}
    for how in (["--untracked-files=all"], ["--ignored", "--untracked-files=normal"]):
        try:
            p = subprocess.run(
                ["git", "status", "--porcelain", "-z", *how],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=120,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        if p.returncode != 0:
            return None
        fields = iter(p.stdout.split("\0"))
        for entry in fields:
            if not entry:
                continue
            xy, path = entry[:2], entry[3:]
            if xy[0] in "RC":
                next(fields, None)  # a rename's or copy's source path follows
            if path.startswith(_BUILD_AND_CACHES) or "__pycache__/" in path or path.endswith(".so"):
                continue
            try:
                st = os.stat(ROOT / path)
                out[path] = (xy, st.st_mtime_ns, st.st_size)
            except OSError:
                out[path] = (xy, 0, -1)
    return out


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[_BEFORE] = checkout_changes()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = session.config.stash.get(_BEFORE, None)
    if before is None or getattr(session.config, "workerinput", None) is not None:
        return
    after = checkout_changes() or {}
    new = sorted(path for path, state in after.items() if before.get(path) != state)
    if new:
        session.config.get_terminal_writer().line(
            "the tests wrote into the checkout (they may write only to their own temporary directories):\n  "
            + "\n  ".join(new),
            red=True,
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


_BEFORE = pytest.StashKey[dict[str, tuple[str, int, int]] | None]()


@pytest.fixture(scope="session")
def data() -> Path:
    return DATA


@pytest.fixture(scope="session")
def sqlite_slice() -> mobmem.Trace:
    """60,000 accesses of the real sqlite3 Lackey capture."""
    return mobmem.Trace.open(DATA / "sqlite_60k.txt.zst")


def write(tmp_path: Path, name: str, body: str | bytes) -> Path:
    p = tmp_path / name
    if isinstance(body, str):
        p.write_text(body)
    else:
        p.write_bytes(body)
    return p


MOBMEM = [sys.executable, "-m", "mobmem.cli"]


def cli(*args: str, ok: bool = True, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Runs ``mobmem ARGS`` from the repository root (or ``cwd``); with ``ok``, asserts that it
    succeeded."""
    p = subprocess.run([*MOBMEM, *args], capture_output=True, text=True, cwd=cwd or ROOT, timeout=600)
    if ok:
        assert p.returncode == 0, p.stderr
    return p


def claim_line(text: str, claim: str) -> str:
    """A claim's row of a report's claims table, with the cell printed under it (a table wider than
    100 columns puts its last column on indented lines below each row)."""
    lines = text.splitlines()
    i = next(k for k, x in enumerate(lines) if x.startswith(claim))
    j = i + 1
    while j < len(lines) and lines[j].startswith("    "):
        j += 1
    return " ".join(lines[i:j])


def judged_by_the_rule(res: dict, paper: str) -> dict[str, dict]:
    """Checks that a reproduction's claims are its paper's, each judged by the one rule (nothing
    passes outside it), and returns them by id."""
    from mobmem.reproduce import fidelity, readings

    p = fidelity.load(paper)
    recs = {r["id"]: r for r in res["claims"]}
    assert set(recs) == {c.id for c in p.claims}
    for c in p.claims:
        r = recs[c.id]
        assert r["paper_name"] == paper
        if r["verdict"] in ("F", "E", "C"):
            assert r["verdict"] != "F" or c.fitted
            # An echo agrees with the paper by the rule; a C does not, and says where it would.
            assert r["verdict"] != "E" or (r["set_by"] and fidelity.rule(c, r["ours"]) in ("R", "D"))
            assert r["verdict"] != "C" or (r["holds_for"] and fidelity.rule(c, r["ours"]) != "R")
            continue
        assert r["verdict"] == fidelity.rule(c, r["ours"]), c.id
    # A cause is printed beside a claim not reproduced, and only there; each names a claim of the paper.
    why = readings.causes(paper, res)
    assert set(why) <= set(recs), set(why) - set(recs)
    for i, r in recs.items():
        assert r["cause"] == (why.get(i, "") if r["verdict"] in ("N", "D", "C") else ""), i
    return recs
