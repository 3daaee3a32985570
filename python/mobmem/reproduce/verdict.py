"""The reproductions' verdicts: ours beside the paper's number, as a relative difference (or a
difference in points, for numbers that are themselves percentages) against a stated tolerance.

A claim is also data (:func:`claim`): the paper's value, ours, the difference, its unit, the
tolerance, whether it is inside, and whether it was fitted — a fitted number is the calibration
target and gets no verdict."""

from __future__ import annotations

from typing import Any


def pct(a: float, b: float) -> float:
    """a relative to b, in % (+ when a is larger)."""
    return 100.0 * (a - b) / b if b else float("nan")


def verdict(ours: float, paper: float, tol: float, points: bool = False) -> str:
    """``+12.3% (within ±50%)``: the difference from the paper's number and whether it is inside
    the tolerance (relative, or in points with ``points``)."""
    diff = ours - paper if points else pct(ours, paper)
    unit = " points" if points else "%"
    ok = abs(diff) <= tol
    return f"{diff:+.1f}{unit} ({'within' if ok else 'OUTSIDE'} ±{tol:g}{unit})"


def claim(
    name: str,
    ours: float,
    paper: float,
    tol: float,
    *,
    points: bool = False,
    at_least: bool = False,
    fitted: bool = False,
    echo: str | None = None,
) -> dict[str, Any]:
    """One figure beside the paper's. ``at_least``: the paper gives a bound ("more than
    ``paper``"), met when ours is above it less the tolerance. ``echo``: the inputs that set this
    figure — it is not a prediction and gets no verdict, as a fitted one does not."""
    diff = ours - paper if points else pct(ours, paper)
    within = diff >= -tol if at_least else abs(diff) <= tol
    return {
        "claim": name,
        "paper": paper,
        "ours": ours,
        "difference": diff,
        "unit": "points" if points else "%",
        "tolerance": tol,
        "bound": "at least" if at_least else "about",
        "within": None if fitted or echo else within,
        "fitted": fitted,
        "set_by": echo,
    }


def describe(c: dict[str, Any]) -> str:
    """The verdict column of a claim."""
    if c["fitted"]:
        return "calibration target (fitted)"
    if c.get("set_by"):
        unit = " points" if c["unit"] == "points" else "%"
        return f"{c['difference']:+.1f}{unit}: set by {c['set_by']}"
    unit = " points" if c["unit"] == "points" else "%"
    inside = "within" if c["within"] else "OUTSIDE"
    tol = (
        f"−{c['tolerance']:g}{unit} of the bound"
        if c["bound"] == "at least"
        else f"±{c['tolerance']:g}{unit}"
    )
    return f"{c['difference']:+.1f}{unit} ({inside} {tol})"


def claims_table(claims: list[dict[str, Any]], title: str, fmt: str = "{:.1f}") -> str:
    """The claims as a table: claim, ours, paper, verdict."""
    from ..table import render

    rows = [
        (
            c["claim"],
            fmt.format(c["ours"]),
            ("> " if c["bound"] == "at least" else "") + f"{c['paper']:g}",
            describe(c),
        )
        for c in claims
    ]
    return render(("claim", "ours", "paper", "difference"), rows, title=title)
