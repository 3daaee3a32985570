"""Figures in the papers' forms, drawn with matplotlib (Agg: no display needed). Repeats of a point
(seeds) are drawn as their mean with an error bar of ± one standard deviation (the sample's,
n − 1; none for a single run)."""

from __future__ import annotations

import re
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

#: SPO-CLOCK Fig. 4's parts of I/O time, bottom to top.
IO_PARTS = (
    ("io_swap_read_ns", "swap read"),
    ("io_swap_write_ns", "swap write"),
    ("io_file_read_ns", "file read"),
)


def _plt() -> Any:
    from .._optional import need

    matplotlib = need("matplotlib", "drawing figures")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def order(values: Sequence[Any]) -> list[Any]:
    """Distinct values in a natural order: sizes and percentages by their number, others as met."""
    seen = list(dict.fromkeys(values))

    def num(v: Any) -> float | None:
        m = re.fullmatch(r"\s*([0-9.]+)\s*(%|[KMGT]i?B)?\s*", str(v))
        if not m:
            return None
        scale = {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "KB": 1e3, "MB": 1e6, "GB": 1e9}
        return float(m.group(1)) * scale.get(m.group(2) or "", 1)

    nums = [num(v) for v in seen]
    known = [n for n in nums if n is not None]
    if len(known) == len(nums):
        return [v for _, v in sorted(zip(known, seen, strict=True), key=lambda p: p[0])]
    return seen


def mean_std(xs: Sequence[float]) -> tuple[float, float]:
    return statistics.fmean(xs), statistics.stdev(xs) if len(xs) > 1 else 0.0


def _groups(
    recs: list[dict[str, Any]], keys: tuple[str, ...], value: Any
) -> dict[tuple[Any, ...], list[float]]:
    out: dict[tuple[Any, ...], list[float]] = defaultdict(list)
    for r in recs:
        v = value(r)
        if v is not None:
            out[tuple(r.get(k) for k in keys)].append(float(v))
    return out


