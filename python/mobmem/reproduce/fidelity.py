"""Fidelity: every claim of a paper as data, one verdict rule, and the measurements that decide
what a number of ours is — a prediction, a fit, or an echo of its inputs (docs/FIDELITY.md).

- Claims are data: ``claims/<paper>.toml`` lists every quantitative claim of the paper (``[[claim]]``:
  id, where, kind, the paper's value, unit, what it is about, the sentence it comes from) and the
  inputs ledger (``[[input]]``: each value the reproduction sets, its source and, for an assumption,
  the range the literature allows).
- One verdict rule (:func:`rule`), here and nowhere else: **R** reproduced, **D** direction only,
  **N** not reproduced (or not measured); on top of it **F** fitted, **E** set by an input (measured:
  :func:`echoes`), **C** reproduced only for another value of an assumed input in its range.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The verdict rule's tolerance: relative to the paper's value.
TOLERANCE = 0.25
#: For a percentage or a share, the tolerance is at least this many points.
POINTS_FLOOR = 3.0
#: A value that moves less than this share of its size when the workload is taken away is an echo.
ECHO_SHARE = 0.05
KINDS = ("value", "share", "at-least", "at-most", "direction", "ordering")
VERDICTS = ("R", "C", "D", "N", "E", "F")
CLAIMS_DIR = Path(__file__).resolve().parent / "claims"
#: Units whose values are changes (a sign is a direction) or percentages (the points floor).
PERCENT_UNITS = ("%", "points", "percentage points")


@dataclass(frozen=True)
class Claim:
    """One quantitative claim of a paper."""

    id: str
    where: str
    kind: str
    unit: str
    about: str
    quote: str
    paper: float | None = None
    order: tuple[str, ...] = ()
    sign: str = ""
    headline: bool = False
    #: The input fitted to this claim (its number is a calibration target), if any.
    fitted: str = ""
    #: A percentage that is a level (a part of a whole, a share of pages), not a change: its sign
    #: is no direction, so it is never D.
    level: bool = False


#: How the scoreboard moves an input for a rerun (one per input, or none: not moved):
#: ``param`` a parameter of the reproduction (with ``key``: one ``key=value`` item of a list
#: parameter, as ``spo_param``); ``phone`` a phone field in every phone run (dotted for a nested
#: table); ``apps`` an app catalog field on every app (``scale``: the values multiply each app's
#: own); ``device`` a device preset's field (``preset.field``, ``tiers.NAME.field`` for a tier).
MOVES = ("param", "phone", "apps", "device")


@dataclass(frozen=True)
class Input:
    """One value a reproduction sets: where it comes from and, for an assumption, its range."""

    name: str
    value: Any
    source: str
    why: str = ""
    #: For an input the paper does not give: other values the literature allows (the scoreboard
    #: reruns the reproduction at each, one input at a time).
    range: tuple[Any, ...] = ()
    #: How it is moved (:data:`MOVES`), and what it moves.
    move: str = ""
    target: str = ""
    key: str = ""
    scale: bool = False
    #: Taken from the paper itself (a table of the paper's, not a result it measured).
    from_paper: bool = False

    @property
    def assumed(self) -> bool:
        return bool(self.range)


@dataclass(frozen=True)
class Paper:
    name: str
    title: str
    file: str
    claims: tuple[Claim, ...]
    inputs: tuple[Input, ...]

    def claim(self, cid: str) -> Claim:
        for c in self.claims:
            if c.id == cid:
                return c
        raise KeyError(cid)


def _fail(path: Path, what: str) -> Exception:
    from ..errors import ConfigError

    return ConfigError(f"{path}: {what}", "claims")


def load(paper: str, folder: Path = CLAIMS_DIR) -> Paper:
    """A paper's claims and inputs ledger, checked: every claim well formed, ids unique."""
    path = folder / f"{paper}.toml"
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise _fail(path, f"cannot read the claims ({e})") from None
    claims: list[Claim] = []
    inputs: list[Input] = []
    seen: set[str] = set()
    for i, c in enumerate(doc.get("claim", [])):
        cid = c.get("id")
        if not isinstance(cid, str) or not cid or cid in seen:
            raise _fail(path, f"claim {i + 1}: id {cid!r} missing or given twice")
        seen.add(cid)
        kind = c.get("kind")
        if kind not in KINDS:
            raise _fail(path, f"claim {cid}: kind {kind!r}; known: {', '.join(KINDS)}")
        if c.get("input"):
            # The paper's own number that mobmem takes as given: an input, not a claim.
            inputs.append(
                Input(
                    cid, c.get("paper"), f"paper, {c.get('where', '')}", c.get("about", ""), from_paper=True
                )
            )
            continue
        paper_value = c.get("paper")
        if kind == "ordering":
            order = c.get("order")
            if not isinstance(order, list) or len(order) < 2 or not all(isinstance(x, str) for x in order):
                raise _fail(path, f"claim {cid}: an ordering needs `order`, two names or more")
        elif kind == "direction":
            if c.get("sign") not in ("+", "-"):
                raise _fail(path, f"claim {cid}: a direction needs `sign` = '+' or '-'")
        elif (
            not isinstance(paper_value, int | float)
            or isinstance(paper_value, bool)
            or not math.isfinite(paper_value)
        ):
            raise _fail(path, f"claim {cid}: `paper` must be the paper's number, got {paper_value!r}")
        claims.append(
            Claim(
                id=cid,
                where=str(c.get("where", "")),
                kind=kind,
                unit=str(c.get("unit", "")),
                about=str(c.get("about", "")),
                quote=str(c.get("quote", "")),
                paper=None if paper_value is None else float(paper_value),
                order=tuple(c.get("order", ())),
                sign=str(c.get("sign", "")),
                headline=bool(c.get("headline", False)),
                fitted=str(c.get("fitted", "")),
                level=bool(c.get("level", False)),
            )
        )
    for i, d in enumerate(doc.get("input", [])):
        inputs.append(_input(path, i, d))
    names = [x.name for x in inputs]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise _fail(path, f"input {twice[0]!r} given twice")
    fitted = {c.fitted for c in claims if c.fitted}
    ledger = [x for x in inputs if x.source == "fitted"]
    if len(fitted) > 1 or len(ledger) > 1:
        raise _fail(path, "more than one fitted input: a paper may have one")
    for f in fitted:
        if not any(f in (x.name, x.target) for x in ledger):
            raise _fail(path, f"claims are fitted by {f!r}, which the ledger has no fitted input for")
    return Paper(
        doc.get("paper", paper), doc.get("title", ""), doc.get("file", ""), tuple(claims), tuple(inputs)
    )


