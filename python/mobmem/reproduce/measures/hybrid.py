"""Our number for each measurable claim of claims/hybrid.toml, from the JSON output of
`mobmem reproduce hybrid --json` (standard library only; no import of mobmem).

Conventions:
- A "cut" is fg-aware's reduction against a baseline at one point, 100·(1 − fg/base) (% , positive = fg-aware
  lower); the TOML's signed change is its negative (−70 = a 70% cut).
- "Elapsed time" is the run's reading (`settings.elapsed`, ``ELAPSED``): `critical_elapsed_ns` (critical
  processes' memory operations, page moves and storage I/O; `with-storage`, the default) or
  `critical_memory_ns` (storage I/O left out; `memory-only`).
- Paper "2QLRU" = the JSON's "2q"; "lru/2qlru" in an `order` list stands for both baselines.
- Per-workload figures average the per-size values over the memory sweep (every size equally weighted).
"""

from __future__ import annotations

from typing import Any

WORKLOADS = ("critical-intensive", "non-critical-intensive", "balanced", "stand-by")
BASES = ("lru", "2q")
FG = "fg-aware"
#: Memory size (% of footprint) of the run's eq. 1 energy table (Fig. 7's setting, as run).
ENERGY_MEMORY = "50"
#: The readings of the paper's undefined elapsed time → the point's field (hybrid.py's --elapsed).
ELAPSED = {"with-storage": "critical_elapsed_ns", "memory-only": "critical_memory_ns"}
DEFAULT_ELAPSED = "with-storage"
#: A hit ratio counts as saturated from the smallest swept size within this many points of its sweep maximum.
SATURATION_POINTS = 0.5

NOTES: dict[str, str] = {
    "abstract-elapsed-cut-vs-lru": "elapsed time = the run's elapsed reading (default with-storage); 'on average' = mean of per-point cuts over 4 workloads x 6 memory sizes",
    "abstract-elapsed-cut-vs-2qlru": "elapsed time = the run's elapsed reading (default with-storage); 'on average' = mean of per-point cuts over 4 workloads x 6 memory sizes",
    "abstract-energy-cut-vs-lru": "'power consumption' = eq. 1 operational energy (eq1_j) at memory 50% (Fig. 7), mean of per-workload cuts over the 4 workloads",
    "abstract-energy-cut-vs-2qlru": "'power consumption' = eq. 1 operational energy (eq1_j) at memory 50% (Fig. 7), mean of per-workload cuts over the 4 workloads",
    "fig3a-hit-gain-critical-intensive": "gain = fg-aware minus the better of lru and 2q (hit_ratio), in points, mean over the 6 sizes (the reproduction's own reading)",
    "fig3b-critical-hit-gain-critical-intensive": "gain = fg-aware minus the better of lru and 2q (critical_hit_ratio), in points, mean over the 6 sizes",
    "fig3-hit-gain-falls-with-memory": "least-squares trend of the per-size gain (fg-aware minus better baseline, mean of hit_ratio and critical_hit_ratio gains) against memory %, as the fitted change from 10% to 90% in points; endpoints alone (90% minus 10%) would give the opposite sign",
    "fig3c-elapsed-cut-critical-intensive-vs-lru": "'decreased by 60% point' read as a 60% cut; mean of per-size cuts of elapsed time (the run's reading)",
    "fig3c-elapsed-cut-critical-intensive-vs-2qlru": "'decreased by 60% point' read as a 60% cut; mean of per-size cuts of elapsed time (the run's reading)",
    "fig4ab-hit-ratio-best-non-critical-intensive": "fg-aware must be >= the better of lru and 2q in both hit_ratio and critical_hit_ratio at every size; else our order at the first failing size",
    "fig4c-elapsed-cut-least-non-critical-intensive": "per-workload cut = mean over sizes and over both baselines of the elapsed-time cut; the group ranks by its smallest member",
    "fig4c-elapsed-fg-aware-best-every-size": "fg-aware's elapsed time below both lru's and 2q's at every size",
    "fig5ab-hit-ratio-best-every-size-balanced": "fg-aware must be >= the better of lru and 2q in both hit_ratio and critical_hit_ratio at every size; else our order at the first failing size",
    "fig5-saturation-fg-aware": "saturation = smallest swept size whose hit_ratio is within 0.5 points of the sweep's maximum (sweep 10,20,30,50,70,90: no 40/60)",
    "fig5-saturation-baselines": "saturation as for fg-aware (within 0.5 points of the sweep maximum), mean of lru's and 2q's points",
    "fig5c-elapsed-cut-balanced-vs-lru": "mean of per-size cuts of elapsed time (the run's reading)",
    "fig5c-elapsed-cut-balanced-vs-2qlru": "mean of per-size cuts of elapsed time (the run's reading)",
    "fig6ab-hit-ratio-best-stand-by": "checked at every size, both hit_ratio and critical_hit_ratio, against the better of lru and 2q",
    "fig6c-elapsed-best-stand-by": "checked at every size (elapsed time below both baselines)",
    "fig6c-elapsed-cut-stand-by-vs-lru": "mean of per-size cuts of elapsed time (the run's reading)",
    "fig6c-elapsed-cut-stand-by-vs-2qlru": "mean of per-size cuts of elapsed time (the run's reading)",
    "sec42-elapsed-fg-aware-best-all-workloads": "per workload: mean over sizes of the elapsed-time cut vs each of lru and 2q must be > 0 (every single point would fail once: balanced 10% vs 2q)",
    "sec42-gain-rises-with-critical-requests": "least-squares slope of the per-workload cut (mean over sizes and both baselines) against the critical share of requests, in % per unit share; against the critical request count the sign flips",
    "sec42-elapsed-cut-order-by-workload": "per-workload cut = mean over sizes and over both baselines of the elapsed-time cut",
    "fig7-energy-saving-rises-with-foreground-requests": "least-squares slope of the eq. 1 saving at 50% (mean of vs lru and vs 2q) against the number of critical requests, % per million; against total requests the sign flips",
    "sec43-static-power-reduced": "static_j of fg-aware (hybrid) vs lru DRAM-only of the same size, mean % change over all workloads and sizes",
}


