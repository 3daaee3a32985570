"""Our number for each claim, read from a reproduction's result by its paper's measurements
(``measures/<paper>.py``), and why ours differs where its runs show it (``measures/<paper>_causes.py``).
A leaf below the scoreboard and the judge, so neither imports the other."""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any

#: What an echo's value is set by, when the idle run finds one.
ECHO_INPUTS = "its inputs (the same, or already the paper's, with the workload idle)"


def _json(res: dict[str, Any]) -> dict[str, Any]:
    """A result as its ``--json`` prints it (keys as text)."""
    return json.loads(json.dumps(res, default=str))


def _module(kind: str, name: str, suffix: str = "") -> ModuleType | None:
    """``<kind>/<module><suffix>.py`` of reproduction ``name``, or None where it has none."""
    full = f"{__package__}.{kind}.{name.replace('-', '_')}{suffix}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as e:
        if e.name != full:
            raise
        return None


def typed(name: str, res: dict[str, Any]) -> Any:
    """What the measurements read: the result as its ``--json`` prints it, read into the
    reproduction's record (``results/<module>.py``, ``RESULT``) where it has one."""
    mod = _module("results", name)
    if mod is None:
        return _json(res)
    from ..errors import InvariantError
    from .record import RecordError

    try:
        return mod.RESULT.from_dict(_json(res))
    except RecordError as e:
        raise InvariantError(f"{name}: its result is not its record's shape ({e})") from None


def measures(name: str) -> ModuleType:
    return importlib.import_module(f".measures.{name.replace('-', '_')}", __package__)


def causes(name: str, res: dict[str, Any]) -> dict[str, str]:
    """Claim id → why ours differs, from ``measures/<module>_causes.py`` where the reproduction has
    one (what its runs show about the claims it does not reproduce); empty otherwise."""
    mod = _module("measures", name, "_causes")
    if mod is None:
        return {}
    out: dict[str, str] = mod.causes(typed(name, res))
    return out


def read_ours(name: str, m: ModuleType, res: dict[str, Any], whole: bool = False) -> dict[str, Any]:
    """Our number for each claim of ``name`` from a result (``whole``: read whole, by the
    measurements' ``whole`` where they read a claim as its subject's share); a measurement that
    fails on it is an error naming the paper, never a traceback."""
    from ..errors import InvariantError

    fn = getattr(m, "whole", m.measure) if whole else m.measure
    try:
        out: dict[str, Any] = fn(typed(name, res))
    except (KeyError, TypeError, ValueError, ZeroDivisionError, IndexError, AttributeError) as e:
        raise InvariantError(
            f"{name}: measuring the claims on its result failed ({type(e).__name__}: {e})"
        ) from None
    return out
