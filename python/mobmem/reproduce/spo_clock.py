"""``mobmem reproduce spo-clock``: Fig. 4 of the SPO-CLOCK paper (Yoon, Cho & Bahn, Electronics
2022) as tables — the I/O time of each policy relative to CLOCK, stacked into swap read, swap write
and file read — and its headline numbers: SPO-CLOCK's average and maximum improvement over CLOCK
(paper: 15.0% / 35.1%) and over ARC (12.0% / 35.2%).

Method, as the paper's section 3: file system on UFS 3.1 (``ufs31``: 100,000 / 70,000 IOPS), swap on
Optane M10, 4 KiB pages, swap as large as the footprint, memory 5% to
25% of the footprint. File writes are reported apart and left out of the compared I/O time, as the
paper does (journaling flushes them anyway). The five apps are mobmem's synthetic presets
calibrated to Table 1 (footprint, reads, writes, instruction fetches); their locality (code and
written shares, hot set, scans) is measured on the app-like capture of each one's category
(``--locality stand-ins``, the default) or one assumed model for all five (``assumed``); the
paper's own traces (github.com/oslab-ewha/mem-trace, in mobmem's text format) or any other trace can
be added with ``--trace``.

The paper is ambiguous about its swap: it prints one device figure (190,000 IOPS) yet explains Fig. 4
by swap writes costing the most, says writing is 2–8 times slower than reading, and sets swap to the
whole footprint. The report gives the results under each reading: ``paper-2x`` (the default,
``optane-m10-2x``: the paper's read figure and its own worked example, a write twice a read),
``asymmetric`` (``optane-m10``: first-generation Optane Memory's specified read:write ratio, 3.69×),
``literal`` (``optane-m10-literal``: 190,000 IOPS for both) and ``image-in-swap`` (the default device,
no swap cache, first touches of anon pages read from swap).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from .args import int_list
from .spo_locality import LOCALITIES, locality_of, stand_in

PAPER_APPS = ("angrybirds", "youtube", "chrome", "facebook", "farmstory")
#: Section 3: SPO-CLOCK's I/O-time improvement, average and maximum, in %.
PAPER_VS_CLOCK = (15.0, 35.1)
PAPER_VS_ARC = (12.0, 35.2)
POLICIES = (
    "spo-clock",
    "spo-clock@alg1",
    "spo-clock@density",
    "arc",
    "lru",
    "clock",
    "linux-2q",
    "mglru",
    "opt",
)
#: Rows that run a registered policy under other parameters: name → (policy, params).
#: `spo-clock@alg1` is the region adaptation of Algorithm 1 read literally: a fault looks up only
#: its target region's shadow, and the donor is the region with the fewest decayed shadow hits ×
#: cost ("selected by ... hits from shadow regions and the I/O cost involved in each region").
#: `spo-clock@density` is Algorithm 1 with the donor read as the region with the fewest decayed
#: shadow hits per frame × cost, the grower included (then nothing moves): no parameter of its own,
#: and it starves no region (crates/mobmem-core/tests/spo_bound.rs).
VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "spo-clock@alg1": ("spo-clock", {"donor": "hits", "shadow_lookup": "target"}),
    "spo-clock@density": ("spo-clock", {"donor": "density"}),
}
#: Rows read as the paper's region adaptation, with the summary key of each: row → prefix.
ADAPTATIONS = {"spo-clock": "vs_{}", "spo-clock@alg1": "alg1_vs_{}", "spo-clock@density": "density_vs_{}"}
MEMORY = (5, 10, 15, 20, 25)
#: Kinds of workload, reported apart: name → label.
KINDS = {
    "synthetic": "synthetic apps",
    "capture": "real captures",
    "corpus": "app-like captures",
    "trace": "traces given",
}
PARTS = ("swap_read_ns", "swap_write_ns", "file_read_ns")
#: Readings of the paper's swap: name → the run's settings. The first is the default. `image-in-swap`
#: is the default device with the paper's possible swap semantics: swap holds the whole image
#: (first touches of anon pages read it) and there is no swap cache (a page written once is written
#: again at every eviction), which would make swap writes dominate whatever the policy.
READINGS: dict[str, dict[str, Any]] = {
    "paper-2x": {"swap": "optane-m10-2x"},
    "asymmetric": {"swap": "optane-m10"},
    "literal": {"swap": "optane-m10-literal"},
    "image-in-swap": {"swap": "optane-m10-2x", "swap_cache": "drop", "anon_first_touch": "swap"},
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--apps", default=",".join(PAPER_APPS), help="synthetic Table 1 presets ('' for none)")
    p.add_argument(
        "--trace",
        "-t",
        action="append",
        default=[],
        help="also run on this trace (repeatable), e.g. the real Lackey captures in shared/data/pagetraces",
    )
    p.add_argument(
        "--captures",
        default="auto",
        help="directory of real captures (*.txt.zst) to run as well; auto: the four"
        " bundled with mobmem (mobmem/data/captures; tests/data/captures in the repository); '' for none",
    )
    p.add_argument(
        "--corpus",
        default="auto",
        help="directory of app-like captures (*.txt.zst, made by captures/make_corpus.py) to run as well;"
        " auto: the corpus bundled with mobmem (mobmem/data/corpus; tests/data/corpus in the"
        " repository); '' for none",
    )
    p.add_argument(
        "--accesses", default=None, help="accesses per synthetic app, e.g. 2M (default: Table 1's)"
    )
    p.add_argument("--memory", default=",".join(map(str, MEMORY)), help="memory sizes, %% of footprint")
    p.add_argument("--policies", default=",".join(POLICIES), help="policies beside CLOCK, comma-separated")
    p.add_argument(
        "--spo-param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="parameter of the spo-clock row (repeatable), e.g. margin=0.0625 for the sensitivity",
    )
    p.add_argument(
        "--gen-param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="generator parameter of every synthetic app (repeatable), e.g. hot_share=0.1, over its"
        " --locality (mobmem gen --help lists the parameters)",
    )
    p.add_argument(
        "--locality",
        choices=LOCALITIES,
        default=LOCALITIES[0],
        help="the synthetic apps' locality: stand-ins (each app's derived from the corpus capture of its"
        " category: games game-loop, Youtube media-decode, Chrome page-render, Facebook social-feed) or"
        " assumed (one model for all five); --gen-param applies on top",
    )
    p.add_argument(
        "--stand-ins",
        default="auto",
        help="directory of the app-like captures the stand-ins locality is derived from; auto: the"
        " corpus bundled with mobmem (mobmem/data/corpus; tests/data/corpus in the repository)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the synthetic traces")
    p.add_argument(
        "--readings",
        default=",".join(READINGS),
        help="readings of the paper's swap to run, the first judged: " + ", ".join(READINGS),
    )
    p.add_argument("--threads", type=int, default=0, help="worker threads (0: all cores)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")


def io_compared(m: dict[str, Any]) -> float:
    """The compared I/O time: swap reads + swap writes + file reads (file writes left out)."""
    return sum(m["io"][k] for k in PARTS)


#: Where `auto` finds each kind of capture in the package's data (mobmem._data): the four Lackey captures of command-line
#: programs, and the app-like corpus made by captures/make_corpus.py.
CAPTURE_DIRS = {"capture": "captures", "corpus": "corpus"}


def capture_paths(where: str, kind: str = "capture") -> list[str]:
    """The captures to run: every ``*.txt.zst`` in `where`; ``auto`` is the ones bundled with the
    package (mobmem/data/<CAPTURE_DIRS[kind]>; tests/data/<…> in a checkout links there)."""
    from .. import _data
    from ..errors import ConfigError

    if where == "auto":
        d = Path(_data.path(CAPTURE_DIRS[kind]))
        return sorted(str(p) for p in d.glob("*.txt.zst")) if d.is_dir() else []
    if not where:
        return []
    found = sorted(str(p) for p in Path(where).glob("*.txt.zst"))
    if not found:
        flag = "--captures" if kind == "capture" else "--corpus"
        raise ConfigError(f"{flag} {where}: no *.txt.zst trace there", flag.lstrip("-"))
    return found


def policy_config(row: str, spo_params: dict[str, Any] | None = None) -> dict[str, Any]:
    """The run settings of a table row: a registered policy, or a variant of one (`VARIANTS`);
    `spo_params` go to the `spo-clock` row."""
    if row in VARIANTS:
        name, params = VARIANTS[row]
        return {"policy": name, "params": params}
    if row == "spo-clock" and spo_params:
        return {"policy": row, "params": spo_params}
    return {"policy": row}


def read_floor_ns(opt: dict[str, Any], swap_read_ns: float, file_read_ns: float) -> float:
    """A lower bound on the compared I/O time of any demand-paging policy: every policy reads the
    pages it touches first from their files (cold file faults), and takes at least OPT's number of
    other faults, each costing at least the cheaper of a swap read and a file read; swap writes are
    bounded by 0. It bounds reads only, so it is far below what writes add."""
    other = opt["faults"] - opt["cold_file"] - opt["cold_anon"]
    return opt["cold_file"] * file_read_ns + other * min(swap_read_ns, file_read_ns)


def _workload(
    res: dict[str, Any], name: str, trace: Any, kind: str, args: argparse.Namespace, over: dict[str, Any]
) -> None:
    from .._args import key_values
    from ..experiment.runner import run_configs

    pols = [p.strip() for p in args.policies.split(",") if p.strip()]
    if "clock" not in pols:
        pols.append("clock")
    mems = int_list("--memory", args.memory)
    spo = key_values(args.spo_param, "--spo-param")
    cfgs = [
        {"memory": f"{m}%", **policy_config(p, spo), "storage": "ufs31", "swap_size": "100%", **over}
        for m in mems
        for p in pols
    ]
    runs = run_configs(trace, cfgs, threads=args.threads)
    stats = trace.stats()
    w: dict[str, Any] = {
        "kind": kind,
        "accesses": len(trace),
        "pages": trace.num_pages,
        "read_write": stats.get("read_write_ratio"),
        "memory": {},
    }
    for i, m in enumerate(mems):
        row = {p: runs[i * len(pols) + j] for j, p in enumerate(pols)}
        clock = io_compared(row["clock"].meters)
        pt: dict[str, Any] = {"frames": row["clock"].frames, "policies": {}}
        for p, r in row.items():
            io = r.meters.io
            pt["policies"][p] = {
                "faults": r.faults,
                "io_ns": io_compared(r.meters),
                "file_write_ns": io["file_write_ns"],
                "rel": io_compared(r.meters) / clock if clock else None,
                "parts": {k: (io[k] / clock if clock else None) for k in PARTS},
            }
        any_run = next(iter(row.values()), None)
        if any_run is not None and "swap_costs" not in res:
            # The run's swap device as it ran (a ledger rerun may move its costs): what a swap
            # read and a swap write cost, for the causes (pages written per page read back).
            sw = any_run.to_dict()["config"]["swap"]
            res["swap_costs"] = {"read_ns": sw["read_ns"], "write_ns": sw["write_ns"]}
        if "opt" in row:
            dev = row["opt"].to_dict()["config"]
            pt["read_floor_ns"] = read_floor_ns(
                row["opt"].meters, dev["swap"]["read_ns"], dev["storage"]["read_ns"]
            )
            pt["read_floor_rel"] = pt["read_floor_ns"] / clock if clock else None
        w["memory"][m] = pt
    res["workloads"][name] = w


def improvements(
    res: dict[str, Any], base: str, kind: str = "synthetic", row: str = "spo-clock"
) -> list[float]:
    """`row`'s improvement over `base` (%, 1 − row/base) at every (workload, memory) point."""
    out = []
    for w in res["workloads"].values():
        if w["kind"] != kind:
            continue
        for pt in w["memory"].values():
            p = pt["policies"]
            if row in p and base in p and p[base]["io_ns"] > 0:
                out.append(100.0 * (1 - p[row]["io_ns"] / p[base]["io_ns"]))
    return out


