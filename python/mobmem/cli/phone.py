"""The system-level commands: ``mobmem phone`` (replay app usage on a phone), ``mobmem phones``,
``mobmem admissions`` and ``mobmem apps`` (what can be named)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import MobmemError
from ._common import flag_value


def usage_config(args: argparse.Namespace) -> dict[str, Any]:
    from .. import phone as ph

    chosen = [x for x in (args.usage, args.emmc, args.synthetic) if x]
    if len(chosen) != 1:
        raise MobmemError(
            "give one of: a usage CSV, --emmc in-order|random, or --synthetic APPS,LAUNCHES,REUSE"
        )
    if args.usage:
        return ph.usage_file(args.usage, args.user)
    if args.emmc:
        return ph.rounds(
            random=args.emmc == "random", rounds=args.rounds, seed=args.seed, gap_s=args.gap or 0.0
        )
    try:
        apps, launches, reuse, *rest = args.synthetic.split(",")
        if len(rest) > 2:
            raise ValueError("too many values")
        rare = [int(x) for x in rest]
        return ph.synthetic(
            int(apps),
            int(launches),
            float(reuse),
            seed=args.seed,
            gap_s=args.gap or 60.0,
            rare=rare[0] if rare else 0,
            rare_launches=rare[1] if len(rare) > 1 else None,
        )
    except ValueError as e:
        raise MobmemError(
            "--synthetic expects APPS,LAUNCHES,REUSE[,RARE[,RARE_LAUNCHES]] (e.g. 12,256,2.23 or "
            f"36,256,6.10,21), got {args.synthetic!r}"
        ) from e


def cmd_phone(args: argparse.Namespace) -> int:
    from ..phone import simulate_phone
    from ..table import num, render, seconds, wrap
    from ._common import params

    overrides = params(args.set, "--set")
    overrides.update({k: getattr(args, k) for k in phone_flag_fields() if getattr(args, k, None) is not None})
    r = simulate_phone(
        usage_config(args),
        args.phone,
        seed=args.seed,
        phones=args.phones,
        apps=args.apps,
        devices=args.devices,
        **overrides,
    )
    if args.json:
        json.dump(r.to_dict(), sys.stdout, indent=2)
        print()
        return 0
    m, c, u = r.meters, r.config, r.usage
    p = c["phone"]
    lay = c["layout"]
    mib = p["page_size"] / 1048576
    print(
        wrap(
            [
                f"phone {c['name']}: {p['dram']} DRAM",
                f"{lay['frames'] * mib:.0f} MiB usable",
                f"swap {p['swap']}" + (f" ({lay['swap_pages'] * mib:.0f} MiB)" if p["swap"] != "off" else ""),
                f"storage {p['storage']}",
                f"policy {p['policy']}",
                f"killer {p['killer']}",
                *([f"swap admission {p['swap_admission']}"] if p["swap_admission"] != "all" else []),
            ],
            ", ",
        )
    )
    print(
        f"usage {r.raw['usage_path']}: {u['launches']} launches of {u['distinct_apps']} apps,"
        f" reuse distance {u['avg_reuse_distance_apps']:.2f} apps"
        + (
            f"; {m['defaulted_apps']} apps not in the catalog ran with its defaults"
            if m["defaulted_apps"]
            else ""
        )
    )
    kills = ", ".join(f"{k} {v}" for k, v in sorted(m["kills"].items())) or "none"

    def opt_ms(v: float | None) -> str:
        return "—" if v is None else num(v)

    rows = [
        ("launches: cold / resumed", f"{m['cold']} / {m['resumed']}"),
        ("mean launch time (ms)", num(m["mean_launch_ms"])),
        ("mean cold start / resume (ms)", f"{opt_ms(m['mean_cold_ms'])} / {opt_ms(m['mean_resume_ms'])}"),
        ("total launch time (s)", num(m["total_launch_ms"] / 1e3)),
        ("kills", kills),
        ("live apps: mean / most", f"{m['live_apps_mean']:.1f} / {m['live_apps_max']}"),
        ("swap-ins / swap-outs (pages)", f"{num(m['swap_in_pages'])} / {num(m['swap_out_pages'])}"),
    ]
    if (c["swap"] or {}).get("compression_ratio"):
        zram_mib = r.raw["pages"]["peak_zram_frames"] * mib
        rows.append(("zram: most DRAM taken (MiB)", f"{zram_mib:.0f} of {lay['frames'] * mib:.0f}"))
    if (c["swap"] or {}).get("backend") == "zram-writeback":
        wb = f"{num(m['written_back_pages'])} / {num(m['backing_read_pages'])}"
        rows.append(("zram writeback: written / read back (pages)", wb))
    lt = m["swap_lifetimes"]
    if lt["written"]:
        died = dict((f"{x:g}", y) for x, y in lt["cdf_owner_death"])
        rows.append(
            (
                "swap slots: written / freed / owner died",
                f"{num(lt['written'])} / {num(lt['ended'])} / {num(lt['died'])}",
            )
        )
        rows.append(
            (
                "swap slots dead within 60 s / 1,000 s (owner died, %)",
                f"{100 * died['60']:.1f} / {100 * died['1000']:.1f}",
            )
        )
    if r.raw["pages"]["swap_vetoes"] or r.raw["pages"]["reclaims_swap_closed"]:
        rows.append(
            (
                "swap admission: vetoes / closed reclaims",
                f"{num(r.raw['pages']['swap_vetoes'])} / {num(r.raw['pages']['reclaims_swap_closed'])}",
            )
        )
    rows.append(("CPU (s): user / system", f"{m['cpu']['user_s']:.1f} / {m['cpu']['system_s']:.2f}"))
    if m["cpu"]["compress_s"] or m["cpu"]["decompress_s"]:
        rows.append(
            (
                "zram CPU (s): compression / decompression",
                f"{m['cpu']['compress_s']:.2f} / {m['cpu']['decompress_s']:.2f}",
            )
        )
    if m["zram_ratio"] is not None:
        for k, what in (("compressed", "compressed"), ("decompressed", "read back")):
            by_class = " / ".join(num(m[f"{k}_{c}_pages"]) for c in ("hot", "warm", "cold"))
            rows.append((f"zram {what}: hot / warm / cold (pages)", by_class))
        rows.append(("zram ratio (pages per frame, by class)", f"{m['zram_ratio']:.2f}"))
        rows.append(
            (
                "decompressed ahead: pages / used by a fault",
                f"{num(m['predecomp_pages'])} / {num(m['predecomp_used'])}",
            )
        )
    rows += [
        ("file reads (pages)", num(m["file_read_pages"])),
        ("flash written (MB)", num(m["flash_write_bytes"] / 1e6)),
        ("P/E cycles used", "—" if m["pe_cycles_used"] is None else f"{m['pe_cycles_used']:.3g}"),
        ("memory stall (ms)", num(m["stall_ms"])),
        ("kswapd wake-ups / direct reclaims", f"{num(m['kswapd_wakes'])} / {num(m['direct_reclaims'])}"),
        ("energy (J): total", num(m["energy"]["total_j"])),
        ("simulated time (s)", num(m["sim_time_s"])),
    ]
    print()
    print(render(("", "value"), rows))
    print()
    ux = m["ux"]
    print(
        render(
            ("", *c["ux_classes"], "excessive (vitals)"),
            [("launches", *(ux[k] for k in c["ux_classes"]), m["excessive"])],
            title="launches by user-perceived delay",
        )
    )
    if args.launches:
        print()
        launch_rows: list[tuple[Any, ...]] = [
            (
                x["index"],
                x["app"],
                "cold" if x["cold"] else "resume",
                num(x["latency_ms"]),
                num(x["file_wait_ms"]),
                num(x["swap_wait_ms"]),
                num(x["reclaim_wait_ms"]),
                num(x["mapped_read_ms"]),
                x["live_apps"],
            )
            for x in r.launches
        ]
        print(
            render(
                ("#", "app", "kind", "ms", "file wait", "swap wait", "reclaim wait", "NVM reads", "live"),
                launch_rows,
            )
        )
    print(f"\nsimulated in {seconds(r.wall_time_s)} of wall time")
    return 0


def cmd_phones(args: argparse.Namespace) -> int:
    from ..phone import phones
    from ..table import note, render

    ps = phones(args.phones)
    if args.json:
        json.dump(ps, sys.stdout, indent=2)
        print()
        return 0
    rows = [
        (n, p["dram"], p["reserved"], p["swap"], p["storage"], p["policy"], p["killer"])
        for n, p in ps.items()
    ]
    print(render(("phone", "DRAM", "reserved", "swap", "storage", "policy", "killer"), rows))
    for n, p in ps.items():
        print(note(n, p["description"]))
    return 0


def cmd_apps(args: argparse.Namespace) -> int:
    from ..phone import apps
    from ..table import render

    a = apps(args.apps)
    if args.json:
        json.dump(a, sys.stdout, indent=2)
        print()
        return 0
    rows = [
        (
            x["name"],
            x["category"],
            f"{x['size_mib']:.1f}",
            f"{x['file_mib']:.1f}",
            f"{x['cold_cpu_s']:.2f}",
            f"{x['resume_cpu_s']:.2f}",
            x["source"],
        )
        for x in a
    ]
    print(render(("app", "category", "MiB", "file MiB", "cold CPU s", "resume CPU s", "source"), rows))
    return 0


def cmd_admissions(args: argparse.Namespace) -> int:
    from ..phone import swap_admissions
    from ..table import render

    if args.json:
        from .listings import dump

        return dump([{"swap_admission": n, "description": d} for n, d in swap_admissions().items()])
    print(render(("swap admission", "description"), list(swap_admissions().items())))
    return 0


def usage_arguments(p: argparse.ArgumentParser) -> None:
    """The usage to replay (read by :func:`usage_config`) and the phone: shared by the phone commands."""
    p.add_argument("usage", nargs="?", help="usage CSV (time_s,app or timestamp_seconds,app[,user])")
    p.add_argument("--user", help="the user to replay when the CSV has a user column")
    p.add_argument(
        "--emmc", choices=["in-order", "random"], help="the eMMC paper's ten-game scenario instead"
    )
    p.add_argument("--rounds", type=int, default=3, help="--emmc: rounds after the first")
    p.add_argument(
        "--synthetic",
        metavar="APPS,LAUNCHES,REUSE[,RARE[,RARE_LAUNCHES]]",
        help="A2S-style generated usage instead; RARE apps launched at most RARE_LAUNCHES times each (once)",
    )
    p.add_argument("--gap", type=float, help="seconds between generated launches")
    p.add_argument("--phone", default="nexus5", help="phone preset (mobmem phones)")


def catalog_arguments(p: argparse.ArgumentParser) -> None:
    """Any phone field, the seed, and the extra phones, apps and devices: shared by the phone commands."""
    p.add_argument("--set", action="append", metavar="FIELD=VALUE", help="any phone field (repeatable)")
    p.add_argument("--seed", type=int, default=0, help="seed of generated usage and touches")
    p.add_argument("--phones", help="TOML file with more phones")
    p.add_argument("--apps", help="TOML file with more apps (or overrides)")
    p.add_argument("--devices", help="TOML file with more devices")


# Fields set through --set, a --phones table or a preset only: words, and tables of values.
_NOT_FLAGS = ("description", "source")


def phone_flag_fields() -> dict[str, dict[str, Any]]:
    """The phone's fields that get a flag of their own: every one holding a single value."""
    from ..phone import fields

    return {
        k: f for k, f in fields().items() if k not in _NOT_FLAGS and not isinstance(f["default"], dict | list)
    }


