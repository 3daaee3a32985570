"""Why ours differs from the A2S paper, as a run of ``mobmem reproduce a2s --json`` shows it: the
lines of the report's "Why ours differs", each with the claims of claims/a2s.toml it explains (the
scoreboard prints it beside their verdict when they are N, D or C).

Standard library only, as the measurements (``measures/a2s.py``).
"""

from __future__ import annotations

from typing import Any

#: Fig. 9's Crisp shares, which the line on resume CPU time explains.
FIG9 = ("fig9-van-crisp", "fig9-van-s-crisp")
SWAP_IN_CUT = ("fig8-a2s-swap-in-reduction", "fig8-a2s-swap-in-mb")


def _pct(a: float, b: float) -> float:
    return 100.0 * (a - b) / b if b else float("nan")


def lines(res: dict[str, Any]) -> list[tuple[tuple[str, ...], str]]:
    """The report's lines of why ours differs, each with the claims it explains."""
    g = res["workloads"]["large"]
    out: list[tuple[tuple[str, ...], str]] = []
    a, b = g["a2s"], g["a2s_apps"]
    if all(a[k]["mean"] == b[k]["mean"] for k in ("resumes", "swap_in_mb", "swap_out_mb")):
        sweep = res["t_reuse"]
        top = sweep[max(sweep, key=int)]
        same = [int(t) for t, p in sweep.items() if p["swap_out_mb"]["mean"] == top["swap_out_mb"]["mean"]]
        out.append(
            (
                ("fig6-resumes-as-van-s-at-treuse-64", "fig7-traffic-slows-at-treuse-64"),
                "- The two readings of the reuse distance (launches, apps) give the same run: distinct "
                "apps in between never outnumber launches in between, and the T_reuse sweep (in launches) "
                f"is flat from {min(same)} on, so at 64 every app launched T_launched (3) times or more is "
                "below the threshold in either unit: T_launched alone decides.",
            )
        )
    ess, lvsp = res.get("t_live", {}).get("18"), res.get("t_reuse", {}).get("64")
    if ess and lvsp:
        full = g["van_s"]["swap_out_mb"]["mean"]

        def cut(p: dict[str, Any]) -> float:
            return 100.0 * (p["swap_out_mb"]["mean"] / full - 1) if full else 0.0

        few, many = "swap_out_apps_under_3_mb", "swap_out_apps_3_plus_mb"
        van_s = g["van_s"]
        out.append(
            (
                (),
                f"- Each part's share of A2S's swap-out cut ({cut(g['a2s']):+.1f}% against VAN+S): ESS alone "
                f"(T_live 18, T_reuse off) {cut(ess):+.1f}%, LVSP alone (T_reuse 64, T_live off) "
                f"{cut(lvsp):+.1f}%. The paper attributes LVSP's cut to T_launched (Section 5.3); here the "
                f"larger part is {'ESS' if cut(ess) < cut(lvsp) else 'LVSP'}'s."
                + (
                    f" LVSP alone keeps the apps launched fewer than three times out of swap ({van_s[few]['mean']:.0f}"
                    f" MB of swap-outs under VAN+S, {lvsp[few]['mean']:.0f} MB under LVSP), but reclaim then swaps"
                    f" the other apps' pages instead: theirs rise from {van_s[many]['mean']:.0f} to"
                    f" {lvsp[many]['mean']:.0f} MB, with {lvsp['kills']['mean']:.1f} kills against VAN+S's"
                    f" {van_s['kills']['mean']:.1f}."
                    if few in van_s and few in lvsp
                    else ""
                ),
            )
        )
    van = g["van"]
    share = 100.0 * van["cpu_system_s"]["mean"] / van["cpu_user_s"]["mean"]
    out.append(
        (
            ("fig11-van-s-system-vs-van", "fig11-a2s-total-vs-van"),
            f"- System CPU: ours counts memory-management events only (VAN's is {share:.1f}% of its user "
            "time); /proc/stat's system time holds all kernel work, so the same swap time is a larger "
            "relative increase here.",
        )
    )
    out.extend(_lifetimes(res))
    out.extend(_ess(res))
    a2s_ = g["a2s"]
    n3, k3 = a2s_["apps_launched_3_plus"]["mean"], a2s_["kills_of_apps_launched_3_plus"]["mean"]
    once = res.get("real_once_share") or {}
    if once:
        out.append(
            (
                (),
                f"- Large's 21 rare apps are launched once each by default: in the real usage windows "
                f"{once['mean']:.0f}% of the apps launched fewer than three times are launched once "
                f"({once['min']:.0f}–{once['max']:.0f}% per user).",
            )
        )
    dead = a2s_.get("lifetime_cdf", {}).get("4000", {}).get("mean")
    times = {1: "once", 2: "at most twice"}.get(res.get("rare_launches", 0), "as the stack model falls")
    out.append(
        (
            (),
            f"- Launch counts: {n3:.1f} of the 36 generated apps are launched three times or more (the "
            f"paper's Large: 15); the generator is given Section 5.3's 21 apps launched fewer, each {times}, "
            "and apps arriving late fall short too. LVSP admits only the frequent apps' pages, and "
            f"{k3:.1f} of A2S's {a2s_['kills']['mean']:.1f} kills hit those apps"
            + (
                f": {dead:.2f}% of A2S's slots die with their owner within 4,000 s (the paper: < 1%)."
                if dead is not None
                else "."
            ),
        )
    )
    if "resumes_cpu_only_pct" in van:
        crisp = van["ux_classes"]["crisp"]["mean"]
        out.append(
            (
                FIG9,
                f"- Fig. 9's Crisp share (VAN {crisp:.1f}%, the paper 23.6%): "
                f"{van['resumes_cpu_only_pct']['mean']:.0f}% of VAN's resumes wait for nothing, so a "
                f"resume takes its app's assumed resume CPU time; the median resume takes "
                f"{van['resume_ms_p50']['mean']:.0f} ms, against the Crisp bound of {van['crisp_ms']['mean']:.0f} "
                "ms. The catalog's default resume CPU sits on that bound and resumes do not vary around "
                "it, so the Crisp share is set by which categories' assumed resume CPU is below it: an "
                "input, not a prediction.",
            )
        )
    van_s = g["van_s"]
    if "ux_cpu_only_pct" in van_s:
        at_cpu = van_s["ux_cpu_only_pct"]["noticeable"]["mean"]
        out.append(
            (
                ("fig9-van-s-noticeable",),
                f"- Fig. 9's Noticeable share (VAN+S {van_s['ux_classes']['noticeable']['mean']:.1f}%, the paper "
                f"62.4%): {at_cpu:.1f} points of it are resumes that waited for nothing, whose time is their "
                f"app's assumed resume CPU time (Noticeable from {van_s['crisp_ms']['mean']:.0f} ms, where the "
                "catalog's default resume CPU sits): an input, not a prediction.",
            )
        )
    out.extend(_launch_classes(res))
    for w, p in (res.get("real_workloads") or {}).items():
        van_r, van_s = p["van"], p["van_s"]
        if "resumable" not in van_r:
            continue
        gain, room = van_s["resumes"]["mean"] - van_r["resumes"]["mean"], van_r["resumable"]["mean"]
        out.append(
            (
                (),
                f"- Real usage, {w}: VAN+S resumes {gain:+.1f} launches against VAN, which already resumes "
                f"{van_r['resumes']['mean']:.0f} of the {room:.0f} launches that can resume (every launch but "
                f"each app's first), leaving swap at most {room - van_r['resumes']['mean']:.0f} to gain; "
                f"at most {van_r['live_apps_max']['mean']:.0f} apps are alive at once without swap.",
            )
        )
    small = res["workloads"]["small"]["van_s"]
    around = {int(r): p for r, p in res.get("small_reserved", {}).items()}
    around[res["reserved_mib"]] = small
    if len(around) > 1:
        pts = ", ".join(
            f"{around[r]['swap_out_mb']['mean']:.1f} MB at {r} MiB"
            + (f" ({res['how'].split()[0]})" if r == res["reserved_mib"] else "")
            for r in sorted(around)
        )
        resumes = sorted({round(p["resumes"]["mean"], 1) for p in around.values()})
        van_small = res["workloads"]["small"]["van"]["resumes"]["mean"]
        out.append(
            (
                ("fig3b-small-van-s-swap-out",),
                f"- Small's swap-out is set by the memory kept from apps (the fitted parameter): {pts} "
                f"(the paper: 78.8 MB), while VAN+S resumes {' to '.join(f'{x:g}' for x in resumes)} "
                f"launches at each (VAN: {van_small:g}).",
            )
        )
    pc0 = res["page_cluster_0"]
    out.append(
        (
            ("fig3b-small-van-s-swap-in",),
            f"- Small's swap-in: {small['swap_in_fault_mb']['mean']:.1f} MB are read by swap faults (the "
            f"paper's whole count: 3.0 MB), {small['swap_readahead_mb']['mean']:.1f} MB by read-around (the "
            "phone's page_cluster 3, Linux's default, reads 8-slot clusters). The paper names neither its "
            f"count's source nor its page-cluster; with page_cluster 0 Small reads "
            f"{pc0['small']['van_s']['swap_in_mb']['mean']:.1f} MB, but Large "
            f"{pc0['large']['van_s']['swap_in_mb']['mean']:.0f} MB (paper 591.5): no one setting matches both.",
        )
    )
    if not all(g[s]["swap_out_mb"]["mean"] > 0 for s in ("a2s", "van_s")):
        return out
    P = res["paper"]
    v_out, a_out = g["van_s"]["swap_out_mb"]["mean"], g["a2s"]["swap_out_mb"]["mean"]
    pv, pa = P["swap_mb"]["large"]["out"], P["a2s_swap_mb"]["large"]["out"]
    out.append(
        (
            ("fig3b-large-van-s-swap-out", "fig8-a2s-swap-out-mb"),
            f"- Swap-out on Large: A2S's is {_pct(a_out, v_out):+.1f}% against VAN+S's (the paper "
            f"{_pct(pa, pv):+.1f}%), and both are the same fraction of the paper's: VAN+S {v_out:.0f} of "
            f"{pv:,.0f} MB (×{v_out / pv:.2f}), A2S {a_out:.0f} of {pa:.1f} (×{a_out / pa:.2f}). A2S keeps the "
            "paper's share of VAN+S's swap-out; the level is VAN+S's, which the assumed inputs move (the "
            "scoreboard's sensitivity names them).",
        )
    )

    def ratio(p: dict[str, Any]) -> float:
        return float(p["swap_in_mb"]["mean"] / p["swap_out_mb"]["mean"])

    ra, rv = ratio(g["a2s"]), ratio(g["van_s"])
    # MB read back per MB written to swap, Large (section 5.4's text).
    pr = {"van_s": P["swap_mb"]["large"]["in"] / P["swap_mb"]["large"]["out"]}
    pr["a2s"] = P["a2s_swap_mb"]["large"]["in"] / P["a2s_swap_mb"]["large"]["out"]
    tl = res["t_launched"]
    cuts = [_pct(p["swap_in_mb"]["mean"], g["van_s"]["swap_in_mb"]["mean"]) for p in tl.values()]
    pc_cut = _pct(pc0["large"]["a2s"]["swap_in_mb"]["mean"], pc0["large"]["van_s"]["swap_in_mb"]["mean"])
    out.append(
        (
            SWAP_IN_CUT,
            f"- A2S's swap-in cut is its swap-out cut with more of what it writes read back: ours reads "
            f"{ra:.2f} MB per MB written against VAN+S's {rv:.2f} (×{ra / rv:.2f}), the paper "
            f"{pr['a2s']:.2f} against {pr['van_s']:.2f} (×{pr['a2s'] / pr['van_s']:.2f}). Ruled out as the "
            f"cause: read-around (page_cluster 0: {pc_cut:+.1f}%) and which apps LVSP admits (T_launched "
            f"{min(tl, key=int)}–{max(tl, key=int)}: {min(cuts):+.1f} to {max(cuts):+.1f}%). Why A2S's "
            "pages come back less often here than on the paper's phone is not explained yet.",
        )
    )
    return out


