"""mobmem's benchmark: replay speed per policy, trace parse and load speed, and (optionally) the
whole-process time of `mobmem run` next to libCacheSim's `cachesim` on the same trace and size.

    python bench/bench.py                       # mobmem alone
    python bench/bench.py --cachesim PATH       # also libCacheSim, side by side, in the same run

Not a test: it prints numbers for BENCHMARKS.md. Traces are generated (seeded) into bench/out/.
libCacheSim is not part of this project: build it yourself and pass the path of its `cachesim`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import struct
import subprocess
import sys
import time
from pathlib import Path

import mobmem
from mobmem import phone as ph

OUT = Path(__file__).resolve().parent / "out"
ROOT = Path(__file__).resolve().parent.parent
#: Every registered flat policy (the core's registry, in its order).
POLICIES = list(mobmem.policies())
#: Policies whose hits only set bits, timed where hits dominate (CLOCK first: the baseline).
HIT_POLICIES = ["clock", "spo-clock", "linux-2q", "mglru"]
HIT_MEMORY = "95%"
ZRAM_MEMORY = "50%"
#: Policies timed on DRAM + PCM tiers (90% PCM), beside flat CLOCK.
TIER_POLICIES = ["clock", "lru", "fg-aware", "clock-dwf"]
LCS_NAMES = {"lru": "LRU", "clock": "Clock", "arc": "ARC", "fifo": "FIFO", "2q": "TwoQ", "opt": "Belady"}


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def make_trace(footprint: int, accesses: int, seed: int) -> tuple[Path, Path, mobmem.Trace]:
    OUT.mkdir(exist_ok=True)
    stem = OUT / f"gen_{accesses // 1_000_000}M_{footprint}p_s{seed}"
    txt, binp = stem.with_suffix(".txt"), stem.with_suffix(".mobt")
    t = mobmem.Trace.generate(accesses=accesses, footprint_pages=footprint, seed=seed)
    if not txt.exists():
        t.save(txt, "text")
    if not binp.exists():
        t.save(binp, "binary")
    return txt, binp, t


def best_of(n: int, f) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def whole_process(argv: list[str], n: int) -> tuple[float, str]:
    """Median wall time of a whole process (start-up included), and its output."""
    times, out = [], ""
    for _ in range(n):
        t0 = time.perf_counter()
        # In bench/out: cachesim writes a result file into its working directory.
        p = subprocess.run(argv, capture_output=True, text=True, cwd=OUT)
        times.append(time.perf_counter() - t0)
        if p.returncode != 0:
            raise SystemExit(f"{argv[0]} failed: {p.stderr[-500:]}")
        out = p.stdout + p.stderr
    return statistics.median(times), out


def lcs_files(t: mobmem.Trace, stem: Path) -> tuple[Path, Path]:
    """The same trace in libCacheSim's `txt` (one id per line) and `oracleGeneralBin` formats."""
    txt, binp = stem.with_suffix(".lcs.txt"), stem.with_suffix(".oracleGeneral.bin")
    if txt.exists() and binp.exists():
        return txt, binp
    pages = [p for p, _ in t.head(len(t))]
    with txt.open("w") as f:
        f.writelines(f"{p}\n" for p in pages)
    nxt = [-1] * len(pages)
    last: dict[int, int] = {}
    for i in range(len(pages) - 1, -1, -1):
        nxt[i] = last.get(pages[i], -1)
        last[pages[i]] = i
    rec = struct.Struct("<IQIq")
    with binp.open("wb") as f:
        for i, p in enumerate(pages):
            f.write(rec.pack(i, p, 1, nxt[i]))
    return txt, binp


