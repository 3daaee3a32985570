"""Our number for each claim of claims/emmc-swap.toml, from the reproduction's JSON
(`mobmem reproduce emmc-swap --json`).

Everything is read from `res["stated"]`, the reproduction's default reading (`res["reading"]`,
game-scale at its fitted value); the other readings under `res["readings"]`, the zram runs and the
resume sensitivity are not used. Cases: 1 random + swap, 2 random no swap, 3 in order + swap,
4 in order no swap (40 launches each); `first_load.{on,off}` are the ten first loads alone, in order
(Table VI's setting).

Sign convention: the paper's reductions are negative changes, so ours is 100*(a/b - 1), i.e. minus
the JSON's positive "cut" percentages (and minus its "% faster" reload speedup).

Not measured here (the JSON has no such meter): eMMC busy time per direction (Table VI/VII times,
71% write share, Table IX bandwidths), request-size histogram (Table VIII, packed sizes and MB),
sequentiality (Table IX Seq.), per-round launch sums (case 4 round 2 vs 1st, rounds 3-4 gain), and
the background device-spec claims (7.7x, HS200 4x/2x, endurance 1000x/100x).

Inputs (marked `input = true` in the TOML, left out here): Table VI swap-off read MB (sets each
game's file data), write MB (sets the per-launch metadata write) and read time (sets the cold-start
CPU share). Case 2's ~4 live apps is measured: it is the target the reading's value is fitted to
(verdict F).
"""

from __future__ import annotations

NOTES: dict[str, str] = {
    "abstract-more-apps-alive": "mean over the two orders of swap on minus off in live apps after each reload: ((case1-case2)+(case3-case4))/2",
    "abstract-loading-time-decreased": "mean over the two orders of swap on minus off in total time of the 40 launches: ((case1-case2)+(case3-case4))/2",
    "abstract-energy-reduced": "mean over the two orders of swap on minus off in modelled energy (active power x launch time + eMMC I/O energy): ((case1-case2)+(case3-case4))/2",
    "fig7-swap-order-insensitive": "100*(case 3 total / case 1 total - 1), 40 launches each",
    "fig7-case4-round2-live-apps": "resumes of case 4; measured only when case 4 resumes nothing in all three reload rounds (then round 2 has none), else left out (no per-round counts)",
    "fig7-case4-resumes-rounds-3-4": "case 4 resumes over all three reload rounds (no per-round counts in the JSON; the paper's round 2 has none)",
    "fig7-case2-more-live-than-case4": "mean live apps after each reload (live_reload), case 2 minus case 4; not the resume counts",
    "fig8-swap-all-apps-alive": "case 1 mean live apps after each reload (live_reload); not resumes out of 30",
    "fig8-swap-no-kills-in-order": "case 3 kills over its 40 launches",
    "fig8-reload-speedup": "case 1 mean reload time vs mean first-load time, 100*(reload/first - 1) (76% read as time cut, not a 1.76x speed ratio)",
    "fig8-total-cut-swap-vs-case4": "'swap' read as case 1 (random, the Fig. 8 paragraph's case; Fig. 10 states case 1 vs 4), not Table VII's case 3",
    "first-load-overhead": "Table VI runs (ten first loads in order, rounds 0): swap on total minus swap off total",
    "fig9-first-load-energy": "modelled energy of the Table VI runs (active power x launch time + eMMC I/O energy, as Fig. 10), 100*(on/off - 1); not time x active power alone",
    "table7-total-time-on": "all 40 launches of case 3, first loads included",
    "table7-total-time-off": "all 40 launches of case 4, first loads included",
}


def _get(d, *path):
    for k in path:
        if not isinstance(d, dict) or k not in d:
            return None
        d = d[k]
    return d


def _num(x) -> float | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    return float(x)


def _pct_change(a, b) -> float | None:
    a, b = _num(a), _num(b)
    if a is None or b is None or b == 0:
        return None
    return 100.0 * (a / b - 1.0)


def _diff(a, b) -> float | None:
    a, b = _num(a), _num(b)
    if a is None or b is None:
        return None
    return a - b


