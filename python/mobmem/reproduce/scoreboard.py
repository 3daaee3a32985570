"""The fidelity scoreboard (docs/FIDELITY.md): every reproduction run as it is, again on an idle
workload (the echo test), and again at each value of each assumed input's range (the sensitivity);
every claim of its paper measured on each run and given its verdict by the one rule
(:mod:`.fidelity`); counts per paper and in total. ``mobmem reproduce scoreboard``.

A reproduction takes part with: ``PAPER``'s claims and inputs ledger (``claims/<name>.toml``), its
measurements (``measures/<module>.py``: ``measure``, ``NOTES``), ``held_args(args, res)`` (what the
reruns hold: the fitted value, and work no claim reads left out) and ``idle_args(args, res)`` (its
idle workload; phone runs are made idle here, by the phone's ``activity`` 0).
"""

from __future__ import annotations

import argparse
import importlib
import json
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import fidelity

if TYPE_CHECKING:
    from . import Reproduction

#: What an echo's value is set by, when the idle run finds one.
ECHO_INPUTS = "its inputs (the same with no page touched)"


def _json(res: dict[str, Any]) -> dict[str, Any]:
    """A result as its ``--json`` prints it (keys as text): what the measurements read."""
    return json.loads(json.dumps(res, default=str))


def measures(name: str) -> ModuleType:
    return importlib.import_module(f".measures.{name.replace('-', '_')}", __package__)


