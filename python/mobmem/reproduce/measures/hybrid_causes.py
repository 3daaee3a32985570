"""Why a claim of claims/hybrid.toml is not reproduced, as a run of ``mobmem reproduce hybrid
--json`` shows it: printed beside the claim's verdict (N, D or C) by the scoreboard.

Standard library only, as the measurements (``measures/hybrid.py``).
"""

from __future__ import annotations

from typing import Any

from .hybrid import BASES, DEFAULT_ELAPSED, FG, SATURATION_POINTS, WORKLOADS, mean_cut

#: The claims of fg-aware's elapsed-time cut against LRU (their numbers are against lru), and the
#: workloads ranked by the cut (against both baselines: the cause says whether 2Q's cuts rank alike).
ELAPSED_CUTS = (
    "abstract-elapsed-cut-vs-lru",
    "fig3c-elapsed-cut-critical-intensive-vs-lru",
    "fig5c-elapsed-cut-balanced-vs-lru",
    "fig6c-elapsed-cut-stand-by-vs-lru",
    "fig4c-elapsed-cut-least-non-critical-intensive",
    "sec42-elapsed-cut-order-by-workload",
    "sec42-gain-rises-with-critical-requests",
)


#: Fig. 5's saturation points (the balanced workload's hit ratio over the memory sweep).
SATURATION = ("fig5-saturation-fg-aware", "fig5-saturation-baselines")


def _mean(v: list[float]) -> float:
    return sum(v) / len(v)


def workload_rows(res: dict[str, Any]) -> list[tuple[str, float, float, float, float, float]]:
    """Per workload, means over its sizes against lru: LRU's critical hit ratio, fg-aware's gain in it,
    the share of LRU's critical misses that gain removes, the cut of critical elapsed time with storage
    I/O, and storage's share of LRU's critical elapsed time (all as fractions)."""
    rows = []
    for w in WORKLOADS:
        pts = [
            p
            for p in res.get("workloads", {}).get(w, {}).get("memory", {}).values()
            if p["lru"]["critical_hit_ratio"] is not None and p["lru"]["critical_elapsed_ns"]
        ]
        cut = mean_cut(pts, "critical_elapsed_ns", "lru")
        if cut is None:
            continue
        h = _mean([p["lru"]["critical_hit_ratio"] for p in pts])
        gain = _mean([p[FG]["critical_hit_ratio"] - p["lru"]["critical_hit_ratio"] for p in pts])
        misses = _mean(
            [
                (p[FG]["critical_hit_ratio"] - p["lru"]["critical_hit_ratio"])
                / (1 - p["lru"]["critical_hit_ratio"])
                for p in pts
                if p["lru"]["critical_hit_ratio"] < 1
            ]
            or [0.0]
        )
        io = _mean([1 - p["lru"]["critical_memory_ns"] / p["lru"]["critical_elapsed_ns"] for p in pts])
        rows.append((w, h, gain, misses, cut / 100, io))
    return rows


def _saturation(res: dict[str, Any]) -> str:
    """The balanced workload's hit ratio at each swept size per policy, the first size within
    ``SATURATION_POINTS`` of the policy's top marked, and the sizes the paper names that the sweep
    lacks."""
    mem = res.get("workloads", {}).get("balanced", {}).get("memory", {})
    if not mem:
        return ""
    sizes = sorted(mem, key=lambda m: int(m))
    parts = []
    for p in (FG, *BASES):
        hits = [mem[m][p]["hit_ratio"] for m in sizes]
        top = max(hits)
        first = next(i for i, h in enumerate(hits) if 100.0 * (top - h) <= SATURATION_POINTS)
        parts.append(
            f"{p} "
            + ", ".join(
                f"{int(m)}% {h:.3f}{'*' if i == first else ''}"
                for i, (m, h) in enumerate(zip(sizes, hits, strict=True))
            )
        )
    text = (
        f"the balanced workload's hit ratio by memory size (the first within {SATURATION_POINTS} points of the"
        " policy's top marked *; the baselines' point is the mean of lru's and 2q's): " + "; ".join(parts)
    )
    missing = [m for m in (30, 60) if m not in {int(x) for x in sizes}]
    if missing:
        text += f". The sweep has no {' or '.join(f'{m}%' for m in missing)} point, where the paper puts a saturation"
    return text + "."


def causes(res: dict[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    sat = _saturation(res)
    if sat:
        for cid in SATURATION:
            out[cid] = sat
    if res.get("settings", {}).get("elapsed", DEFAULT_ELAPSED) != "with-storage":
        return out
    rows = workload_rows(res)
    if len(rows) < 2:
        return out
    cut2q = {
        w: c
        for w, *_ in rows
        if (c := mean_cut(list(res["workloads"][w]["memory"].values()), "critical_elapsed_ns", "2q"))
        is not None
    }
    by_misses = [r[0] for r in sorted(rows, key=lambda r: r[3])]
    by_cut = [r[0] for r in sorted(rows, key=lambda r: r[4])]
    by_2q = sorted((w for w, *_ in rows), key=lambda w: cut2q.get(w, 0.0))
    least = min(rows, key=lambda r: r[3])
    text = (
        "the cut follows the critical processes' misses: storage I/O is "
        f"{100 * min(r[5] for r in rows):.0f}–{100 * max(r[5] for r in rows):.0f}% of LRU's critical elapsed "
        "time. Per workload (LRU's critical hit ratio, fg-aware's gain, the misses it removes, the time it "
        "cuts, means over the sizes against lru): "
        + "; ".join(
            f"{w} {h:.3f}, {100 * g:+.1f} points, {100 * m:.1f}%, {100 * c:.1f}%" for w, h, g, m, c, _ in rows
        )
        + (
            ". The time cut is larger than the misses removed (write-backs and page moves count too) but ranks"
            " the workloads the same"
            if by_misses == by_cut
            else ". The time cut does not rank the workloads as the misses removed do"
        )
        + (
            ", and so do the cuts against 2q"
            if by_2q == by_cut
            else "; the cuts against 2q rank them otherwise"
        )
        + "."
    )
    if least[1] == min(r[1] for r in rows):
        text += (
            f" On {least[0]} the critical processes miss most (their assumed footprints and reuse,"
            " hybrid_workloads.toml)"
            + (
                ", so its gain, the largest in points, is the smallest share of its misses"
                if least[2] == max(r[2] for r in rows)
                else ", so its gain is the smallest share of its misses"
            )
            + "; the paper's critical-intensive gains 12 points of hit ratio."
        )
    for cid in ELAPSED_CUTS:
        out[cid] = text
    return out
