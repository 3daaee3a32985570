"""``mobmem reproduce mglru-android``: the multi-gen LRU on a phone — MGLRU against Linux's
active/inactive lists (``linux-2q``) as the phone's page reclaim, under lmkd's PSI killer and the
older minfree one, beside the figures the MGLRU patch series reports for Android (Yu Zhao's cover
letters, 2021–2022: "18% fewer low-memory kills, which in turn reduces cold starts by 16%" in
Google's simulation of realistic use; fleetwide, 40% less kswapd CPU, 85% fewer low-memory kills at
the 75th percentile and 18% shorter app launches at the median).

Method: the ``pixel-7`` phone (lmkd in PSI mode with its defaults, 3 GiB zram with writeback on
Android's schedule, 32 cached apps) cut to ``--dram`` (the letters name no device; the ledger's
range moves it), on two kinds of usage: generated (the A2S paper's Large workload shape: 36 apps,
average reuse distance 6.10 distinct apps, 21 launched once; a launch every 23 s; ``--seeds``
seeds) and real (the three 256-launch windows bundled in ``mobmem/data/usage``, at their own times:
days, with hours between launches). Each run is made once with each policy and each killer.

What is counted, per policy: low-memory kills (the killer's; the cached-process limit's are
ActivityManager's, counted apart), cold starts of apps launched before in the run (a first launch is
cold under any policy), refaults (swap-ins and re-reads of dropped file pages), kswapd's and direct
reclaim's pages, and launch times. The claims are read under the PSI killer (lmkd's mode since
Android 10, and the one the letters' kills came from), over all runs of both kinds of usage; the
minfree killer's runs are printed beside them. Not modelled: the per-process reclaim of background
apps the 2021 baseline ran with, and the scanning work of either policy (kswapd's work is counted
in pages reclaimed).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
from pathlib import Path
from typing import Any

from .results.mglru_android import Change, MglruResult, PolicyPoints, Pool, RunCounts
from .verdict import pct


def _change(a: float, b: float) -> float | None:
    """MGLRU's ``a`` against the lists' ``b``, in %; None when ``b`` is 0 (no % of nothing: the
    report prints a rise from 0 as such)."""
    return pct(a, b) if b else None


POLICIES = ("linux-2q", "mglru")
KILLERS = ("psi", "minfree")
#: The generated usage: the A2S paper's Large workload (apps, reuse distance, apps launched once).
GENERATED = (36, 6.10, 21)
GAP_S = 23.0
WINDOWS = ("window_12apps.csv", "window_23apps.csv", "window_36apps.csv")
#: The letters' numbers (changes of MGLRU against the active/inactive lists, %).
PAPER: dict[str, float] = {
    "lmk_kills_pct": -18.0,
    "relaunch_cold_pct": -16.0,
    "kswapd_pct": -40.0,
    "lmk_kills_p75_pct": -85.0,
    "launch_p50_pct": -18.0,
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--seeds",
        type=int,
        default=10,
        help="generated usages (seeds 1..N; a run kills about 15 times, so fewer swing the pooled counts)",
    )
    p.add_argument("--first-seed", type=int, default=1, help="the generated usages' seeds start here")
    p.add_argument("--launches", type=int, default=256, help="launches of each generated usage")
    p.add_argument("--dram", default="3GiB", help="the phone's DRAM (the letters name no device)")
    p.add_argument("--no-real", action="store_true", help="leave out the real usage windows")
    p.add_argument("--threads", type=int, default=0, help="worker threads (0: all cores)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")


def _windows() -> list[Path]:
    d = Path(__file__).resolve().parent.parent / "data" / "usage"
    return [d / w for w in WINDOWS]


def _usages(args: argparse.Namespace) -> list[tuple[str, Any]]:
    from ..phone import synthetic, usage_file

    apps, reuse, rare = GENERATED
    out: list[tuple[str, Any]] = [
        (f"generated seed {s}", synthetic(apps, args.launches, reuse, seed=s, gap_s=GAP_S, rare=rare))
        for s in range(args.first_seed, args.first_seed + args.seeds)
    ]
    if not args.no_real:
        out += [(f"real {w.stem}", usage_file(w)) for w in _windows()]
    return out


def _run_metrics(r: Any) -> tuple[RunCounts, list[tuple[float, float]]]:
    """A run's counts, and each launch's latency and the I/O it waited for (ms)."""
    m, pages = r.meters, r.pages
    seen: set[str] = set()
    recold: dict[str, int] = {}
    launches = []
    for rec in r.launches:
        if rec["cold"] and rec["app"] in seen:
            recold[rec["app"]] = recold.get(rec["app"], 0) + 1
        seen.add(rec["app"])
        waits = rec["file_wait_ms"] + rec["swap_wait_ms"] + rec["reclaim_wait_ms"] + rec["mapped_read_ms"]
        launches.append((rec["latency_ms"], waits))
    other = {k: m["kills"].get(k, 0) for k in ("cached-cap", "oom")}
    not_again = sum(max(0, a["kills"] - recold.get(a["app"], 0)) for a in m["apps"])
    counts = RunCounts(
        lmk_kills=m["kills_total"] - sum(other.values()),
        cached_kills=other["cached-cap"],
        oom_kills=other["oom"],
        app_kills=sum(a["kills"] for a in m["apps"]),
        kills_not_relaunched=not_again,
        defaulted_apps=m["defaulted_apps"],
        cold=m["cold"],
        relaunch_cold=sum(recold.values()),
        refaults=pages["swap_ins"] + pages["file_rereads"],
        swap_ins=pages["swap_ins"],
        file_rereads=pages["file_rereads"],
        kswapd_pages=m["kswapd_pages"],
        direct_reclaim_pages=m["direct_reclaim_pages"],
        stall_ms=m["stall_ms"],
        launches_without_waits=sum(w == 0 for _, w in launches),
    )
    return counts, launches


def _pool(runs: list[tuple[RunCounts, list[tuple[float, float]]]]) -> Pool:
    """Sums over runs, launch time percentiles over all their launches, and the 75th percentile
    of the runs' low-memory kills."""
    sums = {f.name: sum(getattr(c, f.name) for c, _ in runs) for f in dataclasses.fields(RunCounts)}
    every = sorted(x for _, ls in runs for x in ls)
    lat = [x for x, _ in every]
    mid = every[(len(every) - 1) // 2 : len(every) // 2 + 1]
    kills = sorted(c.lmk_kills for c, _ in runs)
    return Pool(
        **sums,
        launches=len(lat),
        launch_mean_ms=statistics.fmean(lat) if lat else 0.0,
        launch_p50_ms=statistics.median(lat) if lat else 0.0,
        median_launch_waits_ms=max((w for _, w in mid), default=0.0),
        lmk_kills_p75=statistics.quantiles(kills, n=4, method="inclusive")[2] if len(kills) > 1 else kills[0],
        runs=len(runs),
    )


def compute(args: argparse.Namespace) -> dict[str, Any]:
    from ..errors import ConfigError
    from ..experiment.runner import phone_grid
    from ..phone import job

    if args.seeds < 1:
        raise ConfigError(f"--seeds: {args.seeds} generated usages; need at least 1", "seeds")
    if args.first_seed < 0:
        raise ConfigError(f"--first-seed: {args.first_seed}; seeds are whole numbers from 0", "first_seed")
    usages = _usages(args)
    keys, jobs = [], []
    for killer in KILLERS:
        for policy in POLICIES:
            for name, u in usages:
                keys.append((killer, policy, name))
                jobs.append(job(u, "pixel-7", seed=1, dram=args.dram, policy=policy, killer=killer))
    rs = phone_grid(jobs, threads=args.threads)
    per_run: dict[str, dict[str, dict[str, tuple[RunCounts, list[tuple[float, float]]]]]] = {}
    for (killer, policy, name), r in zip(keys, rs, strict=True):
        per_run.setdefault(killer, {}).setdefault(policy, {})[name] = _run_metrics(r)
    points: dict[str, dict[str, PolicyPoints]] = {}
    for killer, pols in per_run.items():
        for policy, runs in pols.items():
            generated = [v for n, v in runs.items() if n.startswith("generated")]
            real = [v for n, v in runs.items() if n.startswith("real")]
            points.setdefault(killer, {})[policy] = PolicyPoints(
                all=_pool(list(runs.values())),
                generated=_pool(generated) if generated else None,
                real=_pool(real) if real else None,
                runs={n: c for n, (c, _) in runs.items()},
            )
    changes = {
        killer: {
            kind: Change(
                **{
                    f.name: _change(getattr(b, f.name), getattr(a, f.name))
                    for f in dataclasses.fields(Change)
                }
            )
            for kind in ("all", "generated", "real")
            if (b := points[killer]["mglru"].kind(kind)) is not None
            and (a := points[killer]["linux-2q"].kind(kind)) is not None
        }
        for killer in KILLERS
    }
    res = MglruResult(
        paper=PAPER,
        dram=args.dram,
        seeds=args.seeds,
        launches=args.launches,
        usages=[n for n, _ in usages],
        points=points,
        changes=changes,
    )
    return res.to_dict()


def report(result: dict[str, Any]) -> str:
    from ..table import render

    res = MglruResult.from_dict(result)
    real = sum(u.startswith("real") for u in res.usages)
    lines = [
        f"MGLRU vs the active/inactive lists on pixel-7 at {res.dram} DRAM: {res.seeds} generated "
        f"usages of {res.launches} launches and {real} real windows, each with either policy under "
        "either killer.",
        "",
    ]
    names = [
        ("lmk_kills", "low-memory kills"),
        ("cached_kills", "cached-limit kills"),
        ("oom_kills", "kernel OOM kills"),
        ("relaunch_cold", "cold starts of apps launched before"),
        ("cold", "cold starts, first launches included"),
        ("refaults", "refaults (swap-ins + file re-reads)"),
        ("kswapd_pages", "pages reclaimed by kswapd"),
        ("direct_reclaim_pages", "pages reclaimed directly"),
        ("stall_ms", "memory stall (ms)"),
        ("launch_p50_ms", "median launch time (ms)"),
        ("launch_mean_ms", "mean launch time (ms)"),
        ("lmk_kills_p75", "75th percentile of a run's kills"),
    ]
    for killer in KILLERS:
        for kind in ("all", "generated", "real"):
            a = res.points[killer]["linux-2q"].kind(kind)
            b = res.points[killer]["mglru"].kind(kind)
            if a is None or b is None:
                continue
            rows = []
            for k, label in names:
                ak, bk = getattr(a, k), getattr(b, k)
                change = _change(bk, ak)
                said = f"{change:+.1f}%" if change is not None else ("from 0" if bk else "—")
                digits = 1 if k == "lmk_kills_p75" else 0  # interpolated between runs
                rows.append((label, f"{ak:,.{digits}f}", f"{bk:,.{digits}f}", said))
            lines.append(f"killer {killer}, {kind} usage ({a.runs} runs):")
            lines.append(render(("", "linux-2q", "mglru", "change"), rows))
            lines.append("")
    real_runs = [r for n, r in res.points["psi"]["linux-2q"].runs.items() if n.startswith("real")]
    if real_runs:
        lines.append(
            f"The real windows' {sum(r.defaulted_apps for r in real_runs)} apps are not in the catalog: "
            "they run with its [defaults] (apps.toml)."
        )
    return "\n".join(lines)


def held_args(args: argparse.Namespace, res: dict[str, Any]) -> dict[str, Any]:
    """Nothing is fitted."""
    return {}


def idle_args(args: argparse.Namespace, res: dict[str, Any]) -> dict[str, Any]:
    """The idle workload of the scoreboard's echo test (the phone's activity 0 makes it idle)."""
    return {}
