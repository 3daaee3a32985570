"""Exceptions raised by mobmem. Every one derives from :class:`MobmemError`; each also derives from
the built-in exception a Python user would try first (``ValueError`` for bad input,
``FileNotFoundError`` for a missing trace)."""

from __future__ import annotations

import errno


class MobmemError(Exception):
    """Base class of every mobmem error."""


class ConfigError(MobmemError, ValueError):
    """An impossible or unknown configuration value; ``field`` names the setting."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class TraceFormatError(MobmemError, ValueError):
    """A malformed trace; ``path`` and ``line`` say where (``line`` is the record number for
    binary traces, 0 when the error is about the file as a whole)."""

    def __init__(self, message: str, path: str = "", line: int = 0) -> None:
        super().__init__(message)
        self.path = path
        self.line = line


class TraceNotFoundError(MobmemError, FileNotFoundError):
    """A trace or config file that does not exist."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(errno.ENOENT, message, path)
        self.message = message

    def __str__(self) -> str:  # OSError would print "[Errno 2] …: 'path'"
        return self.message


class MobmemIOError(MobmemError, OSError):
    """Any other I/O failure."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class OutOfMemoryError(MobmemError):
    """No page could be reclaimed (for example: swap full and no file page left)."""


class InvariantError(MobmemError):
    """An internal invariant broke: a bug in mobmem, reported instead of crashing."""
