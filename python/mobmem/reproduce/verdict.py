"""Arithmetic the reproductions' reports share. Verdicts on claims are not here: they have one rule,
in :mod:`.fidelity`, which no reproduction overrides."""

from __future__ import annotations


def pct(a: float, b: float) -> float:
    """a relative to b, in % (+ when a is larger)."""
    return 100.0 * (a - b) / b if b else float("nan")
