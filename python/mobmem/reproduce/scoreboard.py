"""The fidelity scoreboard (docs/FIDELITY.md): every reproduction run as it is, again on an idle
workload and with each claim's subject idle (the echo and subject test), at its other seeds (the
noise test: :mod:`.judge`), and at each value of each assumed input's range (the sensitivity);
every claim of its paper measured on each run and given its verdict by the one rule
(:mod:`.fidelity`); counts per paper and in total. ``mobmem reproduce scoreboard``.

A reproduction takes part with: ``PAPER``'s claims and inputs ledger (``claims/<name>.toml``), its
measurements (``measures/<module>.py``: ``measure``, ``NOTES``, and ``whole`` where ``measure``
reads a claim as its subject's share; and ``measures/<module>_causes.py``
where its runs show why a claim is not reproduced), ``held_args(args, res)`` (what the
reruns hold: the fitted value, and work no claim reads left out) and ``idle_args(args, res)`` (its
idle workload; phone runs are made idle here, by the phone's ``activity`` 0).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from . import board_view as view
from . import fidelity
from .readings import measures, read_ours

if TYPE_CHECKING:
    from . import Reproduction


def _rerun(inp: fidelity.Input, value: Any, args: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The parameters (``args`` with the move) and the moved settings
    (:func:`~mobmem.experiment.runner.moved`) of a rerun with input ``inp`` at ``value``."""
    if inp.move == "param":
        if inp.key:
            return {**args, inp.target: [*(args.get(inp.target) or []), f"{inp.key}={value}"]}, {}
        return {**args, inp.target: value}, {}
    if inp.move == "phone":
        return args, {"phone": {inp.target: value}}
    if inp.move == "apps":
        return args, {"apps": {inp.target: (value, inp.scale)}}
    return args, {"devices": {inp.target: value}}


def _phone_takes(phone: str, field: str, value: Any) -> bool:
    """Whether phone ``phone`` runs with ``field`` (dotted: in a nested table) set to ``value``: a
    field it does not have, or a value of the wrong kind, is refused when the phone is built."""
    from .. import phone as ph
    from ..errors import MobmemError
    from ..experiment.runner import moved, moved_jobs

    try:
        with moved(phone={field: value}):  # built here, never stored: a check, not a run of ours
            ph.phone_grid(moved_jobs([ph.job(ph.synthetic(2, 2, 1.0), phone)], None))
    except MobmemError:
        return False
    return True


def _devices_take(target: str, value: Any) -> bool:
    """Whether the device (or tier) presets load with ``target`` (``preset.field``,
    ``tiers.NAME.field``) set to ``value``: an unknown preset or field is refused when they load."""
    import tempfile

    from .. import api
    from ..errors import MobmemError
    from ..experiment.runner import moved, moved_devices

    with tempfile.TemporaryDirectory() as tmp, moved(devices={target: value}):
        try:
            path = moved_devices(None, tmp)
            api.devices(path)
            api.tiers(path)
        except MobmemError:
            return False
    return True


def check_moves(name: str, folder: Any = None) -> None:
    """Every input of ``name``'s ledger that says how it is moved names something that exists: a
    parameter of the reproduction, a phone field or a device or tier preset's field (checked by
    building the phone or loading the presets with it), an app catalog field — a move that reaches
    nothing would find an input flips no verdict."""
    from .. import phone as ph
    from ..errors import ConfigError
    from . import params

    for inp in fidelity.load(name, folder or fidelity.CLAIMS_DIR).inputs:
        t = inp.target
        value = inp.range[0] if inp.range else inp.value
        if inp.move == "param":
            ok = t in params(name)
        elif inp.move == "phone":
            ok = any(_phone_takes(n, t, value) for n in ph.phones())
        elif inp.move == "apps":
            ok = t in ph.apps()[0]
        elif inp.move == "device":
            ok = _devices_take(t, value)
        else:
            continue
        if not ok:
            raise ConfigError(
                f"claims/{name}.toml: input {inp.name}: {inp.move} {t!r} names nothing", inp.name
            )


def sensitivity(
    name: str, mod: Reproduction, args: argparse.Namespace, res: dict[str, Any], only: set[str] | None = None
) -> dict[str, dict[str, list[tuple[Any, Any]]]]:
    """One input at a time over its range: every assumed input of the ledger that can be moved
    (``only``: those named) is set to each value of its range, the rest as they were (what was
    fitted held at its fitted value: ``held_args``), and the claims measured again. Per input, per
    claim, the (value, ours) pairs."""
    from ..errors import MobmemError
    from ..experiment.runner import moved

    check_moves(name)
    paper = fidelity.load(name)
    m = measures(name)
    out: dict[str, dict[str, list[tuple[Any, Any]]]] = {}
    for inp in paper.inputs:
        if not (inp.range and inp.move) or (only is not None and inp.name not in only):
            continue
        per_claim: dict[str, list[tuple[Any, Any]]] = {}
        for v in inp.range:
            params, moves = _rerun(inp, v, vars(args))
            # What is held is held for the moved arguments: another reading keeps its own fit.
            moved_args = argparse.Namespace(**params)
            rerun = argparse.Namespace(**{**params, **mod.held_args(moved_args, res)})
            try:
                with moved(**moves):
                    ours = read_ours(name, m, mod.compute(rerun))
            except MobmemError as e:
                raise type(e)(f"{name}: input {inp.name} = {v!r}: {e}") from None
            label = f"×{v}" if inp.scale else v
            for c in paper.claims:
                per_claim.setdefault(c.id, []).append((label, ours.get(c.id)))
        out[inp.name] = per_claim
    return out


