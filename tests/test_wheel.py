"""The path a user without the source takes: `make wheel`, the wheel installed into a clean virtual
environment, then the README's first command (`mobmem demo`) and the reproductions' bundled data."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

from conftest import ROOT


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    p = subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd=cwd, timeout=1200)
    assert p.returncode == 0, (args, p.stdout[-2000:], p.stderr[-2000:])
    return p


def test_the_wheel_installs_into_a_clean_venv_and_runs_the_demo(tmp_path):
    dist = tmp_path / "dist"
    # `-o`: the virtual environment this session runs in is taken as it is (never reinstalled here).
    run("make", "-s", "-o", ".venv/.deps-installed", "wheel", f"WHEEL_DIR={dist}", cwd=ROOT)
    (wheel,) = dist.glob("mobmem-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    data = ROOT / "python" / "mobmem" / "data"
    shipped = sorted(p.relative_to(data).as_posix() for p in data.rglob("*") if p.is_file())
    assert shipped and all(f"mobmem/data/{f}" in names for f in shipped)
    env = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env)
    py = env / "bin" / "python"
    run(py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel, cwd=tmp_path)
    # Run away from the checkout: nothing of it is on the path.
    out = run(env / "bin" / "mobmem", "demo", cwd=tmp_path).stdout
    assert "Real trace" in out and "53,966,926 accesses" in out and out.count("faults relative to OPT") == 2
    where = run(py, "-c", "import mobmem; print(mobmem.__file__)", cwd=tmp_path).stdout
    assert str(env) in where and str(ROOT) not in where
    # The reproductions find the data the package ships.
    found = run(
        py,
        "-c",
        "from mobmem.reproduce import spo_clock, spo_locality; import argparse;"
        "print(len(spo_clock.capture_paths('auto')), len(spo_clock.capture_paths('auto', 'corpus')));"
        "print(spo_locality.stand_in('youtube', argparse.Namespace(stand_ins='auto'))['hot_share'] > 0)",
        cwd=tmp_path,
    ).stdout.split()
    assert found == [
        str(len(list((data / "captures").glob("*.txt.zst")))),
        str(len(list((data / "corpus").glob("*.txt.zst")))),
        "True",
    ]
    assert sys.executable != str(py)
