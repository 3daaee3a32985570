"""``mobmem reproduce emmc-swap``: the eMMC swap paper (Lee et al., "Swap in Android app switching
on eMMC") — ten games loaded in order, then switched three more rounds, in random order or in order,
with swap on a 1 GB eMMC swap file or off (cases 1–4) — beside its Figs. 7–10 and Tables VI–IX.

Method: the ``gt-i9300`` phone at the paper's ~460 MB usable memory (Fig. 5), Jelly Bean's low memory
killer levels, linux-2q reclaim at swappiness 77, page-cluster 3, the eMMC's Table VIII bandwidths by
request size, file-system metadata per launch from Table VI; the ten games of Table V (sizes and
loading times measured; file data read at a cold start from Table VI in aggregate; the anon share,
resume CPU time and working sets assumed — see docs/SYSTEM.md). The next game is launched as soon as
the previous one has loaded.

Table V's games and their files fit in 460 MB, yet the paper's case 2 keeps only about four games
alive: the phone held more than the games' execution sizes account for. One quantity is fitted to
that figure (case 2: ~4 live apps during the reloads), under one of three readings of what held it
(``READINGS``). The default, ``game-scale``, follows the paper's own account (section III: the games'
data fills memory and the killer ends them; Fig. 5 leaves the ~460 MB to the user), not how well
any reading agrees; the report shows every reading. Everything else — Figs. 7–10, Tables VI, VII and IX — is a
prediction, judged by the one rule of the fidelity scoreboard (docs/FIDELITY.md); the report
shows the headline figures under every reading.

Beyond the paper, the cases with swap run again with zram (``zram-lz4``, compressed pages in the
usable memory) in place of the eMMC swap file.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from . import emmc_swap_report as rep
from .emmc_swap_report import CASES

#: Section III-B and Tables VI, VII and IX.
PAPER = {
    "cut_1_vs_4_pct": 54.0,
    "cut_1_vs_2_pct": 45.0,
    "cut_2_vs_4_pct": 17.0,
    "reload_speedup_pct": 76.0,
    "first_load_overhead_s": 1.53,
    "first_load_s": {"on": 68.49, "off": 66.96},
    "first_load_write_mb": {"on": 35.15, "off": 2.15},
    "first_load_read_mb": {"on": 189.01, "off": 186.91},
    "switching_total_s": {"on": 113.86, "off": 247.73},
    "write_mb": {"on": 89.66, "off": 7.13},
    "read_mb": {"on": 631.87, "off": 906.24},
    "swap_write_mb": 84.25,
    "swap_read_mb": 68.36,
    "write_ratio": 12.5,
    "case2_live_apps": 4.0,
    "energy_cut_1_vs_4_pct": 54.0,
    "first_load_energy_pct": 3.0,
}
USABLE_MB = 460
PHONE = "gt-i9300"
SWAP = "emmc-gt-i9300"
#: Beyond the paper: the same scenario with zram (of the swap file's size) instead of the eMMC.
ZRAM = "zram-lz4"
#: What held the memory the paper's games found missing: the fitted quantity, and its grid. Every
#: reading keeps the paper's 460 MB usable. ``game-scale`` makes each game's execution size k times
#: Table V's; ``framework`` holds X MiB of idle anon pages, which swap can take; ``held`` keeps X MiB
#: of it out of the games' reach and out of swap (memory never reclaimed: the same phone as usable
#: memory 460 − X).
READINGS: dict[str, tuple[str, tuple[float, ...]]] = {
    "game-scale": (
        "× each game's execution size (its file data stays Table VI's)",
        tuple(round(1.0 + 0.1 * i, 1) for i in range(41)),
    ),
    "framework": (
        "MiB of idle anon pages of a resident framework process (swappable)",
        tuple(float(x) for x in range(0, 401, 10)),
    ),
    "held": (
        "MiB of the 460 held out of the games' reach and out of swap",
        tuple(float(x) for x in range(0, 301, 10)),
    ),
}
DEFAULT_READING = "game-scale"
#: Sensitivity of the reloads to the assumed resume: games' working set and CPU time.
RESUME_SHARES = (0.3, 0.6, 1.0)
RESUME_CPU_S = (0.25, 0.5, 1.0)
#: Beyond the paper: zram again with the killer's levels scaled by this.
LEVELS_FACTOR = 0.5


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rounds", type=int, default=3, help="reload rounds after the first (paper: 3)")
    p.add_argument(
        "--reading", choices=tuple(READINGS), default=DEFAULT_READING, help="what held the missing memory"
    )
    p.add_argument("--value", type=float, help="the reading's quantity instead of the fit (MiB, k or MB)")
    p.add_argument("--seed", type=int, default=7, help="seed of the random orders")
    p.add_argument(
        "--gap-s",
        type=float,
        default=0.0,
        help="seconds from a game's load to the next launch (assumed: the paper says only that it follows)",
    )
    p.add_argument("--threads", type=int, default=0, help="worker threads (0: all cores)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")


class Variant:
    """The phone and apps of one reading at one value: the jobs' overrides and an apps file."""

    def __init__(self, reading: str, value: float, tmp: Path) -> None:
        from ..phone import EMMC_APPS, apps, phones

        self.reading, self.value = reading, value
        self.over: dict[str, Any] = {}
        self.apps: Path | None = None
        if reading == "framework":
            system = phones()[PHONE]["system"]
            fw = {"name": "framework", "adj": -900, "anon_mib": value, "file_mib": 0.0}
            self.over["system"] = [*system, fw] if value > 0 else system
        elif reading == "game-scale":
            size = {a["name"]: a["size_mib"] for a in apps()}
            self.apps = tmp / f"games-{value}.toml"
            self.apps.write_text(
                "".join(f'[apps."{g}"]\nsize_mib = {size[g] * value}\n\n' for g in EMMC_APPS)
            )
        else:
            self.over["reserved"] = f"{1024 - USABLE_MB + round(value)}MiB"

    def job(self, random: bool, swap: bool | str, args: argparse.Namespace, **extra: Any) -> dict[str, Any]:
        """A case; ``swap`` is on (the eMMC swap file), off, or another swap device's name."""
        from ..phone import job, rounds

        usage = rounds(random=random, rounds=args.rounds, seed=args.seed, gap_s=args.gap_s)
        device = swap if isinstance(swap, str) else SWAP if swap else "off"
        over = {**self.over, "swap": device, **extra}
        if device == ZRAM:
            # Android sets vm.page-cluster to 0 with zram: reading ahead would only decompress more.
            over["page_cluster"] = 0
        return job(usage, PHONE, seed=args.seed, **over)

    def run(
        self, jobs: list[dict[str, Any]], args: argparse.Namespace, apps: Path | None = None
    ) -> list[Any]:
        from ..experiment.runner import phone_grid

        return list(phone_grid(jobs, threads=args.threads, apps=apps or self.apps))


