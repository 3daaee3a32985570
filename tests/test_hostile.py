"""Hostile input, as a careless or malicious user gives it: every bad value is a clear error with
its own exit code, never a traceback, an abort or a hang; files are checked and written whole."""

from __future__ import annotations

import subprocess
import sys

import pytest

import mobmem
from mobmem import cli as cli_mod

from conftest import DATA, cli, write

SQLITE = str(DATA / "sqlite_60k.txt.zst")


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (["compare", "-t", SQLITE, "--policies", ""], 3, "policies"),
        (["compare", "-t", SQLITE, "--policies", ","], 3, "policies"),
        (["compare", "-t", SQLITE, "--memory", ""], 3, "memories"),
        (["compare", "-t", SQLITE, "--threads", "-1"], 3, "threads"),
        (["energy", "--swap-ins", "-5", "--swap-outs", "3"], 3, "swap_ins"),
        (["energy", "--swap-ins", "5", "--swap-outs", "3", "--duration", "inf"], 3, "duration"),
        (["reproduce", "spo-clock", "--memory", "abc"], 3, "'abc'"),
        (["gen", "--accesses", "10G", "-o", "/tmp/never-written.mobt"], 3, "of memory"),
        (["gen", "--accesses", "0", "-o", "/tmp/never-written.mobt"], 3, "at least 1"),
        (["gen", "--accesses", "1.5", "-o", "/tmp/never-written.mobt"], 3, "whole number"),
        (["run", "-t", SQLITE, "--swap-size", "10zz"], 3, "swap_size"),
        (["run", "-t", SQLITE, "--threads", "2"], 2, "unrecognized"),
        (["phone", "tests/data/usage_window_12apps.csv", "--user", "bob"], 3, "no user column"),
        (["phone", "--synthetic", "5,10,1", "--gap", "1e300"], 3, "ten years"),
        (["phone", "--synthetic", "5,10,1", "--gap", "-5"], 3, "gap_s"),
        (["phone", "--synthetic", "36,256,6.10,40"], 3, "need at most apps − 2 = 34 rare apps"),
        (["phone", "--synthetic", "36,256,6.10,21,0"], 3, "each launched at least once"),
        (["phone", "--synthetic", "36,256,6.10,21,1,3"], 2, "RARE_LAUNCHES"),
        (["phone", "--emmc", "random", "--rounds", "1000000000"], 3, "10000000010 launches need"),
        (["stats", "/no/such/trace"], 4, "no such file"),
        (["mrc", "-t", SQLITE, "--points", "1"], 3, "--points: at least 2"),
        (["mrc", "-t", SQLITE, "--sizes", "0", "--sample", "10%"], 3, "--sizes: at least 1"),
        (["run", "-t", SQLITE, "--policy", "2q", "--param", "ain_ratio=nan"], 3, "params.ain_ratio: NaN"),
        (["phone", "tests/data/usage_window_12apps.csv", "--set", "dram=nan"], 3, "dram: NaN"),
    ],
)
def test_bad_values_are_errors_with_their_own_exit_code(args, code, needle):
    p = cli(*args, ok=False)
    assert p.returncode == code, p.stderr
    assert needle in p.stderr and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.startswith("mobmem: error: ") or p.stderr.startswith("usage: "), p.stderr


