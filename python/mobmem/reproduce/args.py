"""Parsing shared by the reproductions' command-line arguments."""

from __future__ import annotations


def int_list(flag: str, text: str) -> list[int]:
    """A comma-separated list of whole numbers given to ``flag`` (e.g. ``--memory 5,15,25``)."""
    from ..errors import ConfigError

    out = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        try:
            out.append(int(part))
        except ValueError:
            raise ConfigError(
                f"{flag} expects whole numbers separated by commas, got {part!r}", flag
            ) from None
    if not out:
        raise ConfigError(f"{flag}: no value given (got {text!r})", flag)
    return out