def _rerun(
    inp: fidelity.Input, value: Any, args: argparse.Namespace
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The parameters and the moved settings (:func:`~mobmem.experiment.runner.moved`) of a rerun
    with input ``inp`` at ``value``."""
    if inp.move == "param":
        if inp.key:
            return {inp.target: [*(getattr(args, inp.target, None) or []), f"{inp.key}={value}"]}, {}
        return {inp.target: value}, {}
    if inp.move == "phone":
        return {}, {"phone": {inp.target: value}}
    if inp.move == "apps":
        return {}, {"apps": {inp.target: (value, inp.scale)}}
    return {}, {"devices": {inp.target: value}}


def _phone_takes(phone: str, field: str, value: Any) -> bool:
    """Whether phone ``phone`` runs with ``field`` (dotted: in a nested table) set to ``value``: a
    field it does not have, or a value of the wrong kind, is refused when the phone is built."""
    from .. import phone as ph
    from ..errors import MobmemError
    from ..experiment.runner import moved, phone_grid

    try:
        with moved(phone={field: value}):
            phone_grid([ph.job(ph.synthetic(2, 2, 1.0), phone)])
    except MobmemError:
        return False
    return True


def check_moves(name: str, folder: Any = None) -> None:
    """Every input of ``name``'s ledger that says how it is moved names something that exists: a
    parameter of the reproduction, a phone field, an app catalog field, a device or tier preset's
    field — a move that reaches nothing would find an input flips no verdict."""
    import tomllib

    from .. import _core, api
    from .. import phone as ph
    from ..errors import ConfigError
    from . import params

    def has(d: Any, dotted: str) -> bool:
        for k in dotted.split("."):
            if not isinstance(d, dict) or k not in d:
                return False
            d = d[k]
        return True

    presets = tomllib.loads(_core.device_presets())
    devices = api.devices()
    for inp in fidelity.load(name, folder or fidelity.CLAIMS_DIR).inputs:
        t = inp.target
        if inp.move == "param":
            ok = t in params(name)
        elif inp.move == "phone":
            ok = any(_phone_takes(n, t, inp.range[0] if inp.range else inp.value) for n in ph.phones())
        elif inp.move == "apps":
            ok = t in ph.apps()[0]
        elif inp.move == "device":
            parts = t.split(".")
            if parts[0] == "tiers":
                ok = len(parts) == 3 and has(api.tiers(), ".".join(parts[1:]))
            else:
                ok = (
                    len(parts) == 2
                    and parts[0] in presets
                    and (
                        parts[1] in devices.get(parts[0], {})
                        or parts[1] in presets[parts[0]]
                        or parts[1] in ("read_iops", "write_iops")
                    )
                )
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
    held = {**vars(args), **mod.held_args(args, res)}
    out: dict[str, dict[str, list[tuple[Any, Any]]]] = {}
    for inp in paper.inputs:
        if not (inp.range and inp.move) or (only is not None and inp.name not in only):
            continue
        per_claim: dict[str, list[tuple[Any, Any]]] = {}
        for v in inp.range:
            params, moves = _rerun(inp, v, args)
            try:
                with moved(**moves):
                    ours = m.measure(_json(mod.compute(argparse.Namespace(**{**held, **params}))))
            except MobmemError as e:
                raise type(e)(f"{name}: input {inp.name} = {v!r}: {e}") from None
            for c in paper.claims:
                per_claim.setdefault(c.id, []).append((v, ours.get(c.id)))
        out[inp.name] = per_claim
    return out


def records(
    name: str,
    mod: Reproduction,
    args: argparse.Namespace,
    res: dict[str, Any],
    echo_test: bool = True,
    sens: dict[str, dict[str, list[tuple[Any, Any]]]] | None = None,
) -> list[fidelity.Record]:
    """Every claim of ``name``'s paper with its verdict, from the result ``res`` of ``args``; with
    ``echo_test``, the reproduction is run again on its idle workload to find the echoes; ``sens``,
    the reruns of :func:`sensitivity` (which inputs flip a verdict, and C)."""
    from ..experiment.runner import idle

    paper = fidelity.load(name)
    m = measures(name)
    ours = m.measure(_json(res))
    echo: set[str] = set()
    idle_ours: dict[str, Any] = {}
    if echo_test:
        quiet = argparse.Namespace(**{**vars(args), **mod.idle_args(args, res)})
        with idle():
            idle_ours = m.measure(_json(mod.compute(quiet)))
        echo = fidelity.echoes(paper, ours, idle_ours)
    notes = dict(getattr(m, "NOTES", {}))
    for cid in echo:
        notes[cid] = (notes.get(cid, "") + f"; idle workload gives {idle_ours.get(cid)}").lstrip("; ")
    return fidelity.score(paper, ours, echo=echo, echo_inputs=ECHO_INPUTS, sensitivity=sens, notes=notes)


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
                "tried": tried,
                "flips": [r.id for r in recs if inp.name in r.flips] if tried else [],
            }
        )
    return out


def paper_summary(
    name: str, recs: list[fidelity.Record], sens: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "paper": name,
        "counts": fidelity.counts(recs),
        "headline": fidelity.counts(recs, headline_only=True),
        "claims": [r.to_dict() for r in recs],
        "inputs": ledger(name, recs, sens),
    }


def board(
    names: list[str],
    overrides: dict[str, dict[str, Any]] | None = None,
    with_sensitivity: bool = True,
    only: set[str] | None = None,
) -> dict[str, Any]:
    """The scoreboard of the reproductions ``names`` (each run with its defaults, and any
    ``overrides`` of its parameters), and the totals; ``with_sensitivity``: the one-at-a-time reruns
    over every assumed input's range (``only``: the inputs named)."""
    from . import REPRODUCTIONS, params

    overrides = overrides or {}
    papers = []
    for name in names:
        mod = REPRODUCTIONS[name]
        args = argparse.Namespace(json=True, **{**params(name), **overrides.get(name, {})})
        res = mod.compute(args)
        sens = sensitivity(name, mod, args, res, only) if with_sensitivity else None
        papers.append(paper_summary(name, records(name, mod, args, res, sens=sens), sens))
    keys = (*fidelity.VERDICTS, "claims", "not_measured")
    total = {k: sum(p["counts"][k] for p in papers) for k in keys}
    head = {k: sum(p["headline"][k] for p in papers) for k in keys}
    return {
        "papers": papers,
        "total": total,
        "headline": head,
        "rule": rule_text(),
        "sensitivity": with_sensitivity,
    }


def rule_text() -> str:
    return (
        f"R: within {fidelity.TOLERANCE:.0%} of the paper's value (at least {fidelity.POINTS_FLOOR:g} points for a"
        " percentage or share) and on the same side of zero; a bound holds; an ordering is the same."
        " D: the direction only. N: neither, or not measured. F: a fitted number. E: the same with the"
        " workload idle (set by inputs). C: R only for another value of an assumed input in its range."
    )


def _ours(r: dict[str, Any]) -> str:
    v = r["ours"]
    if v is None:
        return "—"
    if isinstance(v, list):
        return " < ".join(v)
    return f"{v:.4g}"


def _paper(r: dict[str, Any]) -> str:
    p = r["paper"]
    if isinstance(p, list):
        return " < ".join(p)
    if r["kind"] == "direction":
        return "rises" if p == "+" else "falls"
    bound = {"at-least": "≥ ", "at-most": "≤ "}.get(r["kind"], "")
    return f"{bound}{p:g}"


def text(b: dict[str, Any], rows: bool = True) -> str:
    """The scoreboard as tables: counts per paper, then (with ``rows``) one row per claim."""
    from ..table import render

    heads = ["paper", "claims", "R", "C", "D", "N", "E", "F", "not measured", "headline R / claims"]

    def line(name: str, c: dict[str, int], h: dict[str, int]) -> list[Any]:
        return [
            name,
            c["claims"],
            *(c[v] for v in fidelity.VERDICTS),
            c["not_measured"],
            f"{h['R']} / {h['claims']}",
        ]

    table = [line(p["paper"], p["counts"], p["headline"]) for p in b["papers"]]
    table.append(line("total", b["total"], b["headline"]))
    out = [render(heads, table, title="Fidelity scoreboard: claims of the papers by verdict"), "", b["rule"]]
    if rows:
        for p in b["papers"]:
            cells = [
                [
                    r["id"] + (" *" if r["headline"] else ""),
                    r["where"],
                    _paper(r),
                    _ours(r),
                    "" if r["difference"] is None else f"{r['difference']:+.1f}",
                    r["verdict"],
                    _why(r),
                ]
                for r in p["claims"]
            ]
            out += [
                "",
                render(
                    ["claim (* headline)", "where", "paper", "ours", "diff", "", "fitted / set by / holds if / flipped by"],
                    cells,
                    title=p["paper"],
                ),
            ]
            if p.get("inputs"):
                out += ["", ledger_text(p["paper"], p["inputs"], b.get("sensitivity", False))]
    return "\n".join(out)


def _short(v: Any) -> str:
    t = v if isinstance(v, str) else json.dumps(v)
    return t if len(t) <= 40 else t[:37] + "..."


def _flips(ids: list[str]) -> str:
    if len(ids) <= 2:
        return ", ".join(ids)
    return f"{len(ids)} claims: {', '.join(ids[:2])}, …"


def ledger_text(name: str, inputs: list[dict[str, Any]], tried: bool) -> str:
    """A paper's inputs ledger as a table: value, source, range, how it is moved, what it flips."""
    from ..table import render

    rows = [
        [
            i["name"],
            _short(i["value"]),
            _short(i["source"]),
            _short(i["range"]) if i["range"] else "",
            i["moved_by"] or ("not moved" if i["range"] else ""),
            _flips(i["flips"]) if i["tried"] else ("not tried" if i["range"] and tried else ""),
        ]
        for i in inputs
    ]
    return render(
        ["input", "value", "source", "range", "moved by", "flips the verdict of"],
        rows,
        title=f"{name}: inputs ledger",
    )


def _why(r: dict[str, Any], width: int = 70) -> str:
    """What a verdict rests on, in a line: the fitted input, what sets an echo, where a C holds, or
    the inputs that flip it (the JSON has them whole)."""
    if r["fitted"]:
        out = f"fitted: {r['fitted']}"
    elif r["set_by"]:
        out = f"set by {r['set_by']}"
    elif r["holds_for"]:
        out = f"R if {r['holds_for']}"
    else:
        out = f"flipped by {', '.join(r['flips'])}" if r["flips"] else ""
    return out if len(out) <= width else out[: width - 1] + "…"


def claims_text(claims: list[dict[str, Any]], title: str = "Beside the paper") -> str:
    """A reproduction's judged claims as a table (those it measured), with its counts: what every
    reproduction's report ends with."""
    from ..table import render

    if not claims:
        return ""
    measured = [r for r in claims if r["ours"] is not None]
    rows = [
        [
            r["id"] + (" *" if r["headline"] else ""),
            _paper(r),
            _ours(r),
            "" if r["difference"] is None else f"{r['difference']:+.1f}",
            r["verdict"],
            _why(r),
        ]
        for r in measured
    ]
    c = {v: sum(r["verdict"] == v for r in claims) for v in fidelity.VERDICTS}
    tally = ", ".join(f"{v} {c[v]}" for v in fidelity.VERDICTS)
    head = sum(r["headline"] for r in claims)
    head_r = sum(r["headline"] and r["verdict"] == "R" for r in claims)
    return "\n".join(
        [
            render(["claim (* headline)", "paper", "ours", "diff", "", "note"], rows, title=title),
            f"{len(claims)} claims of the paper ({tally}); {len(claims) - len(measured)} not measured by this run;"
            f" headline claims R {head_r} of {head}. Verdicts by one rule (docs/FIDELITY.md): {rule_text()}",
        ]
    )


def _ledger_html(inputs: list[dict[str, Any]]) -> str:
    from ..report import html

    rows = [
        [
            i["name"],
            _short(i["value"]),
            i["source"],
            _short(i["range"]) if i["range"] else "",
            i["moved_by"],
            ", ".join(i["flips"]) if i["tried"] else "",
        ]
        for i in inputs
    ]
    return "<h3>Inputs ledger</h3>" + html.table(
        ["input", "value", "source", "range", "moved by", "flips the verdict of"], rows
    )


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
    if args.store:
        from ..experiment.runner import stored

        with stored(args.store, "scoreboard") as counts:
            b = board(names, with_sensitivity=args.sensitivity)
            print(f"store {args.store}: {counts['ran']} runs run, {counts['reused']} reused", file=sys.stderr)
    else:
        b = board(names, with_sensitivity=args.sensitivity)
    out = text(b, rows=args.claims)
    if args.json:
        json.dump(b, sys.stdout, indent=1)
        print()
    else:
        print(out)
    if args.report:
        from ..report import html

        sections = [("Counts", f"<pre>{html.esc(text(b, rows=False))}</pre>")]
        sections += [(p["paper"], html.claims(p["claims"]) + _ledger_html(p["inputs"])) for p in b["papers"]]
        html.write(args.report, html.page("Fidelity scoreboard", sections))
    return 0
