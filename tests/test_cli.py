"""The command line, end to end, as a user runs it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import mobmem

from conftest import DATA, ROOT, cli, write


def test_make_demo_prints_the_tables():
    """The README's first command, exactly."""
    p = subprocess.run(["make", "demo"], capture_output=True, text=True, cwd=ROOT, timeout=1200)
    assert p.returncode == 0, p.stderr[-2000:]
    out = p.stdout
    assert "Real trace" in out and "Synthetic trace" in out
    assert out.count("faults, and ratio to clock") == 2
    assert out.count("faults relative to OPT (the floor)") == 2
    for pol in ("fifo", "lru", "clock", "arc", "2q", "opt"):
        assert f"\n{pol} " in out
    assert "53,966,926 accesses" in out


def test_flags_override_the_run_file(tmp_path):
    """As in every CLI: a flag given with --config wins over the file's setting (even one naming the
    default's value), --set sets any setting by its dotted name, and the result is the same run
    made from flags alone."""
    trace = DATA / "sqlite_60k.txt.zst"
    run = write(
        tmp_path,
        "run.toml",
        f'[trace]\npath = "{trace}"\n[sim]\nmemory = "10%"\npolicy = "lru"\nswap = "emmc-inand"\n',
    )

    def ran(*args: str) -> dict:
        return json.loads(cli("run", *args, "--json").stdout)

    file_only = ran("--config", str(run))
    assert (file_only["config"]["policy"], file_only["config"]["swap"]["name"]) == ("lru", "emmc-inand")
    # --policy clock is the flag's default: given, it still wins.
    over = ran("--config", str(run), "--memory", "25%", "--policy", "clock", "--set", "sim.swap=ufs31")
    direct = ran("--trace", str(trace), "--memory", "25%", "--policy", "clock", "--swap", "ufs31")
    assert over["config"] == direct["config"] and over["meters"] == direct["meters"]
    assert over["meters"]["faults"] != file_only["meters"]["faults"]
    # --set over a flag, a policy parameter by its dotted name, and --stream with a run file.
    j = ran("--config", str(run), "--policy", "2q", "--set", "sim.policy=arc", "--set", "sim.swap_size=64")
    assert j["config"]["policy"] == "arc" and str(j["config"]["swap_size"]) == "64"
    j = ran("--config", str(run), "--policy", "2q", "--set", "sim.params.ain_ratio=0.5", "--stream")
    assert j["config"]["params"]["ain_ratio"] == 0.5
    assert (
        j["meters"]
        == ran("-t", str(trace), "-p", "2q", "-m", "10%", "--swap", "emmc-inand", "--param", "ain_ratio=0.5")[
            "meters"
        ]
    )
    # Without a run file, --set applies sim.* over the flags.
    j = ran("-t", str(trace), "-p", "2q", "--param", "ain_ratio=0.1", "--set", "sim.params.ain_ratio=0.5")
    assert j["config"]["params"]["ain_ratio"] == 0.5
    for args, code, msg in (
        (["--config", str(run), "--set", "sim.nope=3"], 3, "sim.nope"),
        (["--config", str(run), "--set", "sim.policy"], 2, "KEY=VALUE"),
        (["-t", str(trace), "--set", "trace.path=x"], 3, "only sim.KEY"),
        (["-t", str(trace), "--set", "sim.devices=x"], 3, "no setting sim.devices"),
        (["-t", str(trace), "--set", "sim.trace=x", "--stream"], 3, "no setting sim.trace"),
        (["--config", str(run), "--devices", str(run)], 3, "--devices with --config"),
    ):
        p = cli("run", *args, ok=False)
        assert p.returncode == code and msg in p.stderr, (args, p.returncode, p.stderr)


def test_run_table_and_json():
    p = cli("run", "--trace", str(DATA / "sqlite_60k.txt.zst"), "--policy", "arc", "--memory", "8")
    assert "policy arc, memory 8 = 8 frames" in p.stdout and "I/O time total (ms)" in p.stdout
    j = json.loads(
        cli("run", "-t", str(DATA / "sqlite_60k.txt.zst"), "-p", "arc", "-m", "8", "--json").stdout
    )
    assert j["config"]["policy"] == "arc" and j["meters"]["accesses"] == 60_000
    assert (
        j["meters"]["faults"]
        == json.loads((DATA / "golden_faults.json").read_text())["traces"]["sqlite_60k.txt.zst"]["faults"][
            "arc"
        ]["8"]
    )