def _lifetimes(res: dict[str, Any]) -> list[tuple[tuple[str, ...], str]]:
    """Why VAN+S's slots die later (Large) and fewer (Medium) than on the paper's phone."""
    out: list[tuple[tuple[str, ...], str]] = []
    w = res["workloads"]
    vs, P = w["large"]["van_s"], res["paper"]["lifetime_van_s_pct"]
    cdf = {k: v["mean"] for k, v in vs["lifetime_cdf"].items()}
    died = cdf[max(cdf, key=float)]
    if died > 0:
        late = 100.0 * (cdf["2000"] - cdf["1000"]) / died
        out.append(
            (
                ("fig10-van-s-dead-60s", "fig10-van-s-dead-1000s"),
                f"- Slot lifetimes (a slot dies with its owner, the paper's definition): VAN+S's slots die "
                f"only when the killer ends their app, {vs['kills']['mean']:.1f} kills on Large "
                f"({vs['kills_of_apps_launched_3_plus']['mean']:g} of them of apps launched three times or more). By "
                f"2,000 s {cdf['2000']:.1f}% have died (the paper {P['2000']}%)"
                + (", as many, but later" if abs(cdf["2000"] - P["2000"]) <= 0.25 * P["2000"] else "")
                + f": {cdf['60']:.2f}% within 60 s and {cdf['1000']:.1f}% within 1,000 s (the paper "
                f"{P['60']} and {P['1000']}%); {late:.0f}% of the slots that die here die 1,000–2,000 s after "
                "they are written. Counting a slot freed by a rewrite as dead "
                f"too, {vs['lifetime_cdf_any_end']['2000']['mean']:.1f}% die within 2,000 s.",
            )
        )
    med, van = w["medium"]["van_s"], w["medium"]["van"]
    cdf_m = {k: v["mean"] for k, v in med["lifetime_cdf"].items()}
    out.append(
        (
            ("fig1-lifetime-medium-dead-1000s",),
            f"- Medium: VAN+S kills {med['kills']['mean']:.1f} apps in the run (VAN {van['kills']['mean']:.1f}), "
            f"so few slots lose their owner: {cdf_m['1000']:.2f}% within 1,000 s and "
            f"{cdf_m[max(cdf_m, key=float)]:.2f}% by the end. Swap keeps nearly every app of Medium alive here.",
        )
    )
    return out