def lcs_misses(out: str, n: int) -> int | None:
    line = [x for x in out.splitlines() if "cache size" in x and "miss ratio" in x]
    if not line:
        return None
    return round(float(line[-1].split("miss ratio")[1].split(",")[0]) * n)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--accesses", type=int, default=18_000_000)
    ap.add_argument("--footprint", type=int, default=70_000)
    ap.add_argument("--memory", default="10%")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cachesim", help="path of libCacheSim's cachesim binary, for the side-by-side")
    ap.add_argument("--lcs-footprint", type=int, default=20_000)
    ap.add_argument("--json", help="also write the numbers to this file")
    ap.add_argument("--system-only", action="store_true", help="only the system-level runs")
    ap.add_argument("--admission-only", action="store_true", help="only the page-level swap admission runs")
    ap.add_argument("--cachesim-only", action="store_true", help="only the side-by-side with libCacheSim")
    a = ap.parse_args()
    report: dict = {"machine": machine(), "command": " ".join(["python", *sys.argv])}
    print(f"machine: {report['machine']}")
    if a.system_only:
        system_level(a, report, 0.0)
        return
    if a.admission_only:
        page_admission(a, report)
        return
    if a.cachesim_only:
        if not a.cachesim:
            raise SystemExit("--cachesim-only needs --cachesim PATH")
        side_by_side(a, report)
        return

    txt, binp, t = make_trace(a.footprint, a.accesses, seed=42)
    s = t.stats()
    print(f"trace: synthetic, {s['accesses']:,} accesses, {s['distinct_pages']:,} pages, memory {a.memory}")

    mb = txt.stat().st_size / 1e6
    t_txt = best_of(a.repeat, lambda: mobmem.Trace.open(txt))
    t_bin = best_of(a.repeat, lambda: mobmem.Trace.open(binp))
    report["parse"] = {
        "text_mb": round(mb, 1),
        "text_s": round(t_txt, 3),
        "text_mb_per_s": round(mb / t_txt, 1),
        "text_maccesses_per_s": round(len(t) / t_txt / 1e6, 1),
        "binary_mb": round(binp.stat().st_size / 1e6, 1),
        "binary_s": round(t_bin, 3),
        "binary_maccesses_per_s": round(len(t) / t_bin / 1e6, 1),
    }
    p = report["parse"]
    print(
        f"text parse: {p['text_mb']} MB in {p['text_s']} s = {p['text_mb_per_s']} MB/s ({p['text_maccesses_per_s']} M accesses/s)"
    )
    print(
        f"binary load: {p['binary_mb']} MB in {p['binary_s']} s ({p['binary_maccesses_per_s']} M accesses/s)"
    )

    print(f"\nreplay speed at {a.memory} (replay only, best of {a.repeat}):")
    report["policies"] = {}
    clock_speed = None
    rows = []
    for pol in POLICIES:
        rs = [mobmem.simulate(t, policy=pol, memory=a.memory) for _ in range(a.repeat)]
        best = max(rs, key=lambda r: r.accesses_per_s)
        report["policies"][pol] = {
            "maccesses_per_s": round(best.accesses_per_s / 1e6, 1),
            "faults": best.faults,
        }
        if pol == "clock":
            clock_speed = best.accesses_per_s
        rows.append((pol, best))
    for pol, best in rows:
        rel = best.accesses_per_s / clock_speed if clock_speed else float("nan")
        report["policies"][pol]["vs_clock"] = round(rel, 2)
        print(
            f"  {pol:9s} {best.accesses_per_s / 1e6:7.1f} M accesses/s  ({rel:.2f}× CLOCK)  faults {best.faults:,}"
        )

    # Direct Read costs one more branch on the miss path only; measured beside plain CLOCK.
    dr = max(
        (
            mobmem.simulate(t, policy="clock", memory=a.memory, swap="lpddr2-pcm", direct_read=True)
            for _ in range(a.repeat)
        ),
        key=lambda r: r.accesses_per_s,
    )
    rel = dr.accesses_per_s / clock_speed if clock_speed else float("nan")
    report["clock_direct_read"] = {
        "maccesses_per_s": round(dr.accesses_per_s / 1e6, 1),
        "vs_clock": round(rel, 2),
    }
    print(
        f"  clock + Direct Read (lpddr2-pcm) {dr.accesses_per_s / 1e6:7.1f} M accesses/s ({rel:.2f}× CLOCK),"
        f" {dr.meters['dr_maps']:,} pages mapped in place"
    )

    # zram: compressed swap taking frames from the same memory, so a fault may evict more than one
    # page. At 10% this trace's anon pages do not fit compressed (out of memory, as they should):
    # measured at ZRAM_MEMORY beside plain CLOCK at the same size.
    zr, plain = (
        max(
            (mobmem.simulate(t, policy="clock", memory=ZRAM_MEMORY, swap=s) for _ in range(a.repeat)),
            key=lambda r: r.accesses_per_s,
        )
        for s in ("zram-lz4", "optane-m10")
    )
    rel = zr.accesses_per_s / plain.accesses_per_s
    report["clock_zram"] = {
        "memory": ZRAM_MEMORY,
        "maccesses_per_s": round(zr.accesses_per_s / 1e6, 1),
        "vs_clock_same_memory": round(rel, 2),
        "faults": zr.faults,
        "faults_without_zram": plain.faults,
        "peak_zram_frames": zr.meters["peak_zram_frames"],
    }
    print(
        f"  clock + zram (zram-lz4) at {ZRAM_MEMORY}  {zr.accesses_per_s / 1e6:7.1f} M accesses/s"
        f" ({rel:.2f}× CLOCK at {ZRAM_MEMORY}: {plain.accesses_per_s / 1e6:.1f}), faults {zr.faults:,}"
        f" (vs {plain.faults:,}), zram up to {zr.meters['peak_zram_frames']:,} of {zr.frames:,} frames"
    )

    # The hit path alone: with memory near the footprint almost every access hits, and a hit in the
    # bit-setting policies is one store, as in CLOCK.
    print(f"\nhit path at {HIT_MEMORY} (almost every access hits; best of {a.repeat}):")
    report["hit_path"] = {}
    base = None
    for pol in HIT_POLICIES:
        best = max(
            (mobmem.simulate(t, policy=pol, memory=HIT_MEMORY) for _ in range(a.repeat)),
            key=lambda r: r.accesses_per_s,
        )
        base = base or best.accesses_per_s
        rel = best.accesses_per_s / base
        report["hit_path"][pol] = {
            "maccesses_per_s": round(best.accesses_per_s / 1e6, 1),
            "vs_clock": round(rel, 2),
            "hit_ratio": round(best.hits / len(t), 4),
        }
        print(
            f"  {pol:9s} {best.accesses_per_s / 1e6:7.1f} M accesses/s  ({rel:.2f}× CLOCK)  hit ratio {best.hits / len(t):.4f}"
        )

    # Tiers: every access charged to a tier, migrations between them; the same trace and size.
    print(f"\ntiered, 90% PCM, at {a.memory} (best of {a.repeat}; ratio to flat CLOCK):")
    report["tiers"] = {}
    for pol in TIER_POLICIES:
        best = max(
            (
                mobmem.simulate(t, policy=pol, memory=a.memory, tiers={"pcm_share": 0.9})
                for _ in range(a.repeat)
            ),
            key=lambda r: r.accesses_per_s,
        )
        rel = best.accesses_per_s / clock_speed if clock_speed else float("nan")
        tm = best.tiers
        report["tiers"][pol] = {
            "maccesses_per_s": round(best.accesses_per_s / 1e6, 1),
            "vs_flat_clock": round(rel, 2),
            "migrations": tm["promotions"] + tm["demotions"],
        }
        print(
            f"  {pol:9s} {best.accesses_per_s / 1e6:7.1f} M accesses/s  ({rel:.2f}× flat CLOCK)"
            f"  migrations {tm['promotions'] + tm['demotions']:,}"
        )

    page_admission(a, report)
    system_level(a, report, clock_speed)
    if a.cachesim:
        side_by_side(a, report)
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=1))