def _input(path: Path, i: int, d: dict[str, Any]) -> Input:
    """One ``[[input]]`` of the ledger, checked: a name, a value, a source; a range only for an input
    the paper does not give; at most one way to move it (an assumed input with none is listed as not
    moved: the sensitivity cannot say whether it flips a verdict, and the scoreboard says so)."""
    name = d.get("name")
    if not isinstance(name, str) or not name:
        raise _fail(path, f"input {i + 1}: no name")
    known = {"name", "value", "source", "why", "range", "key", "scale", *MOVES}
    extra = sorted(set(d) - known)
    if extra:
        raise _fail(path, f"input {name}: unknown key {extra[0]!r}; known: {', '.join(sorted(known))}")
    if "value" not in d:
        raise _fail(path, f"input {name}: no value")
    source = d.get("source")
    if not isinstance(source, str) or not source:
        raise _fail(path, f"input {name}: no source (paper, datasheet, another paper, assumed or fitted)")
    rng = d.get("range", [])
    if not isinstance(rng, list):
        raise _fail(path, f"input {name}: `range` must be a list of values")
    if rng and (source.startswith("paper") or source == "fitted"):
        raise _fail(
            path, f"input {name}: a range is for an input the paper does not give, not for {source!r}"
        )
    moves = [m for m in MOVES if m in d]
    if len(moves) > 1:
        raise _fail(path, f"input {name}: one way to move it, not {' and '.join(moves)}")
    move = moves[0] if moves else ""
    target = d.get(move, "") if move else ""
    if move and (not isinstance(target, str) or not target):
        raise _fail(path, f"input {name}: `{move}` must name what it moves")
    if d.get("scale") and move != "apps":
        raise _fail(path, f"input {name}: `scale` goes with `apps`")
    if d.get("key") and move != "param":
        raise _fail(path, f"input {name}: `key` goes with `param`")
    return Input(
        name,
        d["value"],
        source,
        str(d.get("why", "")),
        tuple(rng),
        move,
        target,
        str(d.get("key", "")),
        bool(d.get("scale", False)),
    )


