"""``mobmem sweep`` and ``mobmem results``: experiments from the command line (docs/EXPERIMENTS.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..progress import wrote


def cmd_sweep(args: argparse.Namespace) -> int:
    from .._optional import need
    from ..experiment import load, sweep

    if args.dask:
        need("dask.distributed", "--dask")

    exp = load(args.experiment)
    out = sweep(exp, workers=args.threads, dask=args.dask, progress=not args.quiet)
    if args.json:
        print(json.dumps(out))
    else:
        print(
            f"{exp.name}: {out['runs']} runs, {out['stored_before']} stored before, {out['ran']} run now;"
            f" {out['stored']} in {out['store']}"
        )
    return 0


def cmd_results(args: argparse.Namespace) -> int:
    from .._optional import need
    from ..experiment import records, relative_records
    from ..table import num, render

    if args.parquet:  # checked before the work, not after it
        pd = need("pandas", "--parquet")
        need("pyarrow", "--parquet")
    extra: list[str] = []
    if args.relative:
        base, _, metric = args.relative.partition(":")
        recs = relative_records(args.experiment, base, metric or "io_total_ns")
        extra = [f"{metric or 'io_total_ns'} / {base}"]
    else:
        recs = records(args.experiment)
    if args.parquet:
        from ..report import html

        html.write_via(args.parquet, lambda tmp: pd.DataFrame(recs).to_parquet(tmp))
        return 0
    if args.json:
        json.dump(recs, sys.stdout, indent=1, allow_nan=False)
        print()
        return 0
    if args.csv is not None:
        import csv

        cols: list[str] = []
        for r in recs:
            cols += [k for k in r if k not in cols]

        def put(f: Any) -> None:
            w = csv.DictWriter(f, fieldnames=cols)
            w.writeheader()
            w.writerows(recs)

        if args.csv == "-":
            put(sys.stdout)
        else:
            from ..report import html

            def fill(tmp: str) -> None:
                with open(tmp, "w", newline="") as f:
                    put(f)

            html.write_via(args.csv, fill)
        return 0
    if not recs:
        print("no stored runs yet: run `mobmem sweep` first")
        return 0
    from ..experiment import load

    axes = list(load(args.experiment).axes)
    cols = ["source", *axes, *[c for c in args.columns.split(",") if c], *extra]
    rows: list[list[Any]] = [
        [
            num(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v
            for v in (r.get(c, "") for c in cols)
        ]
        for r in recs
    ]
    print(render(cols, rows))
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from .._optional import need
    from ..report import html

    need("matplotlib.pyplot", "mobmem report")
    from ..report.experiment import build

    html.write(args.output, build(args.experiment))
    wrote("report", args.output)
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("sweep", help="run an experiment file's runs that are not stored yet")
    p.add_argument("experiment", help="experiment file (TOML; docs/EXPERIMENTS.md)")
    p.add_argument(
        "--threads",
        "--workers",
        dest="threads",
        type=int,
        default=0,
        help="runs at once, each in a local worker process (0: all cores)",
    )
    p.add_argument(
        "--dask", metavar="ADDRESS", help="run on Dask: 'local' (a LocalCluster) or a scheduler address"
    )
    p.add_argument("--quiet", action="store_true", help="no progress")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=cmd_sweep)
    p = sub.add_parser("results", help="an experiment's stored runs: a table, JSON, CSV or Parquet")
    p.add_argument("experiment", help="experiment file (TOML)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="a list of records: the axes' values and the meters")
    g.add_argument("--csv", nargs="?", const="-", metavar="FILE", help="CSV to FILE (or standard output)")
    g.add_argument("--parquet", metavar="FILE", help="Parquet file (needs pandas and pyarrow)")
    p.add_argument(
        "--columns", default="faults,hits,io_total_ns", help="meters to show in the table (comma-separated)"
    )
    p.add_argument(
        "--relative",
        metavar="BASELINE[:METER]",
        help="add METER (default io_total_ns) over the same run with a [baselines] entry's values",
    )
    p.set_defaults(func=cmd_results)
    p = sub.add_parser("report", help="an experiment's results as one self-contained HTML page")
    p.add_argument("experiment", help="experiment file (TOML)")
    p.add_argument("-o", "--output", required=True, help="HTML file to write")
    p.set_defaults(func=cmd_report)