#: Page-level swap admissions on a trace with processes (DR. Swap's `news` apps, round robin):
#: (label, overrides). `t_launched = 1` admits what `all` admits (same faults): the owned loop's
#: cost alone; the default vetoes the apps launched fewer than three times.
ADMISSION_RUNS = (
    ("all", {}),
    (
        "a2s, t_launched 1 (admits as all)",
        {"swap_admission": "a2s", "swap_admission_params": {"t_launched": 1}},
    ),
    ("a2s (defaults)", {"swap_admission": "a2s"}),
)


def page_admission(a: argparse.Namespace, report: dict) -> None:
    """A page trace with processes under swap admissions, side by side in one run."""
    t = mobmem.Trace.category("news", rounds=4, accesses_per_turn=1_000_000, seed=1)
    print(
        f"\npage-level swap admission: 'news' round robin, {len(t):,} accesses, {t.num_pages:,} pages,"
        f" 30%, emmc-inand (best of {a.repeat}):"
    )
    report["page_admission"] = {}
    base = None
    for label, over in ADMISSION_RUNS:
        best = max(
            (mobmem.simulate(t, memory="30%", swap="emmc-inand", **over) for _ in range(a.repeat)),
            key=lambda r: r.accesses_per_s,
        )
        base = base or best.accesses_per_s
        m = best.meters
        report["page_admission"][label] = {
            "maccesses_per_s": round(best.accesses_per_s / 1e6, 1),
            "vs_all": round(best.accesses_per_s / base, 2),
            "faults": best.faults,
            "swap_outs": m["swap_outs"],
            "vetoes": m["swap_vetoes"],
        }
        print(
            f"  {label:34s} {best.accesses_per_s / 1e6:7.1f} M accesses/s ({best.accesses_per_s / base:.2f}× all)"
            f"  faults {best.faults:,}  swap-outs {m['swap_outs']:,}  vetoes {m['swap_vetoes']:,}"
        )


