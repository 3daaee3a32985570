"""`mobmem run`: one trace replayed under one policy and memory size, as a table of meters or JSON."""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import ConfigError, MobmemError
from ._common import add_sim_args, add_trace_args, given, open_trace, params, record_given, sim_overrides

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _print_run(r, out) -> None:
    from ..table import num, render, seconds, wrap

    m = r.meters
    io = m["io"]
    t = r.trace
    head = wrap(
        [
            f"{t['path']} ({t['format']}): {num(t['accesses'])} accesses, {num(t['distinct_pages'])} pages",
            f"policy {r.policy}, memory {r.memory} = {num(r.frames)} frames",
            f"swap {r.config['swap']['name']}, storage {r.config['storage']['name']}",
        ],
        " | ",
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
    from ..table import num

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


#: The trace flags and the run file's `[trace]` keys they set.
_TRACE_KEYS = {"trace": "path", "format": "format", "skip_bad_lines": "skip_bad_lines", "procs": "procs"}


def _flag_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The flags given on the command line as dotted settings (``sim.policy``), then ``--set``'s:
    what goes over a run file's own."""
    g = given(args)
    out: dict[str, Any] = {f"trace.{k}": getattr(args, d) for d, k in _TRACE_KEYS.items() if d in g}
    for knob in ("policy", "memory"):
        if knob in g:
            out[f"sim.{knob}"] = getattr(args, knob)
    out.update({f"sim.params.{k}": v for k, v in params(args.param).items()})
    out.update({f"sim.{k}": v for k, v in sim_overrides(args).items()})
    out.update(params(args.set, "--set"))
    return out


def _nested(settings: dict[str, Any]) -> dict[str, Any]:
    """``--set``'s ``sim.KEY=VALUE`` settings as a config's (nested) fields, for a run without a
    run file; a KEY that is no field of the config is refused, naming it."""
    from ..config import Config

    fields = Config.fields()
    out: dict[str, Any] = {}
    for key, v in settings.items():
        parts = key.split(".")
        if parts[0] != "sim" or len(parts) < 2 or not all(parts):
            raise ConfigError(
                f"--set {key}={v}: without --config only sim.KEY settings apply (the trace is --trace)",
                "--set",
            )
        if parts[1] not in fields:
            raise ConfigError(
                f"--set {key}={v}: no setting sim.{parts[1]}; known: {', '.join(fields)}", "--set"
            )
        cur = out
        for part in parts[1:-1]:
            nxt = cur.setdefault(part, {})
            if not isinstance(nxt, dict):
                raise ConfigError(f"--set {key}={v}: {part} is a value, not a table", "--set")
            cur = nxt
        cur[parts[-1]] = v
    return out


def cmd_run(args: argparse.Namespace) -> int:
    from ..api import RunResult, run_file, simulate, simulate_stream

    if args.config:
        if args.devices:
            raise ConfigError(
                "--devices with --config: define the devices in the run file ([devices.NAME])", "--devices"
            )
        r: RunResult = run_file(args.config, set=_flag_settings(args), stream=args.stream)
    else:
        # Flags first, then --set over them.
        knobs: dict[str, Any] = {
            "policy": args.policy,
            "memory": args.memory,
            "params": params(args.param),
            **sim_overrides(args),
        }
        for k, v in _nested(params(args.set, "--set")).items():
            knobs[k] = {**knobs[k], **v} if isinstance(v, dict) and isinstance(knobs.get(k), dict) else v
        if args.stream:
            if not args.trace:
                raise MobmemError("no trace given (--trace FILE)")
            r = simulate_stream(
                args.trace,
                format=args.format,
                skip_bad_lines=args.skip_bad_lines,
                procs=args.procs,
                devices=args.devices,
                **knobs,
            )
        else:
            r = simulate(open_trace(args), devices=args.devices, **knobs)
    if args.json:
        json.dump(r.to_dict(), sys.stdout, indent=2)
        print()
    else:
        _print_run(r, sys.stdout)
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("run", help="replay a trace under one policy and memory size")
    add_trace_args(p)
    from ..config import Config

    knobs = Config.fields()
    p.add_argument("--policy", "-p", default=knobs["policy"]["default"], help=knobs["policy"]["help"])
    p.add_argument(
        "--memory",
        "-m",
        default=knobs["memory"]["default"],
        help="frames, bytes (64MiB) or %% of the footprint",
    )
    p.add_argument("--param", action="append", metavar="KEY=VALUE", help="policy parameter (repeatable)")
    p.add_argument(
        "--config",
        help="a TOML run file ([trace], [sim], [devices.NAME]); flags given with it override its settings",
    )
    p.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="any setting by its dotted name, over the run file's and the flags' (sim.swap=ufs31, "
        "sim.params.ain_ratio=0.3, trace.path=t.txt; repeatable)",
    )
    p.add_argument(
        "--stream",
        action="store_true",
        help="replay while reading: memory bounded by the trace's pages, not its length (not opt)",
    )
    add_sim_args(p)
    record_given(p)
    p.set_defaults(func=cmd_run)
