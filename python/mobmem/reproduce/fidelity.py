"""Fidelity: every claim of a paper as data, one verdict rule, and the measurements that decide
what a number of ours is — a prediction, a fit, or an echo of its inputs (docs/FIDELITY.md).

- Claims are data: ``claims/<paper>.toml`` lists every quantitative claim of the paper (``[[claim]]``:
  id, where, kind, the paper's value, unit, what it is about, the sentence it comes from) and the
  inputs ledger (``[[input]]``: each value the reproduction sets, its source and, for an assumption,
  the range the literature allows).
- One verdict rule (:func:`rule`), here and nowhere else: **R** reproduced, **D** direction only,
  **N** not reproduced (or not measured); on top of it **F** fitted, **E** set by the rest and not
  the claim's subject (measured with the subject idle: :func:`echoes`), **C** reproduced only for
  another value of an assumed input in its range.
- What one run cannot show is judged from the reruns (:func:`score`): a series flat where the
  paper's moves (:func:`series_flat`) and an agreement within the seeds' spread (:func:`noise`)
  are N.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .claims_file import CLAIMS_DIR, KINDS, SUBJECTS, Claim, Input, Paper, load

__all__ = ["CLAIMS_DIR", "KINDS", "SUBJECTS", "Claim", "Input", "Paper", "load", "rule", "score"]

#: The verdict rule's tolerance: relative to the paper's value.
TOLERANCE = 0.25
#: For a percentage or a share, the tolerance is at least this many points.
POINTS_FLOOR = 3.0
#: A value that moves less than this share of its size when the workload is taken away is an echo.
ECHO_SHARE = 0.05
VERDICTS = ("R", "C", "D", "N", "E", "F")
#: Units whose values are changes (a sign is a direction) or percentages (the points floor).
PERCENT_UNITS = ("%", "points", "percentage points")


def _is_change(c: Claim) -> bool:
    """Whether the claim's number is a change or a difference, whose sign is a direction (a share
    or a level is a part of a whole, not a change)."""
    return c.kind == "direction" or (c.unit in PERCENT_UNITS and c.kind != "share" and not c.level)


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def _is_level(c: Claim) -> bool:
    """A share or a level in percent: a part of a whole, judged against its complement too."""
    return (c.kind == "share" or c.level) and c.unit in PERCENT_UNITS


def tolerance(c: Claim) -> float:
    """How far ours may be from the paper's value and still be R: 25% of it, and at least 3 points
    for a percentage. A share or level in percent is judged on both sides: within 3 points, or
    within 25% of the share and of its complement (61% of launches: 9.75 points, as the other 39%
    is held to 25% too)."""
    p = abs(c.paper or 0.0)
    if _is_level(c):
        return max(POINTS_FLOOR, TOLERANCE * min(p, abs(100.0 - p)))
    tol = TOLERANCE * p
    if c.unit in PERCENT_UNITS or c.kind == "share":
        tol = max(tol, POINTS_FLOOR)
    return tol


def rule(c: Claim, ours: Any) -> str:
    """The verdict of ``ours`` on claim ``c`` — R, D or N — by the one rule (module docs):

    - a value or a share: R within :func:`tolerance` (a change also on the same side of zero); D
      on the same side of zero but farther (only for a change, whose sign is a direction); N
      otherwise;
    - a bound: R when it holds; N when it fails (a failed bound never agrees);
    - a direction: R when the sign is the paper's; N otherwise;
    - an ordering: R for the same order; D when the first (the extreme the claim is about) is the
      same; N otherwise.
    Not measured (``ours`` None) is N. What the rule sees is one run; :func:`score` adds what the
    reruns show (the subject idle, the series, the seeds)."""
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
    if c.kind in ("at-least", "at-most"):
        return "R" if (x >= p if c.kind == "at-least" else x <= p) else "N"
    same_side = _sign(x) == _sign(p) or p == 0.0
    if abs(x - p) <= tolerance(c) and (same_side or not _is_change(c)):
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


def echoes(
    paper: Paper,
    base: dict[str, Any],
    idle: dict[str, Any],
    by_subject: dict[str, dict[str, Any]] | None = None,
) -> set[str]:
    """The claims whose agreement is not their subject's. ``idle``: the same reproduction on an idle
    or empty workload; ``by_subject``: per subject kind (``apps``, ``system``), the rerun with only
    that subject idle — its processes touch no page, everything else as before — which a claim
    about that subject is judged by instead. An echo is a claim whose value does not move with its
    subject idle, or one that agrees with the paper (R or D) whose idle value alone is already R —
    the subject moved it, but the paper's number was there without it. Orderings and bounds go
    through the same test: an order the idle run already gives is the rest's, not the subject's."""
    by_subject = by_subject or {}
    out = set()
    for c in paper.claims:
        if c.id not in base:
            continue
        quiet = by_subject.get(c.subject_kind, idle)
        if not differs(c, base[c.id], quiet.get(c.id)) or agrees_idle(c, base[c.id], quiet.get(c.id)):
            out.add(c.id)
    return out


def agrees_idle(c: Claim, base: Any, idle: Any) -> bool:
    """Whether a claim that agrees with the paper (R or D) is already R on the idle workload."""
    return idle is not None and rule(c, base) in ("R", "D") and rule(c, idle) == "R"


def series_flat(paper: Paper, ours: dict[str, Any]) -> dict[str, str]:
    """The cells of each series (a number the paper gives at several values of one setting) that
    are judged as the series: where the paper's cells move (by more than :data:`ECHO_SHARE` of the
    largest) and ours are flat (all measured, within it), each cell is not a prediction of its
    setting — claim id → why. A series that moves is judged cell by cell."""
    by: dict[str, list[Claim]] = {}
    for c in paper.claims:
        if c.series:
            by.setdefault(c.series, []).append(c)
    out = {}
    for name, cells in by.items():
        vals = [ours.get(c.id) for c in cells]
        if any(v is None or not math.isfinite(float(v)) for v in vals):
            continue
        theirs = [float(c.paper or 0.0) for c in cells]
        mine = [float(v) for v in vals if v is not None]
        if _spread(theirs) > ECHO_SHARE * max(map(abs, theirs)) and _spread(mine) <= ECHO_SHARE * max(
            map(abs, mine), default=0.0
        ):
            key = cells[0].setting.split("=", 1)[0]
            what = ", ".join(f"{c.setting_value:g}" for c in cells)
            for c in cells:
                out[c.id] = f"series {name}: flat across {key} = {what} where the paper's moves"
    return out


def _spread(xs: list[float]) -> float:
    return max(xs) - min(xs) if xs else 0.0


def noise_judges(c: Claim) -> bool:
    """Whether the noise test judges a claim: a direction, an ordering, or a change (a level's
    spread is printed, never a verdict)."""
    return c.kind in ("direction", "ordering") or _is_change(c)


def noise(c: Claim, ours: Any, at_seeds: list[Any]) -> tuple[float | None, bool]:
    """The seed-to-seed spread of a claim's number (max − min over the default seed and the
    others; None for an ordering or where a seed does not measure it), and whether its agreement
    is within it: a direction or a change whose size is no more than the spread, an ordering that
    is not the same at every seed."""
    if not at_seeds or ours is None:
        return None, False
    if c.kind == "ordering":
        return None, any(o is None or list(o) != list(ours) for o in at_seeds)
    if not noise_judges(c):
        vals = [v for v in at_seeds if v is not None]
        return (_spread([float(ours), *map(float, vals)]) if vals else None), False
    if any(v is None for v in at_seeds):
        return None, True
    s = _spread([float(ours), *map(float, at_seeds)])
    return s, abs(float(ours)) <= s


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
    #: Whose number it is (``KIND: text``), and for one cell of a series, the series and setting.
    subject: str = ""
    series: str = ""
    setting: str = ""
    #: The seed-to-seed spread of our number (max − min over the seeds run), where seeds were run.
    spread: float | None = None
    #: Which test took an agreement away (:data:`TESTS`): empty where the rule's verdict stands.
    judged_by: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


#: The tests that can take an agreement (R or D) away, in the order they are applied: the subject
#: idle (E: the number stays without its subject, or is the paper's without it), a flat series
#: (N), the seeds (N: within noise).
TESTS = ("subject", "series", "noise")


def score(
    paper: Paper,
    ours: dict[str, Any],
    *,
    echo: set[str] | None = None,
    echo_inputs: str = "",
    sensitivity: dict[str, dict[str, list[tuple[Any, Any]]]] | None = None,
    notes: dict[str, str] | None = None,
    at_seeds: dict[str, list[Any]] | None = None,
    judge_series: bool = True,
) -> list[Record]:
    """Every claim of ``paper`` with its verdict: ``ours`` maps claim ids to our values (a claim
    missing is not measured); ``echo`` the ids found to be echoes (:func:`echoes`), set by
    ``echo_inputs``; ``sensitivity`` per input name, per claim id, (input value, our value) pairs
    from runs with that input moved within its range — which inputs flip a verdict, and C;
    ``at_seeds`` per claim id, our values at the other seeds (:func:`noise`); ``judge_series``: a
    flat series is N (:func:`series_flat`)."""
    echo = echo or set()
    sensitivity = sensitivity or {}
    notes = notes or {}
    flat = series_flat(paper, ours) if judge_series else {}
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
        spread, noisy = noise(c, v, (at_seeds or {}).get(c.id, []))
        set_by = echo_inputs if c.id in echo else ""
        agrees = verdict in ("R", "D")
        note = notes.get(c.id, "" if v is not None else "not measured")
        # An echo that agrees with the paper (R, or D) is E: its agreement is its inputs'. One that
        # does not agree stays N, and no other value of an input makes it C: its value is its inputs'.
        final, judged = verdict, ""
        if c.fitted:
            final = "F"
        elif set_by and agrees:
            final, judged = "E", "subject"
        elif c.id in flat and agrees:
            final, judged, note = "N", "series", f"{flat[c.id]}; {note}".rstrip("; ")
        elif noisy and agrees:
            final, judged = "N", "noise"
            why = (
                "the order is not the same at every seed"
                if c.kind == "ordering"
                else (f"the seeds' spread is {_fmt(spread)}")
            )
            note = f"within noise: {why}; {note}".rstrip("; ")
        elif verdict != "R" and holds and not set_by:
            final = "C"
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
                c.fitted,
                set_by,
                flips,
                "; ".join(holds) if final == "C" else "",
                _note(note, c, bool(set_by) and final == "N"),
                c.about,
                subject=c.subject,
                series=c.series,
                setting=c.setting,
                spread=spread,
                judged_by=judged,
            )
        )
    return out


def _fmt(x: float | None) -> str:
    return "not measured at every seed" if x is None else f"{x:.4g}"


def _note(note: str, c: Claim, idle_too: bool) -> str:
    if not idle_too:
        return note
    who = {"apps": "the apps", "system": "the system processes"}.get(c.subject_kind)
    idle = f"the workload or {who}" if who else "the workload"
    return f"the same with {idle} idle: set by the rest, and not the paper's; {note}".rstrip("; ")


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
