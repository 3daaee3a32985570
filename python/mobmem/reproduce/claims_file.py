"""A paper's claims file (``claims/<paper>.toml``) as typed data, checked when it loads: every
claim well formed (its kind, the paper's number, its subject and, for one cell of a series, its
setting), the inputs ledger (each input's source, range and how it is moved), and the seeds its
reproduction reruns to measure noise (docs/FIDELITY.md). The verdicts are :mod:`.fidelity`'s."""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KINDS = ("value", "share", "at-least", "at-most", "direction", "ordering")
#: Whose number a claim is (its ``subject`` starts ``KIND:``): the apps of a phone-level run, the
#: phone's system processes, or the workload as a whole (page-level runs, totals, constants). The
#: scoreboard's subject test reruns with that subject idle: its processes touch no page.
SUBJECTS = ("apps", "system", "workload")
CLAIMS_DIR = Path(__file__).resolve().parent / "claims"


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
    #: Whose number it is: ``KIND: text`` with KIND one of :data:`SUBJECTS` (see
    #: :attr:`subject_kind`), the text saying which processes, apps, category, device or policy.
    subject: str = ""
    #: For one cell of a series the paper varies: the series' name and this cell's setting
    #: (``key=number``), judged with its neighbours as a trend (:func:`.fidelity.series_flat`).
    series: str = ""
    setting: str = ""

    @property
    def subject_kind(self) -> str:
        """``apps``, ``system`` or ``workload`` (a claim built without a subject: the workload)."""
        return self.subject.split(":", 1)[0].strip() or "workload"

    @property
    def setting_value(self) -> float:
        return float(self.setting.split("=", 1)[1])


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
    #: The reproduction's seed parameter and the other seeds its default reruns at (the noise
    #: test); empty where it has none.
    seed_param: str = ""
    seeds: tuple[Any, ...] = ()

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
        subject, series, setting = _subject(path, cid, c)
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
                subject=subject,
                series=series,
                setting=setting,
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
    _check_series(path, claims)
    seed_param, seeds = _seeds(path, doc.get("seeds"))
    return Paper(
        doc.get("paper", paper),
        doc.get("title", ""),
        doc.get("file", ""),
        tuple(claims),
        tuple(inputs),
        seed_param,
        seeds,
    )


def _subject(path: Path, cid: str, c: dict[str, Any]) -> tuple[str, str, str]:
    """A claim's ``subject`` (``KIND: text``), and its ``series`` and ``setting`` (both or neither;
    the setting ``key=number``)."""
    subject = c.get("subject")
    kind, _, text = subject.partition(":") if isinstance(subject, str) else ("", "", "")
    if not isinstance(subject, str) or kind.strip() not in SUBJECTS or not text.strip():
        raise _fail(
            path,
            f"claim {cid}: `subject` must be 'KIND: whose number it is', KIND one of "
            f"{', '.join(SUBJECTS)}; got {subject!r}",
        )
    series, setting = c.get("series", ""), c.get("setting", "")
    if not isinstance(series, str) or not isinstance(setting, str) or bool(series) != bool(setting):
        raise _fail(path, f"claim {cid}: a cell of a series has both `series` and `setting` (text)")
    if setting:
        key, _, num = setting.partition("=")
        try:
            ok = bool(key.strip()) and math.isfinite(float(num))
        except ValueError:
            ok = False
        if not ok:
            raise _fail(path, f"claim {cid}: `setting` must be 'key=number', got {setting!r}")
        if c.get("kind") not in ("value", "share"):
            raise _fail(path, f"claim {cid}: a series is of values or shares, not {c.get('kind')!r}")
    return subject, series, setting


def _check_series(path: Path, claims: list[Claim]) -> None:
    """Every series has two cells or more, of one kind and unit, over one setting key, each
    setting once."""
    by: dict[str, list[Claim]] = {}
    for c in claims:
        if c.series:
            by.setdefault(c.series, []).append(c)
    for name, cells in by.items():
        keys = {c.setting.split("=", 1)[0].strip() for c in cells}
        values = [c.setting_value for c in cells]
        if len(cells) < 2:
            raise _fail(path, f"series {name!r}: one cell ({cells[0].id}); a series has two or more")
        if len({(c.kind, c.unit) for c in cells}) > 1 or len(keys) > 1 or len(set(values)) < len(values):
            raise _fail(
                path, f"series {name!r}: its cells differ in kind, unit or setting key, or repeat a setting"
            )


def _seeds(path: Path, d: Any) -> tuple[str, tuple[Any, ...]]:
    """``[seeds]``: the reproduction's seed parameter (``param``) and the other seeds (``values``)
    the scoreboard reruns its default at, for the noise test."""
    if d is None:
        return "", ()
    if not isinstance(d, dict) or set(d) != {"param", "values"}:
        raise _fail(path, "[seeds] has `param` (the seed parameter) and `values` (the other seeds)")
    vals = d["values"]
    if (
        not isinstance(d["param"], str)
        or not isinstance(vals, list)
        or not vals
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in vals)
    ):
        raise _fail(path, f"[seeds]: `param` a name and `values` whole numbers, got {d!r}")
    return d["param"], tuple(vals)


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
    if rng and "seed" in f"{name} {d.get('param', '')}".lower():
        raise _fail(
            path,
            f"input {name}: a seed is no assumed input (no value is more defensible than another):"
            " the scoreboard reruns the seeds of [seeds] for the noise, never for a C",
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
