"""Our number for each claim of claims/dr-swap.toml, from `mobmem reproduce dr-swap --json`.

Standard library only (no import of mobmem): a function of the JSON, nothing else.
"""

from __future__ import annotations

import itertools
from typing import Any

SIZES = ("128", "256", "512")
#: Claim ids' category names -> the JSON's category keys.
CATS = {
    "browser": "browser",
    "news": "news",
    "multimedia": "multimedia",
    "social-networking": "social",
    "gaming": "gaming",
    "online-shopping": "shopping",
    "mix1": "mix1",
    "mix2": "mix2",
}
#: Claim names of the swap schemes -> the JSON's keys.
SCHEMES = {"dram": "dram", "dr-swap": "dr_swap", "flash": "flash"}
#: Points the paper itself names as exceptions to fig8-delay-ordering (DR. Swap below DRAM-backed).
FIG8_EXCEPTIONS = {("social", "128"), ("news", "512"), ("multimedia", "512"), ("gaming", "512")}

NOTES: dict[str, str] = {
    "abstract-energy-saving-vs-dram": "lowest DR. Swap saving vs DRAM-backed over every category and swap size (the bound must hold for any size)",
    "abstract-dr-zero-copy-read-only": "largest, over the run's Table IV cells, of DR-on swap-ins not accounted for by write faults (swap faults - DR maps) or promotions",
    "table4-average-128mb-dr-off": "the calibration target: the memory kept from apps is fitted to this figure, so agreement is by construction",
    "sec5d-dr-reduction-range-low": "lowest DR reduction over every category and size with swap-ins (the run's reading)",
    "sec5d-dr-reduction-range-high": "highest DR reduction over every category and size with swap-ins (the run's reading)",
    "sec5d-multimedia-reduction": "mean of the three swap sizes' reductions, negated",
    "sec5d-gaming-reduction": "mean of the three swap sizes' reductions, negated",
    "sec5d-online-shopping-reduction": "mean of the three swap sizes' reductions, negated",
    "sec5d-browser-reduction": "lowest of the three swap sizes' reductions (the bound must hold at each size)",
    "sec5d-news-reduction": "lowest of the three swap sizes' reductions (the bound must hold at each size)",
    "sec5d-social-networking-reduction": "lowest of the three swap sizes' reductions (the bound must hold at each size)",
    "sec5d-news-social-gain-most": "news and social networking counted among the last two of sec5d-dr-reduction-category-order",
    "sec5d-dr-reduction-category-order": "categories by the mean of their three sizes' reductions; measured only when every category has swap-ins",
    "fig7-scheme-energy-ordering": "paper's order only if strictly flash < DR. Swap < DRAM at every category and size; ties count against the paper",
    "fig7-dram-energy-rises-with-swap-size": "smallest step (128->256, 256->512) in DRAM-backed energy over every category, J",
    "fig7-saving-rises-with-swap-size": "smallest step (128->256, 256->512) in the saving over every category, points",
    "fig7-dr-swap-energy-flat-with-swap-size": "the 128->512 MB change of largest magnitude over the categories",
    "fig7-flash-energy-flat-with-swap-size": "the 128->512 MB change of largest magnitude over the categories",
    "fig7-categories-hardly-differ": "largest max/min-1 over categories for DRAM-backed and DR. Swap (the two schemes the sentence says background-dominated), any size; flash excluded",
    "fig7-background-dominates-dram": "lowest background share over every category and size",
    "fig7-background-dominates-dr-swap": "lowest background share over every category and size",
    "fig7-saving-vs-dram-128mb": "lowest saving over the categories at this size",
    "fig7-saving-vs-dram-256mb": "lowest saving over the categories at this size",
    "fig7-saving-vs-dram-512mb": "lowest saving over the categories at this size",
    "sec5f-dram-over-dr-swap-energy": "mean over every category and size of E_dram / E_dr_swap",
    "sec7-energy-saving-vs-dram": "lowest saving over every category and size (no size stated: the bound must hold at each)",
    "fig8-delay-ordering": "paper's order only if strictly DRAM < DR. Swap < flash at every category and size except the paper's four named exceptions; ties count against the paper",
    "fig8-dr-swap-faster-than-flash-everywhere": "category means only (per-app delays are not in the result); strict DR. Swap < flash at every category and size, ties count against the paper",
    "fig8-dr-swap-below-dram-social-networking-128mb": "strict comparison of the category's mean delays; a tie counts against the paper",
    "fig8-dr-swap-below-dram-news-512mb": "strict comparison of the category's mean delays; a tie counts against the paper",
    "fig8-dr-swap-below-dram-multimedia-512mb": "strict comparison of the category's mean delays; a tie counts against the paper",
    "fig8-dr-swap-below-dram-gaming-512mb": "strict comparison of the category's mean delays; a tie counts against the paper",
    "table5-twitter-128mb-dr-swap": "Twitter's mean delay in the social category run; it is the 2.0 s resume-CPU input plus the model's waits",
    "table5-twitter-128mb-dram": "Twitter's mean delay in the social category run; it is the 2.0 s resume-CPU input plus the model's waits",
    "fig8-dr-swap-vs-flash-average": "minus the mean over categories and sizes of the improvement over flash",
    "fig8-browser-vs-flash": "lowest of the browser category's three sizes' improvement over flash (no size stated: the bound must hold at each)",
    "fig8-news-smallest-improvement": "news's mean improvement (over sizes) strictly below every other category's; a tie counts against the paper",
}

