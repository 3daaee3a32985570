"""The typed Python front of mobmem: traces, runs, grids. All per-access work happens in Rust; this
module converts arguments and results. Nothing heavy is imported here (pandas only on demand)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence

from . import _args, _core, records
from ._record import Record
from .config import Config
from .trace import Trace

# `typing` is imported for the type checker only: importing it took 5 ms of every command's start.
# At run time `Any` stands for itself as `object` does, so that `typing.get_type_hints` resolves
# the annotations (pandas' `pd.DataFrame` only where pandas is imported).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import pandas as pd
else:
    Any = object

PathLike = str | os.PathLike[str]


def whole(field: str, v: Any, minimum: int = 0, maximum: int = _args.MAX_WHOLE) -> int:
    """``v`` as a whole number ≥ ``minimum`` that the core can take, else :class:`ConfigError`
    naming ``field`` (a negative count would otherwise surface as Python's ``OverflowError``)."""
    return _args.whole(field, v, minimum, maximum)


def names(field: str, v: Sequence[Any] | str) -> list[str]:
    """A non-empty list of names from a list or a comma-separated string, else :class:`ConfigError`."""
    return _args.names(field, v)


def format_for_path(path: PathLike) -> str:
    """The trace format a file name asks for (``x.mobt.zst`` → ``binary``), from the core's
    registry of formats and their extensions."""
    return _core.format_for_path(_args.path("path", path))


class RunResult(Record):
    """One run: the configuration it used (defaults filled in), the trace's statistics, the meters,
    and the replay's own wall time; ``raw`` is the whole record. Its parts are typed records
    (:mod:`mobmem.records`, generated from the core's structs): ``r.meters.faults``,
    ``r.config.swap.read_ns``, and dicts too (``r.meters["faults"]``)."""

    __slots__ = ()
    _shown = ("config", "trace", "meters", "wall_time_s", "accesses_per_s")
    raw: records.RunResult

    def __init__(self, raw: dict[str, Any]) -> None:
        from .records import RunResult as Fields

        super().__init__(raw if isinstance(raw, Fields) else Fields(raw))

    @classmethod
    def from_json(cls, text: str) -> RunResult:
        return cls(json.loads(text))

    @property
    def config(self) -> records.ResolvedConfig:
        return self.raw.config

    @property
    def trace(self) -> records.TraceStats:
        return self.raw.trace

    @property
    def meters(self) -> records.Meters:
        return self.raw.meters

    @property
    def wall_time_s(self) -> float:
        return self.raw.wall_time_s

    @property
    def accesses_per_s(self) -> float:
        return self.raw.accesses_per_s

    @property
    def policy(self) -> str:
        return self.config.policy

    @property
    def memory(self) -> str:
        return self.config.memory

    @property
    def frames(self) -> int:
        return self.config.frames

    @property
    def faults(self) -> int:
        return self.meters.faults

    @property
    def hits(self) -> int:
        return self.meters.hits

    @property
    def io_time_ns(self) -> float:
        return self.meters.io.total_ns

    @property
    def tiers(self) -> records.TierMeters | None:
        """Tiered runs: per-tier counts, migrations, critical / non-critical time and hit counts,
        eq. 1 energy and PCM wear (``None`` on flat memory)."""
        return self.meters.tiers

    @property
    def swap_energy(self) -> records.SwapEnergy | None:
        """The swap area's energy by the DR. Swap paper's model, when the swap device has one."""
        return self.raw.swap_energy

    def to_dict(self) -> dict[str, Any]:
        """The whole record as nested dicts (what ``--json`` prints)."""
        return self.raw.to_dict()

    def row(self) -> dict[str, Any]:
        """A flat dict: one DataFrame row."""
        m = self.meters
        r: dict[str, Any] = {
            "trace": self.trace["path"],
            "policy": self.policy,
            "memory": self.memory,
            "frames": self.frames,
            "swap": self.config["swap"]["name"],
            "storage": self.config["storage"]["name"],
        }
        for k, v in m.items():
            if k == "tiers":
                r.update(_flatten(v or {}, "tiers_"))
            elif isinstance(v, dict):
                prefix = "io_" if k == "io" else "energy_"
                for k2, v2 in v.items():
                    r[prefix + k2] = v2
            else:
                r[k] = v
        se = self.swap_energy
        if se:
            r["swap_energy_j"] = se["total_j"]
        r["wall_time_s"] = self.wall_time_s
        r["accesses_per_s"] = self.accesses_per_s
        return r

    def to_pandas(self) -> pd.DataFrame:
        from ._optional import need

        pd = need("pandas", "a DataFrame")

        return pd.DataFrame([self.row()])


def _flatten(d: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        if isinstance(v, Mapping):
            out.update(_flatten(v, f"{prefix}{k}_"))
        else:
            out[prefix + k] = v
    return out


def _as_trace(trace: Trace | PathLike) -> Trace:
    if isinstance(trace, Trace):
        return trace
    return Trace.open(_args.path("trace", trace))


def _dev(devices: PathLike | None) -> str | None:
    return _args.opt_path("devices", devices)


def simulate(
    trace: Trace | PathLike,
    config: Config | Mapping[str, Any] | None = None,
    *,
    devices: PathLike | None = None,
    **overrides: Any,
) -> RunResult:
    """Replays ``trace`` under ``config`` (a :class:`Config`, a mapping, or None for the defaults)
    with any knob overridden by keyword: ``simulate(t, policy="lru", memory="20%")``. The knobs,
    their defaults and help are :meth:`Config.fields` (memory as frames, ``"64MiB"`` or ``"10%"``
    of the footprint; ``swap`` and ``storage`` device names from :func:`devices`; ``tiers`` makes
    memory DRAM + PCM for the :func:`hybrid_policies`). ``devices`` is a TOML file of extra
    device models."""
    t = _as_trace(trace)
    cfg = Config.of(config, **overrides)
    out = _core.simulate(t._t, _args.to_json(cfg.given()), _dev(devices))
    return RunResult.from_json(out)


def simulate_stream(
    path: PathLike,
    config: Config | Mapping[str, Any] | None = None,
    *,
    format: str | None = None,
    skip_bad_lines: bool = False,
    devices: PathLike | None = None,
    procs: PathLike | None = None,
    **overrides: Any,
) -> RunResult:
    """:func:`simulate` of the trace file at ``path`` while it is read: two passes over the file,
    memory bounded by the trace's pages, not its accesses; the counts equal :func:`simulate`'s.
    For any run whose policy needs no future (not ``opt``): flat or tiered, any swap admission
    (the process table — the trace's adj column, or a side file ``procs`` keyed by ``access`` —
    is read in the first pass)."""
    cfg = Config.of(config, **overrides)
    out = _core.simulate_stream(
        _args.path("path", path),
        _args.to_json(cfg.given()),
        _dev(devices),
        _args.opt_text("format", format),
        _args.flag("skip_bad_lines", skip_bad_lines),
        _args.opt_path("procs", procs),
    )
    return RunResult.from_json(out)


def grid(
    trace: Trace | PathLike,
    policies: Sequence[str] | str | None = None,
    memories: Sequence[str | int] | str | None = None,
    config: Config | Mapping[str, Any] | None = None,
    *,
    params: Mapping[str, Mapping[str, Any]] | None = None,
    devices: PathLike | None = None,
    threads: int = 0,
    frame: bool = False,
    **overrides: Any,
) -> Any:
    """Runs every policy × memory size in parallel on the machine's cores (``threads=0``); results
    in grid order (policy-major), or one DataFrame row per run with ``frame=True``. ``params``
    maps a policy name to its parameters; the other knobs as in :func:`simulate`. Without
    ``policies`` or ``memories`` the core's defaults are used (``mobmem compare``'s)."""
    from .config import schema

    t = _as_trace(trace)
    pols = names("policies", schema()["grid"]["policies"] if policies is None else policies)
    mems = names("memories", schema()["grid"]["memories"] if memories is None else memories)
    base = Config.of(config, **overrides)
    per = {k: _args.mapping(f"params.{k}", v) for k, v in _args.mapping("params", params).items()}
    cfgs = [
        base.replace(policy=p, memory=m, **({"params": per[p]} if p in per else {})).given()
        for p in pols
        for m in mems
    ]
    runs = run_configs(t, cfgs, devices, threads)
    if _args.flag("frame", frame):
        from ._optional import need

        pd = need("pandas", "a DataFrame")

        return _frame(pd, runs)
    return runs


def run_configs(
    trace: Trace | PathLike,
    configs: Sequence[Mapping[str, Any]],
    devices: PathLike | None = None,
    threads: int = 0,
) -> list[RunResult]:
    """Runs any list of run configurations (dicts with the keys of a run file's ``[sim]``) in
    parallel; results in the same order."""
    from .errors import ConfigError

    t = _as_trace(trace)
    cfgs = _args.mappings("configs", configs)
    if not cfgs:
        raise ConfigError("configs: no run given", "configs")
    out = _core.simulate_grid(
        t._t,
        _args.to_json(cfgs),
        _dev(devices),
        _args.workers("threads", threads),
    )
    return [RunResult(d) for d in json.loads(out)]


def swap_energy(
    model: str,
    swap_ins: int,
    swap_outs: int,
    duration_s: float,
    swap_size: int,
    page_size: int = 4096,
    devices: PathLike | None = None,
) -> dict[str, Any]:
    """The DR. Swap paper's energy model (eqs. 1–14) of a swap area: ``model`` is
    ``lpddr2-dram``, ``lpddr2-pcm``, ``emmc-inand`` or one defined under ``[energy_models.NAME]``
    in a ``devices`` TOML file; ``swap_size`` in bytes scales DRAM refresh."""
    dev = _dev(devices)
    n_rd, n_wr = whole("swap_ins", swap_ins), whole("swap_outs", swap_outs)
    size, page = whole("swap_size", swap_size, 1), whole("page_size", page_size, 1)
    t = _args.number("duration_s", duration_s)
    return json.loads(_core.swap_energy(_args.text("model", model), n_rd, n_wr, t, size, page, dev))


def _frame(pd: Any, runs: Sequence[RunResult]) -> pd.DataFrame:
    """One row per run (:func:`_sized`)."""
    return _sized(pd, pd.DataFrame([r.row() for r in runs]))


def _sized(pd: Any, df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with ``memory`` (the size as given: ``"5%"``, ``"64MiB"``) an ordered category by
    the frames each size came to, so sorting by it puts ``"5%"`` before ``"10%"``; ``frames`` is
    the size as a number."""
    if len(df):
        sizes = df.groupby("memory", sort=False)["frames"].min().sort_values(kind="stable")
        df["memory"] = pd.Categorical(df["memory"], categories=list(sizes.index), ordered=True)
    return df


def compare(trace: Trace | PathLike, **kwargs: Any) -> pd.DataFrame:
    """:func:`grid` as a pandas DataFrame, one row per run, with ``faults_vs_clock`` and
    ``io_vs_clock`` (ratios to CLOCK at the same size, when CLOCK is in the grid) and
    ``faults_vs_opt`` (ratio to OPT, when OPT is in the grid)."""
    from ._optional import need

    pd = need("pandas", "a DataFrame")

    runs = grid(trace, **kwargs)
    df = pd.DataFrame([r.row() for r in runs])
    for base, cols in (("clock", ("faults", "io_total_ns")), ("opt", ("faults",))):
        ref = df[df.policy == base].set_index("memory")
        if ref.empty:
            continue
        for c in cols:
            name = ("faults" if c == "faults" else "io") + f"_vs_{base}"
            df[name] = df[c] / df.memory.map(ref[c]).replace(0, float("nan"))
    return _sized(pd, df)


def policies() -> dict[str, str]:
    """Registered flat policies (they also run on tiers): name → description."""
    return dict(_core.policies())


def hybrid_policies() -> dict[str, str]:
    """Registered hybrid-memory policies (they need ``tiers``): name → description."""
    return dict(_core.hybrid_policies())


def tiers(devices: PathLike | None = None) -> dict[str, dict[str, Any]]:
    """Memory tier models (``dram``, ``pcm`` presets plus any ``[tiers.NAME]`` of a TOML file)."""
    return {t["name"]: t for t in json.loads(_core.tiers(_dev(devices)))}


def hybrid_workloads() -> dict[str, tuple[int, int, str]]:
    """The hybrid paper's Table 2: workload → (critical requests, non-critical requests, about)."""
    return {n: (c, nc, about) for n, c, nc, about in _core.hybrid_workloads()}


def trace_formats() -> dict[str, str]:
    """Registered trace formats: name → description."""
    return {n: d for n, d, _ in _core.trace_formats()}


def swap_backends() -> dict[str, str]:
    """Registered swap backends (how a swap device keeps pages): name → description."""
    return dict(_core.swap_backends())


def devices(devices: PathLike | None = None) -> dict[str, dict[str, Any]]:
    """Device models: the presets plus any from a TOML file."""
    return {d["name"]: d for d in json.loads(_core.devices(_dev(devices)))}


def presets() -> list[str]:
    """Names of the synthetic workload presets."""
    return list(_core.preset_names())


def run_file(path: PathLike, set: Mapping[str, Any] | None = None, stream: bool = False) -> RunResult:
    """Runs a TOML run file (``[trace]``, ``[sim]``, optional ``[devices.NAME]``), with ``set``'s
    settings over the file's, by dotted name (``{"sim.policy": "lru", "sim.params.ain_ratio": 0.3,
    "trace.path": "t.txt"}``: paths given so are relative to the working directory); ``stream``
    replays the trace while reading it (as :func:`simulate_stream`)."""
    return RunResult.from_json(
        _core.run_file(
            _args.path("path", path), _args.dotted_settings("set", set), _args.flag("stream", stream)
        )
    )
