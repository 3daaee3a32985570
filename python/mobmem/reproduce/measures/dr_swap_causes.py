"""Why a claim of claims/dr-swap.toml is not reproduced, as a run of ``mobmem reproduce dr-swap
--json`` shows it: printed beside the claim's verdict (N, D or C) by the scoreboard.

Standard library only, as the measurements (``measures/dr_swap.py``).
"""

from __future__ import annotations

from typing import Any

from .dr_swap import CATS, SIZES, _mean, apps_cell

#: Claims no run of the reproduction produces, and why.
NOT_RUN = {
    "intro-s3-dram-energy-share": "not measured: a measurement of another phone the paper cites",
    "fig2-killed-1gb-no-swap": "not measured: Fig. 2's workload is not described, so it is not run",
    "fig2-killed-1gb-128mb-flash-swap": "not measured: Fig. 2's workload is not described, so it is not run",
    "fig2-swap-reduces-kills": "not measured: Fig. 2's workload is not described, so it is not run",
    "fig3-swap-increases-block-io": "not measured: Fig. 3's workload is not described, so it is not run",
}


def causes(res: dict[str, Any]) -> dict[str, str]:
    """Why a claim is not reproduced, as this run shows it (printed beside its verdict when it is N,
    D or C): whose pages the swap-ins are, whether the swap area filled, what a resume waited for."""
    out: dict[str, str] = dict(NOT_RUN)
    reading = res.get("settings", {}).get("reading", "readahead")
    table = res.get("table_iv", {}).get(reading)
    if not table:
        return out
    runs = [x for d in table.values() for x in d.values()]
    app = sum(x["app_swap_faults_dr_off"] for x in runs)
    sysf = sum(x["system_swap_faults_dr_off"] for x in runs)
    filled = {mb: sum(table[c][mb]["swap_full_dr_off"] for c in table if mb in table[c]) for mb in SIZES}
    peak = max(x["peak_swap_mib_dr_off"] for x in runs)
    same = sum(len({table[c][mb]["swap_ins_dr_off"] for mb in SIZES if mb in table[c]}) == 1 for c in table)
    whose = (
        f"in the Table IV runs (DR off, three sizes) {app:,} swap faults were the apps' and {sysf:,} the"
        " assumed system processes'"
    )
    size = (
        f"the swap area filled in {filled['128']}/{filled['256']}/{filled['512']} of {len(table)} categories at"
        f" 128/256/512 MB (largest use {peak:.0f} MiB), and {same} of {len(table)} categories swap in exactly"
        f" the same at all three sizes: an area that does not fill cannot matter; {whose}"
    )
    alone = res.get("apps_alone") or []
    if alone:
        killing = [p["reserved_mib"] for p in alone if p["kills"]]
        swapping = [p["reserved_mib"] for p in alone if p["app_swap_faults"] > 0]
        if swapping:
            size += (
                f"; with that process idle the apps swap only from {swapping[0]} MiB kept from apps, and the"
                f" killer ends them from {killing[0] if killing else '—'} MiB"
            )
    for cid in (
        *(
            f"table4-avg-{t}-falls-{lo}-to-{hi}mb"
            for t in ("dr-off", "dr-on")
            for lo, hi in (("128", "256"), ("256", "512"))
        ),
        *(f"table4-average-{mb}mb-dr-{t}" for mb in ("256", "512") for t in ("off", "on")),
    ):
        out[cid] = size
    for name, key in CATS.items():
        if key not in table:
            continue
        rows = table[key]
        a = sum(x["app_swap_faults_dr_off"] for x in rows.values())
        s = sum(x["system_swap_faults_dr_off"] for x in rows.values())
        if a == 0 and s == 0:
            why = f"{key}: nothing swaps in (its apps and the system processes fit in the memory left)"
        else:
            why = f"{key}: its apps swap nothing of their own; its {s:,} swap faults (DR off, three sizes) are the system processes'"
            if a:
                why = f"{key}: {a:,} swap faults (DR off, three sizes) are its apps', {s:,} the system processes'"
        for mb in SIZES:
            for t in ("dr-off", "dr-on", "reduction"):
                out[f"table4-{name}-{mb}mb-{t}"] = why + ("" if mb == "128" else f"; {size}")
        if name not in ("mix1", "mix2"):  # Section V-D names the six categories' reductions only
            out[f"sec5d-{name}-reduction"] = why
    quiet = [
        k for k in CATS.values() if k in table and all(x["swap_ins_dr_off"] == 0 for x in table[k].values())
    ]
    if quiet:
        for cid in ("sec5d-dr-reduction-category-order", "sec5d-news-social-gain-most"):
            out[cid] = f"not measured where a category swaps nothing: {', '.join(quiet)}"
    with_ins = [
        (red, c, mb, x)
        for c, d in table.items()
        for mb, x in d.items()
        if (red := apps_cell(x)[2]) is not None
    ]
    if not with_ins:
        for cid in ("sec5d-dr-reduction-range-low", "sec5d-dr-reduction-range-high"):
            out[cid] = f"not measured: the apps swap in nothing in any Table IV cell; {whose}"
    if with_ins:
        red, c, mb, x = max(with_ins, key=lambda t: t[0])
        out["sec5d-dr-reduction-range-high"] = (
            f"the highest is {c}'s at {mb} MB, {red:.1f}%: its {x['swap_ins_dr_off']:,} swap-ins (DR off) come"
            f" from {x['system_swap_faults_dr_off']:,} swap faults of the assumed system processes and"
            f" {x['app_swap_faults_dr_off']:,} of its apps, so Direct Read's cut there is the system"
            " processes' (their write share is assumed), not the category's"
            if x["app_swap_faults_dr_off"] < x["system_swap_faults_dr_off"]
            else f"the highest is {c}'s at {mb} MB, {red:.1f}% ({x['swap_ins_dr_off']:,} swap-ins, DR off;"
            f" {x['app_swap_faults_dr_off']:,} swap faults of its apps): the assumed write shares set it"
        )
    sw = res.get("switching", {}).get("categories")
    if sw:
        pts = [r for c in sw.values() for r in c["sizes"].values()]
        wait = _mean([r["flash"]["swap_wait_ms"] + r["flash"]["reclaim_wait_ms"] for r in pts])
        resume_s = res["switching"].get("resume_cpu_s")
        why = f"a switch with flash swap waited {wait:.2f} ms on average for swap and reclaim"
        if resume_s and wait < 0.005 * resume_s * 1e3:
            why += (
                f", under 0.5% of the {resume_s} s resume CPU input: the apps' pages stayed in memory ({whose}),"
                " so every scheme's delay is that input"
            )
        else:
            why += f" of a {resume_s} s resume CPU input ({whose})"
        for cid in (
            "fig8-delay-ordering",
            "fig8-dr-swap-faster-than-flash-everywhere",
            "fig8-dr-swap-vs-flash-average",
            "fig8-browser-vs-flash",
            "fig8-news-smallest-improvement",
            *(
                f"fig8-dr-swap-below-dram-{n}"
                for n in ("social-networking-128mb", "news-512mb", "multimedia-512mb", "gaming-512mb")
            ),
            *(f"table5-{n}-{e}-improvement" for n in CATS for e in ("min", "max")),
        ):
            out[cid] = why
    return out