def _cut(fg: float, base: float) -> float:
    return 100.0 * (1.0 - fg / base)


def _cuts(points: list[dict[str, Any]], key: str, base: str) -> list[float]:
    """fg-aware's cut (%) of ``key`` against ``base`` at each point (one per memory size); points
    where the baseline spent nothing are left out."""
    return [_cut(p[FG][key], p[base][key]) for p in points if p[base][key]]


def mean_cut(points: list[dict[str, Any]], key: str, base: str) -> float | None:
    """The mean of :func:`_cuts`, as the claims average a workload (None when no point counts)."""
    v = _cuts(points, key, base)
    return sum(v) / len(v) if v else None


def _slope(xs: list[float], ys: list[float]) -> float:
    mx = sum(xs) / len(xs)
    my = sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=False)) / den if den else 0.0


def _mean(v: list[float]) -> float:
    return sum(v) / len(v)


def measure(res: dict) -> dict[str, object]:
    out: dict[str, object] = {}
    W = {n: w for n, w in res.get("workloads", {}).items() if n in WORKLOADS and w.get("memory")}
    elapsed = ELAPSED[res.get("settings", {}).get("elapsed", DEFAULT_ELAPSED)]

    def sizes(w: str) -> list[str]:
        return sorted(W[w]["memory"], key=lambda m: float(m))

    def pt(w: str, m: str, p: str) -> dict:
        return W[w]["memory"][m][p]

    def cuts(w: str, base: str, key: str = elapsed) -> list[float]:
        return _cuts([W[w]["memory"][m] for m in sizes(w)], key, base)

    def wl_cut(w: str, base: str) -> float:
        return _mean(cuts(w, base))

    def wl_cut_both(w: str) -> float:
        return _mean([wl_cut(w, b) for b in BASES])

    # ---- abstract: elapsed time, mean over every (workload, size) point
    for base, cid in (("lru", "abstract-elapsed-cut-vs-lru"), ("2q", "abstract-elapsed-cut-vs-2qlru")):
        allc = [c for w in W for c in cuts(w, base)]
        if allc:
            out[cid] = -_mean(allc)

    # ---- abstract: eq. 1 energy at the energy memory size, mean over workloads
    def energy_saving(w: str, base: str) -> float | None:
        if ENERGY_MEMORY not in W[w]["memory"]:
            return None
        b = pt(w, ENERGY_MEMORY, base)["eq1_j"]
        return _cut(pt(w, ENERGY_MEMORY, FG)["eq1_j"], b) if b else None

    for base, cid in (("lru", "abstract-energy-cut-vs-lru"), ("2q", "abstract-energy-cut-vs-2qlru")):
        v = [s for w in W if (s := energy_saving(w, base)) is not None]
        if v:
            out[cid] = -_mean(v)

    # ---- helpers for "fg-aware best" orderings
    def hit_best_order(w: str) -> list[str]:
        for m in sizes(w):
            for key in ("hit_ratio", "critical_hit_ratio"):
                f = pt(w, m, FG)[key]
                b = max(pt(w, m, x)[key] for x in BASES)
                if f is None or b is None:
                    continue
                if f <= b:  # a tie is no order: it counts against the paper
                    return ["fg-aware", "lru/2qlru"]
        return ["lru/2qlru", "fg-aware"]

    def elapsed_best_order(w: str) -> list[str]:
        for m in sizes(w):
            f = pt(w, m, FG)[elapsed]
            if any(f >= pt(w, m, x)[elapsed] for x in BASES):
                return ["lru/2qlru", "fg-aware"]
        return ["fg-aware", "lru/2qlru"]

    # ---- Sec. 4.2.1 critical-intensive (Fig. 3)
    ci = "critical-intensive"
    if ci in W:
        gains: dict[str, list[float]] = {}
        for key in ("hit_ratio", "critical_hit_ratio"):
            gains[key] = [
                100.0 * (pt(ci, m, FG)[key] - max(pt(ci, m, x)[key] for x in BASES)) for m in sizes(ci)
            ]
        out["fig3a-hit-gain-critical-intensive"] = _mean(gains["hit_ratio"])
        out["fig3b-critical-hit-gain-critical-intensive"] = _mean(gains["critical_hit_ratio"])
        xs = [float(m) for m in sizes(ci)]
        if len(xs) >= 2:
            g = [(a + b) / 2 for a, b in zip(gains["hit_ratio"], gains["critical_hit_ratio"], strict=False)]
            out["fig3-hit-gain-falls-with-memory"] = _slope(xs, g) * (xs[-1] - xs[0])
        out["fig3c-elapsed-cut-critical-intensive-vs-lru"] = -wl_cut(ci, "lru")
        out["fig3c-elapsed-cut-critical-intensive-vs-2qlru"] = -wl_cut(ci, "2q")

    # ---- Sec. 4.2.2 non-critical-intensive (Fig. 4)
    nci = "non-critical-intensive"
    if nci in W:
        out["fig4ab-hit-ratio-best-non-critical-intensive"] = hit_best_order(nci)
        out["fig4c-elapsed-fg-aware-best-every-size"] = elapsed_best_order(nci)
        if all(w in W for w in WORKLOADS):
            others = min(wl_cut_both(w) for w in WORKLOADS if w != nci)
            out["fig4c-elapsed-cut-least-non-critical-intensive"] = (
                ["non-critical-intensive", "critical-intensive/balanced/stand-by"]
                if wl_cut_both(nci) < others
                else ["critical-intensive/balanced/stand-by", "non-critical-intensive"]
            )

    # ---- Sec. 4.2.3 balanced (Fig. 5)
    bal = "balanced"
    if bal in W:
        out["fig5ab-hit-ratio-best-every-size-balanced"] = hit_best_order(bal)

        def saturation(p: str) -> float:
            ms = sizes(bal)
            top = max(pt(bal, m, p)["hit_ratio"] for m in ms)
            for m in ms:
                if 100.0 * (top - pt(bal, m, p)["hit_ratio"]) <= SATURATION_POINTS:
                    return float(m)
            return float(ms[-1])

        out["fig5-saturation-fg-aware"] = saturation(FG)
        out["fig5-saturation-baselines"] = _mean([saturation(b) for b in BASES])
        out["fig5c-elapsed-cut-balanced-vs-lru"] = -wl_cut(bal, "lru")
        out["fig5c-elapsed-cut-balanced-vs-2qlru"] = -wl_cut(bal, "2q")

    # ---- Sec. 4.2.4 stand-by (Fig. 6)
    sb = "stand-by"
    if sb in W:
        out["fig6ab-hit-ratio-best-stand-by"] = hit_best_order(sb)
        out["fig6c-elapsed-best-stand-by"] = elapsed_best_order(sb)
        out["fig6c-elapsed-cut-stand-by-vs-lru"] = -wl_cut(sb, "lru")
        out["fig6c-elapsed-cut-stand-by-vs-2qlru"] = -wl_cut(sb, "2q")

    # ---- Sec. 4.2 summary
    if W:
        best = ["fg-aware", "lru/2qlru"]
        for w in WORKLOADS:
            if w in W and any(wl_cut(w, b) <= 0 for b in BASES):
                best = ["lru/2qlru", "fg-aware"]
                break
        out["sec42-elapsed-fg-aware-best-all-workloads"] = best
    if all(w in W for w in WORKLOADS):
        per = {w: wl_cut_both(w) for w in WORKLOADS}
        out["sec42-elapsed-cut-order-by-workload"] = sorted(WORKLOADS, key=lambda w: per[w])
        share = [W[w]["critical_accesses"] / W[w]["accesses"] for w in WORKLOADS]
        out["sec42-gain-rises-with-critical-requests"] = _slope(share, [per[w] for w in WORKLOADS])

        sav: list[float] = []
        for w in WORKLOADS:
            got = [x for b in BASES if (x := energy_saving(w, b)) is not None]
            if got:
                sav.append(_mean(got))
        if len(sav) == len(WORKLOADS):
            crit = [W[w]["critical_accesses"] / 1e6 for w in WORKLOADS]
            out["fig7-energy-saving-rises-with-foreground-requests"] = _slope(crit, sav)

    # ---- Sec. 4.3 static power: hybrid (fg-aware) vs DRAM-only (lru) of the same size
    st = [
        100.0 * (pt(w, m, FG)["static_j"] / pt(w, m, "lru DRAM-only")["static_j"] - 1.0)
        for w in W
        for m in sizes(w)
        if "lru DRAM-only" in W[w]["memory"][m] and pt(w, m, "lru DRAM-only")["static_j"]
    ]
    if st:
        out["sec43-static-power-reduced"] = _mean(st)

    return {k: (float(v) if isinstance(v, (int, float)) else v) for k, v in out.items()}
