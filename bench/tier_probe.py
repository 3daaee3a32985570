"""Tiered replay time of three policies on one synthetic trace, best of 5, as JSON: run it in two
builds' interpreters, alternately, to compare them side by side (BENCHMARKS.md). Not a test."""

from __future__ import annotations

import json

from policy_probe import best  # bench/ is on the path when this runs as a script

import mobmem


def main() -> None:
    t = mobmem.Trace.generate(None, accesses=6_000_000, footprint_pages=70_000, seed=42)
    out = {}
    for pol in ("fg-aware", "clock-dwf", "lru"):
        out[pol] = best(
            5, lambda pol=pol: mobmem.simulate(t, policy=pol, memory="10%", tiers={"pcm_share": 0.9})
        )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