def _readings(args: argparse.Namespace) -> list[str]:
    from ..errors import ConfigError

    names = [r.strip() for r in str(args.readings).split(",") if r.strip()]
    bad = [r for r in names if r not in READINGS]
    if bad or not names:
        raise ConfigError(
            f"--readings: {', '.join(bad) or 'none given'}; known: {', '.join(READINGS)}", "readings"
        )
    return names


def _summary(res: dict[str, Any]) -> None:
    for row, key in ADAPTATIONS.items():
        for base in ("clock", "arc"):
            for kind in KINDS:
                v = improvements(res, base, kind, row)
                if v:
                    res.setdefault("summary", {}).setdefault(kind, {})[key.format(base)] = {
                        "average_pct": sum(v) / len(v),
                        "max_pct": max(v),
                        "min_pct": min(v),
                        "points": len(v),
                    }
    for kind in KINDS:
        pts = [
            pt["policies"]["clock"]["parts"]
            for w in res["workloads"].values()
            if w["kind"] == kind
            for pt in w["memory"].values()
        ]
        if pts and all(p["swap_write_ns"] is not None for p in pts):
            res.setdefault("summary", {}).setdefault(kind, {})["clock_swap_write_share"] = sum(
                p["swap_write_ns"] for p in pts
            ) / len(pts)
            res["summary"][kind]["clock_writes_over_reads"] = sum(
                p["swap_write_ns"] > p["swap_read_ns"] for p in pts
            )
            res["summary"][kind]["points"] = len(pts)