def test_internal_names_do_not_leak_into_messages(tmp_path):
    run = write(
        tmp_path, "run.toml", f'[trace]\npath = "{SQLITE}"\n\n[sim]\nmemory = "10%"\nswap_size = -5\n'
    )
    p = cli("run", "--config", str(run), ok=False)
    assert p.returncode == 4 and f"{run}:6: sim.swap_size: expected a size" in p.stderr, p.stderr
    # An integer too large for TOML, and NaN, name their key and value.
    big = write(
        tmp_path, "big.toml", f'[trace]\npath = "{SQLITE}"\n\n[sim]\nswap_size = 99999999999999999999\n'
    )
    p = cli("run", "--config", str(big), ok=False)
    assert p.returncode == 4 and f"{big}:5: sim.swap_size: 99999999999999999999 is too large" in p.stderr, (
        p.stderr
    )
    nan = write(tmp_path, "nan.toml", f'[trace]\npath = "{SQLITE}"\n[sim]\nmemory = nan\n')
    p = cli("run", "--config", str(nan), ok=False)
    assert p.returncode == 4 and "sim.memory" in p.stderr and "NaN" in p.stderr, p.stderr
    assert "untagged" not in p.stderr and "SizeInput" not in p.stderr
    # Values that reach the core through its JSON arguments: the field, never a JSON position.
    with pytest.raises(mobmem.ConfigError) as e:
        mobmem.simulate(SQLITE, swap_size="10zz")
    assert e.value.field == "swap_size" and "column" not in str(e.value)
    with pytest.raises(mobmem.ConfigError) as e:
        mobmem.simulate(SQLITE, page_size=-1)
    assert e.value.field == "page_size" and "column" not in str(e.value), str(e.value)


def test_out_of_memory_and_bugs_have_their_own_codes(tmp_path, monkeypatch, capsys):
    writes = write(tmp_path, "w.txt", "1 W\n2 W\n3 W\n")
    p = cli("run", "-t", str(writes), "--memory", "1", "--swap-size", "1", ok=False)
    assert p.returncode == 5 and "out of memory" in p.stderr

    # Anything unexpected is reported as a bug in one line (no traceback) with code 70.
    def broken(args):
        raise RuntimeError("boom")

    from mobmem.cli import listings

    monkeypatch.setattr(listings, "cmd_policies", broken)
    monkeypatch.delenv("MOBMEM_DEBUG", raising=False)
    assert cli_mod.main(["policies"]) == 70
    err = capsys.readouterr().err
    assert "internal error (a bug in mobmem" in err and "RuntimeError: boom" in err and "Traceback" not in err
    assert cli_mod.exit_code(mobmem.errors.InvariantError("x")) == 70


def test_python_api_refuses_bad_values_with_typed_errors():
    t = mobmem.Trace.open(SQLITE)
    for call, field in [
        (lambda: mobmem.compare(t, policies=[]), "policies"),
        (lambda: mobmem.grid(t, memories=[]), "memories"),
        (lambda: mobmem.grid(t, threads=-1), "threads"),
        (lambda: mobmem.swap_energy("lpddr2-dram", -5, 1, 900, 1 << 20), "swap_ins"),
        (lambda: t.head(-1), "n"),
        (lambda: t.stats(page_size=2**70), "page_size"),
        (lambda: mobmem.Trace.generate("angrybirds", accesses=0), "gen.accesses"),
    ]:
        with pytest.raises(mobmem.ConfigError) as e:
            call()
        assert e.value.field == field, (field, str(e.value))


def test_skipped_lines_are_reported_by_compare(tmp_path):
    bad = write(tmp_path, "bad.txt", "1 R\n2 R\nzz\n3 W\n")
    p = cli("compare", "-t", str(bad), "--skip-bad-lines", "--policies", "lru", "--memory", "2")
    assert f"malformed lines skipped: 1 (first: {bad}:3:" in p.stdout


def test_a_byte_order_mark_is_not_part_of_the_header(tmp_path):
    usage = write(tmp_path, "u.csv", "\ufefftime_s,app\n0,chrome\n30,youtube\n")
    r = mobmem.simulate_phone(mobmem.phone.usage_file(usage), "nexus5")
    assert r.meters["launches"] == 2


def test_outputs_are_written_whole(tmp_path):
    out = tmp_path / "t.mobt.zst"
    cli("convert", SQLITE, str(out))
    assert [p.name for p in tmp_path.iterdir()] == ["t.mobt.zst"]
    assert mobmem.Trace.open(out).stats()["accesses"] == 60_000
    # A corrupted binary is refused, naming the file.
    raw = tmp_path / "t.mobt"
    cli("convert", SQLITE, str(raw))
    b = bytearray(raw.read_bytes())
    b[100] ^= 0x10
    raw.write_bytes(bytes(b))
    p = cli("stats", str(raw), ok=False)
    assert p.returncode == 4 and str(raw) in p.stderr and "checksum mismatch" in p.stderr