def measure(res: dict) -> dict[str, object]:
    s = res.get("stated") or {}
    c = {str(k): v for k, v in (s.get("cases") or {}).items()}
    fl = s.get("first_load") or {}
    on, off = fl.get("on") or {}, fl.get("off") or {}

    def case(n: int, key: str) -> float | None:
        return _num(_get(c, str(n), key))

    out: dict[str, object] = {}

    def put(cid: str, v) -> None:
        if v is not None:
            out[cid] = float(v)

    def both_orders(key: str) -> float | None:
        r = _diff(case(1, key), case(2, key))
        o = _diff(case(3, key), case(4, key))
        if r is None or o is None:
            return None
        return (r + o) / 2.0

    # abstract (directions: swap on minus swap off, mean over the two orders)
    put("abstract-more-apps-alive", both_orders("live_reload"))
    put("abstract-loading-time-decreased", both_orders("total_s"))
    put("abstract-energy-reduced", both_orders("energy_j"))

    # Fig. 7
    put("fig7-swap-order-insensitive", _pct_change(case(3, "total_s"), case(1, "total_s")))
    totals = {n: case(int(n[-1]), "total_s") for n in ("case1", "case2", "case4")}
    if all(v is not None for v in totals.values()):
        # A tie is broken against the paper's order (case1 < case2 < case4): the later first.
        out["fig7-total-time-ordering"] = sorted(totals, key=lambda n: (totals[n], -int(n[-1])))
    r4 = case(4, "resumed")
    if r4 is not None and r4 == 0:
        put("fig7-case4-round2-live-apps", r4)
    put("fig7-case4-resumes-rounds-3-4", r4)
    put("fig7-case2-live-apps", case(2, "live_reload"))
    put("fig7-case2-more-live-than-case4", _diff(case(2, "live_reload"), case(4, "live_reload")))
    put("fig7-total-cut-case2-vs-case4", _pct_change(case(2, "total_s"), case(4, "total_s")))

    # Fig. 8
    put("fig8-swap-all-apps-alive", case(1, "live_reload"))
    put("fig8-swap-no-kills-in-order", case(3, "kills"))
    put("fig8-reload-speedup", _pct_change(case(1, "reload_mean_s"), case(1, "first_mean_s")))
    put("fig8-total-cut-swap-vs-case4", _pct_change(case(1, "total_s"), case(4, "total_s")))
    put("fig8-total-cut-swap-vs-case2", _pct_change(case(1, "total_s"), case(2, "total_s")))
    put("first-load-overhead", _diff(on.get("total_s"), off.get("total_s")))

    # Figs. 9, 10 (energy)
    put("fig9-first-load-energy", _pct_change(on.get("energy_j"), off.get("energy_j")))
    put("fig10-energy-cut-case1-vs-case4", _pct_change(case(1, "energy_j"), case(4, "energy_j")))

    # Table VI (ten first loads in order); swap-off read/write MB are inputs, left out
    put("table6-total-time-on", _num(on.get("total_s")))
    put("table6-total-time-off", _num(off.get("total_s")))
    put("table6-write-mb-on", _num(on.get("flash_write_mb")))
    put("table6-read-mb-on", _num(on.get("flash_read_mb")))
    put("table6-write-mb-gap", _diff(on.get("flash_write_mb"), off.get("flash_write_mb")))
    put("table6-read-mb-gap", _diff(on.get("flash_read_mb"), off.get("flash_read_mb")))

    # Table VII (cases 3 and 4, 40 launches)
    put("table7-total-time-on", case(3, "total_s"))
    put("table7-total-time-off", case(4, "total_s"))
    put("table7-write-mb-on", case(3, "flash_write_mb"))
    put("table7-write-mb-off", case(4, "flash_write_mb"))
    put("table7-read-mb-on", case(3, "flash_read_mb"))
    put("table7-read-mb-off", case(4, "flash_read_mb"))
    put("table7-total-time-gap", _diff(case(3, "total_s"), case(4, "total_s")))
    put("table7-write-mb-gap", _diff(case(3, "flash_write_mb"), case(4, "flash_write_mb")))
    put("table7-read-mb-gap", _diff(case(3, "flash_read_mb"), case(4, "flash_read_mb")))
    w3, w4 = case(3, "flash_write_mb"), case(4, "flash_write_mb")
    if w3 is not None and w4:
        put("table7-write-ratio", w3 / w4)

    # Table IX (case 3): volumes and shares
    put("table9-swap-write-mb", case(3, "swap_write_mb"))
    put("table9-swap-read-mb", case(3, "swap_read_mb"))
    sw, sr, fr = case(3, "swap_write_mb"), case(3, "swap_read_mb"), case(3, "flash_read_mb")
    if sw is not None and w3:
        put("table9-swap-write-share-of-writes", 100.0 * sw / w3)
    if sr is not None and fr:
        put("table9-swap-read-share-of-reads", 100.0 * sr / fr)

    return out
