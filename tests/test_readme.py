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


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """One scratch directory for all the README's commands, which stands for their /tmp (a
    command may read what an earlier one wrote there) and holds copies of the example specs (a
    sweep's store is written beside its spec)."""
    return tmp_path_factory.mktemp("readme")


def _arg(a: str, scratch) -> str:
    if a.startswith("/tmp/"):
        return str(scratch / a[len("/tmp/") :])
    if a.startswith("-") or not (ROOT / a).exists():
        return a
    if a.startswith("examples/") and a.endswith(".toml"):
        # The spec's paths are relative to its folder: the copy names the repository's by theirs.
        copy = scratch / a
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text((ROOT / a).read_text().replace('"../', f'"{ROOT}/'))
        return str(copy)
    return str(ROOT / a)


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_command_runs(command, scratch):
    words = shlex.split(command)
    # Run from the scratch directory, the repository's files named by absolute path, so that what
    # a command writes (a plot, a report, a store) lands there, never in the checkout or /tmp.
    argv = [_arg(a, scratch) for a in words]
    written = {argv[i + 1] for i, w in enumerate(words[:-1]) if w in ("--plot", "-o", "--out")}
    for out in written:
        # A file left by an earlier run would hide a command that wrote nothing.
        if os.path.isabs(out) and os.path.isfile(out):
            os.remove(out)
    p = cli(*argv[1:], cwd=scratch)
    # Every command says something: its tables, or (a command whose product is a file) what it wrote.
    assert p.stdout.strip() or "wrote" in p.stderr
    for out in written:
        assert os.path.exists(out if os.path.isabs(out) else scratch / out), f"{command}: {out} not written"
