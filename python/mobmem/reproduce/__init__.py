"""Reproductions of the papers' results: each is one module with ``add_arguments(parser)``,
``compute(args) -> dict``, ``report(result) -> str``, ``held_args(args, result)`` (what the
scoreboard's reruns hold) and ``idle_args(args, result)`` (its idle workload) — :class:`Reproduction` —
registered in ``REPRODUCTIONS``, with its paper's claims in ``claims/<name>.toml`` and
their measurements in ``measures/<module>.py``. Every result carries ``claims``: each claim of the
paper with its verdict by the one rule of :mod:`.fidelity` (docs/FIDELITY.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn, Protocol

from . import a2s, ariadne, dr_swap, emmc_swap, hybrid, mglru_android, spo_clock


class Reproduction(Protocol):
    """What a reproduction module provides (its claims and inputs ledger are data:
    ``claims/<name>.toml``; its measurements ``measures/<module>.py``)."""

    def add_arguments(self, p: argparse.ArgumentParser) -> None: ...

    def compute(self, args: argparse.Namespace) -> dict[str, Any]: ...

    def report(self, res: dict[str, Any]) -> str: ...

    def held_args(self, args: argparse.Namespace, res: dict[str, Any]) -> dict[str, Any]: ...

    def idle_args(self, args: argparse.Namespace, res: dict[str, Any]) -> dict[str, Any]: ...


#: name → module; ``mobmem reproduce NAME`` runs it.
REPRODUCTIONS: dict[str, Reproduction] = {
    "dr-swap": dr_swap,
    "spo-clock": spo_clock,
    "hybrid": hybrid,
    "emmc-swap": emmc_swap,
    "a2s": a2s,
    "mglru-android": mglru_android,
    "ariadne": ariadne,
}


def _judged(name: str, args: argparse.Namespace, echo_test: bool = True) -> dict[str, Any]:
    """Reproduction ``name``'s result with its paper's claims judged (``claims``: the scoreboard's
    records; the echo test reruns it on its idle workload)."""
    from .judge import records

    mod = REPRODUCTIONS[name]
    res: dict[str, Any] = mod.compute(args)
    res["claims"] = [r.to_dict() for r in records(name, mod, args, res, echo_test)]
    return res


def run(name: str, args: argparse.Namespace) -> int:
    """Computes reproduction ``name`` and prints its report, or its result as JSON with ``--json``."""
    mod = REPRODUCTIONS[name]
    if getattr(args, "report", None):  # checked before the work, not after it
        from .._optional import need

        need("matplotlib.pyplot", "--report")
    from ..experiment.runner import runs_made, stored
    from ..progress import ticker, wrote

    said = ""
    with ticker(f"reproduce {name}", runs_made):
        if getattr(args, "store", None):
            with stored(args.store, name) as counts:
                res = _judged(name, args)
                said = f"store {args.store}: {counts['ran']} runs run, {counts['reused']} reused"
        else:
            res = _judged(name, args)
    if said:  # after the progress line is cleared
        print(said, file=sys.stderr)
    from ..table import fit_prose

    text = fit_prose(report(name, res))
    if args.json:
        json.dump(res, sys.stdout, indent=1)
        print()
    else:
        print(text)
    if getattr(args, "report", None):
        from ..report import html
        from ..report.reproduction import build

        html.write(args.report, build(name, mod, res, text))
        wrote("report", args.report)
    return 0


class _Parser(argparse.ArgumentParser):
    """A reproduction's flags for :func:`compute`: a value they refuse is a ConfigError, not an exit."""

    def error(self, message: str) -> NoReturn:
        from ..errors import ConfigError

        raise ConfigError(f"{self.prog}: {message}", "parameters")


def _parser(name: str) -> argparse.ArgumentParser:
    from ..errors import ConfigError

    if not isinstance(name, str) or name not in REPRODUCTIONS:
        raise ConfigError(f"unknown reproduction {name!r}; known: {', '.join(REPRODUCTIONS)}", "name")
    p = _Parser(prog=f"mobmem reproduce {name}")
    REPRODUCTIONS[name].add_arguments(p)
    return p


def params(name: str) -> dict[str, Any]:
    """Reproduction ``name``'s parameters and their defaults (what ``compute`` takes)."""
    p = _parser(name)
    return {a.dest: a.default for a in p._actions if a.dest not in ("help", "json")}


def compute(name: str, echo_test: bool = True, **overrides: Any) -> dict[str, Any]:
    """Runs reproduction ``name`` from a notebook or script: its parameters (see :func:`params`)
    by keyword, the rest at their defaults; returns the result that ``--json`` prints, its claims
    judged (``echo_test=False`` skips the idle rerun, so no claim is found to be an echo). Unknown
    names raise :class:`~mobmem.ConfigError` naming them."""
    p = _parser(name)
    args = p.parse_args(_argv(name, p, overrides))
    args.json = True
    return _judged(name, args, echo_test)


def _argv(name: str, p: argparse.ArgumentParser, overrides: dict[str, Any]) -> list[str]:
    """``overrides`` (Python values: a list for a comma-separated flag or a repeated one, a bool
    for a switch, numbers) as the command line the reproduction's parser reads, so that they are
    checked as the command line's are."""
    from ..errors import ConfigError

    actions = {a.dest: a for a in p._actions if a.dest not in ("help", "json")}
    argv: list[str] = []
    for k, v in overrides.items():
        a = actions.get(k)
        if a is None:
            raise ConfigError(f"{name}: unknown parameter {k!r}; known: {', '.join(actions)}", k)
        flag = a.option_strings[0]
        if isinstance(a, argparse._StoreTrueAction | argparse._StoreFalseAction):
            if not isinstance(v, bool):
                raise ConfigError(f"{name}: {k} must be True or False, got {v!r}", k)
            if v != a.default:
                argv.append(flag)
        elif isinstance(a, argparse._AppendAction):
            if v is None:
                continue  # None keeps the default (none)
            if not isinstance(v, str | list | tuple):
                raise ConfigError(f"{name}: {k} must be a value or a list of values, got {v!r}", k)
            for x in [v] if isinstance(v, str) else v:
                argv += [flag, _word(x)]
        elif v is None:
            if a.default is not None:
                raise ConfigError(f"{name}: {k} must be given a value, got None", k)
        else:
            argv += [flag, ",".join(map(_word, v)) if isinstance(v, list | tuple) else _word(v)]
    return argv


def _word(v: Any) -> str:
    """A Python value as a command line's word (``True`` as ``true``, numbers as written)."""
    return str(v).lower() if isinstance(v, bool) else str(v)


def report(name: str, result: dict[str, Any]) -> str:
    """The text report of a result from :func:`compute`: the reproduction's own, then its paper's
    claims with their verdicts."""
    from .board_view import claims_text

    text: str = REPRODUCTIONS[name].report(result)
    judged = claims_text(result.get("claims") or [])
    return f"{text}\n\n{judged}" if judged else text
