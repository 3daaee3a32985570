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


#: Markers and line styles cycled over series, so that series drawn over one another stay visible.
MARKS = "osD^vP*X"
STYLES = ("-", "--", "-.", ":")
#: Hatch per series of bars drawn in one colour (the policies of Fig. 4's form), and for the paper's:
#: lines only (dots and circles make SVG paths of a megabyte a figure).
HATCHES = ("", "//", "\\\\", "||", "--", "xx", "++", "/", "\\", "|", "-", "x", "+")
PAPER_HATCH = "///"


def _style(i: int, dashed: bool = False) -> dict[str, Any]:
    """Series ``i``'s marker, line style and marker size (larger first: a later series over an
    earlier one leaves its marker's rim showing)."""
    return {
        "marker": MARKS[i % len(MARKS)],
        "markersize": max(3.0, 7.0 - 0.6 * i),
        "linestyle": "--" if dashed else STYLES[(i // len(MARKS)) % len(STYLES)],
    }


def _log_x(ax: Any) -> None:
    """A log x axis labelled at its decades only (the minor ticks' labels collide)."""
    from matplotlib.ticker import NullFormatter

    ax.set_xscale("log")
    ax.xaxis.set_minor_formatter(NullFormatter())


def legend_outside(ax: Any, **kw: Any) -> None:
    """The legend to the right of the axes: it never covers a bar, a line or a label."""
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, **kw)


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
    names = order([r.get(series) for r in recs])
    for k, s in enumerate(names):
        # Each series a little to the side of the size it is at: equal values stay visible.
        dx = 0.04 * (k - (len(names) - 1) / 2)
        pts = [(i + dx, *mean_std(g[(s, v)])) for i, v in enumerate(xs) if g.get((s, v))]
        if pts:
            i, m, e = zip(*pts, strict=True)
            # Error bars only where repeats spread (a bar of zero draws a stray tick).
            ax.errorbar(
                i, m, yerr=e if any(e) else None, capsize=3, label=str(s), **_style(k, dashed=s == "opt")
            )
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    ax.set_xlabel(x)
    ax.set_ylabel("miss ratio (faults / accesses)")
    ax.set_title("Miss ratio against memory (OPT dashed)")
    legend_outside(ax)
    fig.tight_layout()
    return fig


def io_relative(recs: list[dict[str, Any]], baseline: str, x: str = "memory", series: str = "policy") -> Any:
    """SPO-CLOCK Fig. 4's form: each policy's I/O time relative to the baseline policy's at the same
    memory size, stacked by swap read / swap write / file read (colour), one hatch per policy (the
    legend names both); the error bar is on the total, drawn where repeats spread."""
    plt = _plt()
    from matplotlib.patches import Patch

    xs = order([r.get(x) for r in recs])
    ss = order([r.get(series) for r in recs])
    fig, ax = plt.subplots(figsize=(8.8, 4.4))
    base = _groups([r for r in recs if r.get(series) == baseline], (x,), lambda r: r.get("io_total_ns"))
    width = 0.8 / max(len(ss), 1)
    colors = ("#4c72b0", "#dd8452", "#55a868")
    for j, s in enumerate(ss):
        rows = [r for r in recs if r.get(series) == s]
        bottom = [0.0] * len(xs)
        for (key, _), c in zip(IO_PARTS, colors, strict=True):
            part = _groups(rows, (x,), lambda r, key=key: r.get(key))
            h = [
                statistics.fmean(part[(v,)]) / statistics.fmean(base[(v,)])
                if part.get((v,)) and base.get((v,))
                else 0.0
                for v in xs
            ]
            drawn = ax.bar(
                [i + j * width for i in range(len(xs))],
                h,
                width,
                bottom=bottom,
                color=c,
                edgecolor="black",
                linewidth=0.3,
                hatch=HATCHES[j % len(HATCHES)],
            )
            for patch in drawn:
                patch.set_hatch_linewidth(0.5)  # thin: the parts' colours stay readable
            bottom = [b + v for b, v in zip(bottom, h, strict=True)]
        tot = _groups(rows, (x,), lambda r: r.get("io_total_ns"))
        err = [
            mean_std(tot[(v,)])[1] / statistics.fmean(base[(v,)]) if tot.get((v,)) and base.get((v,)) else 0
            for v in xs
        ]
        if any(err):
            ax.errorbar(
                [i + j * width for i in range(len(xs))],
                bottom,
                yerr=err,
                fmt="none",
                ecolor="black",
                capsize=2,
            )
    ax.set_xticks([i + width * (len(ss) - 1) / 2 for i in range(len(xs))], [str(v) for v in xs])
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xlabel(x)
    ax.set_ylabel(f"I/O time relative to {baseline}")
    ax.set_title(f"I/O time by kind, relative to {baseline} (SPO-CLOCK Fig. 4's form)")
    handles = [
        Patch(facecolor=c, edgecolor="black", linewidth=0.3, label=label)
        for (_, label), c in zip(IO_PARTS, colors, strict=True)
    ]
    handles += [
        Patch(facecolor="white", edgecolor="black", hatch=HATCHES[j % len(HATCHES)], label=f"{j + 1}. {s}")
        for j, s in enumerate(ss)
    ]
    ax.legend(
        handles=handles,
        fontsize=7,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        borderaxespad=0.0,
        title="bars left to right",
        title_fontsize=7,
    )
    fig.tight_layout()
    return fig


def bars(groups: Mapping[str, Mapping[str, float | None]], ylabel: str, title: str) -> Any:
    """Grouped bars: ``{group: {series: value}}`` (DR. Swap Fig. 7's energy per scheme, A2S Fig. 9's
    launch-time classes, eMMC Fig. 7's loading times). A series named ``… (paper)`` or ``paper…`` is
    the paper's value, drawn hatched beside ours; a series a group lacks (or gives None) draws no
    bar there, not a bar of 0. The legend sits to the right of the axes, over no bar."""
    plt = _plt()
    names = list(groups)
    # A series with no value anywhere (a paper that states none of them) is left out, legend too.
    series = [
        s
        for s in dict.fromkeys(s for g in groups.values() for s in g)
        if any(groups[g].get(s) is not None for g in names)
    ]
    fig, ax = plt.subplots(figsize=(8.4, 4.2))
    width = 0.8 / max(len(series), 1)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    ours = [s for s in series if not _is_paper(s)]
    for j, s in enumerate(series):
        paper = _is_paper(s)
        # A paper series takes the colour of the series of ours it stands beside ("X (paper)" of "X",
        # "paper" of "ours").
        base = s[: -len(" (paper)")] if s.endswith(" (paper)") else s.replace("paper", "ours", 1)
        k = ours.index(base) if paper and base in ours else (ours.index(s) if s in ours else j)
        v = [groups[g].get(s) for g in names]
        ax.bar(
            [i + j * width for i in range(len(names))],
            [float("nan") if x is None else x for x in v],
            width,
            label=s,
            color="white" if paper else colors[k % len(colors)],
            edgecolor=colors[k % len(colors)] if paper else "none",
            hatch=PAPER_HATCH if paper else None,
        )
    long = max((len(n) for n in names), default=0) > 10 or len(names) > 6
    ax.set_xticks(
        [i + width * (len(series) - 1) / 2 for i in range(len(names))],
        names,
        rotation=25 if long else 0,
        ha="right" if long else "center",
    )
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    legend_outside(ax)
    fig.tight_layout()
    return fig


def _is_paper(series: str) -> bool:
    return series.startswith("paper") or series.endswith("(paper)")


def cdf(
    curves: dict[str, list[tuple[float, float]]],
    xlabel: str,
    title: str,
    logx: bool = True,
    paper: dict[str, list[tuple[float, float]]] | None = None,
) -> Any:
    """Step curves of cumulative shares (swap-entry lifetimes: ``[(seconds, share), …]``); the
    paper's stated points (``paper``) as stars."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.6, 4.0))
    colour = {}
    for k, (name, pts) in enumerate(curves.items()):
        if pts:
            x, y = zip(*pts, strict=True)
            (line,) = ax.step(x, [100 * v for v in y], where="post", label=name, **_style(k))
            colour[name] = line.get_color()
    for name, pts in (paper or {}).items():
        if pts:
            x, y = zip(*pts, strict=True)
            ax.plot(
                x,
                [100 * v for v in y],
                linestyle="none",
                marker="*",
                markersize=11,
                label=name,
                markeredgecolor="black",
                # The colour of the curve of ours it stands beside ("X (paper)" by "X").
                color=colour.get(name.removesuffix(" (paper)"), "black"),
            )
    if logx:
        _log_x(ax)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("% of entries")
    ax.set_title(title)
    legend_outside(ax)
    fig.tight_layout()
    return fig


def lines(curves: dict[str, Sequence[float]], xlabel: str, ylabel: str, title: str) -> Any:
    """A line per series over its index (live apps after each launch, over time)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8.4, 3.6))
    for k, (name, ys) in enumerate(curves.items()):
        every = max(1, len(ys) // 16)
        ax.plot(
            range(1, len(ys) + 1),
            list(ys),
            label=name,
            linewidth=1.2,
            markevery=(k * every // 3, every),
            **_style(k),
        )
    return _labelled(fig, ax, xlabel, ylabel, title)


def xy(
    curves: Mapping[str, tuple[Sequence[float], Sequence[float]]], xlabel: str, ylabel: str, title: str
) -> Any:
    """A line with markers per series over its own x values (a reproduction's sweep over memory
    sizes); the markers keep series that coincide visible."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.6, 4.0))
    for i, (name, (x, y)) in enumerate(curves.items()):
        ax.plot(list(x), list(y), linewidth=1.2, label=name, **_style(i))
    return _labelled(fig, ax, xlabel, ylabel, title)


def _labelled(fig: Any, ax: Any, xlabel: str, ylabel: str, title: str) -> Any:
    """Axis labels, title and legend of a line figure, laid out."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    legend_outside(ax)
    fig.tight_layout()
    return fig


def miss_ratio_curve(recs: list[dict[str, Any]], title: str = "Miss-ratio curve") -> Any:
    """A whole curve (every size), a line per policy on a log size axis; OPT dashed."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.6, 4.0))
    for k, s in enumerate(order([r["policy"] for r in recs])):
        pts = sorted((r["memory"], r["faults"] / r["accesses"]) for r in recs if r["policy"] == s)
        every = max(1, len(pts) // 12)
        ax.plot(
            [x for x, _ in pts],
            [y for _, y in pts],
            label=str(s),
            markevery=(k * every // 3, every),
            **_style(k, dashed=s == "opt"),
        )
    _log_x(ax)
    ax.set_xlabel("memory (frames)")
    ax.set_ylabel("miss ratio (faults / accesses)")
    ax.set_title(title)
    legend_outside(ax)
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
    for k, s in enumerate(order([r["swap_setting"] for r in rows])):
        pts = sorted((r["dram_gib"], r) for r in rows if r["swap_setting"] == s)
        for ax, (key, _) in zip(axes, panels, strict=True):
            ax.plot([x for x, _ in pts], [r[key] for _, r in pts], label=str(s), **_style(k))
    for ax, (_, label) in zip(axes, panels, strict=True):
        ax.set_xlabel("DRAM (GiB)")
        ax.set_ylabel(label)
    legend_outside(axes[-1])
    fig.suptitle(title)
    fig.tight_layout()
    return fig
