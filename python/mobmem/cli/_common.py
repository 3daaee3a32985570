"""What the commands share: the trace and simulation flags (one flag per knob of the core's
config, its help and default from the core), the parsing of sizes, counts and durations, the help
formatter, and the exit codes."""

from __future__ import annotations

import argparse
import math

from .._args import key_values as params
from ..errors import ConfigError, MobmemError

# `typing` is imported for the type checker only: importing it took 5 ms of every command's start.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["params"]


def writable_formats() -> list[str]:
    """The trace formats a trace can be written in, from the core's registry."""
    from .._core import trace_formats

    return [name for name, _, writable in trace_formats() if writable]


def add_trace_args(p: argparse.ArgumentParser, positional: bool = False) -> None:
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


def flag_value(text: str) -> Any:
    """A knob's flag value read as ``--set`` reads one: a TOML value where it parses (``3``,
    ``0.5``, ``1e300``), else the text. The core then checks it by the knob's name (exit 3), as it
    checks the same value from a file or Python; argparse's own ``int`` would refuse it as a usage
    error (exit 2) that names no knob."""
    return params([f"v={text}"], "a flag")["v"]


def sim_flag_fields() -> dict[str, dict[str, Any]]:
    from ..config import Config

    return {k: v for k, v in Config.fields().items() if k not in _OWN_FLAGS}


def add_sim_args(p: argparse.ArgumentParser) -> None:
    """One flag per knob of the core's config (``--swap-size`` for ``swap_size``), its help and
    default from the core."""
    for name, f in sim_flag_fields().items():
        flags = ["--" + name.replace("_", "-")] + ([_ALIASES[name]] if name in _ALIASES else [])
        d = f["default"]
        shown = "" if d is None else f" (default: {str(d).lower() if isinstance(d, bool) else d})"
        helptext = f["help"].replace("%", "%%") + shown
        if isinstance(d, bool):
            # A knob that is on by default gets --no-NAME too.
            action = argparse.BooleanOptionalAction if d else "store_true"
            p.add_argument(*flags, dest=name, action=action, default=None, help=helptext)
        else:
            kind = str if isinstance(d, str) else flag_value
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


def sim_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The knobs given on the command line (the core fills in the rest)."""
    out = {k: getattr(args, k) for k in sim_flag_fields() if getattr(args, k, None) is not None}
    if "energy_duration_s" in out:
        out["energy_duration_s"] = seconds(out["energy_duration_s"], "energy_duration_s")
    if args.admission_param:
        out["swap_admission_params"] = params(args.admission_param, "--admission-param")
    tiers = tiers_of(args)
    if tiers is not None:
        out["tiers"] = tiers
    return out


_GIVEN = "_given_flags"
_RECORDING: dict[type, type] = {}


def record_given(p: argparse.ArgumentParser) -> None:
    """Makes ``p``'s options note when they are given on the command line (``given(args)``), so
    that a flag given over a config file wins over it even when it names the default's value."""
    for a in p._actions:
        if not a.option_strings or a.dest == "help":
            continue
        cls = type(a)
        if cls not in _RECORDING:

            def call(self, parser, namespace, values, option_string=None, _base=cls):
                seen = getattr(namespace, _GIVEN, None)
                if seen is None:
                    seen = set()
                    setattr(namespace, _GIVEN, seen)
                seen.add(self.dest)
                _base.__call__(self, parser, namespace, values, option_string)

            _RECORDING[cls] = type(f"Given{cls.__name__}", (cls,), {"__call__": call})
        a.__class__ = _RECORDING[cls]
    p.set_defaults(**{_GIVEN: None})


def given(args: argparse.Namespace) -> set[str]:
    """The options given on the command line (by ``dest``) of a parser under ``record_given``."""
    return set(getattr(args, _GIVEN, None) or ())


def tiers_of(args: argparse.Namespace) -> dict[str, Any] | None:
    """The tiers the flags ask for; None when no tier flag is given (flat memory)."""
    given = {
        "pcm_share": args.pcm_share,
        "access_bytes": args.access_bytes,
        "dram": args.dram_tier,
        "pcm": args.pcm_tier,
    }
    given = {k: v for k, v in given.items() if v is not None}
    return given or None


def open_trace(args: argparse.Namespace):
    from ..api import Trace

    if not args.trace:
        raise MobmemError("no trace given (--trace FILE)")
    # Mapped: a command reads its trace and ends (`Trace.open`'s `map`).
    return Trace.open(args.trace, args.format, args.skip_bad_lines, args.procs, map=True)


def count(field: str, s: str) -> int:
    from .._core import parse_count

    return parse_count(field, s)


def byte_size(field: str, s: str) -> int:
    from .._core import parse_bytes

    return parse_bytes(field, s)


def seconds(s: str | float, field: str = "duration") -> float:
    """A duration: seconds, or a number with ms, s, min or h."""
    t = str(s).strip().lower()
    mult = 1.0
    for suffix, m in (("ms", 1e-3), ("min", 60.0), ("s", 1.0), ("h", 3600.0)):
        if t.endswith(suffix):
            t, mult = t[: -len(suffix)], m
            break
    try:
        v = float(t) * mult
    except ValueError:
        raise ConfigError(f"{field}: not a duration: {s!r} (examples: 900s, 15min)", field) from None
    if not (v > 0 and math.isfinite(v)):
        raise ConfigError(f"{field}: a duration must be positive and finite: {s!r}", field)
    return v


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Help that shows each flag's default, unless its text already says what happens without it,
    at most 100 columns wide: a description's long lines are wrapped, its indented lines (examples)
    kept as written."""

    def __init__(
        self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None
    ):
        import shutil

        cols = width if width is not None else shutil.get_terminal_size().columns - 2
        super().__init__(prog, indent_increment, max_help_position, min(cols, 100))

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        out: list[str] = []
        for line in text.splitlines():
            if len(indent) + len(line) > width and not line[:1].isspace():
                out.extend(
                    textwrap.wrap(line, width - len(indent), break_on_hyphens=False, break_long_words=False)
                )
            else:
                out.append(line)
        return "\n".join(indent + x for x in out)

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if action.default in (None, False, argparse.SUPPRESS) or "default" in text or "absent" in text:
            return text
        return f"{text} (default: %(default)s)"


def show_defaults(p: argparse.ArgumentParser) -> None:
    """Every parser under ``p`` formats its help with ``Formatter``."""
    p.formatter_class = Formatter
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            for sp in a.choices.values():
                show_defaults(sp)


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
    from ..errors import (
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