def test_the_readme_lists_the_exit_codes_the_cli_uses():
    readme = (DATA.parent.parent / "README.md").read_text()
    for code, name in [
        (cli_mod.EXIT_PROGRAM_FAILED, "captured program"),
        (cli_mod.EXIT_USAGE, "usage error"),
        (cli_mod.EXIT_CONFIG, "ConfigError"),
        (cli_mod.EXIT_INPUT, "TraceFormatError"),
        (cli_mod.EXIT_OUT_OF_MEMORY, "OutOfMemoryError"),
        (cli_mod.EXIT_INTERNAL, "InvariantError"),
        (cli_mod.EXIT_INTERRUPTED, "interrupted"),
    ]:
        row = next((line for line in readme.splitlines() if line.startswith(f"| {code} |")), "")
        assert name in row, (code, name, row)


def test_crasher_files_are_refused_from_python_too():
    """The kept fuzz inputs that once aborted the process (a notebook's kernel with it)."""
    kept = DATA / "fuzz"
    for name in ["binary/header-accesses-2e38.mobt", "compressed/header-accesses-2e38.mobt.zst"]:
        with pytest.raises(mobmem.TraceFormatError) as e:
            mobmem.Trace.open(kept / name)
        assert e.value.path.endswith(name.split("/")[1]), e.value.path
    with pytest.raises(mobmem.TraceFormatError) as e:
        mobmem.Trace.open(kept / "lackey/size-near-2e64.lackey")
    assert e.value.line == 2 and "18446744073709551615" in str(e.value)


def _without(modules: list[str], argv: list[str]) -> subprocess.CompletedProcess[str]:
    """``mobmem ARGV`` in a Python where ``modules`` cannot be imported (as if not installed)."""
    code = (
        f"import sys; sys.modules.update(dict.fromkeys({modules!r}));"
        f" from mobmem.cli import main; sys.exit(main({argv!r}))"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(
    ("modules", "argv", "needle"),
    [
        (["matplotlib"], ["mrc", "-t", SQLITE, "--policy", "lru", "--plot", "OUT.svg"], "matplotlib>=3.10"),
        (["matplotlib"], ["report", "EXP", "-o", "OUT.html"], "matplotlib>=3.10"),
        (
            ["matplotlib"],
            ["phone-curve", str(DATA / "usage_window_12apps.csv"), "--dram", "1GiB", "--plot", "OUT.png"],
            "matplotlib>=3.10",
        ),
        (["matplotlib"], ["reproduce", "spo-clock", "--report", "OUT.html"], "matplotlib>=3.10"),
        (["pyarrow"], ["results", "EXP", "--parquet", "OUT.parquet"], "pyarrow>=14"),
        (["dask", "distributed"], ["sweep", "EXP", "--dask", "local"], "dask[distributed]"),
    ],
)
def test_a_missing_package_is_a_clear_error_before_any_work(tmp_path, modules, argv, needle):
    exp = write(tmp_path, "e.toml", f'[experiment]\ntrace = "{SQLITE}"\n[axes]\npolicy = ["lru"]\n')
    argv = [a.replace("OUT", str(tmp_path / "out")).replace("EXP", str(exp)) for a in argv]
    p = _without(modules, argv)
    assert p.returncode == 3, p.stderr
    assert f"pip install '{needle}" in p.stderr and "Traceback" not in p.stderr, p.stderr
    assert p.stdout == "", "the work was done before the missing package was found"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["e.toml"]


def test_dataframes_without_pandas_are_a_clear_error():
    code = (
        "import sys; sys.modules['pandas'] = None; import mobmem\n"
        f"try:\n    mobmem.compare({SQLITE!r}, policies='lru', memories='5%')\n"
        "except mobmem.ConfigError as e:\n    print(e.field, e)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and p.stdout.startswith("pandas ") and "pip install 'pandas>=2'" in p.stdout, p
