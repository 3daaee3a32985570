"""The fuzzing harness's Python side: the surfaces above the core's readers — experiment files,
results stores (mutated SQLite files and rows), usage files through the `phone` command, and the
Python API (hypothesis over every public function's arguments). The core's readers have their own
harness (`crates/mobmem-fuzz`); docs/RELIABILITY.md has both.

    python fuzz/pyfuzz.py run [--seconds N] [--targets a,b] [--jobs J] [--seed S] [--out DIR]
                              [--corpus DIR] [--timeout-s T] [--memory-mib M]
    python fuzz/pyfuzz.py replay DIR      every kept input under DIR/<target>/ must pass
    python fuzz/pyfuzz.py targets

Each input runs as a user's commands would, in a folder of its own, each command a process with an
address-space limit and a time limit. An input **fails** when a command ends with exit code 70 or
a signal, prints a traceback, answers nothing in time, writes `NaN` into JSON, writes to a SQLite
file it refused as not being a store — or when a run the store holds differs from the same run made
directly (the property every stored run must have).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
#: Codes a command may end with on hostile input (docs: README's exit codes); 1 is capture's only.
CLEAN = {0, 2, 3, 4, 5}
#: Most runs of a mutated experiment that are swept (more is real work, not a hang).
MAX_SWEPT = 40


@dataclass
class Outcome:
    failed: str | None = None  # what went wrong
    refused: bool = False  # some command refused the input cleanly


@dataclass
class Limits:
    timeout_s: float = 30.0
    memory_mib: int = 2048


def cli(args: list[str], cwd: Path, limits: Limits) -> subprocess.CompletedProcess[str] | str:
    """``mobmem ARGS`` in ``cwd`` under the limits; a string says how it failed instead."""

    def limit() -> None:
        n = limits.memory_mib << 20
        resource.setrlimit(resource.RLIMIT_AS, (n, n))

    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("MOBMEM_DEBUG", None)
    try:
        p = subprocess.run(
            [sys.executable, "-m", "mobmem.cli", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=limits.timeout_s,
            preexec_fn=limit,
            env=env,
            start_new_session=True,
        )
    except subprocess.TimeoutExpired:
        return f"hang: `mobmem {' '.join(args)}` answered nothing in {limits.timeout_s:g} s"
    if p.returncode < 0:
        return f"crash: `mobmem {' '.join(args)}` died of signal {-p.returncode}: {p.stderr[-300:]}"
    if "Traceback" in p.stderr or p.returncode not in CLEAN:
        return f"exit {p.returncode}: `mobmem {' '.join(args)}`: {p.stderr.strip()[-500:]}"
    return p


# --- mutations ------------------------------------------------------------------------------

NUMBERS = [
    "-1",
    "0",
    "1.5",
    "1e300",
    "nan",
    "inf",
    "-inf",
    "2147483648",
    "18446744073709551616",
    "99999999999999999999",
]
STRINGS = [
    "",
    "x",
    "lru",
    "clock",
    "10%",
    "0%",
    "/dev/stdin",
    "/dev/null",
    ".",
    "../../..",
    "t.txt.zst",
    "é" * 200,
]
LINES = [
    'stroe = "x.sqlite"',
    "name = 5",
    '"params.ain_ratio" = [0.1, 0.3]',
    'policy = ["lru", "lru"]',
    "[axes]",
    "[base]",
    "[unknown]",
    "seed = [-1]",
    "memory = [nan]",
    'store = "/dev/null"',
    'store = "."',
    "traces = []",
    'usage = "u.csv"',
    'trace = "t.txt.zst"',
    "params = {ain_ratio = 0.5, nope = 1}",
    "params.ain_ratio = 2",
    'swap = ["off", "zram-lz4", "nosuch"]',
    'memory = ["1", "99999999999%"]',
    'dram = ["1GiB", "64TiB"]',
    'lru = { policy = "lru" }',
    "[baselines]",
]


def mutate_text(b: bytes, rng: random.Random) -> bytes:
    """Token- and line-aware mutations of a TOML or CSV text, a few at a time."""
    import re

    text = b.decode("utf-8", errors="replace")
    for _ in range(1 if rng.random() < 0.6 else rng.randint(2, 3)):
        lines = text.split("\n")
        op = rng.randrange(9)
        if op == 0:
            nums = list(re.finditer(r"(?<![\w.])-?\d+(\.\d+)?(e\d+)?", text))
            if nums:
                m = rng.choice(nums)
                text = text[: m.start()] + rng.choice(NUMBERS) + text[m.end() :]
        elif op == 1:
            strs = list(re.finditer(r'"[^"\n]*"', text))
            if strs:
                m = rng.choice(strs)
                text = (
                    text[: m.start()] + json.dumps(rng.choice(STRINGS), ensure_ascii=False) + text[m.end() :]
                )
        elif op == 2 and lines:
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
        elif op == 3 and lines:
            del lines[rng.randrange(len(lines))]
            text = "\n".join(lines)
        elif op == 4:
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(LINES))
            text = "\n".join(lines)
        elif op == 5:
            text = ("\ufeff" + text) if rng.random() < 0.5 else text.replace("\n", "\r\n")
        elif op == 6 and text:
            text = text[: rng.randrange(len(text))]
        elif op == 7 and lines:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        else:
            raw = bytearray(text.encode())
            for _ in range(rng.randint(1, 4)):
                if raw:
                    raw[rng.randrange(len(raw))] = rng.randrange(256)
            return bytes(raw)
    return text.encode()


HOSTILE_VALUES: list[Any] = [
    None,
    7,
    1.5,
    b"\x00\x01blob",
    "[1, 2]",
    '{"faults": NaN}',
    '{"faults": Infinity}',
    "{not json",
    "[" * 3000 + "]" * 3000,
    '{"faults": {"x": 1}}',
    "x" * 100_000,
    "",
    "null",
]


def mutate_store(b: bytes, rng: random.Random, work: Path) -> bytes:
    """Bytes flipped or cut, or rows and tables changed through SQLite."""
    raw = bytearray(b)
    op = rng.randrange(6)
    if op == 0 and raw:
        for _ in range(rng.randint(1, 16)):
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        return bytes(raw)
    if op == 1 and raw:
        return bytes(raw[: rng.randrange(len(raw))])
    if op == 2 and len(raw) > 100:
        page = rng.randrange(max(1, len(raw) // 4096)) * 4096
        raw[page : page + 4096] = bytes(min(4096, len(raw) - page))
        return bytes(raw)
    path = work / "mut.sqlite"
    path.write_bytes(b)
    try:
        db = sqlite3.connect(path)
        cols = [r[1] for r in db.execute("PRAGMA table_info(runs)")] or ["key"]
        rows = [r[0] for r in db.execute("SELECT rowid FROM runs")] or [1]
        sql = [
            (
                f"UPDATE runs SET {rng.choice(cols)} = ? WHERE rowid = ?",
                (rng.choice(HOSTILE_VALUES), rng.choice(rows)),
            ),
            ("DELETE FROM runs WHERE rowid = ?", (rng.choice(rows),)),
            ("INSERT INTO runs SELECT * FROM runs WHERE rowid = ?", (rng.choice(rows),)),
            (
                "UPDATE meta SET value = ? WHERE key = ?",
                (rng.choice(["1", "3", "", "other"]), rng.choice(["schema", "format"])),
            ),
            ("DROP TABLE " + rng.choice(["runs", "meta"]), ()),
            ("ALTER TABLE runs ADD COLUMN extra TEXT", ()),
            (
                "CREATE TABLE loose AS SELECT * FROM runs; DROP TABLE runs; ALTER TABLE loose RENAME TO runs",
                (),
            ),
        ]
        stmt, args = rng.choice(sql)
        with db:
            if ";" in stmt:
                db.executescript(stmt)
            else:
                db.execute(stmt, args)
        db.close()
        return path.read_bytes()
    except (sqlite3.Error, UnicodeDecodeError):
        return b
    finally:
        for f in work.glob("mut.sqlite*"):
            f.unlink()


# --- targets --------------------------------------------------------------------------------

PHONE_TOML = """[fuzzphone]
dram = "256MiB"
reserved = "32MiB"
swap = "zram-lz4"
swap_size = "64MiB"
policy = "linux-2q"
max_cached = 4
session_s = 1.0
"""
USAGE = "time_s,app\n0,chrome\n30,youtube\n60,chrome\n90,gmail\n"


def fixtures(work: Path) -> None:
    shutil.copy(DATA / "sqlite_60k.txt.zst", work / "t.txt.zst")
    shutil.copy(DATA / "synthetic_40k.txt.zst", work / "s.txt.zst")
    (work / "u.csv").write_text(USAGE)
    (work / "phones.toml").write_text(PHONE_TOML)


def _toml(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False)


def direct(work: Path, run: Any, limits: Limits) -> dict[str, Any] | str:
    """The same run made directly, as `mobmem run` or `mobmem phone` (its flat row)."""
    import mobmem

    cfg = dict(run.config)
    if run.kind == "page":
        lines = ["[trace]", f"path = {_toml(run.name)}", "[sim]"]
        tables = {k: v for k, v in cfg.items() if isinstance(v, dict)}
        lines += [f"{k} = {_toml(v)}" for k, v in cfg.items() if k not in tables]
        for k, t in tables.items():
            lines += [f"[sim.{k}]", *(f"{a} = {_toml(b)}" for a, b in t.items())]
        (work / "direct.toml").write_text("\n".join(lines) + "\n")
        p = cli(["run", "--config", "direct.toml", "--json"], work, limits)
        if isinstance(p, str) or p.returncode:
            return (
                p if isinstance(p, str) else f"the direct run failed where the sweep's ran: {p.stderr[-300:]}"
            )
        return mobmem.RunResult(json.loads(p.stdout)).row()
    args = [run.name, "--phone", str(cfg.pop("phone", "nexus5")), "--seed", str(cfg.pop("seed", 0)), "--json"]
    args += ["--phones", "phones.toml"]
    for k, v in cfg.items():
        args += ["--set", f"{k}={json.dumps(v)}"]
    p = cli(["phone", *args], work, limits)
    if isinstance(p, str) or p.returncode:
        return p if isinstance(p, str) else f"the direct run failed where the sweep's ran: {p.stderr[-300:]}"
    return mobmem.phone.PhoneResult(json.loads(p.stdout)).row()


def stored_equals_direct(work: Path, exp_file: Path, limits: Limits, rng: random.Random) -> str | None:
    """Up to two stored runs of the experiment, each against the same run made directly."""
    from mobmem.experiment import Store, load

    exp = load(exp_file)
    store = Store(exp.store, readonly=True)
    try:
        have = store.get([r.key for r in exp.runs], flat=True)
    finally:
        store.close()
    runs = [r for r in exp.runs if r.key in have]
    clock = {"wall_time_s", "accesses_per_s"}
    for run in rng.sample(runs, min(2, len(runs))):
        want = direct(work, run, limits)
        if isinstance(want, str):
            return want
        got = {k: v for k, v in have[run.key]["row"].items() if k not in clock}
        want = {k: v for k, v in want.items() if k not in clock}
        if got != want:
            diff = {
                k: (got.get(k), want.get(k))
                for k in sorted(set(got) | set(want))
                if got.get(k) != want.get(k)
            }
            return f"stored run ({run.axes}) differs from the same run made directly: {str(diff)[:600]}"
    return None


def run_experiment(work: Path, data: bytes, limits: Limits, rng: random.Random) -> Outcome:
    """An experiment file: planned, swept (when its plan is small), its results read."""
    from mobmem.errors import MobmemError
    from mobmem.experiment import load

    exp = work / "e.toml"
    exp.write_bytes(data)
    try:
        n = len(load(exp).runs)
    except MobmemError:
        n = 0
    out = Outcome()
    steps = [["sweep", "e.toml", "--workers", "1", "--quiet"]] if 0 < n <= MAX_SWEPT else []
    steps.append(["results", "e.toml", "--json"])
    swept = False
    for args in steps:
        p = cli(args, work, limits)
        if isinstance(p, str):
            return Outcome(failed=p)
        if p.returncode:
            out.refused = True
            continue
        swept |= args[0] == "sweep"
        if args[0] == "results" and "NaN" in p.stdout:
            return Outcome(failed="results --json wrote NaN")
    if swept:
        out.failed = stored_equals_direct(work, exp, limits, rng)
    return out


STORE_EXPERIMENT = '[experiment]\ntrace = "t.txt.zst"\n[axes]\npolicy = ["lru", "clock"]\nmemory = ["5%"]\n'


def run_store(work: Path, data: bytes, limits: Limits, rng: random.Random) -> Outcome:
    """A results store under a fixed experiment: read, swept, reported."""
    (work / "e.toml").write_text(STORE_EXPERIMENT)
    store = work / "e.results.sqlite"
    store.write_bytes(data)
    out = Outcome()
    for args in (["results", "e.toml", "--json"], ["sweep", "e.toml", "--workers", "1", "--quiet"]):
        before = store.read_bytes() if store.exists() else b""
        p = cli(args, work, limits)
        if isinstance(p, str):
            return Outcome(failed=p)
        if p.returncode:
            out.refused = True
            if "not a mobmem results store" in p.stderr and store.read_bytes() != before:
                return Outcome(failed=f"`{args[0]}` wrote to a file it refused as not a store")
            continue
        if args[0] == "results" and "NaN" in p.stdout:
            return Outcome(failed="results --json wrote NaN")
        if args[0] == "sweep":
            out.failed = stored_equals_direct(work, work / "e.toml", limits, rng)
    return out


def run_phone(work: Path, data: bytes, limits: Limits, rng: random.Random) -> Outcome:
    """A usage file through `mobmem phone` on a small phone."""
    (work / "u.csv").write_bytes(data)
    p = cli(["phone", "u.csv", "--phone", "fuzzphone", "--phones", "phones.toml", "--json"], work, limits)
    if isinstance(p, str):
        return Outcome(failed=p)
    if p.returncode == 0 and "NaN" in p.stdout:
        return Outcome(failed="phone --json wrote NaN")
    return Outcome(refused=p.returncode != 0)


def run_api(work: Path, data: bytes, limits: Limits, rng: random.Random) -> Outcome:
    """The API boundary test under a hypothesis seed (the input's text) with more examples."""
    seed = int(data.decode().strip() or "0")
    env = {**os.environ, "MOBMEM_API_EXAMPLES": "150", "MOBMEM_API_SEED": str(seed)}
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x"]
    argv += [str(ROOT / "tests" / "test_api_boundary.py"), "-k", "every"]
    try:
        p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    except subprocess.TimeoutExpired:
        return Outcome(failed="hang: the API boundary test took over 600 s")
    if p.returncode:
        return Outcome(failed=f"API boundary, seed {seed}: {p.stdout[-1500:]}")
    return Outcome()


def experiment_seeds() -> list[bytes]:
    return [
        b'[experiment]\nname = "s"\ntrace = "t.txt.zst"\n[base]\nmemory = "10%"\nparams.aout_ratio = 0.5\n'
        b'[axes]\npolicy = ["2q"]\n"params.ain_ratio" = [0.1, 0.9]\nseed = [1]\n',
        b'[experiment]\ntraces = ["t.txt.zst", "s.txt.zst"]\n[axes]\npolicy = ["lru", "clock", "arc"]\n'
        b'memory = ["5%", "25%"]\n[baselines]\nlru = { policy = "lru" }\n',
        b'[experiment]\nusage = "u.csv"\n[base]\nphone = "nexus5"\n[axes]\nswap = ["off", "zram-lz4"]\nseed = [1]\n',
        b'[experiment]\ntrace = "t.txt.zst"\nstore = "other.sqlite"\n[base]\nswap = "emmc-inand"\n'
        b'[axes]\nmemory = [64, "20%"]\nswap_size = ["1MiB", "100%"]\n',
    ]


def store_seeds() -> list[bytes]:
    from mobmem.experiment import load, sweep

    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        fixtures(work)
        (work / "e.toml").write_text(STORE_EXPERIMENT)
        sweep(load(work / "e.toml"), workers=1, progress=False)
        return [(work / "e.results.sqlite").read_bytes()]


@dataclass
class Target:
    name: str
    ext: str
    seeds: Callable[[], list[bytes]]
    run: Callable[[Path, bytes, Limits, random.Random], Outcome]
    mutate: Callable[[bytes, random.Random, Path], bytes]
    #: Share of the inputs (the API target's input is a whole hypothesis search: seconds).
    weight: int = 4


TARGETS = [
    Target("experiment-toml", ".toml", experiment_seeds, run_experiment, lambda b, r, w: mutate_text(b, r)),
    Target("store", ".sqlite", store_seeds, run_store, mutate_store),
    Target("phone-cli", ".csv", lambda: [USAGE.encode()], run_phone, lambda b, r, w: mutate_text(b, r)),
    Target("api", ".seed", lambda: [b"0"], run_api, lambda b, r, w: str(r.randrange(2**32)).encode(), 1),
]


def check(t: Target, data: bytes, limits: Limits, seed: int) -> Outcome:
    with tempfile.TemporaryDirectory(prefix=f"pyfuzz-{t.name}-") as d:
        work = Path(d)
        fixtures(work)
        try:
            return t.run(work, data, limits, random.Random(seed))
        except Exception as e:  # the harness's own checks must not stop it: report the input
            import traceback

            return Outcome(failed=f"harness error: {type(e).__name__}: {e}\n{traceback.format_exc()[-800:]}")


def corpus(t: Target, dirs: list[Path]) -> list[bytes]:
    seeds = t.seeds()
    for d in dirs:
        for f in sorted((d / t.name).glob("*")):
            if f.is_file() and not f.name.endswith(".why"):
                seeds.append(f.read_bytes())
    return seeds


def keep(out: Path, t: Target, data: bytes, why: str) -> Path:
    folder = out / t.name
    folder.mkdir(parents=True, exist_ok=True)
    name = hashlib.sha256(data).hexdigest()[:16]
    (folder / f"{name}{t.ext}").write_bytes(data)
    (folder / f"{name}.why").write_text(why + "\n")
    return folder / f"{name}{t.ext}"


def run(a: argparse.Namespace) -> int:
    targets = [t for t in TARGETS if not a.targets or t.name in a.targets.split(",")]
    limits = Limits(a.timeout_s, a.memory_mib)
    rng = random.Random(a.seed)
    seeds = {t.name: corpus(t, [Path(c) for c in a.corpus]) for t in targets}
    stats = {t.name: [0, 0, 0] for t in targets}  # inputs, refused, failed
    schedule = [t for t in targets for _ in range(t.weight)]
    rng.shuffle(schedule)
    deadline = time.monotonic() + a.seconds
    failures = []

    def one(t: Target, data: bytes, s: int) -> tuple[Target, bytes, Outcome]:
        return t, data, check(t, data, limits, s)

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex, tempfile.TemporaryDirectory() as scratch:
        pending: set[Any] = set()
        k = 0
        while time.monotonic() < deadline or pending:
            while time.monotonic() < deadline and len(pending) < a.jobs:
                t = schedule[k % len(schedule)]
                k += 1
                base = rng.choice(seeds[t.name])
                data = base if rng.random() < 0.05 else t.mutate(base, rng, Path(scratch))
                pending.add(ex.submit(one, t, data, rng.randrange(2**32)))
            done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for f in done:
                t, data, o = f.result()
                st = stats[t.name]
                st[0] += 1
                st[1] += o.refused
                if o.failed:
                    st[2] += 1
                    where = keep(Path(a.out), t, data, o.failed) if a.out else None
                    failures.append(f"{t.name}: {o.failed}" + (f" (kept: {where})" if where else ""))
                    print(f"FAIL {failures[-1]}", flush=True)
    print("| target | inputs | refused by a command | failed |")
    print("|---|---:|---:|---:|")
    for name, (n, r, fl) in stats.items():
        print(f"| {name} | {n:,} | {r:,} | {fl} |")
    print(f"pyfuzz: {sum(s[0] for s in stats.values()):,} inputs in {a.seconds:g} s, {len(failures)} failed")
    return 1 if failures else 0


def replay(a: argparse.Namespace) -> int:
    limits = Limits(a.timeout_s, a.memory_mib)
    n = failed = 0
    for t in TARGETS:
        for f in sorted((Path(a.dir) / t.name).glob(f"*{t.ext}")):
            n += 1
            o = check(t, f.read_bytes(), limits, 0)
            print(f"{'FAIL' if o.failed else 'ok  '} {f}" + (f": {o.failed}" if o.failed else ""))
            failed += bool(o.failed)
    print(f"replay: {n} inputs, {failed} failed")
    return 1 if failed or n == 0 else 0


def main() -> int:
    ap = argparse.ArgumentParser(prog="pyfuzz")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--seconds", type=float, default=60)
    r.add_argument("--targets", default="")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--out", default="")
    r.add_argument("--corpus", action="append", default=[])
    p = sub.add_parser("replay")
    p.add_argument("dir")
    sub.add_parser("targets")
    for q in (r, p):
        q.add_argument("--timeout-s", type=float, default=30.0)
        q.add_argument("--memory-mib", type=int, default=2048)
    a = ap.parse_args()
    if a.cmd == "targets":
        for t in TARGETS:
            print(f"{t.name:<16} {len(t.seeds())} seeds, input written as *{t.ext}")
        return 0
    return run(a) if a.cmd == "run" else replay(a)


if __name__ == "__main__":
    sys.exit(main())
