"""The system level: app-usage traces replayed on a phone (apps as processes, the low memory
killer, launch latency, swap on or off). The core does the work; this module builds jobs and
wraps results."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence

from . import _args, _core, records
from ._record import Record

# `typing` is imported for the type checker only: importing it took 5 ms of every command's start.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import pandas as pd
else:
    Any = object  # for `typing.get_type_hints` at run time (see api.py)

PathLike = str | os.PathLike[str]


def usage_file(path: PathLike, user: str | None = None) -> dict[str, Any]:
    """A usage CSV (``time_s,app`` or ``timestamp_seconds,app[,user]``)."""
    return {"kind": "file", "path": _args.path("path", path), "user": _args.opt_text("user", user)}


def rounds(
    apps: Sequence[str] | None = None,
    rounds: int = 3,
    random: bool = False,
    seed: int = 0,
    gap_s: float = 0.0,
) -> dict[str, Any]:
    """The eMMC paper's scenario: the apps loaded in order, then ``rounds`` more rounds (in order or
    random); ``gap_s = 0`` launches the next app as soon as the previous one has loaded."""
    return {
        "kind": "rounds",
        "apps": None if apps is None else [_args.text("apps", a) for a in _args.listed("apps", apps)],
        "rounds": _args.whole("rounds", rounds, 0, 2**32 - 1),
        "random": _args.flag("random", random),
        "seed": _args.whole("seed", seed),
        "gap_s": _args.number("gap_s", gap_s),
    }


def launches(rows: Sequence[tuple[float, str]]) -> dict[str, Any]:
    """Launches written out: ``(time_s, app)`` pairs in time order (a paper's procedure as a
    scenario)."""
    pairs = _args.listed("launches", rows)
    out = []
    for i, pair in enumerate(pairs):
        if not isinstance(pair, tuple | list) or len(pair) != 2:
            raise _args.error(f"launches[{i}]", "a (time_s, app) pair", pair)
        out.append([_args.number(f"launches[{i}]", pair[0]), _args.text(f"launches[{i}]", pair[1])])
    return {"kind": "launches", "launches": out}


def synthetic(
    apps: int,
    launches: int,
    reuse: float,
    seed: int = 0,
    gap_s: float = 60.0,
    rare: int = 0,
    rare_launches: int | None = None,
) -> dict[str, Any]:
    """A2S-style usage: ``apps`` distinct apps, average reuse distance ``reuse`` (distinct apps);
    ``rare`` of them (drawn with ``seed``) launched at most ``rare_launches`` times (the core's
    default: once), then left in the background (A2S's Large: 21 of 36 "launched less than three
    times")."""
    rare_spec: dict[str, int] = {"apps": _args.whole("rare", rare, 0, 2**32 - 1)}
    if rare_launches is not None:
        rare_spec["max_launches"] = _args.whole("rare_launches", rare_launches, 0, 2**32 - 1)
    return {
        "kind": "synthetic",
        "apps": _args.whole("apps", apps, 0, 2**32 - 1),
        "launches": _args.whole("launches", launches, 0, 2**32 - 1),
        "reuse": _args.number("reuse", reuse),
        "seed": _args.whole("seed", seed),
        "gap_s": _args.number("gap_s", gap_s),
        "rare": rare_spec,
    }


#: The eMMC swap paper's ten games (Table V), in its loading order (from the core's scenario).
EMMC_APPS: tuple[str, ...] = tuple(json.loads(_core.usage(json.dumps(rounds(rounds=0))))["apps"])


def _spec(usage: Mapping[str, Any] | PathLike) -> dict[str, Any]:
    if isinstance(usage, Mapping):
        return _args.mapping("usage", usage)
    if isinstance(usage, str | os.PathLike) and not isinstance(usage, bytes):
        return usage_file(_args.path("usage", usage))
    raise _args.error("usage", "a usage file's path or a spec (usage_file, rounds, synthetic)", usage)


class PhoneResult(Record):
    """One system-level run: the phone it used (resolved), the usage statistics, the system meters,
    the page engine's counters, and one record per launch; ``raw`` is the whole record. Its parts
    are typed records (:mod:`mobmem.records`, generated from the core's structs):
    ``r.meters.kills.total``, ``r.launches[0].ux_class``, and dicts too (``r.meters["kills"]``)."""

    __slots__ = ()
    _shown = ("config", "usage", "meters", "pages", "launches", "wall_time_s")
    raw: records.PhoneResult

    def __init__(self, raw: dict[str, Any]) -> None:
        from .records import PhoneResult as Fields

        super().__init__(raw if isinstance(raw, Fields) else Fields(raw))

    @property
    def config(self) -> records.ResolvedPhone:
        return self.raw.config

    @property
    def usage(self) -> records.UsageStats:
        return self.raw.usage

    @property
    def meters(self) -> records.SystemMeters:
        return self.raw.meters

    @property
    def pages(self) -> records.Meters:
        return self.raw.pages

    @property
    def launches(self) -> list[records.LaunchRecord]:
        return self.raw.launches

    @property
    def wall_time_s(self) -> float:
        return self.raw.wall_time_s

    @property
    def phone(self) -> str:
        return self.config["name"]

    @property
    def swap(self) -> str:
        return self.config["phone"]["swap"]

    @property
    def policy(self) -> str:
        return self.config["phone"]["policy"]

    @property
    def killer(self) -> str:
        return self.config["phone"]["killer"]

    @property
    def swap_admission(self) -> str:
        return self.config["phone"]["swap_admission"]

    @property
    def mean_launch_ms(self) -> float:
        return float(self.meters.mean_launch_ms)

    @property
    def cold_starts(self) -> int:
        return int(self.meters.cold)

    @property
    def resumes(self) -> int:
        return int(self.meters.resumed)

    @property
    def kills(self) -> int:
        """Processes killed, every reason (by reason: ``meters["kills"]``)."""
        return int(self.meters.kills_total)

    @property
    def swap_in_pages(self) -> int:
        return int(self.meters.swap_in_pages)

    @property
    def swap_out_pages(self) -> int:
        return int(self.meters.swap_out_pages)

    @property
    def flash_write_bytes(self) -> int:
        return int(self.meters.flash_write_bytes)

    @property
    def energy_j(self) -> float:
        return float(self.meters.energy["total_j"])

    def to_dict(self) -> dict[str, Any]:
        """The whole record as nested dicts (what ``--json`` prints)."""
        return self.raw.to_dict()

    def row(self) -> dict[str, Any]:
        """The run as one flat row: phone, swap, policy, killer and the scalar meters."""
        m = self.meters
        out: dict[str, Any] = {
            "phone": self.phone,
            "swap": self.swap,
            "policy": self.policy,
            "killer": self.killer,
            "swap_admission": self.swap_admission,
        }
        for k, v in m.items():
            if isinstance(v, int | float) or v is None:
                out[k] = v
        for k, v in m["kills"].items():
            out[f"kills_{k}"] = v
        for k, v in m["ux"].items():
            out[f"ux_{k}"] = v
        for k, v in m["energy"].items():
            out[f"energy_{k}"] = v
        return out

    def to_pandas(self) -> pd.DataFrame:
        """The run as a one-row DataFrame (:meth:`row`; needs pandas)."""
        from ._optional import need

        pd = need("pandas", "a DataFrame")

        return pd.DataFrame([self.row()])

    def launches_frame(self) -> pd.DataFrame:
        """One row per launch (needs pandas)."""
        from ._optional import need

        pd = need("pandas", "a DataFrame")

        return pd.DataFrame(self.launches)


def simulate_phone(
    usage: Mapping[str, Any] | PathLike,
    phone: str = "nexus5",
    *,
    seed: int = 0,
    checks: bool = False,
    phones: PathLike | None = None,
    apps: PathLike | None = None,
    devices: PathLike | None = None,
    **overrides: Any,
) -> PhoneResult:
    """Replays ``usage`` (a CSV path or a spec from :func:`rounds` / :func:`synthetic`) on ``phone``
    with any phone field overridden by keyword (``swap="off"``, ``dram="2GiB"``, ``policy="mglru"``…)."""
    return phone_grid(
        [job(usage, phone, seed=seed, checks=checks, **overrides)], phones=phones, apps=apps, devices=devices
    )[0]


def job(
    usage: Mapping[str, Any] | PathLike,
    phone: str = "nexus5",
    *,
    seed: int = 0,
    checks: bool = False,
    **overrides: Any,
) -> dict[str, Any]:
    """One job for :func:`phone_grid`."""
    return {
        "phone": _args.text("phone", phone),
        "overrides": _args.plain(dict(overrides)),
        "usage": _spec(usage),
        "seed": _args.whole("seed", seed),
        "checks": _args.flag("checks", checks),
    }


def phone_grid(
    jobs: Sequence[Mapping[str, Any]],
    *,
    threads: int = 0,
    phones: PathLike | None = None,
    apps: PathLike | None = None,
    devices: PathLike | None = None,
    frame: bool = False,
) -> Any:
    """Runs many jobs in parallel (GIL released); results in the jobs' order, or one DataFrame row
    per run (:meth:`PhoneResult.row`) with ``frame=True``."""
    from .errors import ConfigError

    js = _args.mappings("jobs", jobs)
    if not js:
        raise ConfigError("jobs: no job given", "jobs")
    a = _args
    files = (a.opt_path("phones", phones), a.opt_path("apps", apps), a.opt_path("devices", devices))
    text = _core.simulate_phones(a.to_json(js), *files, _args.workers("threads", threads))
    runs = [PhoneResult(d) for d in json.loads(text)]
    if a.flag("frame", frame):
        from ._optional import need

        pd = need("pandas", "a DataFrame")

        return pd.DataFrame([r.row() for r in runs])
    return runs


def fields() -> dict[str, dict[str, Any]]:
    """Every field of a phone: name → {default, help, shared} (``shared``: a page run has the knob
    too, with its own default). Read from the core, where each is declared once; a preset or a
    ``--phones`` table sets some, and the rest take these defaults (``None``: absent, derived)."""
    return {f.pop("name"): f for f in json.loads(_core.phone_schema())["fields"]}


def phones(phones: PathLike | None = None) -> dict[str, dict[str, Any]]:
    """Phone presets, resolved."""
    return json.loads(_core.phones(_args.opt_path("phones", phones)))


def apps(apps: PathLike | None = None) -> list[dict[str, Any]]:
    """The app catalog, every app resolved (with where its numbers come from)."""
    return json.loads(_core.apps(_args.opt_path("apps", apps)))


def killers() -> dict[str, str]:
    """Registered low memory killers: name → description."""
    return dict(_core.killers())


def swap_admissions() -> dict[str, str]:
    """Registered swap admissions (which dirty anon pages may go to swap): name → description."""
    return dict(_core.swap_admissions())


def usage(spec: Mapping[str, Any] | PathLike) -> dict[str, Any]:
    """A usage trace loaded: apps, launches (time_s, app index), statistics."""
    return json.loads(_core.usage(_args.to_json(_spec(spec))))
