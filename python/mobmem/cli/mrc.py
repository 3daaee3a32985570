"""``mobmem mrc``: a policy's miss-ratio curve in one pass (exact for LRU and OPT) or from a spatial
sample (every policy), as a table, JSON or a plot; ``--check`` measures a sample's error."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from ..progress import wrote


def _points(footprint: int, n: int) -> list[int]:
    """About ``n`` sizes from 1 frame to the footprint, spaced evenly on a log scale."""
    if footprint <= n:
        return list(range(1, footprint + 1))
    out = {max(1, round(footprint ** (i / (n - 1)))) for i in range(n)}
    return sorted(out | {footprint})


def _rate(text: str) -> float:
    """``1%`` or ``0.01``."""
    from ..errors import ConfigError

    try:
        r = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        raise ConfigError(f"--sample: {text!r} is not a rate (0.01 or 1%)", "sample") from None
    if not 0 < r <= 1:
        raise ConfigError(f"--sample: a rate must be in (0, 1] (or 0–100%), got {text}", "sample")
    return r


class _Line:
    """One policy's curve, exact or estimated, with the exact one beside it under ``--check``."""

    def __init__(self, policy: str, accesses: int, sizes: list[int], ratio: list[float], how: str):
        self.policy, self.accesses, self.sizes, self.ratio, self.how = policy, accesses, sizes, ratio, how
        self.exact: list[float] | None = None
        self.note = ""
        self.extra: dict[str, Any] = {}

    def at(self, s: int) -> float:
        return self.ratio[self.sizes.index(s)]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"policy": self.policy, "method": self.how, "sizes": self.sizes}
        d.update(self.extra)
        d["miss_ratio"] = self.ratio
        if self.exact is not None:
            d["exact_miss_ratio"] = self.exact
            err = [abs(a - b) for a, b in zip(self.ratio, self.exact, strict=True)]
            d["mean_abs_error"] = sum(err) / len(err)
            d["max_abs_error"] = max(err)
        return d


def _exact_line(t: Any, policy: str) -> _Line:
    from .. import mrc

    c = mrc.curve(t, policy)
    r = [f / c.accesses if c.accesses else 0.0 for f in c.faults]
    line = _Line(policy, c.accesses, c.sizes, r, "exact")
    line.extra = c.to_dict()
    return line


def _sampled_line(t: Any, policy: str, args: argparse.Namespace) -> _Line:
    from .. import mrc
    from ..api import run_configs

    rate = None if args.sample is None else _rate(args.sample)
    sizes = None if args.sizes is None else mrc.grid(t.num_pages, args.sizes)
    e = mrc.sampled(
        t,
        policy,
        rate=rate,
        sample_size=args.sample_size,
        method=args.method,
        sizes=sizes,
        seed=args.seed,
        reading=args.reading,
    )
    line = _Line(policy, e.accesses, e.sizes, e.miss_ratio, e.method)
    line.extra = {k: v for k, v in e.to_dict().items() if k not in ("sizes", "miss_ratio")}
    line.note = (
        f"{policy}: {e.method} at rate {e.rate:.4g}, {e.reading} ({e.sampled_pages:,} of {t.num_pages:,} pages, "
        f"{e.sampled_accesses:,} of {e.accesses:,} accesses) in {e.wall_s:.3f} s"
    )
    if args.check:
        start = time.perf_counter()
        if policy in mrc.exact_policies():
            c = mrc.curve(t, policy)
            line.exact = [c.at(s) / c.accesses for s in e.sizes]
            how = "exact one-pass curve"
        else:
            runs = run_configs(t, [{"policy": policy, "memory": s} for s in e.sizes], threads=1)
            line.exact = [r.faults / len(t) for r in runs]
            how = f"exact sweep of {len(e.sizes)} sizes, 1 thread"
        wall = time.perf_counter() - start
        err = e.errors(line.exact)
        line.note += (
            f"; {how} {wall:.2f} s ({wall / max(e.wall_s, 1e-9):.0f}× the estimate's time); miss ratio "
            f"error at {len(err)} sizes: mean {sum(err) / len(err):.4f}, max {max(err):.4f}"
        )
    else:
        line.note += "; error not measured (--check runs the exact curve beside it)"
    return line