def test_compare_table_has_ratios_and_opt_gap():
    p = cli(
        "compare", "-t", str(DATA / "synthetic_40k.txt.zst"), "--policies", "lru,clock,opt", "-m", "30,100"
    )
    assert "faults, and ratio to clock" in p.stdout and "I/O time (ms), and ratio to clock" in p.stdout
    clock_row = next(line for line in p.stdout.splitlines() if line.startswith("clock "))
    assert clock_row.count("1.000×") == 2
    j = json.loads(
        cli(
            "compare",
            "-t",
            str(DATA / "synthetic_40k.txt.zst"),
            "--policies",
            "lru,opt",
            "-m",
            "30",
            "--json",
        ).stdout
    )
    assert [r["config"]["policy"] for r in j] == ["lru", "opt"]
    assert j[1]["meters"]["faults"] <= j[0]["meters"]["faults"]


def test_stats_convert_gen(tmp_path):
    s = json.loads(cli("stats", str(DATA / "sqlite_60k.txt.zst"), "--json").stdout)
    assert s["accesses"] == 60_000
    out = tmp_path / "x.mobt"
    p = cli("convert", str(DATA / "sqlite_60k.txt.zst"), str(out))
    assert "binary" in p.stdout
    s2 = json.loads(cli("stats", str(out), "--json").stdout)
    assert s2["format"] == "binary" and s2["accesses"] == s["accesses"] and s2["writes"] == s["writes"]
    g = tmp_path / "g.txt.gz"
    p = cli("gen", "--preset", "farmstory", "-n", "50k", "--seed", "3", "-o", str(g))
    assert "synthetic trace (farmstory" in p.stdout
    s3 = json.loads(cli("stats", str(g), "--json").stdout)
    assert s3["accesses"] == 50_000 and abs(s3["read_write_ratio"] - 6.03) < 0.3


def test_stats_locality_measures_what_the_generator_was_given(tmp_path):
    """`stats --locality` reports the code and written shares a generated trace was made with, and
    a narrower hot window as more concentrated data accesses; JSON and table say the same."""
    shares = {}
    for hot in ("0.02", "0.2"):
        g = tmp_path / f"g{hot}.mobt"
        cli(
            "gen",
            "--footprint",
            "2000",
            "-n",
            "300k",
            "--set",
            "code_share=0.3",
            "--set",
            "anon_share=0.4",
            "--set",
            f"hot_share={hot}",
            "-o",
            str(g),
        )
        loc = json.loads(cli("stats", str(g), "--locality", "--json").stdout)["locality"]
        assert abs(loc["code_share"] - 0.3) < 0.02 and abs(loc["written_share"] - 0.4) < 0.03, loc
        assert loc == mobmem.Trace.open(g).locality()
        shares[hot] = loc["hot_pages_85"]
    assert shares["0.02"] < shares["0.2"]
    table = cli("stats", str(g), "--locality").stdout
    assert f"{loc['sequential_share']:.3f}" in table and "data pages taking 85% of data accesses" in table
    assert "locality" not in json.loads(cli("stats", str(g), "--json").stdout)


def test_bad_input_exits_4_naming_file_line_and_value(tmp_path):
    bad = write(tmp_path, "bad.txt", "1 R\n2 R\n77 Z\n")
    p = cli("run", "-t", str(bad), ok=False)
    assert p.returncode == 4
    assert f"{bad}:3:" in p.stderr and '"Z"' in p.stderr and "Traceback" not in p.stderr
    p = cli("run", "-t", str(bad), "--skip-bad-lines")
    assert "malformed lines skipped" in p.stdout
    p = cli("run", "-t", str(tmp_path / "nope.txt"), ok=False)
    assert p.returncode == 4 and "no such file" in p.stderr
    # Impossible values are config errors (3), told apart from bad files (4) and bad flags (2).
    p = cli("run", "-t", str(DATA / "sqlite_60k.txt.zst"), "--memory", "0", ok=False)
    assert p.returncode == 3 and "memory" in p.stderr
    p = cli("run", "-t", str(DATA / "sqlite_60k.txt.zst"), "--policy", "mru", ok=False)
    assert p.returncode == 3 and "unknown policy" in p.stderr
    p = cli("gen", "-n", "lots", "-o", str(tmp_path / "x.mobt"), ok=False)
    assert p.returncode == 3 and "lots" in p.stderr
    p = cli("run", "-t", str(DATA / "sqlite_60k.txt.zst"), "--no-such-flag", ok=False)
    assert p.returncode == 2 and "unrecognized arguments" in p.stderr