def _is_change(c: Claim) -> bool:
    """Whether the claim's number is a change or a difference, whose sign is a direction (a share
    or a level is a part of a whole, not a change)."""
    return c.kind == "direction" or (c.unit in PERCENT_UNITS and c.kind != "share" and not c.level)


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def tolerance(c: Claim) -> float:
    """How far ours may be from the paper's value and still be R: 25% of it, and at least 3 points
    for a percentage or a share."""
    tol = TOLERANCE * abs(c.paper or 0.0)
    if c.unit in PERCENT_UNITS or c.kind == "share":
        tol = max(tol, POINTS_FLOOR)
    return tol


def rule(c: Claim, ours: Any) -> str:
    """The verdict of ``ours`` on claim ``c`` — R, D or N — by the one rule (module docs):

    - a value or a share: R within :func:`tolerance` (a change also on the same side of zero); D
      on the same side of zero but farther (only for a change, whose sign is a direction); N
      otherwise;
    - a bound: R when it holds; D when it fails on the right side of zero (a change); N otherwise;
    - a direction: R when the sign is the paper's; N otherwise;
    - an ordering: R for the same order; D when the first (the extreme the claim is about) is the
      same; N otherwise.
    Not measured (``ours`` None) is N."""
    if ours is None:
        return "N"
    if c.kind == "ordering":
        got = list(ours)
        if got == list(c.order):
            return "R"
        return "D" if got and got[0] == c.order[0] else "N"
    x = float(ours)
    if not math.isfinite(x):
        return "N"
    if c.kind == "direction":
        return "R" if _sign(x) == (1 if c.sign == "+" else -1) else "N"
    p = float(c.paper or 0.0)
    same_side = _sign(x) == _sign(p) or p == 0.0
    if c.kind == "at-least":
        ok = x >= p
    elif c.kind == "at-most":
        ok = x <= p
    else:
        ok = abs(x - p) <= tolerance(c) and (same_side or not _is_change(c))
    if ok:
        return "R"
    return "D" if _is_change(c) and same_side and p != 0.0 else "N"


def difference(c: Claim, ours: Any) -> float | None:
    """Ours against the paper's: relative in % for a value, in points for a percentage."""
    if ours is None or c.kind in ("ordering", "direction") or c.paper is None:
        return None
    x = float(ours)
    if c.unit in PERCENT_UNITS or c.kind == "share":
        return x - c.paper
    return 100.0 * (x - c.paper) / abs(c.paper) if c.paper else None


def differs(c: Claim, base: Any, other: Any) -> bool:
    """Whether a claim's value differs between two runs by more than :data:`ECHO_SHARE` of the
    larger (an ordering: changed at all)."""
    if base is None or other is None:
        return True  # the claim cannot be measured without the workload: it depends on it
    if c.kind == "ordering":
        return list(base) != list(other)
    a, b = float(base), float(other)
    if not (math.isfinite(a) and math.isfinite(b)):
        return True
    return abs(a - b) > ECHO_SHARE * max(abs(a), abs(b))


def echoes(paper: Paper, base: dict[str, Any], idle: dict[str, Any]) -> set[str]:
    """The claims whose agreement is their inputs' (``idle``: the same reproduction on an idle or
    empty workload): those whose value does not move when the workload is taken away, and those
    that agree with the paper (R or D) whose idle value alone is already R — the workload moved
    them, but the paper's number was there without it. Orderings are not judged so: an idle
    workload ties what it orders, and a tie has no order to compare."""
    out = set()
    for c in paper.claims:
        if c.id not in base or c.kind == "ordering":
            continue
        if not differs(c, base[c.id], idle.get(c.id)) or agrees_idle(c, base[c.id], idle.get(c.id)):
            out.add(c.id)
    return out