def compute(args: argparse.Namespace) -> dict[str, Any]:
    """The default reading's results at the top level (``workloads``, ``summary``, ``swap``); every
    reading's under ``readings`` (the default's too)."""
    from .._args import key_values
    from .._core import parse_count
    from ..api import Trace

    names = _readings(args)
    traces: list[tuple[str, Any, str]] = []
    gen: dict[str, Any] = {}
    for app in [a.strip() for a in args.apps.split(",") if a.strip()]:
        local = stand_in(app, args) if locality_of(args) == "stand-ins" else {}
        extra = {**local, **key_values(args.gen_param, "--gen-param"), "seed": args.seed}
        gen[app] = extra
        if args.accesses:
            extra["accesses"] = parse_count("--accesses", str(args.accesses))
        traces.append((app, Trace.generate(app, **extra), "synthetic"))
    for path in args.trace:
        traces.append((os.path.basename(path), Trace.open(path), "trace"))
    for kind, where in (("capture", args.captures), ("corpus", args.corpus)):
        for path in capture_paths(where, kind):
            traces.append((os.path.basename(path).removesuffix(".txt.zst"), Trace.open(path), kind))
    readings: dict[str, Any] = {}
    for r in names:
        sub: dict[str, Any] = {"swap": READINGS[r]["swap"], "settings": READINGS[r], "workloads": {}}
        for name, t, kind in traces:
            _workload(sub, name, t, kind, args, READINGS[r])
        _summary(sub)
        readings[r] = sub
    res: dict[str, Any] = {
        **readings[names[0]],
        "settings": {k: v for k, v in vars(args).items() if k != "func"},
        "reading": names[0],
        "readings": readings,
        # Each synthetic app's generator parameters over its preset (the locality's and --gen-param's).
        "locality": {"reading": locality_of(args), "apps": gen},
    }
    return res


