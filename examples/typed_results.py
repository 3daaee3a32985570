"""Results as typed records: every field is an attribute whose type the checker knows (this file is
checked with ``mypy --strict`` by ``make lint``, and run by the tests).

    python examples/typed_results.py [TRACE]
"""

from __future__ import annotations

import sys

import mobmem
from mobmem.records import Meters


def swap_share(m: Meters) -> float:
    """The share of the I/O time spent reading swap."""
    return m.io.swap_read_ns / m.io.total_ns if m.io.total_ns else 0.0


def main(path: str) -> None:
    trace = mobmem.Trace.open(path)
    for policy in ("lru", "clock", "linux-2q"):
        r = mobmem.simulate(trace, policy=policy, memory="10%", swap="emmc-inand")
        m = r.meters
        print(
            f"{policy:9} {r.config.frames:5} frames on {r.config.swap.name}: {m.faults:6} faults, "
            f"{m.swap_ins:5} swap-ins, {swap_share(m):.0%} of I/O time reading swap"
        )
    phone = mobmem.simulate_phone(mobmem.phone.rounds(rounds=1), "gt-i9300")
    slowest = max(phone.launches, key=lambda launch: launch.latency_ms)
    print(
        f"{phone.phone}: {len(phone.launches)} launches, {phone.meters.kills_total} kills, "
        f"slowest {slowest.app} ({slowest.latency_ms:.0f} ms, {slowest.ux_class})"
    )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/sqlite_60k.txt.zst")