def agrees_idle(c: Claim, base: Any, idle: Any) -> bool:
    """Whether a claim that agrees with the paper (R or D) is already R on the idle workload."""
    return idle is not None and rule(c, base) in ("R", "D") and rule(c, idle) == "R"


@dataclass
class Record:
    """A claim's verdict and what it rests on: the record every reproduction's ``--json`` and the
    scoreboard carry."""

    id: str
    paper_name: str
    where: str
    kind: str
    unit: str
    paper: Any
    ours: Any
    difference: float | None
    verdict: str
    headline: bool
    fitted: str = ""
    set_by: str = ""
    flips: list[str] = field(default_factory=list)
    #: For C: the input and the values of it over which the claim is R.
    holds_for: str = ""
    note: str = ""
    about: str = ""
    #: For a claim not reproduced (N, D or C): why ours differs, as the reproduction's runs showed
    #: it (its measurements' ``causes``); empty where no cause has been checked.
    cause: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def score(
    paper: Paper,
    ours: dict[str, Any],
    *,
    echo: set[str] | None = None,
    echo_inputs: str = "",
    sensitivity: dict[str, dict[str, list[tuple[Any, Any]]]] | None = None,
    notes: dict[str, str] | None = None,
) -> list[Record]:
    """Every claim of ``paper`` with its verdict: ``ours`` maps claim ids to our values (a claim
    missing is not measured); ``echo`` the ids found to be echoes (:func:`echoes`), set by
    ``echo_inputs``; ``sensitivity`` per input name, per claim id, (input value, our value) pairs
    from runs with that input moved within its range — which inputs flip a verdict, and C."""
    echo = echo or set()
    sensitivity = sensitivity or {}
    notes = notes or {}
    out = []
    for c in paper.claims:
        v = ours.get(c.id)
        verdict = rule(c, v)
        flips: list[str] = []
        holds: list[str] = []
        for name, per_claim in sensitivity.items():
            tried = per_claim.get(c.id, [])
            verdicts = {rule(c, o) for _, o in tried}
            if verdicts - {verdict}:
                flips.append(name)
            if verdict != "R":
                good = [x for x, o in tried if rule(c, o) == "R"]
                if good:
                    holds.append(f"{name} ∈ {{{', '.join(map(str, good))}}}")
        fitted = c.fitted
        # An echo that agrees with the paper (R, or D) is E: its agreement is its inputs'. One that
        # does not agree stays N, and no other value of an input makes it C: its value is its inputs'.
        set_by = echo_inputs if c.id in echo else ""
        if fitted:
            final = "F"
        elif set_by and verdict in ("R", "D"):
            final = "E"
        elif verdict != "R" and holds and not set_by:
            final = "C"
        else:
            final = verdict
        out.append(
            Record(
                c.id,
                paper.name,
                c.where,
                c.kind,
                c.unit,
                list(c.order) if c.kind == "ordering" else (c.sign if c.kind == "direction" else c.paper),
                v,
                difference(c, v),
                final,
                c.headline,
                fitted,
                set_by,
                flips,
                "; ".join(holds) if final == "C" else "",
                _note(
                    notes.get(c.id, "" if v is not None else "not measured"), bool(set_by) and final == "N"
                ),
                c.about,
            )
        )
    return out


def _note(note: str, idle_too: bool) -> str:
    if not idle_too:
        return note
    return f"the same with the workload idle: set by its inputs, and not the paper's; {note}".rstrip("; ")


def counts(records: list[Record], headline_only: bool = False) -> dict[str, int]:
    """How many claims got each verdict (and how many of the N were not measured)."""
    return counts_of([r.to_dict() for r in records], headline_only)


def counts_of(records: list[dict[str, Any]], headline_only: bool = False) -> dict[str, int]:
    """:func:`counts` of records as ``--json`` carries them."""
    rs = [r for r in records if r["headline"] or not headline_only]
    out = {v: sum(r["verdict"] == v for r in rs) for v in VERDICTS}
    out["claims"] = len(rs)
    out["not_measured"] = sum(r["ours"] is None for r in rs)
    return out