def ledger(name: str, recs: list[fidelity.Record], sens: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The paper's inputs ledger as data: each input, where it comes from, its range, how it was
    moved, and the claims whose verdict it flips."""
    out = []
    for inp in fidelity.load(name).inputs:
        tried = sens is not None and inp.name in sens
        out.append(
            {
                "name": inp.name,
                "value": inp.value,
                "source": inp.source,
                "why": inp.why,
                "range": list(inp.range),
                "moved_by": f"{inp.move} {inp.target}".strip() + (f" ({inp.key}=)" if inp.key else ""),
                "scale": inp.scale,
                "tried": tried,
                "flips": [r.id for r in recs if inp.name in r.flips] if tried else [],
            }
        )
    return out


def paper_summary(
    name: str,
    recs: list[fidelity.Record],
    sens: dict[str, Any] | None = None,
    tests: dict[str, Any] | None = None,
) -> dict[str, Any]:
    tests = tests or {}
    return {
        "paper": name,
        "subject_moved": tests.get("subject_moved", []),
        "seeds": tests.get("seeds", []),
        "spread": _spreads(name, recs),
        "counts": fidelity.counts(recs),
        "headline": fidelity.counts(recs, headline_only=True),
        "claims": [r.to_dict() for r in recs],
        "inputs": ledger(name, recs, sens),
    }


def _spreads(name: str, recs: list[fidelity.Record]) -> dict[str, float]:
    """Per claim the noise test judges (a direction or a change) measured at every seed, the
    seed-to-seed spread of our number."""
    paper = fidelity.load(name)
    return {r.id: r.spread for r in recs if r.spread is not None and fidelity.noise_judges(paper.claim(r.id))}


def board(
    names: list[str],
    overrides: dict[str, dict[str, Any]] | None = None,
    with_sensitivity: bool = True,
    only: set[str] | None = None,
    with_seeds: bool = True,
) -> dict[str, Any]:
    """The scoreboard of the reproductions ``names`` (each run with its defaults, and any
    ``overrides`` of its parameters), and the totals; ``with_sensitivity``: the one-at-a-time reruns
    over every assumed input's range (``only``: the inputs named)."""
    from . import REPRODUCTIONS, params
    from .judge import judged

    overrides = overrides or {}
    papers = []
    for name in names:
        mod = REPRODUCTIONS[name]
        args = argparse.Namespace(json=True, **{**params(name), **overrides.get(name, {})})
        res = mod.compute(args)
        sens = sensitivity(name, mod, args, res, only) if with_sensitivity else None
        recs, tests = judged(name, mod, args, res, sens=sens, seeds=with_seeds)
        papers.append(paper_summary(name, recs, sens, tests))
    keys = (*fidelity.VERDICTS, "claims", "not_measured")
    total = {k: sum(p["counts"][k] for p in papers) for k in keys}
    head = {k: sum(p["headline"][k] for p in papers) for k in keys}
    return {
        "papers": papers,
        "total": total,
        "headline": head,
        "rule": view.rule_text(),
        "sensitivity": with_sensitivity,
        "seeds": with_seeds,
    }


def main(args: argparse.Namespace) -> int:
    """``mobmem reproduce scoreboard``: runs (or, with ``--store``, reuses) every reproduction and
    its idle rerun, and prints the counts (``--claims``: and every claim), or the JSON."""
    import sys

    from ..errors import ConfigError
    from . import REPRODUCTIONS

    names = [n.strip() for n in args.papers.split(",") if n.strip()]
    bad = [n for n in names if n not in REPRODUCTIONS]
    if bad or not names:
        raise ConfigError(
            f"--papers: {', '.join(bad) or 'none given'}; known: {', '.join(REPRODUCTIONS)}", "papers"
        )
    if args.report:  # checked before the work, not after it
        from .._optional import need

        need("matplotlib.pyplot", "--report")
    from ..experiment.runner import runs_made, stored
    from ..progress import ticker, wrote

    said = ""
    with ticker("reproduce scoreboard", runs_made):
        if args.store:
            with stored(args.store, "scoreboard") as counts:
                b = board(names, with_sensitivity=args.sensitivity, with_seeds=getattr(args, "seeds", True))
                said = f"store {args.store}: {counts['ran']} runs run, {counts['reused']} reused"
        else:
            b = board(names, with_sensitivity=args.sensitivity, with_seeds=getattr(args, "seeds", True))
    if said:  # after the progress line is cleared
        print(said, file=sys.stderr)
    out = view.text(b, rows=args.claims)
    if args.json:
        json.dump(b, sys.stdout, indent=1)
        print()
    else:
        print(out)
    if args.report:
        from ..report import html

        html.write(args.report, view.report_html(b))
        wrote("report", args.report)
    return 0
