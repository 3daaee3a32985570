"""The ``mobmem`` command line. The ``run`` path imports only argparse, json and the compiled core,
so start-up stays small next to the replay itself."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence

from .errors import ConfigError, MobmemError, TraceNotFoundError

# `typing` is imported for the type checker only: importing it took 5 ms of every command's start.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The bundled real trace: sqlite3 running a B-tree workload, captured with Valgrind Lackey.
#: (`os.path`, not `pathlib`: importing pathlib took 5 ms of every command's start.)
DEMO_TRACE = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))),
    "data",
    "sqlite3_btree.txt.zst",
)


def _params(items: Sequence[str] | None, flag: str = "--param") -> dict[str, Any]:
    """KEY=VALUE pairs; values are JSON where they parse as JSON, strings otherwise — but ``nan``
    and ``inf`` are the numbers they name, so that the setting refuses them as numbers ("NaN is not
    a value any setting takes"), not as a string it did not expect."""
    out: dict[str, Any] = {}
    for it in items or ():
        if "=" not in it:
            raise MobmemError(f"{flag} expects KEY=VALUE, got {it!r}")
        k, v = it.split("=", 1)
        if v.strip().lower().lstrip("+-") in ("nan", "inf", "infinity"):
            out[k.strip()] = float(v)
            continue
        try:
            out[k.strip()] = json.loads(v)
        except json.JSONDecodeError:
            out[k.strip()] = v
    return out


def _add_trace_args(p: argparse.ArgumentParser, positional: bool = False) -> None:
    if positional:
        p.add_argument("trace", help="trace file (text, Lackey, CSV or binary; gzip/zstd ok)")
    else:
        p.add_argument("--trace", "-t", help="trace file (text, Lackey, CSV or binary; gzip/zstd ok)")
    p.add_argument("--format", help="force a trace format instead of sniffing it")
    p.add_argument("--skip-bad-lines", action="store_true", help="count and skip malformed lines")
    p.add_argument(
        "--procs", help="process table CSV (pid,adj[,access|time_ns]): oom_score_adj over the trace"
    )


#: Knobs with their own flags elsewhere (--policy, --memory, --param, the tier flags).
_OWN_FLAGS = ("memory", "policy", "params", "tiers", "swap_admission_params")
#: Older short names kept as aliases of the knobs' flags.
_ALIASES = {"cpu_ns_per_access": "--cpu-ns", "energy_duration_s": "--energy-duration"}


def _sim_flag_fields() -> dict[str, dict[str, Any]]:
    from .config import Config

    return {k: v for k, v in Config.fields().items() if k not in _OWN_FLAGS}


def _add_sim_args(p: argparse.ArgumentParser) -> None:
    """One flag per knob of the core's config (``--swap-size`` for ``swap_size``), its help and
    default from the core."""
    for name, f in _sim_flag_fields().items():
        flags = ["--" + name.replace("_", "-")] + ([_ALIASES[name]] if name in _ALIASES else [])
        d = f["default"]
        shown = "" if d is None else f" (default: {str(d).lower() if isinstance(d, bool) else d})"
        helptext = f["help"].replace("%", "%%") + shown
        if isinstance(d, bool):
            # A knob that is on by default gets --no-NAME too.
            action = argparse.BooleanOptionalAction if d else "store_true"
            p.add_argument(*flags, dest=name, action=action, default=None, help=helptext)
        else:
            kind = type(d) if isinstance(d, int | float) else str
            p.add_argument(*flags, dest=name, type=kind, default=None, help=helptext)
    p.add_argument(
        "--admission-param",
        action="append",
        metavar="KEY=VALUE",
        help="swap admission parameter, e.g. t_live=18 (repeatable; mobmem admissions)",
    )
    p.add_argument("--devices", help="TOML file with extra device models")
    p.add_argument(
        "--pcm-share",
        type=float,
        help="hybrid memory: share of --memory on PCM, 0-1 (the hybrid paper: 0.9); 0 = DRAM only",
    )
    p.add_argument("--access-bytes", type=int, help="hybrid memory: bytes per access (64 when absent)")
    p.add_argument("--dram-tier", help="hybrid memory: DRAM tier model (dram when absent)")
    p.add_argument("--pcm-tier", help="hybrid memory: PCM tier model (pcm when absent)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _sim_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The knobs given on the command line (the core fills in the rest)."""
    out = {k: getattr(args, k) for k in _sim_flag_fields() if getattr(args, k, None) is not None}
    if "energy_duration_s" in out:
        out["energy_duration_s"] = _seconds(out["energy_duration_s"])
    if args.admission_param:
        out["swap_admission_params"] = _params(args.admission_param, "--admission-param")
    tiers = _tiers(args)
    if tiers is not None:
        out["tiers"] = tiers
    return out


def _tiers(args: argparse.Namespace) -> dict[str, Any] | None:
    """The tiers the flags ask for; None when no tier flag is given (flat memory)."""
    given = {
        "pcm_share": args.pcm_share,
        "access_bytes": args.access_bytes,
        "dram": args.dram_tier,
        "pcm": args.pcm_tier,
    }
    given = {k: v for k, v in given.items() if v is not None}
    return given or None


def _open(args: argparse.Namespace):
    from .api import Trace

    if not args.trace:
        raise MobmemError("no trace given (--trace FILE)")
    # Mapped: a command reads its trace and ends (`Trace.open`'s `map`).
    return Trace.open(args.trace, args.format, args.skip_bad_lines, args.procs, map=True)


def _print_run(r, out) -> None:
    from .table import num, render, seconds

    m = r.meters
    io = m["io"]
    t = r.trace
    head = (
        f"{t['path']} ({t['format']}): {num(t['accesses'])} accesses, {num(t['distinct_pages'])} pages"
        f" | policy {r.policy}, memory {r.memory} = {num(r.frames)} frames"
        f" | swap {r.config['swap']['name']}, storage {r.config['storage']['name']}"
    )
    rows = [
        ("accesses", num(m["accesses"])),
        ("hits", num(m["hits"])),
        ("faults", num(m["faults"])),
        ("  cold anon (zero-fill)", num(m["cold_anon"])),
        ("  cold file (file read)", num(m["cold_file"])),
        ("  swap-in", num(m["swap_ins"])),
        ("  file re-read", num(m["file_rereads"])),
        ("swap-outs", num(m["swap_outs"])),
        ("write-backs", num(m["write_backs"])),
        ("swap-cache drops (no I/O)", num(m["swap_cache_drops"])),
        *(
            [
                ("faults on swapped pages", num(m["swap_faults"])),
                ("  mapped in place (Direct Read)", num(m["dr_maps"])),
                ("  promoted on write", num(m["dr_promotions"])),
                ("reads served in place", num(m["dr_hits"])),
            ]
            if r.config["direct_read"]
            else []
        ),
        *(
            [
                ("written back to the backing device", num(m["written_back"])),
                ("  read back from it (swap-ins)", num(m["backing_reads"])),
                ("I/O time backing read (ms)", num(io["backing_read_ns"] / 1e6)),
                ("I/O time backing write, background (ms)", num(io["backing_write_ns"] / 1e6)),
            ]
            if r.config["swap"].get("backend") == "zram-writeback"
            else []
        ),
        *(
            [
                (f"swap admission {r.config['swap_admission']}: vetoes", num(m["swap_vetoes"])),
                ("  reclaims with swap closed", num(m["reclaims_swap_closed"])),
                ("  OOM kills (pages freed)", f"{num(m['oom_kills'])} ({num(m['oom_kill_pages'])})"),
            ]
            if r.config["swap_admission"] != "all"
            else []
        ),
        ("file reads", num(m["file_reads"])),
        ("I/O time swap read (ms)", num(io["swap_read_ns"] / 1e6)),
        ("I/O time swap write (ms)", num(io["swap_write_ns"] / 1e6)),
        ("I/O time file read (ms)", num(io["file_read_ns"] / 1e6)),
        ("I/O time file write (ms)", num(io["file_write_ns"] / 1e6)),
        ("I/O time total (ms)", num(io["total_ns"] / 1e6)),
        ("device energy (J)", num(m["energy"]["total_j"])),
        *(
            [(f"swap energy, {r.swap_energy['model']} model (J)", f"{r.swap_energy['total_j']:.6f}")]
            if r.swap_energy
            else []
        ),
        *_tier_rows(r.tiers),
        ("simulated time (ms)", num(m["sim_time_ns"] / 1e6)),
        ("replay wall time", seconds(r.wall_time_s)),
        ("replay speed (M accesses/s)", f"{r.accesses_per_s / 1e6:.1f}"),
    ]
    skipped = t["skipped"]
    if skipped["bad_lines"]:
        rows.append(("malformed lines skipped", num(skipped["bad_lines"])))
    print(head, file=out)
    print(render(("meter", "value"), rows), file=out)
    if skipped["bad_lines"]:
        print(f"first skipped line: {skipped['first_bad_line']}", file=out)


def _tier_rows(tm: dict[str, Any] | None) -> list[tuple[str, str]]:
    """The rows a tiered run adds to ``mobmem run``."""
    from .table import num

    if not tm:
        return []
    rows = []
    for name in ("dram", "pcm"):
        t = tm[name]
        rows.append(
            (
                f"{name.upper()} frames / hits / reads / writes / fills",
                f"{num(t['frames'])} / {num(t['hits'])} / {num(t['reads'])} / {num(t['writes'])} / {num(t['fills'])}",
            )
        )
    rows.append(("migrations DRAM→PCM / PCM→DRAM", f"{num(tm['demotions'])} / {num(tm['promotions'])}"))
    for label, key in (("critical", "critical"), ("non-critical", "non_critical")):
        c = tm[key]
        ratio = c["hits"] / c["accesses"] if c["accesses"] else 0.0
        rows.append(
            (
                f"{label}: accesses / hit ratio / elapsed (ms)",
                f"{num(c['accesses'])} / {ratio:.4f} / {num(c['elapsed_ns'] / 1e6)}",
            )
        )
    if not tm["process_table"]:
        rows.append(("process table", "none: every process counted critical"))
    e = tm["energy"]
    rows.append(("energy eq. 1 (J)", f"{e['eq1_j']:.6f}"))
    rows.append(("static energy DRAM / PCM (J)", f"{e['static_dram_j']:.6f} / {e['static_pcm_j']:.6f}"))
    life = tm["pcm_lifetime_years"]
    rows.append(
        (
            "PCM bytes written / lifetime (years)",
            f"{num(tm['pcm_write_bytes'])} / {'—' if life is None else f'{life:.3g}'}",
        )
    )
    return rows


def cmd_run(args: argparse.Namespace) -> int:
    from .api import RunResult, run_file, simulate, simulate_stream

    if args.config:
        r: RunResult = run_file(args.config)
    elif args.stream:
        if not args.trace:
            raise MobmemError("no trace given (--trace FILE)")
        if args.procs:
            raise MobmemError("--stream reads no process table: drop --procs, or --stream")
        r = simulate_stream(
            args.trace,
            format=args.format,
            skip_bad_lines=args.skip_bad_lines,
            policy=args.policy,
            memory=args.memory,
            params=_params(args.param),
            devices=args.devices,
            **_sim_overrides(args),
        )
    else:
        r = simulate(
            _open(args),
            policy=args.policy,
            memory=args.memory,
            params=_params(args.param),
            devices=args.devices,
            **_sim_overrides(args),
        )
    if args.json:
        json.dump(r.to_dict(), sys.stdout, indent=2)
        print()
    else:
        _print_run(r, sys.stdout)
    return 0


def compare_tables(runs, policies: list[str], memories: list[str]) -> str:
    """The policies × sizes tables of ``mobmem compare``: faults and I/O time, each with its ratio to
    CLOCK at the same size (or to the first policy when CLOCK is not in the grid), then OPT's gap."""
    from .table import num, ratio, render

    by = {(r.policy, r.memory): r for r in runs}
    mem_labels = [by[(policies[0], m)].memory for m in memories] if runs else []
    base = "clock" if "clock" in policies else policies[0]
    out = []
    t = runs[0].trace
    cfg = runs[0].config
    out.append(
        f"trace {t['path']} ({t['format']}): {num(t['accesses'])} accesses, {num(t['distinct_pages'])} pages"
        f"; swap {cfg['swap']['name']}, storage {cfg['storage']['name']}"
    )
    frames = ", ".join(f"{m} = {num(by[(policies[0], m)].frames)}" for m in mem_labels)
    out.append(f"memory in frames: {frames}")
    skipped = t["skipped"]
    if skipped["bad_lines"]:
        out.append(
            f"malformed lines skipped: {num(skipped['bad_lines'])} (first: {skipped['first_bad_line']})"
        )

    def ms(v: float) -> str:
        return num(v / 1e6)

    metrics = [("faults", lambda r: r.faults, num), ("I/O time (ms)", lambda r: r.io_time_ns, ms)]
    if runs[0].tiers:
        metrics.append(("critical elapsed time (ms)", lambda r: r.tiers["critical"]["elapsed_ns"], ms))
        metrics.append(("energy eq. 1 (J)", lambda r: r.tiers["energy"]["eq1_j"], lambda v: f"{v:.4g}"))
    for title, get, show in metrics:
        rows = []
        for p in policies:
            row: list[object] = [p]
            for m in mem_labels:
                r, b = by[(p, m)], by[(base, m)]
                v, bv = get(r), get(b)
                row.append(f"{show(v)} {ratio(v / bv if bv else None)}")
            rows.append(row)
        out.append("")
        out.append(render(["policy", *mem_labels], rows, title=f"{title}, and ratio to {base}"))
    if "opt" in policies:
        rows = []
        for p in policies:
            row = [p]
            for m in mem_labels:
                o = by[("opt", m)].faults
                row.append(ratio(by[(p, m)].faults / o if o else None))
            rows.append(row)
        out.append("")
        out.append(render(["policy", *mem_labels], rows, title="faults relative to OPT (the floor)"))
    return "\n".join(out)


def cmd_compare(args: argparse.Namespace) -> int:
    from .api import grid

    trace = _open(args)
    pols = [x.strip() for x in args.policies.split(",") if x.strip()]
    mems = [x.strip() for x in args.memory.split(",") if x.strip()]
    runs = grid(
        trace,
        policies=pols,
        memories=mems,
        devices=args.devices,
        threads=args.threads,
        **_sim_overrides(args),
    )
    if args.json:
        json.dump([r.to_dict() for r in runs], sys.stdout, indent=2)
        print()
        return 0
    # Resolve the memory labels as the runs echo them (e.g. "10%").
    labels = [runs[i].memory for i in range(len(mems))]
    print(compare_tables(runs, pols, labels))
    return 0


def _print_stats(s: dict[str, Any], out) -> None:
    from .table import num, render

    ratio = s["read_write_ratio"]
    rows = [
        ("format", s["format"]),
        ("accesses", num(s["accesses"])),
        ("instruction fetches (I)", num(s["instr"])),
        ("data reads (R)", num(s["reads"])),
        ("data writes (W)", num(s["writes"])),
        ("read:write (R/W)", "—" if ratio is None else f"{ratio:.2f}:1"),
        ("distinct pages", num(s["distinct_pages"])),
        ("footprint (KiB)", num(s["footprint_kib"])),
    ]
    if s["duration_ns"] is not None:
        rows.append(("duration (ms)", num(s["duration_ns"] / 1e6)))
    sk = s["skipped"]
    for k in ("banner_lines", "blank_lines", "comment_lines", "bad_lines"):
        if sk[k]:
            rows.append((f"skipped {k.replace('_', ' ')}", num(sk[k])))
    print(render(("trace " + s["path"], "value"), rows), file=out)
    if s["pids"]:
        print(file=out)
        print(
            render(
                ("pid", "accesses", "pages"),
                [(p["pid"], num(p["accesses"]), num(p["pages"])) for p in s["pids"]],
            ),
            file=out,
        )
    if sk["first_bad_line"]:
        print(f"first skipped line: {sk['first_bad_line']}", file=out)


def cmd_stats(args: argparse.Namespace) -> int:
    s = _open(args).stats(args.page_size)
    if args.json:
        json.dump(s, sys.stdout, indent=2)
        print()
    else:
        _print_stats(s, sys.stdout)
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    from .api import Trace, format_for_path

    t = Trace.open(args.input, args.format, args.skip_bad_lines)
    fmt = args.to or format_for_path(args.output)
    t.save(args.output, fmt)
    print(f"{args.input} ({t.format}, {len(t):,} accesses, {t.num_pages:,} pages) → {args.output} ({fmt})")
    return 0


def cmd_capture(args: argparse.Namespace) -> int:
    from .api import format_for_path
    from .capture import capture
    from .table import num

    cmd = list(args.cmd)
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    t, status = capture(cmd, stdout=args.stdout)
    fmt = args.to or format_for_path(args.output)
    t.save(args.output, fmt)
    s = t.stats()
    print(
        f"{' '.join(cmd)} (exit status {status}) → {args.output} ({fmt}): {num(len(t))} accesses"
        f" (I {num(s['instr'])}, R {num(s['reads'])}, W {num(s['writes'])}), {num(t.num_pages)} pages"
    )
    return 0 if status == 0 else EXIT_PROGRAM_FAILED


def cmd_gen(args: argparse.Namespace) -> int:
    from .api import Trace, format_for_path, hybrid_workloads
    from .table import num

    if args.hybrid:
        if args.preset or args.accesses or args.footprint or args.set:
            raise MobmemError("--hybrid takes --scale and --seed only")
        t = Trace.hybrid(args.hybrid, scale=args.scale, seed=args.seed)
        fmt = args.to or format_for_path(args.output)
        t.save(args.output, fmt)
        _, _, about = hybrid_workloads()[args.hybrid]
        print(
            f"synthetic hybrid workload {args.hybrid!r} ({about}; Table 2 counts × {args.scale}, seed {args.seed})"
            f" → {args.output} ({fmt}): {num(len(t))} accesses, {num(t.num_pages)} pages,"
            f" {len(t.stats()['pids'])} processes"
        )
        return 0
    if args.category:
        if args.preset or args.footprint or args.set:
            raise MobmemError("--category takes --rounds, --accesses (per turn) and --seed only")
        per_turn = _count("accesses", args.accesses) if args.accesses is not None else 400_000
        t = Trace.category(args.category, rounds=args.rounds, accesses_per_turn=per_turn, seed=args.seed)
        fmt = args.to or format_for_path(args.output)
        t.save(args.output, fmt)
        print(
            f"synthetic round robin of DR. Swap's Table III {args.category!r} apps ({args.rounds} rounds of"
            f" {num(per_turn)} accesses a turn, seed {args.seed}) → {args.output} ({fmt}):"
            f" {num(len(t))} accesses, {num(t.num_pages)} pages, {len(t.stats()['pids'])} processes"
        )
        return 0
    overrides: dict[str, Any] = _params(args.set)
    if args.accesses is not None:
        overrides["accesses"] = _count("accesses", args.accesses)
    if args.footprint is not None:
        overrides["footprint_pages"] = _count("footprint", args.footprint)
    overrides["seed"] = args.seed
    t = Trace.generate(args.preset, **overrides)
    fmt = args.to or format_for_path(args.output)
    t.save(args.output, fmt)
    s = t.stats()
    ratio = s["read_write_ratio"]
    print(
        f"synthetic trace ({args.preset or 'default'} parameters, seed {args.seed}) → {args.output} ({fmt}):"
        f" {num(s['accesses'])} accesses, {num(s['distinct_pages'])} pages,"
        f" R:W {'—' if ratio is None else f'{ratio:.2f}'}, I {s['instr'] / max(s['accesses'], 1):.1%}"
    )
    return 0


def _count(field: str, s: str) -> int:
    from ._core import parse_count

    return parse_count(field, s)


def cmd_policies(args: argparse.Namespace) -> int:
    from .api import hybrid_policies, policies
    from .table import render

    rows = [(n, "flat or tiers", d) for n, d in sorted(policies().items())]
    rows += [(n, "tiers only", d) for n, d in sorted(hybrid_policies().items())]
    print(render(("policy", "memory", "description"), rows))
    return 0


def cmd_formats(args: argparse.Namespace) -> int:
    from . import _core
    from .table import render

    print(
        render(
            ("format", "description", "writable"),
            [(n, d, "yes" if w else "no") for n, d, w in _core.trace_formats()],
        )
    )
    return 0


def cmd_devices(args: argparse.Namespace) -> int:
    from .api import devices, swap_backends, tiers
    from .table import num, render

    ds = devices(args.devices)
    ts = tiers(args.devices)
    if args.json:
        json.dump({"devices": ds, "tiers": ts}, sys.stdout, indent=2)
        print()
        return 0
    rows = [
        (
            n,
            d["kind"] + (f" {d['compression_ratio']:g}:1" if d.get("compression_ratio") else ""),
            d["backend"],
            num(d["read_ns"]),
            num(d["write_ns"]),
            num(d["read_nj"]),
            num(d["write_nj"]),
            num(d["background_mw"]),
        )
        for n, d in ds.items()
    ]
    heads = ("device", "kind", "as swap", "read ns", "write ns", "read nJ", "write nJ", "idle mW")
    print(render(heads, rows))
    for n, d in ds.items():
        if d["source"]:
            print(f"  {n}: {d['source']}")
        if d.get("backend_params"):
            print(f"  {n} {d['backend']}: " + ", ".join(f"{k} = {v}" for k, v in d["backend_params"].items()))
    print()
    print("swap backends (a device's `backend`):")
    for n, desc in swap_backends().items():
        print(f"  {n}: {desc}")
    print()
    rows = [
        (
            n,
            t["kind"],
            num(t["read_ns"]),
            num(t["write_ns"]),
            f"{t['read_nj_per_bit']:g}",
            f"{t['write_nj_per_bit']:g}",
            num(t["static_mw_per_gib"]),
            "∞" if t["endurance_cycles"] is None else f"{t['endurance_cycles']:.0e}",
        )
        for n, t in ts.items()
    ]
    heads = (
        "memory tier",
        "kind",
        "read ns/op",
        "write ns/op",
        "read nJ/bit",
        "write nJ/bit",
        "static mW/GiB",
        "endurance",
    )
    print(render(heads, rows))
    for n, t in ts.items():
        if t["source"]:
            print(f"  {n}: {t['source']}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """The main job on the bundled default workload: a real trace and a synthetic app preset, each
    replayed under every registered policy at 5–25% of its footprint."""
    from .api import Trace, grid, policies

    pols = list(policies())
    mems = ["5%", "10%", "15%", "20%", "25%"]
    trace_path = args.trace or DEMO_TRACE
    if not os.path.exists(trace_path):
        raise TraceNotFoundError(f"{trace_path}: the bundled demo trace is missing", str(trace_path))
    print("== Real trace (Valgrind Lackey capture of sqlite3 running inserts, indexes and queries) ==")
    real = Trace.open(trace_path)
    print(compare_tables(grid(real, pols, mems, threads=args.threads), pols, mems))
    print()
    print(
        f"== Synthetic trace: preset 'angrybirds' (SPO-CLOCK Table 1 footprint, R:W and instruction share;"
        f" locality assumed), {args.accesses:,} accesses, seed 1 =="
    )
    syn = Trace.generate("angrybirds", accesses=args.accesses, seed=1)
    print(compare_tables(grid(syn, pols, mems, threads=args.threads), pols, mems))
    print()
    print(
        "== Hybrid DRAM + PCM memory (90% PCM): synthetic 'balanced' workload of the hybrid paper's"
        " Table 2 × 0.05, seed 1; every request a 4 KiB buffer-cache page =="
    )
    hyb = Trace.hybrid("balanced", scale=0.05, seed=1)
    hpols = ["fg-aware", "clock-dwf", "lru", "2q"]
    tiers = {"pcm_share": 0.9, "access_bytes": 4096}
    runs = grid(hyb, hpols, mems, storage="emmc-inand", tiers=tiers, threads=args.threads)
    print(compare_tables(runs, hpols, mems))
    return 0


def cmd_energy(args: argparse.Namespace) -> int:
    """The DR. Swap paper's energy model alone: three swap schemes side by side."""
    from .api import swap_energy
    from .table import render

    size = _bytes("swap-size", args.swap_size)
    dur = _seconds(args.duration)
    schemes = [
        ("DRAM-backed", args.dram_model, args.swap_ins),
        ("flash-backed", args.flash_model, args.swap_ins),
        (
            "DR. Swap (PCM)",
            args.nvm_model,
            args.dr_swap_ins if args.dr_swap_ins is not None else args.swap_ins,
        ),
    ]
    res = [
        (label, swap_energy(model, n_rd, args.swap_outs, dur, size, args.page_size, args.devices))
        for label, model, n_rd in schemes
    ]
    if args.json:
        json.dump({label: e for label, e in res}, sys.stdout, indent=2)
        print()
        return 0
    keys = [
        ("swap-ins copied (N_rd)", "n_rd", "{:,}"),
        ("swap-outs (N_wr)", "n_wr", "{:,}"),
        ("refresh scale", "refresh_scale", "{:.4f}"),
        ("t_RD (ms)", "t_rd_s", "ms"),
        ("t_WR (ms)", "t_wr_s", "ms"),
        ("t_ACT (ms)", "t_act_s", "ms"),
        ("t_DQ (ms)", "t_dq_s", "ms"),
        ("background (J)", "background_j", "{:.6f}"),
        ("activate (J)", "activate_j", "{:.6f}"),
        ("read (J)", "read_j", "{:.6f}"),
        ("write (J)", "write_j", "{:.6f}"),
        ("I/O, DQ (J)", "io_j", "{:.6f}"),
        ("total (J)", "total_j", "{:.6f}"),
        ("total (mAh at 3.8 V)", "total_mah", "{:.6f}"),
    ]
    rows = []
    for label, key, fmt in keys:
        cells = []
        for _, e in res:
            v = e[key]
            cells.append(f"{v * 1e3:.6f}" if fmt == "ms" else fmt.format(v))
        rows.append([label, *cells])
    dram = res[0][1]["total_j"]
    rows.append(["vs DRAM-backed", *(f"{100 * (e['total_j'] / dram - 1):+.2f}%" for _, e in res)])
    print(
        f"swap area {args.swap_size}, up time {dur:g} s, page {args.page_size} B"
        " (DR. Swap paper, section IV: eqs. 1–5 DRAM, 6–12 flash, 13–14 PCM; choices in docs/ENERGY.md)"
    )
    print(render(["", *(label for label, _ in res)], rows))
    return 0


def _bytes(field: str, s: str) -> int:
    from ._core import parse_bytes

    return parse_bytes(field, s)


def _seconds(s: str) -> float:
    t = s.strip().lower()
    mult = 1.0
    for suffix, m in (("ms", 1e-3), ("min", 60.0), ("s", 1.0), ("h", 3600.0)):
        if t.endswith(suffix):
            t, mult = t[: -len(suffix)], m
            break
    try:
        v = float(t) * mult
    except ValueError:
        raise ConfigError(f"not a duration: {s!r} (examples: 900s, 15min)", "duration") from None
    if not (v > 0 and math.isfinite(v)):
        raise ConfigError(f"duration must be positive and finite: {s!r}", "duration")
    return v


def cmd_reproduce(args: argparse.Namespace) -> int:
    from .reproduce import run

    return run(args.paper, args)


def cmd_scoreboard(args: argparse.Namespace) -> int:
    from .reproduce.scoreboard import main

    return main(args)


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Help that shows each flag's default, unless its text already says what happens without it."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if action.default in (None, False, argparse.SUPPRESS) or "default" in text or "absent" in text:
            return text
        return f"{text} (default: %(default)s)"


def _show_defaults(p: argparse.ArgumentParser) -> None:
    """Every parser under ``p`` formats its help with ``_Formatter``."""
    p.formatter_class = _Formatter
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            for sp in a.choices.values():
                _show_defaults(sp)


def _described(doc: str) -> tuple[str, str]:
    """A reproduction's docstring as help: its first paragraph whole, and the whole text, without
    reStructuredText's backticks or the leading command name."""
    text = doc.strip().replace("``", "")
    first = " ".join(text.split("\n\n")[0].split())
    if ": " in first and first.startswith("mobmem reproduce"):
        first = first.split(": ", 1)[1]
    return first.replace("%", "%%"), text


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser. Given the command about to run, and it is one of this file's, only
    this file's commands: the others (reproduce, and those of cli_phone, cli_experiment, cli_mrc and
    cli_capacity) import their modules to build their parsers, 23 ms of start-up where `run`'s own
    takes 5–9 ms (measured)."""
    from ._core import __version__
    from .config import Config, schema

    ap = argparse.ArgumentParser(
        prog="mobmem", description="Trace-driven simulator of a smartphone's memory system."
    )
    ap.add_argument("--version", action="version", version=f"mobmem {__version__}")
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("run", help="replay a trace under one policy and memory size")
    _add_trace_args(p)
    knobs = Config.fields()
    p.add_argument("--policy", "-p", default=knobs["policy"]["default"], help=knobs["policy"]["help"])
    p.add_argument(
        "--memory",
        "-m",
        default=knobs["memory"]["default"],
        help="frames, bytes (64MiB) or %% of the footprint",
    )
    p.add_argument("--param", action="append", metavar="KEY=VALUE", help="policy parameter (repeatable)")
    p.add_argument("--config", help="a TOML run file ([trace], [sim], [devices.NAME]) instead of flags")
    p.add_argument(
        "--stream",
        action="store_true",
        help="replay while reading: memory bounded by the trace's pages, not its length (not opt)",
    )
    _add_sim_args(p)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("compare", help="policies × memory sizes, in parallel, as one table")
    _add_trace_args(p)
    grid_defaults = schema()["grid"]
    p.add_argument(
        "--policies", default=",".join(grid_defaults["policies"]), help="policies, comma-separated"
    )
    p.add_argument(
        "--memory", "-m", default=",".join(grid_defaults["memories"]), help="memory sizes, comma-separated"
    )
    p.add_argument("--threads", type=int, default=0, help="worker threads (0: all cores)")
    _add_sim_args(p)
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("stats", help="accesses, I/R/W, read:write, footprint, per-pid counts")
    _add_trace_args(p, positional=True)
    p.add_argument("--page-size", type=int, default=4096, help="page size in bytes (for the footprint)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("convert", help="convert a trace (to mobmem binary for fast re-runs)")
    p.add_argument("input", help="trace to read (any format; gzip/zstd ok)")
    p.add_argument(
        "output", help="output file; format from its extension (.mobt, .csv, .txt), .gz/.zst compress"
    )
    p.add_argument("--to", choices=["binary", "csv", "text"], help="output format")
    p.add_argument("--format", help="force the input format")
    p.add_argument("--skip-bad-lines", action="store_true", help="count and skip malformed lines")
    p.set_defaults(func=cmd_convert)

    p = sub.add_parser(
        "capture",
        help="a program's page accesses under Valgrind Lackey, streamed into a trace",
        description="Runs CMD under valgrind --tool=lackey --trace-mem=yes and streams its accesses"
        " into OUTPUT (no text file in between): instruction fetches, loads, stores.",
    )
    p.add_argument(
        "-o", "--output", required=True, help="output trace (.mobt binary; .txt/.csv, .gz/.zst ok)"
    )
    p.add_argument(
        "--to", choices=["binary", "csv", "text"], help="output format (default: from the extension)"
    )
    p.add_argument("--stdout", help="file for the program's standard output (default: discarded)")
    p.add_argument("cmd", nargs=argparse.REMAINDER, help="-- CMD ARGS…: the program to run")
    p.set_defaults(func=cmd_capture)

    p = sub.add_parser("gen", help="generate a synthetic app-like page trace")
    p.add_argument("--preset", help="angrybirds, youtube, chrome, facebook or farmstory (SPO-CLOCK Table 1)")
    p.add_argument("--accesses", "-n", help="number of accesses (e.g. 2M); --category: a turn's")
    p.add_argument("--footprint", help="distinct pages")
    p.add_argument("--seed", type=int, default=1, help="seed of the generator")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="any generator parameter (repeatable)")
    p.add_argument(
        "--hybrid",
        metavar="WORKLOAD",
        help="a hybrid-paper workload instead: critical-intensive, non-critical-intensive, balanced, stand-by",
    )
    p.add_argument("--scale", type=float, default=0.1, help="--hybrid: times Table 2's request counts")
    p.add_argument(
        "--category",
        metavar="NAME",
        help="a DR. Swap Table III app category as a round robin of processes with their "
        "oom_score_adj (browser, news, multimedia, social, gaming, shopping, mix1, mix2)",
    )
    p.add_argument("--rounds", type=int, default=3, help="--category: rounds of turns")
    p.add_argument("--output", "-o", required=True, help="file to write (format from its extension)")
    p.add_argument(
        "--to", choices=["binary", "csv", "text"], help="output format, instead of the extension's"
    )
    p.set_defaults(func=cmd_gen)

    p = sub.add_parser("demo", help="the main job on the bundled default workload")
    p.add_argument("--trace", help="replace the bundled real trace")
    p.add_argument("--accesses", type=int, default=2_000_000, help="length of the synthetic trace")
    p.add_argument("--threads", type=int, default=0, help="worker threads (0: all cores)")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser(
        "energy", help="the DR. Swap energy model alone: DRAM, flash and DR. Swap side by side"
    )
    p.add_argument("--swap-ins", type=int, required=True, help="swap-ins without Direct Read (N_rd)")
    p.add_argument("--swap-outs", type=int, required=True, help="swap-outs (N_wr)")
    p.add_argument("--dr-swap-ins", type=int, help="swap-ins that still copy with Direct Read (N'_rd)")
    p.add_argument("--duration", default="900s", help="up time t_TOTAL")
    p.add_argument("--swap-size", default="128MiB", help="swap area size; scales DRAM refresh")
    p.add_argument("--page-size", type=int, default=4096, help="page size in bytes")
    p.add_argument("--dram-model", default="lpddr2-dram", help="energy model of the DRAM-backed scheme")
    p.add_argument("--flash-model", default="emmc-inand", help="energy model of the flash-backed scheme")
    p.add_argument("--nvm-model", default="lpddr2-pcm", help="energy model of DR. Swap's NVM")
    p.add_argument("--devices", help="TOML file with [energy_models.NAME] tables (and devices)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=cmd_energy)

    _add_listings(sub)
    if command in sub.choices:
        _show_defaults(ap)
        return ap
    from .reproduce import REPRODUCTIONS

    p = sub.add_parser("reproduce", help="a paper's headline results beside ours")
    rsub = p.add_subparsers(dest="paper", required=True)
    for name, mod in REPRODUCTIONS.items():
        summary, whole = _described(mod.__doc__ or "")
        rp = rsub.add_parser(name, help=summary, description=whole)
        mod.add_arguments(rp)
        rp.add_argument(
            "--report", metavar="HTML", help="also write the results as one self-contained HTML page"
        )
        rp.add_argument(
            "--store",
            metavar="FILE",
            help="keep every run in this results store: runs stored before are reused, a killed run resumes",
        )
        rp.set_defaults(func=cmd_reproduce)
    sp = rsub.add_parser(
        "scoreboard",
        help="every paper's claims by verdict: reproduced, direction only, not, fitted, echo (docs/FIDELITY.md)",
    )
    sp.add_argument("--papers", default=",".join(REPRODUCTIONS), help="the reproductions to run")
    sp.add_argument(
        "--claims", action="store_true", help="also print one row per claim, and the inputs ledger"
    )
    sp.add_argument(
        "--no-sensitivity",
        dest="sensitivity",
        action="store_false",
        help="skip the reruns over every assumed input's range (no input found to flip a verdict, no C)",
    )
    sp.add_argument("--json", action="store_true", help="print the whole scoreboard as JSON")
    sp.add_argument("--report", metavar="HTML", help="also write it as one self-contained HTML page")
    sp.add_argument(
        "--store", metavar="FILE", help="keep every run in this results store (reruns reuse them)"
    )
    sp.set_defaults(func=cmd_scoreboard)

    from .cli_phone import add_parsers

    add_parsers(sub)
    from .cli_experiment import add_parsers as add_experiment_parsers

    add_experiment_parsers(sub)
    from .cli_mrc import add_parsers as add_mrc_parsers

    add_mrc_parsers(sub)
    from .cli_capacity import add_parsers as add_capacity_parsers

    add_capacity_parsers(sub)
    from .cli_kernel import add_parsers as add_kernel_parsers

    add_kernel_parsers(sub)
    _show_defaults(ap)
    return ap


def _add_listings(sub) -> None:
    p = sub.add_parser("policies", help="list the registered policies")
    p.set_defaults(func=cmd_policies)
    p = sub.add_parser("formats", help="list the registered trace formats")
    p.set_defaults(func=cmd_formats)
    p = sub.add_parser("devices", help="list device models")
    p.add_argument("--devices", help="TOML file with extra device models")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(func=cmd_devices)


#: Exit codes, one per kind of failure (the README lists them): a script can tell a mistyped
#: flag from a bad value, a bad input file, a simulated machine that ran out of memory, and a bug.
EXIT_PROGRAM_FAILED = 1  # `capture`: the captured program failed (its trace is written all the same)
EXIT_USAGE = 2  # flags the command line cannot parse (argparse's own code)
EXIT_CONFIG = 3  # an impossible or unknown value: a size, a device, a policy parameter
EXIT_INPUT = 4  # a trace or side file that is malformed, corrupt, missing or unreadable
EXIT_OUT_OF_MEMORY = 5  # the simulated memory could reclaim nothing (e.g. swap full, no file page)
EXIT_INTERNAL = 70  # a bug in mobmem (an internal invariant broke); please report it
EXIT_INTERRUPTED = 130  # Ctrl-C


def exit_code(e: BaseException) -> int:
    """The exit code for an error that ends a command."""
    from .errors import (
        ConfigError,
        InvariantError,
        MobmemIOError,
        OutOfMemoryError,
        TraceFormatError,
        TraceNotFoundError,
    )

    for kind, code in (
        (ConfigError, EXIT_CONFIG),
        ((TraceFormatError, TraceNotFoundError, MobmemIOError), EXIT_INPUT),
        (OutOfMemoryError, EXIT_OUT_OF_MEMORY),
        (InvariantError, EXIT_INTERNAL),
        (MobmemError, EXIT_USAGE),
    ):
        if isinstance(e, kind):
            return code
    return EXIT_INTERNAL


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # The command is the first word that is not an option (the top level's options take no value).
    command = next((a for a in argv if not a.startswith("-")), None)
    args = build_parser(command).parse_args(argv)
    try:
        return args.func(args)
    except MobmemError as e:
        code = exit_code(e)
        what = "internal error (a bug in mobmem; please report it)" if code == EXIT_INTERNAL else "error"
        print(f"mobmem: {what}: {e}", file=sys.stderr)
        return code
    except BrokenPipeError:
        # `mobmem ... | head` closed the pipe: not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("mobmem: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as e:
        # Anything else is a bug: one line, not a traceback (MOBMEM_DEBUG=1 shows it).
        if os.environ.get("MOBMEM_DEBUG"):
            raise
        print(
            f"mobmem: internal error (a bug in mobmem; please report it, rerun with MOBMEM_DEBUG=1 for"
            f" the traceback): {type(e).__name__}: {e}",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
