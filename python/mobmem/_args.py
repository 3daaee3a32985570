"""Checks of what a notebook passes to the public API: each argument is taken in the forms it
documents or refused with :class:`~mobmem.ConfigError` naming it (``.field``) and saying what it
got — never a raw ``TypeError`` or ``ValueError`` from deeper down. Values bound for the core
travel as JSON (:func:`to_json`): NaN, infinity and objects JSON cannot hold are refused there, with
the setting's path (``params.ain_ratio``)."""

from __future__ import annotations

import json
import math
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

#: Largest whole number the core takes (an unsigned 64-bit count; kept below 2^63 for every field).
MAX_WHOLE = 2**63 - 1


def error(field: str, what: str, v: Any) -> Exception:
    from .errors import ConfigError

    return ConfigError(f"{field} must be {what}, got {_show(v)}", field)


def _show(v: Any) -> str:
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    text = repr(v)
    if len(text) > 60:
        text = text[:57] + "..."
    return text if isinstance(v, str | int | float | bool | type(None)) else f"{type(v).__name__} {text}"


def path(field: str, v: Any) -> str:
    """A file's path: a non-empty ``str`` or ``os.PathLike``."""
    if isinstance(v, str | os.PathLike) and not isinstance(v, bytes):
        p = os.fspath(v)
        if isinstance(p, str) and p:
            return p
    raise error(field, "a path (str or os.PathLike)", v)


def opt_path(field: str, v: Any) -> str | None:
    return None if v is None else path(field, v)


def text(field: str, v: Any) -> str:
    if isinstance(v, str):
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            raise error(field, "text (valid Unicode)", v) from None
        return v
    raise error(field, "a string", v)


def opt_text(field: str, v: Any) -> str | None:
    return None if v is None else text(field, v)


def flag(field: str, v: Any) -> bool:
    """A yes or no: ``True``/``False`` (numpy's booleans too), not a string or a number."""
    if isinstance(v, bool) or type(v).__name__ == "bool_":
        return bool(v)
    raise error(field, "True or False", v)


def number(field: str, v: Any, minimum: float | None = None) -> float:
    """A finite real number (at least ``minimum``)."""
    if isinstance(v, bool) or (not isinstance(v, int | float) and not hasattr(v, "__float__")):
        raise error(field, "a number", v)
    try:
        x = float(v)
    except (TypeError, ValueError, OverflowError):
        raise error(field, "a number", v) from None
    if not math.isfinite(x):
        raise error(field, "a finite number", v)
    if minimum is not None and x < minimum:
        raise error(field, f"a number ≥ {minimum:g}", v)
    return x


def whole(field: str, v: Any, minimum: int = 0, maximum: int = MAX_WHOLE) -> int:
    """``v`` as a whole number from ``minimum`` to ``maximum`` (a float, even 2.0, is refused:
    counts are not rounded)."""
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise error(field, "a whole number", v)
    n = int(v.__index__())
    if not minimum <= n <= maximum:
        raise error(field, f"a whole number from {minimum} to {maximum}", n)
    return n


def workers(field: str, v: Any) -> int:
    """A thread or worker count: a whole number ≥ 0 (0: every core). More than the cores there are
    buys nothing (the runs are CPU-bound) and can pass what the process may start: capped at the
    cores, with a message on stderr."""
    n = whole(field, v)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if n > cores:
        print(f"mobmem: {field} = {n} is more than the {cores} cores there are: {cores}", file=sys.stderr)
        return cores
    return n


def listed(field: str, v: Any) -> list[Any]:
    """A list from a list, a tuple or any other iterable (read once); not a string, bytes or a
    mapping, which iterate as something else."""
    if isinstance(v, str | bytes | bytearray | dict) or not hasattr(v, "__iter__"):
        raise error(field, "a list", v)
    return list(v)


def names(field: str, v: Sequence[Any] | str) -> list[str]:
    """A non-empty list of names from a list or a comma-separated string."""
    if isinstance(v, str):
        out = [s.strip() for s in v.split(",") if s.strip()]
    else:
        out = [
            str(x) if isinstance(x, int) and not isinstance(x, bool) else text(field, x)
            for x in listed(field, v)
        ]
    if not out:
        from .errors import ConfigError

        raise ConfigError(f"{field}: no value given (got {_show(v)})", field)
    return out