@pytest.mark.parametrize("cmd", [["policies"], ["devices"], ["formats"]])
def test_listings(cmd):
    assert len(cli(*cmd).stdout.splitlines()) >= 5


def test_every_flag_says_what_it_does_and_its_default():
    import argparse

    from mobmem.cli import build_parser

    def walk(p, path):
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                for name, sp in a.choices.items():
                    yield from walk(sp, [*path, name])
            elif a.dest != "help":
                yield " ".join(path), a

    seen = 0
    for where, a in walk(build_parser(), ["mobmem"]):
        seen += 1
        assert a.help, f"{where} {a.option_strings or a.dest} has no help"
    assert seen > 100
    text = " ".join(cli("run", "--help").stdout.split())
    assert "(default: clock)" in text and "(default: 10%)" in text
    assert cli("--version").stdout.startswith("mobmem ")


def test_a_command_builds_only_its_module_parsers_and_parses_as_the_whole_parser():
    from mobmem.cli import build_parser

    argv = ["run", "--trace", "t.mobt", "--policy", "lru", "--memory", "5%", "--param", "a=1", "--json"]
    lean, whole = build_parser("run"), build_parser()
    assert "reproduce" not in lean._subparsers._group_actions[0].choices
    assert "reproduce" in whole._subparsers._group_actions[0].choices
    a, b = (vars(p.parse_args(argv)) for p in (lean, whole))
    a.pop("_parser"), b.pop("_parser")
    assert a == b and a["policy"] == "lru"


def test_the_command_table_names_every_command_module_and_each_registers_its_own():
    # A command module without its line in COMMANDS, a line naming no module, or a module
    # registering a command under another's name fails here.
    import mobmem.cli as cli_pkg
    from mobmem.cli import COMMANDS, build_parser

    folder = Path(cli_pkg.__file__).parent
    modules = {f.stem for f in folder.glob("*.py") if not f.stem.startswith("_")}
    assert modules == set(COMMANDS.values())
    for module in modules:
        mine = [c for c, m in COMMANDS.items() if m == module]
        choices = build_parser(mine[0])._subparsers._group_actions[0].choices
        assert list(choices) == mine, module
    assert list(build_parser()._subparsers._group_actions[0].choices) == list(COMMANDS)


def test_reproductions_describe_themselves_whole():
    text = cli("reproduce", "--help").stdout
    assert "``" not in text
    for name in ("dr-swap", "spo-clock", "hybrid", "emmc-swap"):
        assert f"    {name}" in text
        own = cli("reproduce", name, "--help").stdout
        assert "``" not in own and f"mobmem reproduce {name}:" in own


def test_short_runs_print_their_wall_time_readably():
    from mobmem.table import seconds

    assert seconds(0.0004) == "400 µs" and seconds(0.0123) == "12.3 ms" and seconds(2.5) == "2.50 s"
    out = cli("run", "-t", str(DATA / "sqlite_60k.txt.zst"), "-m", "8").stdout
    assert "0.000" not in [line.split()[-1] for line in out.splitlines() if "wall time" in line]


def test_no_module_of_the_library_imports_the_cli():
    # The CLI sits on the library; a reproduction or a report reaching up into it (for its
    # argument parsing, say) makes import circles. Every import, at any depth of a function.
    import ast

    import mobmem

    root = Path(mobmem.__file__).parent
    upward = []
    for f in root.rglob("*.py"):
        rel = f.relative_to(root)
        if rel.parts[0] == "cli":
            continue
        depth = len(rel.parts) - 1  # packages between mobmem and the file
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    up = node.level - 1
                    where = [*rel.parts[: depth - up]] if up <= depth else ["?"]
                    target = ".".join([*where, *([node.module] if node.module else [])])
                    names = [target] + [f"{target}.{a.name}".strip(".") for a in node.names]
                else:
                    names = [(node.module or "").removeprefix("mobmem").strip(".")]
            elif isinstance(node, ast.Import):
                names = [
                    a.name.removeprefix("mobmem").strip(".")
                    for a in node.names
                    if a.name.startswith("mobmem")
                ]
            else:
                continue
            if any(n == "cli" or n.startswith("cli.") for n in names):
                upward.append(f"{rel}:{node.lineno}")
    assert upward == []