#: System-level workloads: (label, usage spec, phone, overrides).
SYSTEM_RUNS = (
    ("eMMC rounds, random, 210 MB, swap", ph.rounds(random=True, seed=7), "gt-i9300", {"reserved": "814MiB"}),
    (
        "eMMC rounds, random, 210 MB, no swap",
        ph.rounds(random=True, seed=7),
        "gt-i9300",
        {"reserved": "814MiB", "swap": "off"},
    ),
    (
        "eMMC rounds, random, 210 MB, zram",
        ph.rounds(random=True, seed=7),
        "gt-i9300",
        {"reserved": "814MiB", "swap": "zram-lz4", "page_cluster": 0},
    ),
    (
        "A2S Large (36 apps, 256 launches), 1 GiB",
        ph.synthetic(36, 256, 6.10, seed=1),
        "nexus5",
        {"dram": "1GiB", "reserved": "400MiB"},
    ),
    # A2S's swap admission side by side with plain swap, at the A2S reproduction's memory.
    (
        "A2S Large, 1.5 GB (850 MiB kept), swap: all",
        ph.synthetic(36, 256, 6.10, seed=1, gap_s=23.0),
        "nexus5",
        {"dram": "1536MiB", "reserved": "850MiB", "swap_size": "1GiB", "session_s": 20.0},
    ),
    (
        "A2S Large, 1.5 GB (850 MiB kept), swap: a2s",
        ph.synthetic(36, 256, 6.10, seed=1, gap_s=23.0),
        "nexus5",
        {
            "dram": "1536MiB",
            "reserved": "850MiB",
            "swap_size": "1GiB",
            "session_s": 20.0,
            "swap_admission": "a2s",
        },
    ),
    (
        "real window (15 apps, 9 days), nexus5",
        ph.usage_file(ROOT / "tests/data/usage_window_12apps.csv"),
        "nexus5",
        {},
    ),
)


