"""The typed Python front of mobmem: traces, runs, grids. All per-access work happens in Rust; this
module converts arguments and results. Nothing heavy is imported here (pandas only on demand)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence

from . import _args, _core, records
from ._record import Record
from .config import Config

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


class Trace:
    """A page trace held in memory as dense page ids (4 bytes per access)."""

    __slots__ = ("_t",)

    def __init__(self, core: _core.Trace) -> None:
        self._t = core

    @classmethod
    def open(
        cls,
        path: PathLike,
        format: str | None = None,
        skip_bad_lines: bool = False,
        procs: PathLike | None = None,
        map: bool = False,
        digest: bool = False,
    ) -> Trace:
        """Reads a trace: smartphone text, Lackey, CSV or mobmem binary; gzip/zstd detected by
        their magic bytes. ``format`` forces one; ``skip_bad_lines`` counts malformed lines in
        ``stats()['skipped']`` instead of raising :class:`~mobmem.errors.TraceFormatError`.
        ``procs`` is a process table (CSV ``pid,adj[,access|time_ns][,name]``): each process's
        ``oom_score_adj`` over the trace, which decides its pages' class on hybrid memory. With
        ``map``, an uncompressed mobmem binary trace is mapped instead of read: no copy (10 ms
        instead of 50 for 18 M accesses), but the file must not change while the trace is in use
        (a shrunk file stops the process). The command line maps; a notebook is better served by
        the default. With ``digest``, the file's bytes are hashed (SHA-256) as they are read:
        :attr:`digest` is the content this trace was read from (a digested trace is never
        mapped)."""
        a = _args
        return cls(
            _core.open_trace(
                a.path("path", path),
                a.opt_text("format", format),
                a.flag("skip_bad_lines", skip_bad_lines),
                a.opt_path("procs", procs),
                a.flag("map", map),
                a.flag("digest", digest),
            )
        )

    @classmethod
    def from_pages(cls, pages: Any, ops: Any = None, name: str = "<memory>") -> Trace:
        """A trace from a notebook's columns: ``pages`` (page numbers: a list, an ``array`` or a
        numpy array of non-negative integers) and ``ops`` (one per access: a string such as
        ``"RRW"``, a sequence of ``"I"``/``"R"``/``"W"``, or codes 0 = I, 1 = R, 2 = W; all reads
        when omitted). ``name`` stands for the path in results."""
        import array

        from .errors import ConfigError

        if hasattr(pages, "astype") and hasattr(pages, "dtype"):  # numpy, without importing it
            if getattr(pages, "ndim", 1) != 1:
                raise ConfigError(
                    f"pages must be a one-dimensional array, got {pages.ndim} dimensions", "pages"
                )
            if pages.dtype.kind not in "iu":
                raise ConfigError(f"pages must be whole page numbers, got an array of {pages.dtype}", "pages")
            if len(pages) and pages.min() < 0:
                raise ConfigError("pages must be non-negative page numbers", "pages")
            page_bytes = pages.astype("<u8").tobytes()
            n = len(pages)
        else:
            items = _args.listed("pages", pages)
            n = len(items)
            try:
                page_bytes = array.array(
                    "Q", [_args.whole("pages", p, 0, 2**64 - 1) for p in items]
                ).tobytes()
            except ConfigError as e:
                raise ConfigError(
                    f"pages must be whole page numbers from 0 to 2^64 − 1: {e}", "pages"
                ) from None
        codes = {"I": 0, "R": 1, "W": 2, "i": 0, "r": 1, "w": 2}
        if ops is None:
            op_bytes = bytes([1]) * n
        else:
            op_list = list(ops) if isinstance(ops, str) else _args.listed("ops", ops)
            if op_list and isinstance(op_list[0], str):
                try:
                    op_bytes = bytes(codes[o] for o in op_list)
                except (KeyError, TypeError):
                    bad = next(o for o in op_list if not isinstance(o, str) or o not in codes)
                    raise ConfigError(f"ops: {bad!r} is not I, R or W", "ops") from None
            else:
                vals = [_args.whole("ops", o, 0, 2) for o in op_list]
                op_bytes = bytes(vals)
        return cls(_core.trace_from_pages(_args.text("name", name), page_bytes, op_bytes))

    @classmethod
    def hybrid(
        cls,
        workload: str | None = None,
        scale: float | None = None,
        reuse: float | None = None,
        switch_at: float | None = None,
        seed: int | None = None,
    ) -> Trace:
        """A synthetic multi-process buffer-cache trace of the hybrid DRAM+PCM paper's Table 2
        (``critical-intensive`` by default, ``non-critical-intensive``, ``balanced``, ``stand-by``):
        its critical / non-critical request counts times ``scale`` (0.1), each workload's own
        processes with their ``oom_score_adj``, one app switching to the background at ``switch_at``
        (0.3) of the trace. ``reuse`` multiplies every process's reuse (1: as in the workload's
        cast). Footprints, write shares and locality are assumptions (docs/HYBRID.md). Defaults
        are the core's."""
        given = {"workload": workload, "scale": scale, "reuse": reuse, "switch_at": switch_at, "seed": seed}
        params = {k: v for k, v in given.items() if v is not None}
        return cls(_core.generate_hybrid(_args.to_json(params)))

    @classmethod
    def category(
        cls,
        name: str,
        rounds: int = 3,
        accesses_per_turn: int = 400_000,
        seed: int = 1,
        anon_rw_share: float = 0.3,
    ) -> Trace:
        """A DR. Swap Table III app category (``browser``, ``news``, ``multimedia``, ``social``,
        ``gaming``, ``shopping``, ``mix1``, ``mix2``) as a synthetic round-robin trace: each app is a
        process with the paper's app size as footprint, run in turns of ``accesses_per_turn``, its
        ``oom_score_adj`` foreground (0) in its turn, then previous (700), then cached (900) — the
        process table swap admissions such as ``a2s`` read. ``anon_rw_share`` is the share of each app's anon pages that keep being written (the rest
        are written once, then only read); 0.3 is an assumption, not a measurement."""
        return cls(
            _core.generate_category(
                _args.text("name", name),
                whole("rounds", rounds, 1, 2**32 - 1),
                whole("accesses_per_turn", accesses_per_turn, 1),
                whole("seed", seed),
                _args.number("anon_rw_share", anon_rw_share),
            )
        )

    @classmethod
    def generate(cls, preset: str | None = None, **params: Any) -> Trace:
        """A synthetic app-like trace: a preset calibrated to Table 1 of the SPO-CLOCK paper
        (``angrybirds``, ``youtube``, ``chrome``, ``facebook``, ``farmstory``), with any generator
        parameter overridden (``accesses``, ``footprint_pages``, ``seed``, …)."""
        preset = _args.opt_text("preset", preset)
        base = json.loads(_core.preset_params(preset) if preset else _core.default_gen_params())
        unknown = set(params) - set(base)
        if unknown:
            from .errors import ConfigError

            raise ConfigError(
                f"unknown generator parameter(s) {sorted(unknown)}; known: {sorted(base)}", "gen"
            )
        base.update(params)
        return cls(_core.generate(_args.to_json(base, "gen")))

    def __len__(self) -> int:
        return len(self._t)

    def with_kinds_from_writes(self) -> Trace:
        """This trace with each page's backing declared from its accesses, as the kernel sees a
        captured program: a page ever written is anon from its first touch, any other is file."""
        return Trace(self._t.with_kinds_from_writes())

    def anon_pages_only(self) -> Trace:
        """The accesses to its anon pages only (as declared: see :meth:`with_kinds_from_writes`)."""
        return Trace(self._t.anon_pages_only())

    @property
    def num_pages(self) -> int:
        """Distinct pages (the footprint in pages)."""
        return self._t.num_pages

    @property
    def path(self) -> str:
        return self._t.path

    @property
    def format(self) -> str:
        return self._t.format

    @property
    def digest(self) -> str | None:
        """SHA-256 (hex) of the file's bytes as they were read, when opened with ``digest``."""
        return self._t.digest

    def stats(self, page_size: int = 4096) -> dict[str, Any]:
        """Accesses, I/R/W counts, read:write ratio (data reads / data writes), distinct pages,
        footprint, per-pid counts and skipped lines."""
        return json.loads(self._t.stats_json(whole("page_size", page_size, 1)))

    def head(self, n: int = 10, start: int = 0) -> list[tuple[int, str]]:
        """The first ``n`` accesses from ``start`` as (page number, op) pairs."""
        return self._t.head(whole("start", start), whole("n", n))

    def save(self, path: PathLike, format: str | None = None) -> None:
        """Writes the trace (format from the extension unless given; ``.gz``/``.zst`` compress)."""
        self._t.save(_args.path("path", path), _args.opt_text("format", format) or format_for_path(path))

    def __repr__(self) -> str:
        return f"Trace({self.path!r}, format={self.format!r}, accesses={len(self)}, pages={self.num_pages})"


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
    **overrides: Any,
) -> RunResult:
    """:func:`simulate` of the trace file at ``path`` while it is read: two passes over the file,
    memory bounded by the trace's pages, not its accesses; the counts equal :func:`simulate`'s.
    For flat runs of policies that need no future (not ``opt``) with swap admission ``all``."""
    cfg = Config.of(config, **overrides)
    out = _core.simulate_stream(
        _args.path("path", path),
        _args.to_json(cfg.given()),
        _dev(devices),
        _args.opt_text("format", format),
        _args.flag("skip_bad_lines", skip_bad_lines),
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
        whole("threads", threads),
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


def run_file(path: PathLike) -> RunResult:
    """Runs a TOML run file (``[trace]``, ``[sim]``, optional ``[devices.NAME]``)."""
    return RunResult.from_json(_core.run_file(_args.path("path", path)))
