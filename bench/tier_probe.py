"""Tiered replay time of three policies on one synthetic trace, best of 5, as JSON: run it in two
builds' interpreters, alternately, to compare them side by side (BENCHMARKS.md). Not a test."""

import json, sys, time
import mobmem

t = mobmem.Trace.generate(None, accesses=6_000_000, footprint_pages=70_000, seed=42)


def best(n, f):
    b = float("inf")
    for _ in range(n):
        t0 = time.perf_counter()
        f()
        b = min(b, time.perf_counter() - t0)
    return b


out = {}
for pol in ("fg-aware", "clock-dwf", "lru"):
    out[pol] = best(5, lambda: mobmem.simulate(t, policy=pol, memory="10%", tiers={"pcm_share": 0.9}))
print(json.dumps(out))