#: Table IV's cells read the category's apps' swap-ins (:func:`apps_cell`), not the run's.
for _n in CATS:
    for _mb in SIZES:
        for _t in ("dr-off", "dr-on", "reduction"):
            NOTES.setdefault(
                f"table4-{_n}-{_mb}mb-{_t}",
                "the category's apps' swap-ins: the run's swap-ins x the apps' share of its swap faults",
            )


def _order(values: dict[str, float], paper: list[str]) -> list[str]:
    """Names smallest first; a tie is broken against the paper's order (the later name first)."""
    rank = {n: i for i, n in enumerate(paper)}
    return sorted(values, key=lambda n: (values[n], -rank[n]))


def _strict(values: dict[str, float], paper: list[str]) -> bool:
    return all(values[a] < values[b] for a, b in itertools.pairwise(paper))


def _every(points: list[dict[str, float]], paper: list[str]) -> list[str]:
    """'The paper's order at every point': the paper's order if it holds strictly everywhere, else
    our order at the first point where it fails."""
    for v in points:
        if not _strict(v, paper):
            return _order(v, paper)
    return list(paper)


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)


def apps_cell(x: dict[str, Any], whole: bool = False) -> tuple[float, float, float | None]:
    """A Table IV cell as its claims read it — the swap-ins of the category's apps, DR off and on,
    and the reduction (None where the apps swap in nothing with DR off): the run's swap-ins times
    the apps' share of its swap faults (swap-ins are counted per device, swap faults per owner: an
    app's or a system process's). 0 where every swap fault is the system processes'."""

    def part(w: str) -> float:
        if whole:  # the run's swap-ins, whoever's (what :func:`whole` reads)
            return float(x[f"swap_ins_{w}"])
        a, s = x[f"app_swap_faults_{w}"], x[f"system_swap_faults_{w}"]
        return float(x[f"swap_ins_{w}"]) * a / (a + s) if a + s else 0.0

    off, on = part("dr_off"), part("dr_on")
    return off, on, (100.0 * (1.0 - on / off) if off else None)


def whole(res: dict[str, Any]) -> dict[str, object]:
    """:func:`measure` with Table IV's cells read as the run's swap-ins, whoever's pages they are:
    what the scoreboard compares with to count the claims the subject's share moved."""
    return measure(res, whole=True)


