"""Why a claim of claims/spo-clock.toml is not reproduced, as a run of ``mobmem reproduce spo-clock
--json`` shows it: printed beside the claim's verdict (N, D or C) by the scoreboard.

Standard library only, as the measurements (``measures/spo_clock.py``): the default reading's
synthetic apps, and the other readings' summaries where the run has them.
"""

from __future__ import annotations

from itertools import pairwise
from statistics import mean
from typing import Any

from .spo_clock import KIND, SPO

#: The claims of SPO-CLOCK against ARC.
VS_ARC = ("vs-arc-average", "vs-arc-max", "fig4-spo-best-vs-arc", "fig4-spo-win-share-vs-arc")
#: The claims of SPO-CLOCK's size of gain over CLOCK.
VS_CLOCK = ("vs-clock-average", "vs-clock-max")
#: SPO-CLOCK not below CLOCK at every point, and swap writes dominating swap reads.
BEST_VS_CLOCK = "fig4-spo-best-vs-clock"
WRITES_DOMINATE = "fig4-swap-writes-dominate-swap-reads"
#: Not measured, and why.
NOT_RUN = {
    "shadow-space-per-page": "not measured: mobmem does not account a policy's metadata",
    "shadow-space-1gb": "not measured: mobmem does not account a policy's metadata",
}


def _points(res: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (app, m, pt["policies"])
        for app, w in (res.get("workloads") or {}).items()
        if w.get("kind") == KIND
        for m, pt in w["memory"].items()
    ]


def causes(res: dict[str, Any]) -> dict[str, str]:
    out: dict[str, str] = dict(NOT_RUN)
    pts = [(a, m, p) for a, m, p in _points(res) if {SPO, "clock", "arc"} <= set(p)]
    if not pts:
        return out
    n = len(pts)

    def below(a: dict[str, Any], b: dict[str, Any]) -> float:
        return 100.0 * (1 - a["io_ns"] / b["io_ns"]) if b["io_ns"] else 0.0

    arc_clock = mean(below(p["arc"], p["clock"]) for _, _, p in pts)
    spo_clock = mean(below(p[SPO], p["clock"]) for _, _, p in pts)
    fewer = sum(1 for _, _, p in pts if p["arc"]["faults"] < p[SPO]["faults"])
    paper_arc = 100.0 * (1 - (1 - 0.15) / (1 - 0.12))
    side = "below" if arc_clock >= 0 else "above"
    arc = (
        f"ARC's I/O time is {abs(arc_clock):.1f}% {side} CLOCK's on average here (the paper's two averages, 15.0%"
        f" over CLOCK and 12.0% over ARC, put ARC about {paper_arc:.1f}% below CLOCK), and ARC misses less than"
        f" SPO-CLOCK at {fewer} of {n} points"
        + (
            f"; SPO-CLOCK saves less over CLOCK ({spo_clock:.1f}%) than ARC does"
            if spo_clock < arc_clock
            else f"; SPO-CLOCK saves {spo_clock:.1f}% over CLOCK"
        )
    )
    for cid in VS_ARC:
        out[cid] = arc
    lost = [(a, m, p) for a, m, p in pts if p[SPO]["io_ns"] >= p["clock"]["io_ns"]]

    def delta(p: dict[str, Any], part: str) -> float:
        return float(p[SPO]["parts"][part] - p["clock"]["parts"][part])

    if lost:
        outweigh = all(delta(p, "file_read_ns") > -delta(p, "swap_write_ns") > 0 for _, _, p in lost)
        out[BEST_VS_CLOCK] = (
            "SPO-CLOCK is not below CLOCK at "
            + "; ".join(
                f"{a} {m}% ({p[SPO]['rel']:.3f}×; of CLOCK's time, its swap writes {delta(p, 'swap_write_ns'):+.3f},"
                f" its file reads {delta(p, 'file_read_ns'):+.3f}, its swap reads {delta(p, 'swap_read_ns'):+.3f})"
                for a, m, p in lost
            )
            + (": there the file reads it adds outweigh the swap writes it saves" if outweigh else "")
        )
    # The gain under each reading that changes only the device, beside what a swap write costs there.
    rows = []
    for r, sub in (res.get("readings") or {}).items():
        v = sub.get("summary", {}).get(KIND, {}).get("vs_clock")
        c = sub.get("swap_costs")
        if v and c and set(sub.get("settings", {})) == {"swap"}:
            rows.append((c["write_ns"] / c["read_ns"], r, v))
    rows.sort(key=lambda t: t[0])
    if len(rows) > 1:
        rising = all(a[2]["average_pct"] < b[2]["average_pct"] for a, b in pairwise(rows))
        line = "SPO-CLOCK's gain over CLOCK (average / most) under each device reading: " + "; ".join(
            f"{r} (a write {x:.2f}× a read) {v['average_pct']:.1f}% / {v['max_pct']:.1f}%" for x, r, v in rows
        )
        for cid in VS_CLOCK:
            out[cid] = line + (": it rises with what a swap write costs" if rising else "")
    costs = res.get("swap_costs")
    if costs:
        ratio = costs["write_ns"] / costs["read_ns"]
        per = [
            (p["clock"]["parts"]["swap_write_ns"] / costs["write_ns"])
            / (p["clock"]["parts"]["swap_read_ns"] / costs["read_ns"])
            for _, _, p in pts
            if p["clock"]["parts"]["swap_read_ns"]
        ]
        if per:
            out[WRITES_DOMINATE] = (
                f"CLOCK writes {mean(per):.2f} pages to swap per page it reads back ({min(per):.2f}–{max(per):.2f}"
                f" over the synthetic points), and a swap write costs {ratio:.2f}× a read here, so its writes take"
                f" {mean(per) * ratio:.2f}× its reads' time; writes dominate only above {1 / ratio:.2f} pages written"
                " per page read back. The paper's bars had more ('only some of hot pages are used again')"
            )
    return out
