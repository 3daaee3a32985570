"""``mobmem report EXPERIMENT.toml``: an experiment's stored runs as one self-contained HTML page —
the table, figures in the papers' forms, the resolved configurations and the traces' statistics."""

from __future__ import annotations

import itertools
import os
from collections import defaultdict
from typing import Any

from . import html, plots

#: Most figures of one kind (one per combination of the axes a figure does not draw).
MAX_PANELS = 8
#: Most runs whose resolved configuration the page shows.
MAX_CONFIGS = 200


def _panels(
    recs: list[dict[str, Any]], drawn: set[str], axes: list[str]
) -> list[tuple[str, list[dict[str, Any]]]]:
    """The records split by the axes a figure does not draw (seed pooled: repeats)."""
    rest = ["source", *[a for a in axes if a not in drawn and a != "seed"]]
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for r in recs:
        groups[tuple(r.get(a) for a in rest)].append(r)
    out = []
    for key, rs in itertools.islice(groups.items(), MAX_PANELS):
        out.append((", ".join(f"{a}={v}" for a, v in zip(rest, key, strict=True)), rs))
    return out


def _page_figures(exp: Any, recs: list[dict[str, Any]]) -> list[str]:
    axes = list(exp.axes)
    out = []
    if "memory" in axes and "policy" in axes:
        for label, rs in _panels(recs, {"memory", "policy"}, axes):
            out.append(html.figure(plots.miss_ratio(rs), f"Miss ratio, {label}"))
            pols = {r["policy"] for r in rs}
            base = next((b["policy"] for b in exp.baselines.values() if b.get("policy") in pols), None)
            base = base or plots.order([r["policy"] for r in rs])[0]
            out.append(html.figure(plots.io_relative(rs, base), f"I/O time relative to {base}, {label}"))
    return out


def _phone_figures(exp: Any, recs: list[dict[str, Any]]) -> list[str]:
    axes = [a for a in exp.axes if a != "seed"]
    key = axes[0] if axes else "source"
    classes = [
        c for c in ("crisp", "noticeable", "annoying", "unacceptable", "unusable") if f"ux_{c}" in recs[0]
    ]
    ux: dict[str, dict[str, float]] = defaultdict(dict)
    other: dict[str, dict[str, float]] = defaultdict(dict)
    for r in recs:
        g = str(r.get(key))
        n = max(sum(r[f"ux_{c}"] for c in classes), 1)
        for c in classes:
            ux[g][c] = ux[g].get(c, 0.0) + 100.0 * r[f"ux_{c}"] / n / _count(recs, key, r.get(key))
        for m in ("kills_total", "live_apps_mean"):
            other[g][m] = other[g].get(m, 0.0) + r[m] / _count(recs, key, r.get(key))
    return [
        html.figure(plots.bars(dict(ux), "% of launches", "Launches by delay class (A2S Fig. 9's form)")),
        html.figure(plots.bars(dict(other), "per run", "Kills and live apps (mean over repeats)")),
    ]


def _count(recs: list[dict[str, Any]], key: str, value: Any) -> int:
    return sum(1 for r in recs if r.get(key) == value)


def build(path: str | os.PathLike[str]) -> str:
    from ..experiment import Store, load, records
    from ..experiment.store import BATCH

    exp = load(path)
    recs = records(path)
    stored: list[dict[str, Any]] = []
    if exp.store.exists():
        st = Store(exp.store, readonly=True)
        try:
            for b in range(0, min(len(exp.runs), MAX_CONFIGS), BATCH):
                chunk = exp.runs[b : min(b + BATCH, MAX_CONFIGS)]
                have = st.get([r.key for r in chunk])
                stored += [have[r.key] for r in chunk if r.key in have]
        finally:
            st.close()
    versions = sorted({r["version"] for r in stored})
    summary = html.table(
        ["", ""],
        [
            ["experiment file", str(exp.path)],
            ["runs planned", len(exp.runs)],
            ["runs stored", len(recs)],
            ["store", str(exp.store)],
            ["mobmem version", ", ".join(versions) or "—"],
            ["axes", "; ".join(f"{k}: {', '.join(map(str, v))}" for k, v in exp.axes.items())],
            ["error bars", "± one sample standard deviation over repeats (seeds); none for one run"],
        ],
    )
    sections = [("Summary", summary)]
    if not recs:
        sections.append(("Results", "<p>No stored runs yet: run <code>mobmem sweep</code> first.</p>"))
        return html.page(f"Experiment {exp.name}", sections)
    meters = (
        ["faults", "hits", "io_total_ns"]
        if exp.kind == "page"
        else ["mean_launch_ms", "kills_total", "resumed"]
    )
    cols = ["source", *exp.axes, *meters]
    sections.append(("Results", html.table(cols, [[r.get(c, "") for c in cols] for r in recs])))
    figs = _page_figures(exp, recs) if exp.kind == "page" else _phone_figures(exp, recs)
    if figs:
        sections.append(("Figures", "\n".join(figs)))
    if exp.kind == "page":
        from ..api import Trace

        st_rows = []
        for src in exp.sources:
            s = Trace.open(src).stats()
            st_rows.append(
                [
                    os.path.basename(src),
                    s["format"],
                    s["accesses"],
                    s["reads"],
                    s["writes"],
                    s["distinct_pages"],
                    s["footprint_kib"],
                ]
            )
        heads = ["trace", "format", "accesses", "reads", "writes", "distinct pages", "footprint KiB"]
        sections.append(("Traces", html.table(heads, st_rows)))
    configs = "".join(
        html.details(", ".join(f"{k}={v}" for k, v in r["axes"].items()), r["resolved"]) for r in stored
    )
    sections.append(("Resolved configurations", configs))
    return html.page(f"Experiment {exp.name}", sections)
