"""Why ours differs from the eMMC swap paper, as a run of ``mobmem reproduce emmc-swap --json``
shows it (the scoreboard prints it beside a claim's verdict when it is N, D or C).

Standard library only, as the measurements (``measures/emmc_swap.py``).
"""

from __future__ import annotations

from typing import Any

#: Claims no run produces, and what the phone model does not meter for them.
UNMETERED = {
    "no device time": (
        *(f"table6-write-time-{s}" for s in ("on", "off", "gap")),
        *(f"table6-read-time-{s}" for s in ("on", "gap")),
        *(f"table7-{k}-time-{s}" for k in ("write", "read") for s in ("on", "off", "gap")),
        "table6-overhead-write-share",
        *(f"table9-{k}-bw" for k in ("total-write", "total-read", "swap-write", "swap-read")),
    ),
    "no request sizes": (
        *(f"table8-write-{k}-share" for k in ("4k", "8k", "16k", "32k", "64k", "128k", "packed")),
        *(f"table8-read-{k}-share" for k in ("4k", "8k", "16k", "32k", "64k", "128k", "256k")),
        "table8-packed-size-min",
        "table8-packed-size-max",
        "table8-packed-swap-out-mb",
    ),
    "no request addresses": (
        *(f"table9-{k}" for k in ("swap-write-seq", "swap-read-seq", "total-write-seq", "total-read-seq")),
        "table9-swap-more-sequential",
    ),
}
#: Claims no run produces because they are not the paper's experiment.
CITED = (
    "intro-emmc-io-7-7x",
    "sec2c-hs200-command-4x",
    "sec2c-hs200-data-2x",
    "sec2c-tlc-endurance-1000x-worse",
    "conclusion-slc-endurance-100x",
)
#: Claims about single reloading rounds.
PER_ROUND = ("fig7-case4-round2-like-first", "fig7-case4-resumes-rounds-3-4", "fig7-case4-rounds-3-4-gain")
WHAT = {
    "no device time": "the phone model meters pages and requests by device but not the device time of"
    " reads and writes apart (its queues time each request but keep no per-direction busy time)",
    "no request sizes": "the phone model meters requests and pages but keeps no histogram of request"
    " sizes, and it does not model eMMC packed commands",
    "no request addresses": "the phone model keeps no block addresses, so a request cannot be sequential"
    " or not",
}
#: Claims of the ten first loads (Table VI's runs), set by how much they write to swap.
FIRST_LOADS = (
    "table6-write-mb-on",
    "table6-write-mb-gap",
    "table6-read-mb-on",
    "table6-read-mb-gap",
    "first-load-overhead",
    "fig9-first-load-energy",
)
#: Claims of the in-order switching (Tables VII and IX), set by how much the games write to swap.
SWAP_VOLUME = (
    "table7-write-mb-on",
    "table7-write-mb-gap",
    "table7-read-mb-gap",
    "table7-write-ratio",
    "table9-swap-write-mb",
    "table9-swap-read-mb",
    "table9-swap-read-share-of-reads",
)


def causes(res: dict[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for cid in CITED:
        out[cid] = (
            "not measured: a device fact the paper cites (eMMC generations, NAND endurance), not its experiment"
        )
    for cid in PER_ROUND:
        out[cid] = "not measured: the result keeps each case's totals, not its launches round by round"
    for kind, ids in UNMETERED.items():
        for cid in ids:
            out[cid] = f"not measured: {WHAT[kind]}"
    c3 = res["stated"]["cases"]["3"]
    p = res["paper"]
    others = "; ".join(
        f"'{r}' ({res['fits'][r]['value']:g}): {v['cases']['3']['swap_write_mb']:.0f} MB out,"
        f" {v['cases']['3']['swap_read_mb']:.0f} MB in"
        for r, v in res["readings"].items()
        if r != res["reading"]
    )
    volume = (
        f"case 3 writes {c3['swap_write_mb']:.0f} MB to swap and reads {c3['swap_read_mb']:.0f} MB back against"
        f" Table IX's {p['swap_write_mb']:g} and {p['swap_read_mb']:g}: under the reading '{res['reading']}'"
        f" ({res['fits'][res['reading']]['value']:g}, fitted to case 2's live apps) the games hold"
        f" {res['games_anon_mb']:.0f} MB of anon pages; the other readings, fitted to the same figure: {others}"
    )
    for cid in SWAP_VOLUME:
        out[cid] = volume
    on = res["stated"]["first_load"]["on"]
    others_first = "; ".join(
        f"'{r}': {v['first_load']['on']['swap_write_mb']:.0f} MB"
        for r, v in res["readings"].items()
        if r != res["reading"] and "first_load" in v
    )
    first = (
        f"the ten first loads with swap write {on['swap_write_mb']:.0f} MB to swap (Table VI: 33 MB more"
        f" writes with swap than without): under the reading '{res['reading']}' the games hold"
        f" {res['games_anon_mb']:.0f} MB of anon pages; the other readings, fitted to the same figure: {others_first}"
    )
    for cid in FIRST_LOADS:
        out[cid] = first
    out.update(_resumes(res))
    return out


def _resumes(res: dict[str, Any]) -> dict[str, str]:
    """Why the totals without swap differ: how many reloads find their game alive, and the reloads'
    speed with swap."""
    c = res["stated"]["cases"]
    c2, c4 = c["2"], c["4"]
    if "reload_distances" not in c2:
        return {}
    d = c2["reload_distances"]
    if not d:
        return {}
    live = c2["live_reload"]
    within = sum(1 for x in d if x < round(live))
    cut24 = 100.0 * (c2["total_s"] / c4["total_s"] - 1)
    p = res["paper"]
    why24 = (
        f"case 2 keeps {live:.1f} games alive through its reloads (the fit) but resumes {c2['resumed']} of"
        f" its {len(d)} reloads: each round plays the ten games in a new random order, so a reloaded game"
        f" was last played {sum(d) / len(d):.1f} other games before on average (in order: 9), and"
        f" {within} of the {len(d)} follow fewer than {round(live)} other games (this run's order, seed"
        f" {res.get('seed')}; the ledger moves the seed)"
    )
    # What a resume saves here: a cold reload in case 4 against a resumed one in case 1 (in order, swap).
    c1 = c["1"]
    save = c4["reload_mean_s"] - c1["reload_mean_s"]
    if save > 0:
        need = p["cut_2_vs_4_pct"] / 100.0 * c4["total_s"] / save
        why24 += (
            f". A resume saves about {save:.1f} s here (a reload without swap, case 4, against one with swap,"
            f" case 1), so the paper's {p['cut_2_vs_4_pct']:g}% of case 4's {c4['total_s']:.0f} s needs about"
            f" {need:.0f} resumes"
        )
    at_paper = 100.0 * (c1["total_s"] / (c4["total_s"] * (1 + p["cut_2_vs_4_pct"] / -100.0)) - 1)
    why12 = (
        f"case 2 is {cut24:+.1f}% against case 4 (the paper {-p['cut_2_vs_4_pct']:+g}%: {c2['resumed']} of its reloads resume, for the"
        f" reason beside that claim), and with"
        f" swap a reload is {res['stated']['reload_speedup_pct']:.1f}% faster than a first load (the paper"
        f" {p['reload_speedup_pct']:g}%; the report's table of the assumed resume moves it). With case 2 at the paper's {p['cut_2_vs_4_pct']:g}% below case 4 the cut"
        f" would be {at_paper:+.1f}%"
    )
    return {"fig7-total-cut-case2-vs-case4": why24, "fig8-total-cut-swap-vs-case2": why12}
