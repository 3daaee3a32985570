"""Why a claim of claims/hybrid.toml is not reproduced, as a run of ``mobmem reproduce hybrid
--json`` shows it: printed beside the claim's verdict (N, D or C) by the scoreboard.

Standard library only, as the measurements (``measures/hybrid.py``).
"""

from __future__ import annotations

from typing import Any

from .hybrid import DEFAULT_ELAPSED, FG, WORKLOADS

#: The claims of fg-aware's elapsed-time cut: its size, and the workloads ranked by it.
ELAPSED_CUTS = (
    "abstract-elapsed-cut-vs-lru",
    "abstract-elapsed-cut-vs-2qlru",
    "fig3c-elapsed-cut-critical-intensive-vs-lru",
    "fig3c-elapsed-cut-critical-intensive-vs-2qlru",
    "fig5c-elapsed-cut-balanced-vs-lru",
    "fig5c-elapsed-cut-balanced-vs-2qlru",
    "fig6c-elapsed-cut-stand-by-vs-lru",
    "fig6c-elapsed-cut-stand-by-vs-2qlru",
    "fig4c-elapsed-cut-least-non-critical-intensive",
    "sec42-elapsed-cut-order-by-workload",
    "sec42-gain-rises-with-critical-requests",
)


def _mean(v: list[float]) -> float:
    return sum(v) / len(v)


def causes(res: dict[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    if res.get("settings", {}).get("elapsed", DEFAULT_ELAPSED) != "with-storage":
        return out
    rows = []
    for w in WORKLOADS:
        pts = list(res.get("workloads", {}).get(w, {}).get("memory", {}).values())
        pts = [
            p for p in pts if p["lru"]["critical_hit_ratio"] is not None and p["lru"]["critical_elapsed_ns"]
        ]
        if not pts:
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
        cut = _mean([1 - p[FG]["critical_elapsed_ns"] / p["lru"]["critical_elapsed_ns"] for p in pts])
        io = _mean([1 - p["lru"]["critical_memory_ns"] / p["lru"]["critical_elapsed_ns"] for p in pts])
        rows.append((w, h, gain, misses, cut, io))
    if len(rows) < 2:
        return out
    least = min(rows, key=lambda r: r[3])
    text = (
        "the cut follows the critical processes' misses: storage I/O is "
        f"{100 * min(r[5] for r in rows):.0f}–{100 * max(r[5] for r in rows):.0f}% of LRU's critical elapsed "
        "time, so fg-aware saves the share of misses its extra hits remove. Per workload (LRU's critical hit "
        "ratio, fg-aware's gain, the misses it removes, the time it cuts, means over the sizes against lru): "
        + "; ".join(
            f"{w} {h:.3f}, {100 * g:+.1f} points, {100 * m:.1f}%, {100 * c:.1f}%" for w, h, g, m, c, _ in rows
        )
        + f". On {least[0]} the critical processes miss most (their assumed footprints and reuse, "
        "hybrid_workloads.toml), so the same few points are the smallest share of their misses; the paper's "
        "critical-intensive gains 12 points of hit ratio."
    )
    for cid in ELAPSED_CUTS:
        out[cid] = text
    return out
