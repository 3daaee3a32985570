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
    words = shlex.split(command)
    written = {words[i + 1] for i, w in enumerate(words[:-1]) if w in ("--plot", "-o", "--out")}
    # Run from a scratch directory, the repository's files named by absolute path, so that what a
    # command writes (a plot, a report) lands there, not in the checkout.
    argv = [
        a if a in written or a.startswith("-") or not (ROOT / a).exists() else str(ROOT / a) for a in words
    ]
    for out in written:
        # A file left by an earlier run would hide a command that wrote nothing.
        if os.path.isabs(out) and os.path.isfile(out):
            os.remove(out)
    assert cli(*argv[1:], cwd=tmp_path).stdout.strip()
    for out in written:
        assert os.path.exists(out if os.path.isabs(out) else tmp_path / out), f"{command}: {out} not written"
