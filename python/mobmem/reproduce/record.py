"""Typed reproduction results: a reproduction's result is a tree of dataclasses (``Record``s,
declared in ``results/<module>.py``) that ``compute`` builds and its measurements read by
attribute, so that the type checker sees a renamed field on both sides. Its JSON (``to_dict``: the
fields in order, maps and lists as they are) is what ``--json`` prints and a store keeps;
``from_dict`` reads it back, refusing a missing or unknown key by its path.

Standard library only, as the measurements."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar, Union

R = TypeVar("R", bound="Record")

#: Keys the reproduction framework adds to a result beside its record (the judged claims).
FRAMEWORK_KEYS = ("claims",)


class RecordError(ValueError):
    """A result that does not have its record's shape: the path of the key and what is wrong."""


@dataclasses.dataclass
class Record:
    """A node of a reproduction's result."""

    def to_dict(self) -> dict[str, Any]:
        return {
            f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self) if not _omitted(self, f)
        }

    @classmethod
    def from_dict(cls: type[R], d: Mapping[str, Any], path: str = "") -> R:
        return typing.cast(R, _build(cls, d, path or cls.__name__, top=True))


#: A field's metadata that leaves it out of the JSON when it is None (a map's entry that only some
#: runs have): ``field(default=None, metadata=OMIT_NONE)``.
OMIT_NONE: Mapping[str, Any] = types.MappingProxyType({"omit_none": True})


def _omitted(r: Record, f: dataclasses.Field[Any]) -> bool:
    return bool(f.metadata.get("omit_none")) and getattr(r, f.name) is None


def _plain(v: Any) -> Any:
    if isinstance(v, Record):
        return v.to_dict()
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    return v


def _build(tp: Any, v: Any, path: str, top: bool = False) -> Any:
    origin = typing.get_origin(tp)
    if isinstance(tp, type) and issubclass(tp, Record):
        if not isinstance(v, Mapping):
            raise RecordError(f"{path}: expected a table, got {type(v).__name__}")
        hints = typing.get_type_hints(tp)
        fields = {f.name: f for f in dataclasses.fields(tp)}
        extra = set(v) - set(fields) - (set(FRAMEWORK_KEYS) if top else set())
        if extra:
            raise RecordError(
                f"{path}: unknown key {sorted(extra)[0]!r} (a {tp.__name__} has {', '.join(fields)})"
            )
        kw = {}
        for name, f in fields.items():
            if name in v:
                kw[name] = _build(hints[name], v[name], f"{path}.{name}")
            elif not f.metadata.get("omit_none"):
                raise RecordError(f"{path}: missing key {name!r}")
        return tp(**kw)
    if origin in (Union, types.UnionType):
        args = typing.get_args(tp)
        if v is None and type(None) in args:
            return None
        errors = []
        for a in (a for a in args if a is not type(None)):
            try:
                return _build(a, v, path)
            except RecordError as e:
                errors.append(str(e))
        raise RecordError(errors[0] if errors else f"{path}: {v!r} is not None")
    if origin is dict:
        _, vt = typing.get_args(tp)
        if not isinstance(v, Mapping):
            raise RecordError(f"{path}: expected a table, got {type(v).__name__}")
        return {k: _build(vt, x, f"{path}.{k}") for k, x in v.items()}
    if origin in (list, tuple):
        args = typing.get_args(tp)
        if not isinstance(v, list | tuple):
            raise RecordError(f"{path}: expected a list, got {type(v).__name__}")
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            if len(args) != len(v):
                raise RecordError(f"{path}: expected {len(args)} items, got {len(v)}")
            return tuple(_build(a, x, f"{path}[{i}]") for i, (a, x) in enumerate(zip(args, v, strict=True)))
        item = args[0] if args else Any
        built = [_build(item, x, f"{path}[{i}]") for i, x in enumerate(v)]
        return tuple(built) if origin is tuple else built
    if tp is Any:
        return v
    if tp is float:
        if isinstance(v, int | float) and not isinstance(v, bool):
            return v
        raise RecordError(f"{path}: expected a number, got {v!r}")
    if tp in (int, str, bool):
        if isinstance(v, tp) and (tp is bool or not isinstance(v, bool)):
            return v
        raise RecordError(f"{path}: expected {tp.__name__}, got {v!r}")
    raise RecordError(f"{path}: a record cannot hold {tp!r}")