def miss_ratio(recs: list[dict[str, Any]], x: str = "memory", series: str = "policy") -> Any:
    """Miss ratio (faults / accesses) against memory size, a line per policy; OPT, the floor, dashed."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    g = _groups(recs, (series, x), lambda r: r["faults"] / r["accesses"] if r.get("accesses") else None)
    xs = order([r.get(x) for r in recs])
    for s in order([r.get(series) for r in recs]):
        pts = [(i, *mean_std(g[(s, v)])) for i, v in enumerate(xs) if g.get((s, v))]
        if pts:
            i, m, e = zip(*pts, strict=True)
            ax.errorbar(
                i, m, yerr=e, marker="o", capsize=3, label=str(s), linestyle="--" if s == "opt" else "-"
            )
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    ax.set_xlabel(x)
    ax.set_ylabel("miss ratio (faults / accesses)")
    ax.set_title("Miss ratio against memory (OPT dashed)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def io_relative(recs: list[dict[str, Any]], baseline: str, x: str = "memory", series: str = "policy") -> Any:
    """SPO-CLOCK Fig. 4's form: each policy's I/O time relative to the baseline policy's at the same
    memory size, stacked by swap read / swap write / file read; the error bar is on the total."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.2, 4.2))
    xs = order([r.get(x) for r in recs])
    ss = order([r.get(series) for r in recs])
    base = _groups([r for r in recs if r.get(series) == baseline], (x,), lambda r: r.get("io_total_ns"))
    width = 0.8 / max(len(ss), 1)
    colors = ("#4c72b0", "#dd8452", "#55a868")
    for j, s in enumerate(ss):
        rows = [r for r in recs if r.get(series) == s]
        bottom = [0.0] * len(xs)
        for (key, label), c in zip(IO_PARTS, colors, strict=True):
            part = _groups(rows, (x,), lambda r, key=key: r.get(key))
            h = [
                statistics.fmean(part[(v,)]) / statistics.fmean(base[(v,)])
                if part.get((v,)) and base.get((v,))
                else 0.0
                for v in xs
            ]
            ax.bar(
                [i + j * width for i in range(len(xs))],
                h,
                width,
                bottom=bottom,
                color=c,
                edgecolor="white",
                label=label if j == 0 else None,
            )
            bottom = [b + v for b, v in zip(bottom, h, strict=True)]
        tot = _groups(rows, (x,), lambda r: r.get("io_total_ns"))
        err = [
            mean_std(tot[(v,)])[1] / statistics.fmean(base[(v,)]) if tot.get((v,)) and base.get((v,)) else 0
            for v in xs
        ]
        ax.errorbar(
            [i + j * width for i in range(len(xs))], bottom, yerr=err, fmt="none", ecolor="black", capsize=2
        )
        for i, b in enumerate(bottom):
            ax.text(i + j * width, b, str(s), rotation=90, ha="center", va="bottom", fontsize=7)
    ax.set_xticks([i + width * (len(ss) - 1) / 2 for i in range(len(xs))], [str(v) for v in xs])
    top = max((p.get_y() + p.get_height() for p in ax.patches), default=1.0)
    ax.set_ylim(0, max(top, 1.0) * 1.3)  # room for the policies' names above the bars
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xlabel(x)
    ax.set_ylabel(f"I/O time relative to {baseline}")
    ax.set_title(f"I/O time by kind, relative to {baseline} (SPO-CLOCK Fig. 4's form)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def bars(groups: dict[str, dict[str, float]], ylabel: str, title: str) -> Any:
    """Grouped bars: ``{group: {series: value}}`` (DR. Swap Fig. 7's energy per scheme, A2S Fig. 9's
    launch-time classes, eMMC Fig. 7's loading times)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.2, 4.0))
    names = list(groups)
    series = list(dict.fromkeys(s for g in groups.values() for s in g))
    width = 0.8 / max(len(series), 1)
    for j, s in enumerate(series):
        ax.bar(
            # A series a group lacks draws no bar there (not a bar of 0).
            [i + j * width for i in range(len(names))],
            [groups[g].get(s, float("nan")) for g in names],
            width,
            label=s,
        )
    ax.set_xticks(
        [i + width * (len(series) - 1) / 2 for i in range(len(names))], names, rotation=20, ha="right"
    )
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    # Headroom above the tallest bar for the legend, in a row, so that it covers no bar.
    lo, hi = ax.get_ylim()
    if hi > 0:
        ax.set_ylim(lo, hi + 0.3 * (hi - min(lo, 0.0)))
    ax.legend(fontsize=8, loc="upper left", ncol=min(len(series), 3))
    fig.tight_layout()
    return fig


def cdf(curves: dict[str, list[tuple[float, float]]], xlabel: str, title: str, logx: bool = True) -> Any:
    """Step curves of cumulative shares (swap-entry lifetimes: ``[(seconds, share), …]``)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for name, pts in curves.items():
        if pts:
            x, y = zip(*pts, strict=True)
            ax.step(x, [100 * v for v in y], where="post", marker="o", label=name)
    if logx:
        ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("% of entries")
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def lines(curves: dict[str, Sequence[float]], xlabel: str, ylabel: str, title: str) -> Any:
    """A line per series over its index (live apps after each launch, over time)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.2, 3.6))
    for name, ys in curves.items():
        ax.plot(range(1, len(ys) + 1), list(ys), label=name, linewidth=1.2)
    return _labelled(fig, ax, xlabel, ylabel, title)


def xy(
    curves: Mapping[str, tuple[Sequence[float], Sequence[float]]], xlabel: str, ylabel: str, title: str
) -> Any:
    """A line with markers per series over its own x values (a reproduction's sweep over memory
    sizes); the markers keep series that coincide visible."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    marks = "osD^vP*X"
    for i, (name, (x, y)) in enumerate(curves.items()):
        ax.plot(list(x), list(y), marker=marks[i % len(marks)], markersize=4, linewidth=1.2, label=name)
    return _labelled(fig, ax, xlabel, ylabel, title)


def _labelled(fig: Any, ax: Any, xlabel: str, ylabel: str, title: str) -> Any:
    """Axis labels, title and legend of a line figure, laid out."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def miss_ratio_curve(recs: list[dict[str, Any]], title: str = "Miss-ratio curve (one pass, exact)") -> Any:
    """A whole curve (every size), a line per policy on a log size axis; OPT dashed."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for s in order([r["policy"] for r in recs]):
        pts = sorted((r["memory"], r["faults"] / r["accesses"]) for r in recs if r["policy"] == s)
        ax.plot([x for x, _ in pts], [y for _, y in pts], label=str(s), linestyle="--" if s == "opt" else "-")
    ax.set_xscale("log")
    ax.set_xlabel("memory (frames)")
    ax.set_ylabel("miss ratio (faults / accesses)")
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def capacity(rows: list[dict[str, Any]], title: str) -> Any:
    """Capacity curves of a phone: cold starts, kills and live apps against DRAM, a line per swap
    setting (``rows`` from :func:`mobmem.capacity.curve`)."""
    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(10.5, 3.6))
    panels = (
        ("cold_share", "cold starts (share of launches)"),
        ("kills", "kills"),
        ("live_apps_mean", "live apps (mean)"),
    )
    for s in order([r["swap_setting"] for r in rows]):
        pts = sorted((r["dram_gib"], r) for r in rows if r["swap_setting"] == s)
        for ax, (key, _) in zip(axes, panels, strict=True):
            ax.plot([x for x, _ in pts], [r[key] for _, r in pts], marker="o", label=str(s))
    for ax, (_, label) in zip(axes, panels, strict=True):
        ax.set_xlabel("DRAM (GiB)")
        ax.set_ylabel(label)
    axes[0].legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    return fig