def cmd_mrc(args: argparse.Namespace) -> int:
    from .. import mrc
    from ..api import Trace, names
    from ..errors import ConfigError
    from ..table import num, render

    if args.plot:  # checked before the work, not after it
        from .._optional import need

        need("matplotlib.pyplot", "--plot")
    if args.points < 2:
        raise ConfigError(
            f"--points: at least 2 sizes (1 frame and the footprint), got {args.points}", "points"
        )
    if args.sizes is not None and args.sizes < 1:
        raise ConfigError(f"--sizes: at least 1 size, got {args.sizes}", "sizes")
    t = Trace.open(args.trace)
    sample = args.sample is not None or args.sample_size is not None
    if args.check and not sample:
        raise ConfigError("--check measures a sample's error: give --sample or --sample-size", "check")
    lines = []
    for p in names("policies", args.policies):
        if sample:
            lines.append(_sampled_line(t, p, args))
        elif p in mrc.exact_policies():
            lines.append(_exact_line(t, p))
        else:
            raise ConfigError(
                f"no exact one-pass curve for {p!r} (exact: {', '.join(mrc.exact_policies())}); "
                "estimate it from a sample: --sample 1% (miniature simulations)",
                "policy",
            )
    if args.json:
        out: Any = [ln.to_dict() for ln in lines]
        print(json.dumps(out if len(out) > 1 else out[0]))
    else:
        sizes = sorted(set.intersection(*(set(ln.sizes) for ln in lines)))
        if not args.all and all(ln.how != "mini" for ln in lines):
            sizes = [s for s in _points(t.num_pages, args.points) if s in set(sizes)]
        exact = [ln for ln in lines if ln.how == "exact"]
        heads = ["frames", *(f"{ln.policy} faults" for ln in exact)]
        heads += [f"{ln.policy} miss ratio" + ("" if ln.how == "exact" else f" ({ln.how})") for ln in lines]
        heads += [f"{ln.policy} exact" for ln in lines if ln.exact is not None]
        rows = [
            [
                s,
                *(num(ln.extra["faults"][s - 1]) for ln in exact),
                *(f"{ln.at(s):.4f}" for ln in lines),
                *(f"{ln.exact[ln.sizes.index(s)]:.4f}" for ln in lines if ln.exact is not None),
            ]
            for s in sizes
        ]
        title = f"{args.trace}: {len(t):,} accesses, {t.num_pages:,} pages"
        print(render(heads, rows, title=title))
        for ln in lines:
            if ln.note:
                print(ln.note)
    if args.plot:
        from ..report import html, plots

        recs = [
            {
                "policy": f"{ln.policy} ({ln.how})",
                "memory": s,
                "faults": r * ln.accesses,
                "accesses": ln.accesses,
            }
            for ln in lines
            for s, r in zip(ln.sizes, ln.ratio, strict=True)
        ]
        hows = sorted({ln.how for ln in lines})
        kind = (
            "one pass, exact"
            if hows == ["exact"]
            else "sampled"
            if "exact" not in hows
            else "exact and sampled"
        )
        fig = plots.miss_ratio_curve(recs, f"Miss-ratio curve ({kind})")
        html.write_via(args.plot, lambda tmp: fig.savefig(tmp, format=args.plot.rsplit(".", 1)[-1]))
        wrote("plot", args.plot)
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "mrc", help="a policy's miss-ratio curve: exact in one pass (lru, opt), or from a sample (any policy)"
    )
    p.add_argument("--trace", "-t", required=True, help="page trace")
    p.add_argument(
        "--policies",
        "--policy",
        dest="policies",
        default="lru",
        help="policies, comma-separated (default lru)",
    )
    p.add_argument("--points", type=int, default=20, help="sizes in the table, log-spaced (default 20)")
    p.add_argument("--all", action="store_true", help="every size in the table")
    p.add_argument(
        "--json", action="store_true", help='the whole curve: {"sizes": [...], "miss_ratio": [...], …}'
    )
    p.add_argument("--plot", metavar="FILE", help="also draw it (.svg, .png or .pdf)")
    s = p.add_argument_group("sampled curves (miniature simulations for any policy, SHARDS for lru)")
    s.add_argument("--sample", metavar="RATE", help="sample the pages at this rate: 0.01 or 1%%")
    s.add_argument("--sample-size", type=int, metavar="PAGES", help="sample at most this many pages")
    s.add_argument(
        "--method", choices=["mini", "shards"], help="mini (default, any policy) or shards (lru, every size)"
    )
    s.add_argument("--sizes", type=int, metavar="N", help="mini: N evenly spaced sizes (default 20)")
    s.add_argument("--seed", type=int, default=0, help="the sampling hash's seed (default 0)")
    from .. import mrc

    readings = mrc.readings()
    s.add_argument(
        "--reading",
        choices=readings,
        help=f"how the sample stands for the trace (default {readings[0]}: at its share of the pages; "
        "adjusted: SHARDS-adj, at the nominal rate; drawn: over the accesses it drew)",
    )
    s.add_argument("--check", action="store_true", help="measure the error against exact runs, and the time")
    p.set_defaults(func=cmd_mrc)
