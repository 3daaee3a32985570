"""Capacity curves of a phone: for one usage trace, cold starts, kills, live apps and launch time
against DRAM size, for each swap setting — "how much DRAM does this user need for N live apps".
Every point is one system-level run (:func:`mobmem.phone.phone_grid`), all run in parallel. The
phone's ``reserved`` memory (the OS's and the hardware's share) stays fixed, so the memory left to
apps grows by exactly the DRAM added."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .phone import PathLike, job, phone_grid, phones

# DRAM sizes of phones people buy, when none are given (those above the phone's reserved memory).
DEFAULT_DRAM = ("1GiB", "1.5GiB", "2GiB", "3GiB", "4GiB", "6GiB", "8GiB")


def _gib(field: str, size: str) -> float:
    """A size (``"1.5GiB"``, ``"700MiB"``, bytes) in GiB, parsed by the core."""
    from ._core import parse_bytes

    return parse_bytes(field, str(size)) / 2**30


def curve(
    usage: Mapping[str, Any] | PathLike,
    phone: str = "nexus5",
    *,
    drams: Sequence[str] | None = None,
    swaps: Sequence[str] | None = None,
    swap_size: str | None = None,
    seed: int = 0,
    threads: int = 0,
    phones_file: PathLike | None = None,
    apps: PathLike | None = None,
    devices: PathLike | None = None,
    **overrides: Any,
) -> list[dict[str, Any]]:
    """One row per (swap setting, DRAM size): ``dram``, ``dram_gib``, ``swap_setting``, ``launches``,
    ``cold``, ``cold_share``, ``kills``, ``live_apps_mean``, ``live_apps_max``, ``mean_launch_ms``,
    ``swap_in_pages``, ``flash_write_mb``. ``swaps`` are swap devices (or ``off``); the phone's own
    when not given. Any other phone field may be overridden by keyword."""
    from . import _args
    from .errors import ConfigError

    phone = _args.text("phone", phone)
    drams = None if drams is None else _args.names("drams", drams)
    swaps = None if swaps is None else _args.names("swaps", swaps)
    preset = phones(phones_file).get(phone)
    if preset is None:
        raise ConfigError(f"unknown phone {phone!r}; known: {', '.join(phones(phones_file))}", "phone")
    reserved = _gib("reserved", _args.text("reserved", overrides.get("reserved", preset["reserved"])))
    sizes = list(drams) if drams else [d for d in DEFAULT_DRAM if _gib("dram", d) > reserved]
    if not sizes:
        raise ConfigError(f"no DRAM size above {phone}'s reserved {preset['reserved']}", "dram")
    settings = list(swaps) if swaps else [preset["swap"]]
    # Checked before any run: a misspelt device would otherwise fail only after the others ran.
    from .api import devices as catalog

    known = catalog(devices)
    for s in settings:
        if s != "off" and s not in known:
            raise ConfigError(f"unknown swap device {s!r}; known: off, {', '.join(sorted(known))}", "swap")
    extra = dict(overrides)
    if swap_size is not None:
        extra["swap_size"] = _args.plain(swap_size, "swap_size")
    grid = [(s, d) for s in settings for d in sizes]
    # The swap size sizes the swap devices of the grid; swap off has none (and refuses one).
    unsized = {k: v for k, v in extra.items() if k != "swap_size"}
    jobs = [
        job(usage, phone, seed=seed, dram=d, swap=s, **(unsized if s == "off" else extra)) for s, d in grid
    ]
    runs = phone_grid(jobs, threads=threads, phones=phones_file, apps=apps, devices=devices)
    rows = []
    for (s, d), r in zip(grid, runs, strict=True):
        m = r.meters
        launches = m["cold"] + m["resumed"]
        rows.append(
            {
                "swap_setting": s,
                "dram": d,
                "dram_gib": _gib("dram", d),
                "launches": launches,
                "cold": m["cold"],
                "cold_share": m["cold"] / launches if launches else 0.0,
                "kills": sum(m["kills"].values()),
                "live_apps_mean": m["live_apps_mean"],
                "live_apps_max": m["live_apps_max"],
                "mean_launch_ms": m["mean_launch_ms"],
                "swap_in_pages": m["swap_in_pages"],
                "flash_write_mb": m["flash_write_bytes"] / 1e6,
            }
        )
    return rows


def dram_for(rows: Sequence[Mapping[str, Any]], live_apps: float) -> dict[str, str | None]:
    """Per swap setting, the smallest DRAM size whose mean live apps reach ``live_apps`` (None: no
    size tried does)."""
    out: dict[str, str | None] = {}
    for r in sorted(rows, key=lambda r: r["dram_gib"]):
        s = r["swap_setting"]
        out.setdefault(s, None)
        if out[s] is None and r["live_apps_mean"] >= live_apps:
            out[s] = r["dram"]
    return out