def test_output_fits_100_columns(monkeypatch):
    """Every command's help and the listings fit 100 columns, even on a wide terminal: long
    descriptions and text columns wrap, headings break over lines."""
    import argparse

    from mobmem.cli import build_parser

    monkeypatch.setenv("COLUMNS", "250")

    def helps(p: argparse.ArgumentParser):
        yield p.prog, p.format_help()
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                for sp in a.choices.values():
                    yield from helps(sp)

    texts = dict(helps(build_parser()))
    assert len(texts) > 25 and "mobmem reproduce spo-clock" in texts
    listings = ["policies", "formats", "devices", "phones", "apps", "admissions"]
    for c in listings:
        texts[c] = cli(c).stdout
    texts["run"] = cli("run", "-t", str(DATA / "sqlite_60k.txt.zst")).stdout
    for name, text in texts.items():
        wide = [line for line in text.splitlines() if len(line) > 100]
        assert not wide, (name, wide[0])
    from mobmem.table import wrap

    assert all(len(line) <= 100 for line in wrap(["x" * 99, "y", "z" * 98], " | ").splitlines())
    assert (
        wrap(["ab", "cd"], " | ", width=7) == "ab | cd" and wrap(["ab", "cd"], " | ", width=6) == "ab |\n  cd"
    )
    # Wrapping keeps every word: the admissions' descriptions are all there.
    flat = " ".join(cli("admissions").stdout.split())
    from mobmem.phone import swap_admissions

    assert all(" ".join(d.split()) in flat for d in swap_admissions().values())


def test_progress_on_a_terminal_only(monkeypatch):
    """A long command draws `label: N runs, T s` on a terminal's stderr, redrawn while it works and
    cleared at the end; on a pipe or a file, nothing."""
    import io
    import time

    from mobmem.progress import ticker

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    done = [0]
    tty = Terminal()
    monkeypatch.setattr("sys.stderr", tty)
    with ticker("reproduce x", lambda: done[0], every_s=0.02):
        for _ in range(5):
            done[0] += 7
            time.sleep(0.05)
    drawn = tty.getvalue()
    assert "reproduce x: " in drawn and " runs, " in drawn and drawn.endswith("\r\x1b[K")
    counts = [int(x.split(" runs")[0]) for x in drawn.split("reproduce x: ")[1:]]
    assert counts == sorted(counts) and counts[-1] >= 14
    pipe = io.StringIO()
    monkeypatch.setattr("sys.stderr", pipe)
    with ticker("reproduce x", lambda: 1, every_s=0.01):
        time.sleep(0.05)
    assert pipe.getvalue() == ""


def test_written_files_are_named(tmp_path):
    """--plot and --report say which file they wrote (on stderr: stdout stays the tables)."""
    svg = tmp_path / "m.svg"
    p = cli("mrc", "-t", str(DATA / "sqlite_60k.txt.zst"), "--plot", str(svg))
    assert svg.stat().st_size > 0 and f"plot: wrote {svg}" in p.stderr and str(svg) not in p.stdout


def test_a_usage_error_shows_the_commands_own_usage():
    for args, usage in (
        (["run", "--bogus"], "usage: mobmem run "),
        (["reproduce", "spo-clock", "--bogus"], "usage: mobmem reproduce spo-clock "),
        (["compare", "--nope", "3"], "usage: mobmem compare "),
    ):
        p = cli(*args, ok=False)
        assert p.returncode == 2 and p.stderr.startswith(usage) and "unrecognized arguments" in p.stderr, (
            p.stderr
        )
    p = cli("--json", "policies", ok=False)
    assert p.returncode == 2 and "--json: the command's flags go after it (mobmem policies --json" in p.stderr