def measure(res: dict[str, Any], whole: bool = False) -> dict[str, object]:
    out: dict[str, object] = {}
    reading = res.get("settings", {}).get("reading", "readahead")

    # --- Table IV, Section V-D -------------------------------------------------------------------
    table = res.get("table_iv", {}).get(reading)
    if table:
        residual = [
            float(x["swap_ins_dr_on"] - (x["swap_faults_dr_on"] - x["dr_maps"]) - x["dr_promotions"])
            for d in table.values()
            for x in d.values()
            if all(k in x for k in ("swap_ins_dr_on", "swap_faults_dr_on", "dr_maps", "dr_promotions"))
        ]
        if residual:
            out["abstract-dr-zero-copy-read-only"] = max(residual)
        for name, key in CATS.items():
            if key not in table:
                continue
            for mb in SIZES:
                x = table[key].get(mb)
                if x is None:
                    continue
                off, on, red = apps_cell(x, whole)
                out[f"table4-{name}-{mb}mb-dr-off"] = off
                out[f"table4-{name}-{mb}mb-dr-on"] = on
                if red is not None:
                    out[f"table4-{name}-{mb}mb-reduction"] = 0.0 - red
        reds = [r for d in table.values() for x in d.values() if (r := apps_cell(x, whole)[2]) is not None]
        if reds:
            out["sec5d-dr-reduction-range-low"] = min(reds)
            out["sec5d-dr-reduction-range-high"] = max(reds)

        def cat_reds(key: str) -> list[float] | None:
            if key not in table:
                return None
            rs = [
                r
                for mb in SIZES
                if mb in table[key] and (r := apps_cell(table[key][mb], whole)[2]) is not None
            ]
            return rs if len(rs) == len(SIZES) else None

        for name in ("multimedia", "gaming", "online-shopping"):
            rs = cat_reds(CATS[name])
            if rs:
                out[f"sec5d-{name}-reduction"] = 0.0 - _mean(rs)
        for name in ("browser", "news", "social-networking"):
            rs = cat_reds(CATS[name])
            if rs:
                out[f"sec5d-{name}-reduction"] = min(rs)
        means: dict[str, float] | None = {}
        for name, key in CATS.items():
            rs = cat_reds(key)
            if rs is None or means is None:
                means = None
                break
            means[name] = _mean(rs)
        if means:
            paper = [
                "multimedia",
                "mix1",
                "online-shopping",
                "gaming",
                "mix2",
                "browser",
                "social-networking",
                "news",
            ]
            order = _order(means, paper)
            out["sec5d-dr-reduction-category-order"] = order
            top = order[-2:]
            out["sec5d-news-social-gain-most"] = float(sum(c in top for c in ("news", "social-networking")))

    # The average row: the apps' swap-ins averaged over the categories (the fit, table4-average-
    # 128mb-dr-off, is made on all swap-ins: res["averages"]; F whatever this reads).
    avg: dict[str, dict[str, float]] = {}
    for mb in SIZES:
        got = [apps_cell(d[mb], whole) for d in (table or {}).values() if mb in d]
        if got:
            avg[mb] = {"off": _mean([c[0] for c in got]), "on": _mean([c[1] for c in got])}
    if avg:
        for mb, a in avg.items():
            out[f"table4-average-{mb}mb-dr-off"] = a["off"]
            out[f"table4-average-{mb}mb-dr-on"] = a["on"]
            if a["off"]:
                out[f"table4-average-{mb}mb-reduction"] = 0.0 - 100.0 * (1.0 - a["on"] / a["off"])
        for col, tag in (("off", "dr-off"), ("on", "dr-on")):
            for lo, hi in (("128", "256"), ("256", "512")):
                if lo in avg and hi in avg:
                    out[f"table4-avg-{tag}-falls-{lo}-to-{hi}mb"] = float(avg[hi][col] - avg[lo][col])

    # --- Fig. 7, Section V-E ---------------------------------------------------------------------
    energy = res.get("energy")
    if energy:
        cells = [(c, mb, energy[c][mb]) for c in energy for mb in SIZES if mb in energy[c]]
        savings = [float(e["dr_swap_saving_vs_dram_pct"]) for _, _, e in cells]
        out["abstract-energy-saving-vs-dram"] = min(savings)
        out["sec7-energy-saving-vs-dram"] = min(savings)
        for mb in SIZES:
            s = [float(e["dr_swap_saving_vs_dram_pct"]) for _, m, e in cells if m == mb]
            if s:
                out[f"fig7-saving-vs-dram-{mb}mb"] = min(s)
        paper = ["flash", "dr-swap", "dram"]
        out["fig7-scheme-energy-ordering"] = _every(
            [{n: float(e["energy_j"][k]) for n, k in SCHEMES.items()} for _, _, e in cells], paper
        )
        full = [c for c in energy if all(mb in energy[c] for mb in SIZES)]
        if full:
            steps_dram = [
                energy[c][hi]["energy_j"]["dram"] - energy[c][lo]["energy_j"]["dram"]
                for c in full
                for lo, hi in (("128", "256"), ("256", "512"))
            ]
            out["fig7-dram-energy-rises-with-swap-size"] = float(min(steps_dram))
            steps_save = [
                energy[c][hi]["dr_swap_saving_vs_dram_pct"] - energy[c][lo]["dr_swap_saving_vs_dram_pct"]
                for c in full
                for lo, hi in (("128", "256"), ("256", "512"))
            ]
            out["fig7-saving-rises-with-swap-size"] = float(min(steps_save))
            for name, k in (("dr-swap", "dr_swap"), ("flash", "flash")):
                ch = [
                    100.0 * (energy[c]["512"]["energy_j"][k] / energy[c]["128"]["energy_j"][k] - 1.0)
                    for c in full
                    if energy[c]["128"]["energy_j"][k] > 0
                ]
                if ch:
                    out[f"fig7-{name}-energy-flat-with-swap-size"] = float(max(ch, key=abs))
        spreads = []
        for mb in SIZES:
            for k in ("dram", "dr_swap"):
                es = [energy[c][mb]["energy_j"][k] for c in energy if mb in energy[c]]
                if es and min(es) > 0:
                    spreads.append(100.0 * (max(es) / min(es) - 1.0))
        if spreads:
            out["fig7-categories-hardly-differ"] = float(max(spreads))
        for name, k in (("dram", "dram"), ("dr-swap", "dr_swap")):
            out[f"fig7-background-dominates-{name}"] = min(
                100.0 - float(e["traffic_share_pct"][k]) for _, _, e in cells
            )
        ratios = [
            e["energy_j"]["dram"] / e["energy_j"]["dr_swap"]
            for _, _, e in cells
            if e["energy_j"]["dr_swap"] > 0
        ]
        if ratios:
            out["sec5f-dram-over-dr-swap-energy"] = float(_mean(ratios))

    # --- Fig. 8 / Table V, Section V-F -----------------------------------------------------------
    sw = res.get("switching")
    if sw and sw.get("categories"):
        scats = sw["categories"]
        pts = [(c, mb, scats[c]["sizes"][mb]) for c in scats for mb in SIZES if mb in scats[c]["sizes"]]

        def delays(row: dict[str, Any], names: list[str]) -> dict[str, float]:
            return {n: float(row[SCHEMES[n]]["delay_ms"]) for n in names}

        order3 = ["dram", "dr-swap", "flash"]
        out["fig8-delay-ordering"] = _every(
            [delays(row, order3) for c, mb, row in pts if (c, mb) not in FIG8_EXCEPTIONS], order3
        )
        out["fig8-dr-swap-faster-than-flash-everywhere"] = _every(
            [delays(row, ["dr-swap", "flash"]) for _, _, row in pts], ["dr-swap", "flash"]
        )
        for name, mb in (
            ("social-networking", "128"),
            ("news", "512"),
            ("multimedia", "512"),
            ("gaming", "512"),
        ):
            key = CATS[name]
            if key in scats and mb in scats[key]["sizes"]:
                v = delays(scats[key]["sizes"][mb], ["dr-swap", "dram"])
                out[f"fig8-dr-swap-below-dram-{name}-{mb}mb"] = _every([v], ["dr-swap", "dram"])
        tw = scats.get("social", {}).get("sizes", {}).get("128")
        if tw:
            for name, k in (("dr-swap", "dr_swap"), ("dram", "dram")):
                if tw[k].get("twitter_ms") is not None:
                    out[f"table5-twitter-128mb-{name}"] = float(tw[k]["twitter_ms"])
        imps = [float(row["improvement_pct"]) for _, _, row in pts if row.get("improvement_pct") is not None]
        if imps:
            out["fig8-dr-swap-vs-flash-average"] = 0.0 - _mean(imps)
        b = [
            float(row["improvement_pct"])
            for c, _, row in pts
            if c == "browser" and row.get("improvement_pct") is not None
        ]
        if len(b) == len(SIZES):
            out["fig8-browser-vs-flash"] = min(b)
        per_cat = {}
        for c in scats:
            xs = [scats[c]["sizes"][mb].get("improvement_pct") for mb in SIZES if mb in scats[c]["sizes"]]
            if xs and all(x is not None for x in xs):
                per_cat[c] = _mean([float(x) for x in xs])
        if "news" in per_cat and len(per_cat) > 1:
            others = min(v for c, v in per_cat.items() if c != "news")
            out["fig8-news-smallest-improvement"] = _every(
                [{"news": per_cat["news"], "other-categories": others}], ["news", "other-categories"]
            )
    return out
