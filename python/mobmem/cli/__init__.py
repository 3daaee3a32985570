"""The ``mobmem`` command line: one module per command (or per family of commands), each with an
``add_parsers(sub)`` that registers its parsers, and one table, :data:`COMMANDS`, naming the module
of every command. What the commands share (flags, parsing, exit codes) is in ``_common``.

Only the module of the command about to run is imported: ``run``'s start-up stays small next to the
replay itself (argparse, json and the compiled core)."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from ..errors import MobmemError
from ._common import (
    EXIT_CONFIG,
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OUT_OF_MEMORY,
    EXIT_PROGRAM_FAILED,
    EXIT_USAGE,
    exit_code,
    show_defaults,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "COMMANDS",
    "EXIT_CONFIG",
    "EXIT_INPUT",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OUT_OF_MEMORY",
    "EXIT_PROGRAM_FAILED",
    "EXIT_USAGE",
    "build_parser",
    "exit_code",
    "main",
]

#: Every command and the module (in this package) that registers it, in the order `mobmem --help`
#: lists them. A new command is a module with `add_parsers(sub)` and its line here.
COMMANDS = {
    "run": "run",
    "compare": "compare",
    "stats": "stats",
    "convert": "convert",
    "capture": "capture",
    "gen": "gen",
    "demo": "demo",
    "energy": "energy",
    "policies": "listings",
    "formats": "listings",
    "devices": "listings",
    "reproduce": "reproduce",
    "phone": "phone",
    "phones": "phone",
    "admissions": "phone",
    "apps": "phone",
    "sweep": "experiment",
    "results": "experiment",
    "report": "experiment",
    "mrc": "mrc",
    "phone-curve": "capacity",
    "kernel-check": "kernel",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: with only `command`'s module's parsers when it names a command
    (every other module's import is start-up `run` does not need), with every command otherwise."""
    from .._core import __version__

    ap = argparse.ArgumentParser(
        prog="mobmem", description="Trace-driven simulator of a smartphone's memory system."
    )
    ap.add_argument("--version", action="version", version=f"mobmem {__version__}")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    modules = [COMMANDS[command]] if command in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for name in modules:
        importlib.import_module(f"{__name__}.{name}").add_parsers(sub)
    show_defaults(ap)
    _own_usage(ap)
    return ap


def _own_usage(p: argparse.ArgumentParser) -> None:
    """Every parser names itself in what it parses (the innermost wins: `reproduce spo-clock`), so
    that a usage error shows the command's own usage."""
    p.set_defaults(_parser=p)
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            for sp in a.choices.values():
                _own_usage(sp)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # The command is the first word that is not an option (the top level's options take no value).
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(command)
    args, extra = parser.parse_known_args(argv)
    # The parser that parsed the command (not a setting: commands keep their args in results).
    own = vars(args).pop("_parser", parser)
    if extra:
        # An unknown flag is the command's usage error: its own usage, not the top level's; a flag
        # given before the command is said to belong after it.
        before = argv[: argv.index(command)] if command in argv else []
        early = [a for a in extra if a in before]
        if early:
            parser.error(f"{early[0]}: the command's flags go after it (mobmem {command} {early[0]} …)")
        own.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return int(args.func(args))
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