def test_reproduction_reports_wrap_their_prose():
    """A reproduction's printed report wraps its prose to 100 columns (each line keeping its
    indentation), every word kept; rows of tables (runs of two spaces) are left whole."""
    from mobmem.table import fit_prose

    prose = "  " + " ".join(f"word{i}" for i in range(60))
    row = "name" + "  " * 3 + "x" * 120
    fitted = fit_prose(f"{prose}\n{row}").splitlines()
    assert all(len(line) <= 100 and line.startswith("  word") for line in fitted[:-1])
    assert " ".join(" ".join(fitted[:-1]).split()) == prose.strip() and fitted[-1] == row
    out = cli("reproduce", "emmc-swap", "--rounds", "1").stdout
    assert "Reading 'game-scale'" in out
    assert all(len(line) <= 100 for line in out.splitlines() if "  " not in line.lstrip())


def test_a_finite_cost_whose_totals_overflow_is_refused_over_every_way_in(tmp_path):
    """A per-operation cost past what totals can hold (1e18) is a config error naming the field,
    from a devices file, a flag, a run file and Python: never an `inf` or `null` in the output,
    nor the internal error a division by it gave."""
    trace = str(DATA / "sqlite_60k.txt.zst")
    devices = write(tmp_path, "d.toml", '[huge]\nkind = "flash"\nread_ns = 1e300\nwrite_ns = 1\n')
    p = cli("run", "-t", trace, "--devices", str(devices), "--swap", "huge", ok=False)
    assert p.returncode == 3 and "devices.huge.read_ns" in p.stderr and "overflow" in p.stderr, p.stderr
    p = cli("run", "-t", trace, "--cpu-ns-per-access", "1e300", ok=False)
    assert p.returncode == 3 and "cpu_ns_per_access" in p.stderr and "overflow" in p.stderr, p.stderr
    run = write(tmp_path, "r.toml", f'[trace]\npath = "{trace}"\n[sim]\ncpu_ns_per_access = 1e300\n')
    p = cli("run", "--config", str(run), ok=False)
    assert p.returncode == 3 and "cpu_ns_per_access" in p.stderr, p.stderr
    with pytest.raises(mobmem.ConfigError) as e:
        mobmem.simulate(mobmem.Trace.from_pages([1, 2, 1]), cpu_ns_per_access=1e300)
    assert e.value.field == "cpu_ns_per_access"
    # The phone's own costs: a phones file, --set and Python.
    phones = write(tmp_path, "p.toml", "[nexus5]\nactive_mw = 1e300\n")
    p = cli("phone", "--emmc", "random", "--rounds", "1", "--phones", str(phones), ok=False)
    assert p.returncode == 3 and "active_mw" in p.stderr and "overflow" in p.stderr, p.stderr
    p = cli("phone", "--emmc", "random", "--rounds", "1", "--set", "dram_mw_per_gib=1e300", ok=False)
    assert p.returncode == 3 and "dram_mw_per_gib" in p.stderr and "overflow" in p.stderr, p.stderr
    with pytest.raises(mobmem.ConfigError, match="overflow") as e:
        mobmem.simulate_phone(mobmem.phone.rounds(rounds=1), write_amplification=1e300)
    assert "write_amplification" in str(e.value)


def test_a_page_cluster_a_reclaim_batch_of_one_leaves_no_room_for_is_refused(tmp_path):
    """Read-around reads into free frames; a batch of 1 leaves none on full memory, so the knob
    would do nothing past the first fill: refused by name from flags, a run file and Python."""
    trace = str(DATA / "sqlite_60k.txt.zst")
    p = cli("run", "-t", trace, "--swap", "emmc-inand", "--page-cluster", "3", ok=False)
    assert p.returncode == 3 and "page_cluster" in p.stderr and "reclaim_batch" in p.stderr, p.stderr
    run = write(tmp_path, "r.toml", f'[trace]\npath = "{trace}"\n[sim]\npage_cluster = 2\n')
    p = cli("run", "--config", str(run), ok=False)
    assert p.returncode == 3 and "page_cluster" in p.stderr, p.stderr
    with pytest.raises(mobmem.ConfigError) as e:
        mobmem.simulate(mobmem.Trace.from_pages([1, 2, 1]), page_cluster=1)
    assert e.value.field == "page_cluster"
    ok = mobmem.simulate(mobmem.Trace.from_pages([1, 2, 1]), page_cluster=1, reclaim_batch=2)
    assert ok.config["page_cluster"] == 1