def _cell(p: dict[str, Any]) -> str:
    if p["rel"] is None:
        return "—"
    r, w, f = (p["parts"][k] for k in PARTS)
    return f"{p['rel']:.3f} = {r:.2f}+{w:.2f}+{f:.2f}"


def report(res: dict[str, Any]) -> str:
    from ..table import render

    lines = [
        "SPO-CLOCK (Yoon, Cho & Bahn 2022) — Fig. 4 and section 3, reproduced",
        f"File system on UFS 3.1 (ufs31), swap on Optane M10 ({res['swap']}: the {res['reading']} reading of the"
        " paper's device), swap = footprint, 4 KiB pages.",
        "Cells: I/O time relative to CLOCK = swap read + swap write + file read (file writes left out, as in",
        "the paper). Synthetic apps are mobmem's Table 1 presets (counts calibrated), with the locality of"
        + (
            " the app-like capture of each one's category (--locality stand-ins: games game-loop, Youtube"
            " media-decode, Chrome page-render, Facebook social-feed)."
            # A result from before the locality had readings was made with the assumed one.
            if res.get("locality", {}).get("reading", "assumed") == "stand-ins"
            else " one assumed model for all five (--locality assumed)."
        ),
        "",
    ]
    for name, w in res["workloads"].items():
        mems = list(w["memory"])
        pols = list(next(iter(w["memory"].values()))["policies"])
        rows = [[p] + [_cell(w["memory"][m]["policies"][p]) for m in mems] for p in pols]
        if all("read_floor_rel" in w["memory"][m] for m in mems):
            rows.append(["read floor"] + [f"≥ {w['memory'][m]['read_floor_rel']:.3f}" for m in mems])
        kind = {"synthetic": "synthetic preset", "capture": "real capture", "corpus": "app-like capture"}.get(
            w["kind"], "trace"
        )
        title = (
            f"{name} ({kind}: {w['accesses']:,} accesses, {w['pages']:,} pages) — memory % of footprint"
            f" (frames: {', '.join(str(w['memory'][m]['frames']) for m in mems)})"
        )
        lines.append(render(["policy"] + [f"{m}%" for m in mems], rows, title=title))
        lines.append("")
    lines.append(
        "read floor: a lower bound on any policy's compared I/O time (cold file reads + OPT's other faults ×"
        " the cheapest read; writes counted as 0). OPT is the fault-count floor, not an I/O-time floor:"
        " a cost-aware policy can beat OPT's I/O time."
    )
    lines.append("")
    lines.append(
        "Against the paper, under each reading (the verdicts, by the one rule, are in the table at the end):"
    )
    for r, sub in res.get("readings", {res["reading"]: res}).items():
        summ = sub.get("summary", {})
        for kind, label in KINDS.items():
            s_ = summ.get(kind)
            if not s_:
                continue
            for base, paper in (("clock", PAPER_VS_CLOCK), ("arc", PAPER_VS_ARC)):
                if f"vs_{base}" not in s_:
                    continue
                v = s_[f"vs_{base}"]
                lines.append(
                    f"- {r} ({sub['swap']}), {label}: SPO-CLOCK improves I/O time over {base.upper()} by"
                    f" {v['average_pct']:.1f}% on average, {v['max_pct']:.1f}%"
                    f" at most; {v['min_pct']:.1f}% at least, {v['points']} points;"
                    f" paper {paper[0]:.1f}% / {paper[1]:.1f}%."
                )
            for key, how in (
                ("alg1_vs_clock", "Algorithm 1's adaptation read literally (spo-clock@alg1)"),
                ("density_vs_clock", "Algorithm 1's donor read per frame (spo-clock@density)"),
            ):
                if key in s_:
                    v = s_[key]
                    lines.append(
                        f"- {r}, {label}: with {how} the improvement over"
                        f" CLOCK is {v['average_pct']:.1f}% on average,"
                        f" {v['max_pct']:.1f}% at most,"
                        f" {v['min_pct']:.1f}% at least."
                    )
            if "clock_swap_write_share" in s_:
                lines.append(
                    f"- {r}, {label}: swap writes are {s_['clock_swap_write_share']:.2f} of CLOCK's I/O time on average"
                    f" and exceed swap reads at {s_['clock_writes_over_reads']} of {s_['points']} points (paper: they"
                    " dominate at all)."
                )
    syn = [w for w in res["workloads"].values() if w["kind"] == "synthetic"]
    pts = [pt["policies"] for w in syn for pt in w["memory"].values()]
    if pts and all("lru" in p for p in pts):
        dev = max(abs(p["lru"]["rel"] - 1) for p in pts if p["lru"]["rel"] is not None)
        lines.append(
            f'- LRU vs CLOCK: within {100 * dev:.1f}% of each other at every point (paper: "very similar").'
        )
    if pts and all("spo-clock" in p for p in pts):
        dw = [p["spo-clock"]["parts"]["swap_write_ns"] - p["clock"]["parts"]["swap_write_ns"] for p in pts]
        df = [p["spo-clock"]["parts"]["file_read_ns"] - p["clock"]["parts"]["file_read_ns"] for p in pts]
        lines.append(
            f"- SPO-CLOCK vs CLOCK by part (share of CLOCK's I/O time, mean): swap writes {sum(dw) / len(dw):+.3f},"
            f" file reads {sum(df) / len(df):+.3f} (paper: fewer swap writes, slightly more file reads)."
        )
    lines.append("")
    lines.append("Why ours can differ:")
    lines.append(
        "- The paper's traces (five Android apps, Cachegrind) are not bundled; the presets match Table 1's counts"
        " and footprints, but their locality (hot sets, scans, phases) is taken from small programs of each"
        " app's category or assumed, and the improvements depend on it. Pass the paper's traces with --trace"
        " to compare on them."
    )
    if pts and "clock" in pts[0]:
        sw = [p["clock"]["parts"]["swap_write_ns"] > p["clock"]["parts"]["swap_read_ns"] for p in pts]
        share = sum(p["clock"]["parts"]["swap_write_ns"] for p in pts) / len(pts)
        if sum(sw) < len(sw):
            lines.append(
                f"- In the paper swap writes dominate (many pages go to swap and only some hot ones come back);"
                f" in the presets they are {share:.2f} of CLOCK's I/O time on average and below swap reads at"
                f" {len(sw) - sum(sw)} points: the presets have fewer write-once anon pages than the apps, which is"
                " where SPO-CLOCK's priority for write regions pays."
            )
    lines.append(
        "- Algorithm 1 leaves the donor region, the base threshold and the handling of free frames open; mobmem's"
        " choices are in docs/POLICIES.md (spo-clock parameters split, donor, write_threshold, cost_ratio)."
    )
    worst = {
        row: max(
            (
                pt["policies"][row]["rel"]
                for w in res["workloads"].values()
                for pt in w["memory"].values()
                if row in pt["policies"] and pt["policies"][row]["rel"] is not None
            ),
            default=None,
        )
        for row in ADAPTATIONS
    }
    if worst["spo-clock"] is not None and worst["spo-clock@alg1"] is not None:
        lines.append(
            f"- Region adaptation: at its worst point here SPO-CLOCK costs {worst['spo-clock']:.2f}× CLOCK's I/O time,"
            f" and {worst['spo-clock@alg1']:.2f}× with Algorithm 1's adaptation read literally. Read literally it"
            " starves regions (checked on the real captures, docs/POLICIES.md): a fault looks up only its"
            " target's shadow, so a written page faulted back by a read never tells the write region that its"
            " eviction cost a swap write; and counting every shadow hit lets a region whose re-references are"
            " far apart take frames that each save little. mobmem's default (donor = margin, shadow_lookup ="
            " both) stays within 1.25× of CLOCK on the captures, the corpus and generated traces"
            " (crates/mobmem-core/tests/spo_bound.rs). Its window (margin = 1/32 of the frames) was chosen from a"
            " sweep of the worst capture point against CLOCK, not fitted to the paper; the sensitivity is in"
            " docs/POLICIES.md (--spo-param margin=…)."
        )
    if worst["spo-clock@density"] is not None:
        lines.append(
            f"- A reading of Algorithm 1 without the margin's window (spo-clock@density: every shadow hit counts, the"
            f" donor is the region with the fewest hits per frame × cost, and when that is the grower nothing"
            f" moves) costs {worst['spo-clock@density']:.2f}× CLOCK at its worst point here; a shrinking region's"
            " hits per frame rise, so it stops donating. It stays within 1.3× of CLOCK on the captures, the"
            " corpus and generated traces (spo_bound.rs), where Algorithm 1 read literally does not."
        )
    return "\n".join(lines)