def _ess(res: dict[str, Any]) -> list[tuple[tuple[str, ...], str]]:
    """ESS alone (the T_live sweep) at its ends: where it swaps nothing, and where it still binds."""
    tl = sorted(((float(t), p) for t, p in res.get("t_live", {}).items()), key=lambda tp: tp[0])
    if len(tl) < 2:
        return []
    out: list[tuple[tuple[str, ...], str]] = []
    g = res["workloads"]["large"]
    none = [t for t, p in tl if p["swap_out_mb"]["mean"] == 0 and p["swap_in_mb"]["mean"] == 0]
    first = next(((t, p) for t, p in tl if p["swap_out_mb"]["mean"] > 0), None)
    if none and first:
        out.append(
            (
                ("fig4-ess-small-tlive-resume-gain",),
                f"- ESS at a small T_live: at T_live {' and '.join(f'{t:g}' for t in none)} ESS swaps nothing "
                f"(0 MB in and out; {tl[0][1]['resumes']['mean']:g} resumes, VAN "
                f"{g['van']['resumes']['mean']:g}). ESS allows swap while fewer than T_live apps are live, so "
                f"this phone never reclaims by swap with fewer than {max(none):g} apps alive; ESS first swaps at "
                f"T_live {first[0]:g} ({first[1]['swap_out_mb']['mean']:.1f} MB out). The paper's gain at a small "
                "T_live needs its phone to reclaim with fewer apps alive.",
            )
        )
    (t_top, top), (t_below, below) = tl[-1], tl[-2]
    vs = g["van_s"]

    def traffic(p: dict[str, Any]) -> float:
        return float(p["swap_in_mb"]["mean"] + p["swap_out_mb"]["mean"])

    live = top.get("live_apps_by_launch") or []
    at_top = sum(1 for x in live if x >= t_top)
    out.append(
        (
            ("fig5-traffic-plateau-tlive-22", "fig5-ess-swap-in-above-van-s"),
            f"- ESS at T_live {t_top:g}: it stops swapping while {t_top:g} apps are live, "
            + (
                f"which the run reaches (after {at_top} of its {len(live)} launches, first seed"
                if at_top
                else f"which the first seed never reaches ({len(live)} launches"
            )
            + f"; VAN+S holds up to {vs['live_apps_max']['mean']:g}). Its traffic is "
            + ("still rising" if traffic(top) > traffic(below) else "no longer rising")
            + f" ({traffic(top):.0f} MB in and out; "
            f"T_live {t_below:g}: {traffic(below):.0f}) and {_pct(traffic(top), traffic(vs)):+.0f}% against "
            f"VAN+S's {traffic(vs):.0f}, its swap-in {top['swap_in_mb']['mean']:.0f} MB against "
            f"{vs['swap_in_mb']['mean']:.0f}. On the paper's phone, which also held up to 22, the traffic "
            "stopped rising at 22.",
        )
    )
    return out


