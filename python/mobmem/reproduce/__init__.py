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
from typing import Any, Protocol

from . import a2s, dr_swap, emmc_swap, hybrid, spo_clock


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
}


def _judged(name: str, args: argparse.Namespace, echo_test: bool = True) -> dict[str, Any]:
    """Reproduction ``name``'s result with its paper's claims judged (``claims``: the scoreboard's
    records; the echo test reruns it on its idle workload)."""
    from .scoreboard import records

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

    with ticker(f"reproduce {name}", runs_made):
        if getattr(args, "store", None):
            with stored(args.store, name) as counts:
                res = _judged(name, args)
                print(
                    f"store {args.store}: {counts['ran']} runs run, {counts['reused']} reused",
                    file=sys.stderr,
                )
        else:
            res = _judged(name, args)
    text = report(name, res)
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


def _parser(name: str) -> argparse.ArgumentParser:
    from ..errors import ConfigError

    if not isinstance(name, str) or name not in REPRODUCTIONS:
        raise ConfigError(f"unknown reproduction {name!r}; known: {', '.join(REPRODUCTIONS)}", "name")
    p = argparse.ArgumentParser(prog=f"mobmem reproduce {name}")
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
    from ..errors import ConfigError

    values = params(name)
    for k in overrides:
        if k not in values:
            raise ConfigError(f"{name}: unknown parameter {k!r}; known: {', '.join(values)}", k)
    values.update(overrides)
    return _judged(name, argparse.Namespace(json=True, **values), echo_test)


def report(name: str, result: dict[str, Any]) -> str:
    """The text report of a result from :func:`compute`: the reproduction's own, then its paper's
    claims with their verdicts."""
    from .board_view import claims_text

    text: str = REPRODUCTIONS[name].report(result)
    judged = claims_text(result.get("claims") or [])
    return f"{text}\n\n{judged}" if judged else text