def mapping(field: str, v: Any) -> dict[str, Any]:
    """A dict from any mapping with string keys (None: empty)."""
    from collections.abc import Mapping

    if v is None:
        return {}
    if not isinstance(v, Mapping) or not all(isinstance(k, str) for k in v):
        raise error(field, "a mapping of names to values", v)
    return dict(v)


def mappings(field: str, v: Iterable[Any]) -> list[dict[str, Any]]:
    return [mapping(f"{field}[{i}]", x) for i, x in enumerate(listed(field, v))]


def plain(v: Any, where: str = "") -> Any:
    """``v`` with what JSON can carry to the core only (numpy's scalars become Python's), or
    :class:`ConfigError` naming where the value that cannot go is."""
    try:
        return _plain(v, where)
    except RecursionError:
        from .errors import ConfigError

        raise ConfigError(f"{where or 'value'}: nested too deep to be a setting", where) from None


def _plain(v: Any, where: str) -> Any:
    from .errors import ConfigError

    if v is None or isinstance(v, bool | int):
        return v
    if isinstance(v, float) or (
        hasattr(v, "__float__") and not hasattr(v, "__index__") and hasattr(v, "dtype")
    ):
        x = float(v)
        if not math.isfinite(x):
            shown = "NaN" if math.isnan(x) else str(x)
            raise ConfigError(f"{where or 'value'}: {shown} is not a value any setting takes", where)
        return x
    if hasattr(v, "__index__") and hasattr(v, "dtype"):
        return int(v.__index__())
    if isinstance(v, str):
        return text(where or "value", v)
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if not isinstance(k, str) or _surrogates(k):
                raise ConfigError(f"{where or 'value'}: key {_show(k)} is not a name", where)
            out[k] = _plain(x, f"{where}.{k}" if where else k)
        return out
    if isinstance(v, list | tuple):
        return [_plain(x, where) for x in v]
    raise ConfigError(f"{where or 'value'}: {_show(v)} is not a value a setting takes", where)


def _surrogates(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def to_json(v: Any, where: str = "") -> str:
    """``v`` as JSON for the core (:func:`plain`)."""
    return json.dumps(plain(v, where))


def dotted_settings(field: str, v: Any) -> list[str]:
    """A mapping of dotted setting names to values (``{"sim.policy": "lru"}``; a table value is
    spread over its keys) as the core's ``KEY=VALUE`` settings, each value a TOML literal."""
    out: list[str] = []

    def put(key: str, x: Any) -> None:
        if not key or any(not part for part in key.split(".")):
            raise error(field, "a mapping of dotted setting names (sim.policy) to values", key)
        if isinstance(x, dict):
            for k, y in x.items():
                put(f"{key}.{k}", y)
            return
        if x is None:
            raise error(f"{field}[{key!r}]", "a value (None sets nothing)", x)
        if isinstance(x, list) and any(isinstance(y, dict | list) for y in x):
            raise error(f"{field}[{key!r}]", "a value or a list of plain values", x)
        out.append(f"{key}={json.dumps(x, ensure_ascii=False)}")

    for k, x in mapping(field, v).items():
        # A path (trace.path) may be given as a path object.
        put(k, plain(os.fspath(x) if isinstance(x, os.PathLike) else x, f"{field}.{k}"))
    return out


def key_values(items: Sequence[str] | None, flag: str = "--param") -> dict[str, Any]:
    """KEY=VALUE pairs from a command line; values are JSON where they parse as JSON, strings
    otherwise — but ``nan`` and ``inf`` are the numbers they name, so that the setting refuses them
    as numbers ("NaN is not a value any setting takes"), not as a string it did not expect."""
    from .errors import MobmemError

    out: dict[str, Any] = {}
    for it in items or ():
        if "=" not in it:
            raise MobmemError(f"{flag} expects KEY=VALUE, got {it!r}")
        k, v = it.split("=", 1)
        if v.strip().lower().lstrip("+-") in ("nan", "inf", "infinity"):
            out[k.strip()] = float(v)
            continue
        try:
            out[k.strip()] = json.loads(v)
        except json.JSONDecodeError:
            out[k.strip()] = v
    return out