def _launch_classes(res: dict[str, Any]) -> list[tuple[tuple[str, ...], str]]:
    """Medium's resume gain, Fig. 9's negative shares and A2S's user CPU: what each launch costs."""
    w = res["workloads"]
    out: list[tuple[tuple[str, ...], str]] = []
    med_v, med_s = w["medium"]["van"], w["medium"]["van_s"]
    missed = med_v["resumable"]["mean"] - med_v["resumes"]["mean"]
    out.append(
        (
            ("fig3a-medium-resume-gain",),
            f"- Medium's resume gain is what VAN leaves to swap: at the memory fitted to Large, VAN resumes "
            f"{med_v['resumes']['mean']:g} of Medium's {med_v['resumable']['mean']:g} launches that can resume "
            f"({med_v['kills']['mean']:.1f} kills) and VAN+S recovers "
            f"{med_s['resumes']['mean'] - med_v['resumes']['mean']:g} of the {missed:g} it misses. The paper's "
            "3.25 needs its VAN to miss few of Medium's resumes at that memory.",
        )
    )
    g = w["large"]
    if "ux_resumes_pct" not in g["van"]:
        return out
    neg = ("annoying", "unacceptable", "unusable")
    parts = {
        s: (
            g[s]["ux_negative_pct"]["mean"],
            sum(g[s]["ux_resumes_pct"][k]["mean"] for k in neg),
            100.0 * (1 - g[s]["resumes"]["mean"] / g[s]["launches"]["mean"]),
        )
        for s in ("van", "van_s", "a2s")
    }
    name = {"van": "VAN", "van_s": "VAN+S", "a2s": "A2S"}
    out.append(
        (
            ("fig9-van-s-negative", "fig9-negative-ordering"),
            "- Fig. 9's negative launches (Annoying and worse, from 1 s) are cold starts here: "
            + "; ".join(
                f"{name[s]} {n:.1f}% negative, of which resumes {r:.1f} points (cold starts are {c:.1f}% of "
                "its launches)"
                for s, (n, r, c) in parts.items()
            )
            + ". Resumes that wait for swap rarely reach a second, so fewer cold starts mean fewer negative launches"
            + (" and VAN+S falls below VAN" if parts["van_s"][0] < parts["van"][0] else "")
            + f". The paper's VAN+S resumes {res['paper']['resume_gain']['large']:g} more launches than VAN yet has "
            "more negative ones, so some of its resumes took a second or more.",
        )
    )
    van, a2s = g["van"], g["a2s"]
    if "cold_cpu_ms_mean" in van:
        cold_v = van["launches"]["mean"] - van["resumes"]["mean"]
        cold_a = a2s["launches"]["mean"] - a2s["resumes"]["mean"]
        out.append(
            (
                ("fig11-a2s-user-vs-van",),
                "- User CPU is the launches' assumed CPU time: VAN has "
                f"{cold_v:.1f} cold starts of {van['cold_cpu_ms_mean']['mean']:.0f} ms on average and "
                f"{van['resumes']['mean']:g} resumes of {van['resume_cpu_ms_mean']['mean']:.0f} ms, A2S "
                f"{cold_a:.1f} of {a2s['cold_cpu_ms_mean']['mean']:.0f} ms and {a2s['resumes']['mean']:g} of "
                f"{a2s['resume_cpu_ms_mean']['mean']:.0f} ms, so its user CPU is "
                f"{_pct(a2s['cpu_user_s']['mean'], van['cpu_user_s']['mean']):+.1f}% against VAN's: the cut "
                "follows from the kills avoided and the assumed cold-start and resume CPU times.",
            )
        )
    return out


#: Claims no run of the reproduction produces, and why.
NOT_RUN = {
    "pilot-swap-out-3-days": "not measured: the pilot's three days of the authors' own use are not available",
    "pilot-swap-out-share-of-writes": "not measured: the pilot's three days of the authors' own use are not available",
    "eq1-example-reuse-4.33-within-5": "not measured: a worked example of Eq. (1) in the text, not a run",
    "lvsp-example-current-reuse-distance": "not measured: a worked example of LVSP's reuse distance, not a run",
    "fig10-benchmark-length": "not measured: the paper's benchmark length; the generated usage has its own",
    "sec53-live-service-background-apps": "not measured: the result does not count the live apps by kind (with background work or without)",
}


def causes(res: dict[str, Any]) -> dict[str, str]:
    """Claim id → the line of :func:`lines` that explains it (without its bullet), and why the
    claims no run produces are not measured."""
    out: dict[str, str] = dict(NOT_RUN)
    for ids, text in lines(res):
        for cid in ids:
            out[cid] = text.removeprefix("- ")
    return out