def figures(res: dict[str, Any]) -> list[tuple[Any, str]]:
    """Fig. 4's form for each workload: every policy's I/O time relative to CLOCK's by memory size,
    stacked by swap read, swap write and file read: every workload run (the paper's apps first)."""
    from ..report import plots

    out = []
    for name, w in res["workloads"].items():
        recs = []
        for m, pt in w["memory"].items():
            for p, v in pt["policies"].items():
                if v["rel"] is None:
                    continue
                parts = {f"io_{k}": v["parts"][k] or 0.0 for k in PARTS}
                recs.append({"policy": p, "memory": f"{m}%", "io_total_ns": v["rel"], **parts})
        if recs:
            out.append(
                (plots.io_relative(recs, "clock"), f"{name} ({w['kind']}): I/O time relative to CLOCK")
            )
    return out


def held_args(args: argparse.Namespace, res: dict[str, Any]) -> dict[str, Any]:
    """What the fidelity scoreboard's reruns hold (nothing is fitted), and the work no claim reads
    left out: the claims are measured on the default reading's synthetic apps, so no capture, no
    corpus and no other reading."""
    return {"captures": "", "corpus": "", "trace": [], "readings": _readings(args)[0]}


def idle_args(args: argparse.Namespace, res: dict[str, Any]) -> dict[str, Any]:
    """The idle workload of the fidelity scoreboard's echo test: each app twenty accesses (twenty
    first touches: nothing for a policy to decide), no capture, the default reading."""
    return {**held_args(args, res), "accesses": 20}