def _case(r: Any) -> dict[str, Any]:
    m = r.meters
    ls = r.launches
    first, reload = ls[:10], ls[10:]
    mb = 4096 / 1e6
    active_w = r.config["phone"]["active_mw"] / 1e3
    return {
        "total_s": m["total_launch_ms"] / 1e3,
        "first_s": sum(x["latency_ms"] for x in first) / 1e3,
        "reload_s": sum(x["latency_ms"] for x in reload) / 1e3,
        "first_mean_s": sum(x["latency_ms"] for x in first) / 1e3 / max(len(first), 1),
        "reload_mean_s": sum(x["latency_ms"] for x in reload) / 1e3 / max(len(reload), 1),
        "live_reload": sum(x["live_apps"] for x in reload) / max(len(reload), 1),
        "reload_distances": _distances([x["app"] for x in ls])[10:],
        "resumed": m["resumed"],
        "cold": m["cold"],
        "kills": m["kills_total"],
        "swap_write_mb": m["swap_out_pages"] * mb,
        "swap_read_mb": m["swap_in_pages"] * mb,
        "file_read_mb": m["file_read_pages"] * mb,
        "meta_write_mb": m["fs_meta_write_pages"] * mb,
        "flash_write_mb": m["flash_write_bytes"] / 1e6,
        "flash_read_mb": m["flash_read_bytes"] / 1e6,
        "pe_cycles": m["pe_cycles_used"],
        "energy_j": m["energy"]["launch_j"] + m["energy"]["swap_device_j"] + m["energy"]["storage_device_j"],
        "first_energy_j": active_w * sum(x["latency_ms"] for x in first) / 1e3,
        "ux": m["ux"],
        "peak_zram_mib": r.pages["peak_zram_frames"] * r.config["phone"]["page_size"] / 1048576,
        "file_rereads": r.pages["file_rereads"],
        "file_data_mb": sum(p["file_mib"] for p in rep.catalog_games()) * 1.048576,
        "cached_level_mib": max((p for _, p in r.config["killer_levels"]), default=0)
        * r.config["phone"]["page_size"]
        / 1048576,
    }


