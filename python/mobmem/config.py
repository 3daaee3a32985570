"""A page-level run's configuration, read from the core: every knob, its default and its help are
defined once there (``mobmem_core::config``); this module, ``simulate``, ``grid`` and the CLI's
flags are made from them, so a new knob needs no Python edit."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cache

from . import _core

# `typing` is imported for the type checker only: importing it took 5 ms of every command's start.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
else:
    Any = object  # for `typing.get_type_hints` at run time (see api.py)


@cache
def schema() -> dict[str, Any]:
    """The core's schema: ``fields`` (name → {default, help}), ``grid`` (the default policies
    and memory sizes of a grid) and ``kernel`` (Linux constants the models take, e.g.
    ``swap_cluster_max``)."""
    raw = json.loads(_core.sim_config_schema())
    fields = {f["name"]: {"default": f["default"], "help": f["help"]} for f in raw["fields"]}
    return {"fields": fields, "grid": raw["grid"], "kernel": raw["kernel"]}


def _top_fields() -> dict[str, dict[str, Any]]:
    return {k: v for k, v in schema()["fields"].items() if "." not in k}


class Config(Mapping[str, "Any"]):  # a string: `typing` is not imported at run time
    """The knobs of a page-level run, e.g. ``Config(policy="lru", memory="20%", swap="zram-lz4")``.

    Read as attributes (``cfg.policy``) or as a mapping; a knob not given reads as the core's
    default. ``Config.fields()`` lists every knob with its default and help. Unknown names raise
    :class:`~mobmem.ConfigError` naming them; values are checked by the core when the run starts.
    """

    __slots__ = ("_given",)

    def __init__(self, **values: Any) -> None:
        from .errors import ConfigError

        known = _top_fields()
        for k in values:
            if k not in known:
                raise ConfigError(f"unknown config field {k!r}; known: {', '.join(known)}", k)
        object.__setattr__(self, "_given", dict(values))

    @classmethod
    def of(cls, config: Config | Mapping[str, Any] | None = None, **overrides: Any) -> Config:
        """``config`` (a Config, a mapping or None) with ``overrides`` on top."""
        from ._args import mapping

        base = dict(config._given) if isinstance(config, Config) else mapping("config", config)
        base.update(overrides)
        return cls(**base)

    @staticmethod
    def fields() -> dict[str, dict[str, Any]]:
        """Every knob: name → {default, help} (``None`` means absent: off or derived)."""
        return _top_fields()

    def replace(self, **changes: Any) -> Config:
        return Config.of(self, **changes)

    def given(self) -> dict[str, Any]:
        """The knobs set explicitly (what is sent to the core, which fills in the rest)."""
        return dict(self._given)

    def to_dict(self) -> dict[str, Any]:
        """Every knob, defaults filled in."""
        return {k: self[k] for k in _top_fields()}

    def __getitem__(self, name: str) -> Any:
        if name in self._given:
            return self._given[name]
        fields = _top_fields()
        if name not in fields:
            raise KeyError(name)
        return fields[name]["default"]

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Config is immutable; use replace()")

    def __iter__(self) -> Iterator[str]:
        return iter(_top_fields())

    def __len__(self) -> int:
        return len(_top_fields())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Config) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_dict(), sort_keys=True, default=str))

    def __repr__(self) -> str:
        return "Config(" + ", ".join(f"{k}={v!r}" for k, v in self._given.items()) + ")"
