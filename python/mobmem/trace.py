"""A page trace held in memory: reading, generating, converting and saving one (the core does the
work; this module converts arguments)."""

from __future__ import annotations

import json
import os

from . import _args, _core

# `typing` is imported for the type checker only (see api.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
else:
    Any = object

PathLike = str | os.PathLike[str]


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
        write_scale: float | None = None,
        hot_share_scale: float | None = None,
        hot_prob_scale: float | None = None,
        scan_scale: float | None = None,
    ) -> Trace:
        """A synthetic multi-process buffer-cache trace of the hybrid DRAM+PCM paper's Table 2
        (``critical-intensive`` by default, ``non-critical-intensive``, ``balanced``, ``stand-by``):
        its critical / non-critical request counts times ``scale`` (0.1), each workload's own
        processes with their ``oom_score_adj``, one app switching to the background at ``switch_at``
        (0.3) of the trace. ``reuse`` multiplies every process's reuse (1: as in the workload's
        cast); ``write_scale``, ``hot_share_scale``, ``hot_prob_scale`` and ``scan_scale`` multiply
        every process's write share, hot-window share, hot probability and scan share (1; kept
        within [0, 1]). Footprints, write shares and locality are assumptions (docs/HYBRID.md).
        Defaults are the core's."""
        given = {
            "workload": workload,
            "scale": scale,
            "reuse": reuse,
            "switch_at": switch_at,
            "seed": seed,
            "write_scale": write_scale,
            "hot_share_scale": hot_share_scale,
            "hot_prob_scale": hot_prob_scale,
            "scan_scale": scan_scale,
        }
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
                _args.whole("rounds", rounds, 1, 2**32 - 1),
                _args.whole("accesses_per_turn", accesses_per_turn, 1),
                _args.whole("seed", seed),
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
        return json.loads(self._t.stats_json(_args.whole("page_size", page_size, 1)))

    def locality(self) -> dict[str, Any]:
        """Locality in the app generator's terms: code pages and their share of the pages touched,
        written data pages and their share of the data pages, the share of the data pages (most
        accessed first) that takes 50 / 85 / 95% of the data accesses over the whole trace, and the
        share of moves to another page that continue a recent page (its number − 1)."""
        return json.loads(self._t.locality_json())

    def head(self, n: int = 10, start: int = 0) -> list[tuple[int, str]]:
        """The first ``n`` accesses from ``start`` as (page number, op) pairs."""
        return self._t.head(_args.whole("start", start), _args.whole("n", n))

    def save(self, path: PathLike, format: str | None = None) -> None:
        """Writes the trace (format from the extension unless given; ``.gz``/``.zst`` compress)."""
        self._t.save(
            _args.path("path", path),
            _args.opt_text("format", format) or _core.format_for_path(_args.path("path", path)),
        )

    def __repr__(self) -> str:
        return f"Trace({self.path!r}, format={self.format!r}, accesses={len(self)}, pages={self.num_pages})"
