"""The tests a claim's agreement must pass beyond the rule, on the reproduction's reruns
(docs/FIDELITY.md): the echo and subject test (the workload idle, and each subject the claims
name idle: the apps, or the system processes), a flat series, and the seeds' noise. What each
moved is measured against the same run judged without it: the workload idle alone, the claims read
whole (where the measurements read a claim as its subject's share, ``whole``), no series."""

from __future__ import annotations

import argparse
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import fidelity
from .readings import ECHO_INPUTS, causes, measures, read_ours

if TYPE_CHECKING:
    from . import Reproduction

#: How a note says which idle run a claim's value stayed on.
_SAID = {"apps": "the apps idle give", "system": "the system processes idle give"}


def _both(name: str, m: ModuleType, res: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Our numbers as each claim's subject's, and read whole (the same where nothing is a share)."""
    ours = read_ours(name, m, res)
    return ours, (read_ours(name, m, res, whole=True) if hasattr(m, "whole") else ours)


def judged(
    name: str,
    mod: Reproduction,
    args: argparse.Namespace,
    res: dict[str, Any],
    echo_test: bool = True,
    sens: dict[str, dict[str, list[tuple[Any, Any]]]] | None = None,
    seeds: bool = False,
) -> tuple[list[fidelity.Record], dict[str, Any]]:
    """Every claim of ``name``'s paper with its verdict, from the result ``res`` of ``args``, and what
    the tests found (``subject_moved``: the claims whose verdict the subject test changed;
    ``seeds``: the seeds run). With ``echo_test``, the reproduction is run again on its idle
    workload and, for the claims about the apps or the system processes, with that subject idle;
    ``sens``, the reruns of the sensitivity (which inputs flip a verdict, and C); ``seeds``, again
    at each other seed of its claims file (the noise test)."""
    from ..experiment.runner import idle, idle_subject

    paper = fidelity.load(name)
    m = measures(name)
    ours, ours_whole = _both(name, m, res)
    echo: set[str] = set()
    plain: set[str] = set()
    plain_whole: set[str] = set()
    idle_ours: dict[str, Any] = {}
    by_subject: dict[str, dict[str, Any]] = {}
    if echo_test:
        quiet = argparse.Namespace(**{**vars(args), **mod.idle_args(args, res)})
        with idle():
            idle_ours, idle_whole = _both(name, m, mod.compute(quiet))
        for kind in sorted({c.subject_kind for c in paper.claims} - {"workload"}):
            with idle_subject(kind):
                by_subject[kind] = read_ours(name, m, mod.compute(args))
        plain = fidelity.echoes(paper, ours, idle_ours)
        plain_whole = fidelity.echoes(paper, ours_whole, idle_whole)
        # A number that stays with the workload idle, or with its own subject idle, is not its
        # subject's: the subject test adds to the workload's, never takes an echo away.
        echo = plain | fidelity.echoes(paper, ours, idle_ours, by_subject)
    at_seeds, at_seeds_whole = _at_seeds(name, mod, args, res, paper, m) if seeds else ({}, {})
    notes = dict(getattr(m, "NOTES", {}))
    for cid in echo:
        kind = "workload" if cid in plain else paper.claim(cid).subject_kind
        v = by_subject.get(kind, idle_ours).get(cid)
        notes[cid] = (notes.get(cid, "") + f"; {_SAID.get(kind, 'idle workload gives')} {v}").lstrip("; ")
    recs = fidelity.score(
        paper, ours, echo=echo, echo_inputs=ECHO_INPUTS, sensitivity=sens, notes=notes, at_seeds=at_seeds
    )
    before = fidelity.score(
        paper,
        ours_whole,
        echo=plain_whole,
        echo_inputs=ECHO_INPUTS,
        sensitivity=sens,
        at_seeds=at_seeds_whole,
        judge_series=False,
    )
    moved = [r.id for r, b in zip(recs, before, strict=True) if r.verdict != b.verdict]
    why = causes(name, res)
    for r in recs:
        if r.verdict in ("N", "D", "C") and why.get(r.id):
            r.cause = why[r.id]
    return recs, {"subject_moved": moved, "seeds": _seeds_used(paper, args) if seeds else []}


def _seeds_used(paper: fidelity.Paper, args: argparse.Namespace) -> list[Any]:
    if not paper.seed_param:
        return []
    return [getattr(args, paper.seed_param), *paper.seeds]


def _at_seeds(
    name: str,
    mod: Reproduction,
    args: argparse.Namespace,
    res: dict[str, Any],
    paper: fidelity.Paper,
    m: ModuleType,
) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """Per claim, our values with the reproduction's default run again at each other seed of its
    claims file (what was fitted held at its fitted value: ``held_args``), as the subject's and
    read whole."""
    from ..errors import ConfigError

    if not paper.seed_param:
        return {}, {}
    if paper.seed_param not in vars(args):
        raise ConfigError(f"claims/{name}.toml: [seeds] param {paper.seed_param!r} is no parameter", name)
    out: dict[str, list[Any]] = {c.id: [] for c in paper.claims}
    out_whole: dict[str, list[Any]] = {c.id: [] for c in paper.claims}
    for s in paper.seeds:
        moved_args = argparse.Namespace(**{**vars(args), paper.seed_param: s})
        rerun = argparse.Namespace(**{**vars(moved_args), **mod.held_args(moved_args, res)})
        got, got_whole = _both(name, m, mod.compute(rerun))
        for c in paper.claims:
            out[c.id].append(got.get(c.id))
            out_whole[c.id].append(got_whole.get(c.id))
    return out, out_whole


def records(*args: Any, **kw: Any) -> list[fidelity.Record]:
    """:func:`~.judge.judged`'s records (its arguments), without the seeds' reruns unless asked:
    what a reproduction's own ``--json`` carries."""
    return judged(*args, **kw)[0]
