"""Sampled miss-ratio curves beside libCacheSim's mrcProfiler, side by side in one run: SHARDS at a
fixed rate and a fixed size (LRU) and miniature simulations (FIFO, ARC), both tools on the same
traces at the same sizes, each error against the exact curve (the one-pass LRU curve; an exact
sweep for the others), over several seeds, with both tools' wall time. Not a test: it prints the
table of docs/MRC.md and BENCHMARKS.md.

    python bench/mrc_peer_bench.py --mrc-profiler /path/to/libCacheSim/_build/bin/mrcProfiler

mrcProfiler is built from its own source outside this repository (BENCHMARKS.md says how); it
reads the traces as oracleGeneral binaries written to bench/out/. Its seed is a salt XORed into
the object id before hashing, so salts 1, 2, 3 … sample nearly the same pages (p ^ 1 is p's
neighbour): the peer's rows use salts spread over 64 bits, and one row shows salts 1–K as its
documentation's examples do.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import mobmem
from mobmem import mrc

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
GOLDEN = 0x9E37_79B9_7F4A_7C15


def zipf_pages(footprint: int, accesses: int, alpha: float, seed: int) -> Any:
    """Independent accesses with Zipf(alpha) popularity over `footprint` pages in shuffled order."""
    import numpy as np

    rng = np.random.default_rng(seed)
    w = 1.0 / np.arange(1, footprint + 1) ** alpha
    order = rng.permutation(footprint).astype(np.uint64) * 3 + 11
    return order[rng.choice(footprint, size=accesses, p=w / w.sum())]


def page_column(t: mobmem.Trace, stem: str) -> Any:
    """The trace's page number per access (through its text form: the bench's only reader of it)."""
    import pandas as pd

    txt = OUT / f"{stem}.txt"
    t.save(txt, "text")
    col = pd.read_csv(txt, sep=" ", header=None, usecols=[0], dtype="uint64", engine="c")[0].to_numpy()
    txt.unlink()
    return col


def oracle(pages: Any, path: Path) -> Path:
    """An oracleGeneral binary (24-byte records: time, id, size, next access) of unit-size objects,
    so that mrcProfiler's sizes in bytes are pages."""
    import numpy as np

    if not path.exists():
        rec = np.zeros(len(pages), dtype=[("t", "<u4"), ("id", "<u8"), ("size", "<u4"), ("next", "<i8")])
        rec["id"], rec["size"], rec["next"] = pages + 1, 1, -1
        rec.tofile(path)
    return path


def traces(rate: float) -> list[tuple[str, mobmem.Trace, Path, float]]:
    OUT.mkdir(exist_ok=True)
    out = []
    for n, fp in ((6_000_000, 100_000), (60_000_000, 1_000_000)):
        stem = f"gen_{n // 1_000_000}M_{fp}p_s1"
        t = mobmem.Trace.generate(accesses=n, footprint_pages=fp, seed=1)
        path = OUT / f"{stem}.oracleGeneral"
        out.append(
            (
                f"generated {n // 1_000_000}M/{fp:,} pages",
                t,
                path if path.exists() else oracle(page_column(t, stem), path),
                rate,
            )
        )
    z = zipf_pages(1_000_000, 10_000_000, 0.9, 7)
    out.append(
        (
            "Zipf 0.9, 10M/1,000,000 pages",
            mobmem.Trace.from_pages(z, name="zipf"),
            oracle(z, OUT / "zipf09_10M_1000000p.oracleGeneral"),
            rate,
        )
    )
    for f in sorted((ROOT / "tests" / "data" / "captures").glob("*.txt.zst")):
        t = mobmem.Trace.open(f)
        stem = f.name.removesuffix(".txt.zst")
        path = OUT / f"{stem}.oracleGeneral"
        # 1% of a capture's 234–769 pages is 2–8 pages: the captures are sampled at 10%.
        out.append((stem, t, path if path.exists() else oracle(page_column(t, stem), path), max(rate, 0.1)))
    return out


def peer(
    binary: str, path: Path, sizes: list[int], algo: str, profiler: str, params: str
) -> tuple[list[float], float]:
    cmd = [
        binary,
        str(path),
        "oracleGeneralBin",
        f"--algo={algo}",
        f"--profiler={profiler}",
        f"--profiler-params={params}",
        "--size=" + ",".join(f"{s}B" for s in sizes),
    ]
    start = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    rows = [line.split("\t") for line in r.stdout.splitlines()]
    mr = [float(p[1]) for p in rows if len(p) == 3 and p[0].endswith("B") and p[0][:-1].isdigit()]
    if len(mr) != len(sizes):
        sys.exit(f"mrcProfiler printed {len(mr)} of {len(sizes)} sizes:\n{r.stdout[-800:]}{r.stderr[-800:]}")
    return mr, wall