def add_phone_args(p: argparse.ArgumentParser, names: dict[str, dict[str, str]]) -> None:
    """One flag per single-valued phone field (``--swap-size`` for ``swap_size``), its help from the
    core; ``names`` lists what a field can name (``killer``: the killers). A flag given wins over the
    preset's value; one not given leaves the preset's."""
    for name, f in phone_flag_fields().items():
        d = f["default"]
        helptext = f["help"].replace("%", "%%")
        if name in names:
            helptext += ": " + ", ".join(names[name])
        helptext += " (over the preset's)"
        flag = "--" + name.replace("_", "-")
        if isinstance(d, bool):
            # --no-NAME too: a preset may have turned it on.
            action = argparse.BooleanOptionalAction
            p.add_argument(flag, dest=name, action=action, default=None, help=helptext)
        else:
            kind = str if isinstance(d, str) else flag_value
            p.add_argument(flag, dest=name, type=kind, default=None, help=helptext)


def add_parsers(sub: Any) -> None:
    from ..phone import killers, swap_admissions

    p = sub.add_parser("phone", help="replay app usage on a phone: launches, kills, swap, launch time")
    usage_arguments(p)
    add_phone_args(p, {"killer": killers(), "swap_admission": swap_admissions()})
    catalog_arguments(p)
    p.add_argument("--launches", action="store_true", help="also print one row per launch")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(func=cmd_phone)

    p = sub.add_parser("phones", help="list phone presets")
    p.add_argument("--phones", help="TOML file with more phones")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(func=cmd_phones)

    p = sub.add_parser("admissions", help="list the swap admissions (which pages may go to swap)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=cmd_admissions)
    p = sub.add_parser("apps", help="list the app catalog")
    p.add_argument("--apps", help="TOML file with more apps")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(func=cmd_apps)
