"""The reproductions' verdicts: ours beside the paper's number, as a relative difference (or a
difference in points, for numbers that are themselves percentages) against a stated tolerance."""

from __future__ import annotations


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