def _distances(order: list[str]) -> list[int]:
    """For each launch, how many other games were launched since this game's last launch (-1 for
    its first): whether a game can still be alive at its reload, when the killer keeps the last few."""
    last: dict[str, int] = {}
    out = []
    for i, app in enumerate(order):
        out.append(len(set(order[last[app] + 1 : i])) if app in last else -1)
        last[app] = i
    return out


def _block(results: list[Any], first_load: list[Any]) -> dict[str, Any]:
    """The four cases and the paper's contrasts; ``first_load`` are the ten first loads alone (in
    order, swap on and off: Table VI's measurement)."""
    cases = {str(n): _case(r) for (n, _, _), r in zip(CASES, results, strict=True)}
    c = {int(k): v for k, v in cases.items()}

    def cut(a: int, b: int, key: str = "total_s") -> float:
        return 100.0 * (1 - c[a][key] / c[b][key])

    on, off = (_case(r) for r in first_load)
    return {
        "cases": cases,
        "cut_1_vs_4_pct": cut(1, 4),
        "cut_1_vs_2_pct": cut(1, 2),
        "cut_2_vs_4_pct": cut(2, 4),
        "reload_speedup_pct": 100.0 * (1 - c[1]["reload_mean_s"] / c[1]["first_mean_s"]),
        "first_load_overhead_s": c[3]["first_s"] - c[4]["first_s"],
        "energy_cut_1_vs_4_pct": cut(1, 4, "energy_j"),
        "first_load_energy_pct": 100.0 * (c[3]["first_energy_j"] / c[4]["first_energy_j"] - 1),
        "first_load": {"on": on, "off": off},
        "write_ratio": c[3]["flash_write_mb"] / c[4]["flash_write_mb"] if c[4]["flash_write_mb"] else None,
    }


def _fit(reading: str, args: argparse.Namespace, tmp: Path) -> tuple[float, list[dict[str, Any]]]:
    """The grid value whose case 2 (random, no swap) keeps nearest ~4 games alive in the reloads;
    among equals the one nearest the paper's own phone (the first on the grid)."""
    sweep = []
    for i, v in enumerate(READINGS[reading][1]):
        var = Variant(reading, v, tmp)
        r2, r1 = var.run([var.job(True, False, args), var.job(True, True, args)], args)
        sweep.append(
            {"value": v, "live_off": _case(r2)["live_reload"], "live_on": _case(r1)["live_reload"], "step": i}
        )
    best = min(sweep, key=lambda p: (abs(p["live_off"] - PAPER["case2_live_apps"]), p["step"]))
    return float(best["value"]), sweep


