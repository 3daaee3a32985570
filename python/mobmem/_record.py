"""The base of the result classes: named, read-only views of one record of the core's JSON.

Plain classes, not dataclasses: importing ``dataclasses`` (and the ``inspect`` it pulls in) took
9 ms of every command's start, a twentieth of a whole ``mobmem run`` on an 18 M-access trace.
"""

from __future__ import annotations

# `typing` is imported for the type checker only: importing it took 5 ms of every command's start.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar


class Record:
    """One record; equal to another of its class when the fields it shows are equal."""

    __slots__ = ("raw",)
    #: The fields shown by ``repr`` and compared by ``==`` (the rest of ``raw`` is detail).
    _shown: ClassVar[tuple[str, ...]] = ()

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)
        return all(self.raw[k] == other.raw[k] for k in self._shown)

    __hash__ = None  # type: ignore[assignment]  # equal by value, and mutable underneath

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={self.raw[k]!r}' for k in self._shown)})"