def row(trace: str, what: str, pages: str, errs: list[tuple[float, float]], walls: list[float]) -> None:
    mae = [e for e, _ in errs]
    print(
        f"| {trace} | {what} | {pages} | {statistics.mean(mae):.4f} ({max(mae):.4f}) "
        f"| {statistics.mean(s for _, s in errs):+.4f} | {statistics.median(walls):.2f} |"
    )


def err(est: list[float], exact: list[float]) -> tuple[float, float]:
    d = [a - b for a, b in zip(est, exact, strict=True)]
    return sum(abs(x) for x in d) / len(d), sum(d) / len(d)


def main() -> None:
    from bench import machine  # type: ignore[import-not-found]

    ap = argparse.ArgumentParser()
    ap.add_argument("--mrc-profiler", required=True, help="libCacheSim's mrcProfiler binary")
    ap.add_argument("--rate", type=float, default=0.01)
    ap.add_argument("--size", type=int, default=8192, help="fixed-size samples: pages")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--policies", default="fifo,arc", help="miniature simulations beside the peer's MINISIM")
    a = ap.parse_args()
    print(machine())
    print(
        f"rate {a.rate} (captures 0.1), fixed size {a.size} pages, 20 evenly spaced sizes, seeds 0–{a.seeds - 1};"
    )
    print(
        "error: mean absolute miss-ratio error over the sizes, mean over seeds (worst seed); signed: mean bias\n"
    )
    print("| trace | tool, method | sampled pages | error (worst) | signed | time (s) |")
    print("|---|---|---|---:|---:|---:|")
    salts = [(GOLDEN * (s + 1)) % (1 << 63) for s in range(a.seeds)]
    for name, t, path, rate in traces(a.rate):
        sizes = mrc.grid(t.num_pages, 20)
        c = mrc.curve(t, "lru")
        exact = [c.at(s) / c.accesses for s in sizes]
        size = min(a.size, t.num_pages // 10)
        for sampling, tag, p_mode in (
            ({"rate": rate}, f"rate {rate:g}", f"FIX_RATE,{rate}"),
            ({"sample_size": size}, f"{size:,} pages", f"FIX_SIZE,{size}"),
        ):
            for reading in mrc.readings():
                errs, walls, pages = [], [], []
                for seed in range(a.seeds):
                    e = mrc.sampled(t, "lru", method="shards", seed=seed, reading=reading, **sampling)  # type: ignore[arg-type]
                    errs.append(err([e.miss_ratio[s - 1] for s in sizes], exact))
                    walls.append(e.wall_s)
                    pages.append(e.sampled_pages)
                row(name, f"mobmem shards {tag}, {reading}", f"{min(pages):,}–{max(pages):,}", errs, walls)
            for label, ss in (("salts over 64 bits", salts), ("salts 1–K", list(range(1, a.seeds + 1)))):
                runs = [peer(a.mrc_profiler, path, sizes, "LRU", "SHARDS", f"{p_mode},{s}") for s in ss]
                row(
                    name,
                    f"mrcProfiler SHARDS {tag}, {label}",
                    "",
                    [err(m, exact) for m, _ in runs],
                    [w for _, w in runs],
                )
        for policy in a.policies.split(","):
            sweep = mobmem.run_configs(t, [{"policy": policy, "memory": s} for s in sizes])
            truth = [r.faults / len(t) for r in sweep]
            errs, walls = [], []
            for seed in range(a.seeds):
                e = mrc.sampled(t, policy, rate=rate, sizes=sizes, seed=seed, threads=1)
                errs.append(err(e.miss_ratio, truth))
                walls.append(e.wall_s)
            row(name, f"mobmem mini {policy}, rate {rate:g}, realized, 1 thread", "", errs, walls)
            m, wall = peer(a.mrc_profiler, path, sizes, policy.upper(), "MINISIM", f"FIX_RATE,{rate},1")
            row(
                name,
                f"mrcProfiler MINISIM {policy}, rate {rate:g}, its one salt, 1 thread",
                "",
                [err(m, truth)],
                [wall],
            )


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