def _reading(reading: str, value: float, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    var = Variant(reading, value, tmp)
    jobs = [var.job(rnd, swap, args) for _, rnd, swap in CASES]
    rounds0 = argparse.Namespace(**{**vars(args), "rounds": 0})
    jobs += [var.job(False, swap, rounds0) for swap in (True, False)]
    rs = var.run(jobs, args)
    return _block(rs[:4], rs[4:])


def _zram(var: Variant, args: argparse.Namespace) -> dict[str, Any]:
    """The swap cases with zram; and random order again with the killer's levels halved, which
    checks whether the levels decide zram's kills."""
    rs = var.run([var.job(rnd, ZRAM, args) for rnd in (True, False)], args)
    cfg = rs[0].config
    kib = [int(p * cfg["phone"]["page_size"] / 1024 * LEVELS_FACTOR) for _, p in cfg["killer_levels"]]
    halved = var.run(
        [var.job(True, ZRAM, args, killer_params={**cfg["killer_params"], "minfree_kib": kib})], args
    )
    return {
        "random": _case(rs[0]),
        "in_order": _case(rs[1]),
        "levels": {"factor": LEVELS_FACTOR, "minfree_kib": kib, "random": _case(halved[0])},
    }


def _resume_sensitivity(var: Variant, args: argparse.Namespace, tmp: Path) -> list[dict[str, Any]]:
    """Case 1 and case 3 with the games' resume working set and CPU time changed."""
    from ..phone import EMMC_APPS

    out = []
    base = var.apps.read_text() if var.apps else ""
    for share in RESUME_SHARES:
        for cpu in RESUME_CPU_S:
            path = tmp / f"resume-{share}-{cpu}.toml"
            extra = "".join(
                f'[apps."{g}"]\nresume_share = {share}\nresume_cpu_s = {cpu}\n\n' for g in EMMC_APPS
            )
            # One table per game: merge with the reading's own apps file, if any.
            path.write_text(_merge_apps(base, extra))
            r1, r3 = var.run([var.job(True, True, args), var.job(False, True, args)], args, apps=path)
            c1, c3 = _case(r1), _case(r3)
            out.append(
                {
                    "resume_share": share,
                    "resume_cpu_s": cpu,
                    "reload_speedup_pct": 100.0 * (1 - c1["reload_mean_s"] / c1["first_mean_s"]),
                    "reload_mean_s": c1["reload_mean_s"],
                    "in_order_read_mb": c3["flash_read_mb"],
                    "in_order_swap_read_mb": c3["swap_read_mb"],
                    "in_order_swap_write_mb": c3["swap_write_mb"],
                    "in_order_total_s": c3["total_s"],
                    "in_order_kills": c3["kills"],
                }
            )
    return out


def _merge_apps(a: str, b: str) -> str:
    """Two apps files' tables for the same apps, merged (a table header appears once)."""
    import tomllib

    merged: dict[str, dict[str, Any]] = {}
    for text in (a, b):
        for name, fields in tomllib.loads(text).get("apps", {}).items() if text else ():
            merged.setdefault(name, {}).update(fields)
    return "".join(
        f'[apps."{n}"]\n' + "".join(f"{k} = {v!r}\n" for k, v in f.items()) + "\n" for n, f in merged.items()
    )


def _games_anon_mb(reading: str, value: float) -> float:
    """The ten games' anon memory under a reading (what swap can take from them), MB."""
    k = value if reading == "game-scale" else 1.0
    return sum(g["size_mib"] * k * g["anon_share"] for g in rep.catalog_games()) * 1.048576


def _resume_default() -> dict[str, float]:
    """The catalog's resume of the ten games (working set share, CPU s, share of anon written)."""
    g = rep.catalog_games()[0]
    return {"share": g["resume_share"], "cpu_s": g["resume_cpu_s"], "write_share": g["resume_write_share"]}


def compute(args: argparse.Namespace) -> dict[str, Any]:
    from ..errors import ConfigError

    if args.rounds < 1:
        # Every figure of the paper compares reloads with first loads: with no reload there is none.
        raise ConfigError(
            f"--rounds: {args.rounds} reload rounds; the paper's figures need at least 1", "rounds"
        )
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        fits: dict[str, Any] = {}
        readings: dict[str, Any] = {}
        for reading in READINGS:
            sweep: list[dict[str, Any]] = []
            if reading == args.reading and args.value is not None:
                value, how = args.value, "given with --value"
            else:
                value, sweep = _fit(reading, args, tmp)
                how = "fitted to case 2's ~4 live apps during the reloads (section III-B)"
            fits[reading] = {"value": value, "how": how, "sweep": sweep, "what": READINGS[reading][0]}
            readings[reading] = _reading(reading, value, args, tmp)
        var = Variant(args.reading, fits[args.reading]["value"], tmp)
        zram = _zram(var, args)
        resume = _resume_sensitivity(var, args, tmp)
    stated = readings[args.reading]
    out = {
        "paper": PAPER,
        "reading": args.reading,
        "fits": fits,
        "stated": {"usable_mb": USABLE_MB, **stated, "zram": zram},
        "readings": readings,
        "resume_sensitivity": resume,
        "resume_default": _resume_default(),
        "games_anon_mb": _games_anon_mb(args.reading, fits[args.reading]["value"]),
        "rounds": args.rounds,
        "seed": args.seed,
    }
    return out


def report(res: dict[str, Any]) -> str:
    return rep.report(res)


def figures(res: dict[str, Any]) -> list[tuple[Any, str]]:
    """Figs. 7 and 10 in the paper's form: loading time and energy of the four cases."""
    from ..report import plots

    names = {
        1: "case 1: random, swap",
        2: "case 2: random, no swap",
        3: "case 3: in order, swap",
        4: "case 4: in order, no swap",
    }
    cases = {int(k): v for k, v in res["stated"]["cases"].items()}
    load = {
        names[n]: {"first loads": c["first_s"], "reloads": c["reload_s"]} for n, c in sorted(cases.items())
    }
    reading = f"reading '{res['reading']}' = {res['fits'][res['reading']]['value']:g} (fitted)"
    # The paper states its cases against case 4 (its Fig. 7's and Fig. 10's cuts), not their seconds
    # or joules: both are drawn relative to case 4, the paper's where it states them.
    p = res["paper"]
    stated_time = {1: 1 - p["cut_1_vs_4_pct"] / 100, 2: 1 - p["cut_2_vs_4_pct"] / 100, 4: 1.0}
    stated_energy = {1: 1 - p["energy_cut_1_vs_4_pct"] / 100, 4: 1.0}

    def relative(key: str, stated: dict[int, float]) -> dict[str, dict[str, float | None]]:
        four = cases[4][key]
        return {
            names[n]: {"ours": c[key] / four if four else None, "paper": stated.get(n)}
            for n, c in sorted(cases.items())
        }

    return [
        (plots.bars(load, "loading time (s)", "Fig. 7: loading time of the four cases (ours)"), reading),
        (
            plots.bars(
                relative("total_s", stated_time), "total loading time ÷ case 4's", "Fig. 7: beside the paper"
            ),
            f"{reading}; the paper states cases 1 and 2 against case 4 (−{p['cut_1_vs_4_pct']:g}%,"
            f" −{p['cut_2_vs_4_pct']:g}%), not case 3",
        ),
        (
            plots.bars(relative("energy_j", stated_energy), "energy ÷ case 4's", "Fig. 10: beside the paper"),
            f"{reading}; the paper states case 1 against case 4 (−{p['energy_cut_1_vs_4_pct']:g}%)",
        ),
    ]


def held_args(args: argparse.Namespace, res: dict[str, Any]) -> dict[str, Any]:
    """What the fidelity scoreboard's reruns hold: the fitted quantity of the reading they run (each
    reading has its own fit) kept as it was fitted."""
    return {"value": res["fits"][args.reading]["value"]}


def idle_args(args: argparse.Namespace, res: dict[str, Any]) -> dict[str, Any]:
    """The idle workload of the fidelity scoreboard's echo test (phone runs touch no page there),
    with the fitted quantity kept as it was."""
    return held_args(args, res)
