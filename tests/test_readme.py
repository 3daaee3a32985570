"""The README's examples are executed: its Python block, and every `$ mobmem …` line."""

from __future__ import annotations

import os
import re
import shlex

import pytest

from conftest import ROOT, cli

README = (ROOT / "README.md").read_text()


def test_python_quickstart_runs(capsys, monkeypatch):
    pytest.importorskip("pandas")
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks, "README lost its Python example"
    monkeypatch.chdir(ROOT)
    exec(compile(blocks[0], "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "53966926 accesses over 655 pages" in out
    assert "faults_vs_opt" in out


COMMANDS = [line[2:] for line in re.findall(r"^\$ mobmem .*$", README, re.M)]


def test_readme_lists_commands():
    assert len(COMMANDS) >= 8


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_command_runs(command, tmp_path):
    # Run from a scratch directory, the repository's files named by absolute path, so that what a
    # command writes (a plot, a report) lands there, not in the checkout.
    argv = [
        str(ROOT / a) if (ROOT / a).exists() and not a.startswith("-") else a for a in shlex.split(command)
    ]
    assert cli(*argv[1:], cwd=tmp_path).stdout.strip()
    for flag in ("--plot", "-o", "--out"):
        if flag in argv:
            written = argv[argv.index(flag) + 1]
            assert (tmp_path / written).exists() or os.path.exists(written), (
                f"{command}: {written} not written"
            )