def system_level(a: argparse.Namespace, report: dict, clock_speed: float) -> None:
    """Whole system-level runs: page touches generated and replayed per second of wall time."""
    print(f"\nsystem level (best of {a.repeat}; touches = page accesses the apps generated):")
    report["system"] = {}
    for label, usage, phone, over in SYSTEM_RUNS:
        best = min(
            (mobmem.simulate_phone(usage, phone, **over) for _ in range(a.repeat)),
            key=lambda r: r.wall_time_s,
        )
        m = best.meters
        rate = m["touches"] / best.wall_time_s if best.wall_time_s > 0 else float("nan")
        report["system"][label] = {
            "wall_s": round(best.wall_time_s, 3),
            "touches": m["touches"],
            "mtouches_per_s": round(rate / 1e6, 1),
            "launches": m["launches"],
            "vs_flat_clock": round(rate / clock_speed, 2) if clock_speed else None,
        }
        vs = f"({rate / clock_speed:.2f}× flat CLOCK)" if clock_speed else ""
        print(
            f"  {label:46s} {best.wall_time_s:6.2f} s  {m['touches']:>11,} touches  {rate / 1e6:6.1f} M/s"
            f"  {vs}  {m['launches']} launches"
        )


def side_by_side(a: argparse.Namespace, report: dict) -> None:
    txt, binp, t = make_trace(a.lcs_footprint, a.accesses, seed=43)
    lcs_txt, lcs_bin = lcs_files(t, txt.with_suffix(""))
    frames = mobmem.simulate(t, policy="fifo", memory=a.memory).frames
    print(
        f"\nside by side with libCacheSim cachesim: {len(t):,} accesses over {t.num_pages:,} pages,"
        f" {frames:,} frames ({a.memory}); whole-process wall time, alternated, median and best of {a.repeat}"
        " (noise on a shared machine only adds time: the best is the steadier figure)"
    )
    mob = [sys.executable, "-m", "mobmem.cli", "run", "--json", "--memory", str(frames)]
    report["libcachesim"] = {"frames": frames, "pages": t.num_pages, "rows": []}
    print(
        f"  {'policy':6s} {'input':6s} {'mobmem s':>9s} {'cachesim s':>11s} {'speed-up':>9s}"
        f" {'best mobmem':>12s} {'best cachesim':>14s} {'speed-up':>9s}  misses equal"
    )
    binary = ("binary", ["--trace", str(binp)], [str(lcs_bin), "oracleGeneralBin"])
    text = ("text", ["--trace", str(txt)], [str(lcs_txt), "txt"])
    # Every policy both have, on the binary formats (Belady reads only oracleGeneral); text for three.
    for pol, inputs in (
        ("fifo", (binary,)),
        ("lru", (binary, text)),
        ("clock", (binary, text)),
        ("arc", (binary, text)),
        ("2q", (binary,)),
        ("opt", (binary,)),
    ):
        for kind, ours, theirs in inputs:
            ours_argv = [*mob, "--policy", pol, *ours]
            theirs_argv = [a.cachesim, *theirs, LCS_NAMES[pol], str(frames), "--ignore-obj-size=true"]
            # Alternated, one run each at a time, so both see the same machine; medians.
            ms, cs = [], []
            for _ in range(a.repeat):
                t_m, out_m = whole_process(ours_argv, 1)
                t_c, out_c = whole_process(theirs_argv, 1)
                ms.append(t_m)
                cs.append(t_c)
            t_m, t_c = statistics.median(ms), statistics.median(cs)
            b_m, b_c = min(ms), min(cs)
            faults = json.loads(out_m)["meters"]["faults"]
            misses = lcs_misses(out_c, len(t))
            same = "yes" if misses == faults else f"NO ({faults:,} vs {misses})"
            report["libcachesim"]["rows"].append(
                {
                    "policy": pol,
                    "input": kind,
                    "mobmem_s": round(t_m, 3),
                    "cachesim_s": round(t_c, 3),
                    "speedup": round(t_c / t_m, 2),
                    "best_mobmem_s": round(b_m, 3),
                    "best_cachesim_s": round(b_c, 3),
                    "best_speedup": round(b_c / b_m, 2),
                    "faults": faults,
                    "cachesim_misses": misses,
                }
            )
            print(
                f"  {pol:6s} {kind:6s} {t_m:9.3f} {t_c:11.3f} {t_c / t_m:8.2f}×"
                f" {b_m:12.3f} {b_c:14.3f} {b_c / b_m:8.2f}×  {same}"
            )


if __name__ == "__main__":
    main()
