"""TOML text from plain data, for the settings files mobmem writes for its own runs (a device preset
with one field moved, an app catalog layer). Every table is written inline, so any nesting is one
line per top-level key; the standard library reads TOML but does not write it."""

from __future__ import annotations

import json
import math
from typing import Any


def _value(x: Any, where: str) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return repr(x)
    if isinstance(x, str):
        # A JSON string is a TOML basic string, but for DEL, which TOML wants escaped.
        return json.dumps(x, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(x, dict):
        return (
            "{ "
            + ", ".join(f"{_value(str(k), where)} = {_value(v, f'{where}.{k}')}" for k, v in x.items())
            + " }"
        )
    if isinstance(x, list | tuple):
        return "[" + ", ".join(_value(v, where) for v in x) + "]"
    raise TypeError(f"{where}: {type(x).__name__} has no TOML form")


def dumps(doc: dict[str, Any]) -> str:
    """``doc`` as TOML text: one ``key = value`` line per top-level key, tables inline."""
    return "".join(f"{_value(str(k), str(k))} = {_value(v, str(k))}\n" for k, v in doc.items())
