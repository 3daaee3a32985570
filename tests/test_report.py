"""Reports: an experiment's and a reproduction's self-contained HTML page, opened in a real headless
browser (Debian's chromium, from `make report-deps`): it loads with no console message, every figure
is laid out with a size, nothing is fetched from elsewhere, and a screenshot is saved."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SQLITE = ROOT / "tests" / "data" / "sqlite_60k.txt.zst"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    p = subprocess.run(
        [sys.executable, "-m", "mobmem.cli", *args], capture_output=True, text=True, timeout=600
    )
    assert p.returncode == 0, p.stderr
    return p


def browser() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    assert found, "chromium is missing: `make report-deps` installs it"
    return found


def open_in_browser(page: Path, shot: Path) -> tuple[str, str]:
    """The page's DOM after load and the browser's log; a screenshot of it at ``shot``."""
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
    url = page.resolve().as_uri()
    p = subprocess.run(
        [browser(), *flags, "--enable-logging=stderr", "--v=0", "--dump-dom", url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    s = subprocess.run(
        [browser(), *flags, f"--screenshot={shot}", "--window-size=1280,2400", url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert s.returncode == 0 and shot.stat().st_size > 10_000, s.stderr[-2000:]
    return p.stdout, p.stderr


def check(page: Path, shot: Path, figures: int) -> None:
    text = page.read_text()
    # Self-contained: no script, style, image or font from elsewhere (SVG namespaces are names, not fetches).
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//|<link\b|@import|url\(\s*["']?https?:""", text)
    dom, log = open_in_browser(page, shot)
    assert "CONSOLE" not in log, [line for line in log.splitlines() if "CONSOLE" in line]
    body = re.search(r"<body[^>]*>", dom)
    assert body, dom[:500]
    n = re.search(r'data-figures="(\d+)"', body.group(0))
    v = re.search(r'data-visible="(\d+)"', body.group(0))
    assert n and v, body.group(0)
    assert int(n.group(1)) == figures and int(v.group(1)) == figures


def test_experiment_report_in_a_headless_browser(tmp_path):
    exp = tmp_path / "exp.toml"
    exp.write_text(
        f'[experiment]\nname = "r"\ntrace = "{SQLITE}"\n[axes]\npolicy = ["lru", "clock", "opt"]\n'
        'memory = ["5%", "25%"]\n[baselines]\nlru = { policy = "lru" }\n'
    )
    cli("sweep", str(exp), "--quiet", "--workers", "1")
    page = tmp_path / "report.html"
    cli("report", str(exp), "-o", str(page))
    text = page.read_text()
    assert "Miss ratio" in text and "relative to lru" in text and "Resolved configurations" in text
    assert "60,000" in text  # the trace's statistics
    check(page, tmp_path / "report.png", figures=2)


def test_reproduction_report_in_a_headless_browser(tmp_path):
    page = tmp_path / "emmc.html"
    cli("reproduce", "emmc-swap", "--rounds", "1", "--report", str(page))
    text = page.read_text()
    assert "Beside the paper" in text and "fitted: value" in text
    assert "class='outside'" in text or "class='within'" in text
    check(page, tmp_path / "emmc.png", figures=3)
    spo = tmp_path / "spo.html"
    cli(
        "reproduce",
        "spo-clock",
        "--apps",
        "angrybirds,youtube,chrome,facebook,farmstory",
        "--trace",
        str(SQLITE),
        "--trace",
        str(ROOT / "tests" / "data" / "synthetic_40k.txt.zst"),
        "--trace",
        str(ROOT / "tests" / "data" / "lackey_true.txt.zst"),
        "--trace",
        str(ROOT / "tests" / "data" / "captures" / "sort_paths8k.txt.zst"),
        "--accesses",
        "100000",
        "--memory",
        "5,25",
        "--captures",
        "",
        "--corpus",
        "",
        "--report",
        str(spo),
    )
    assert "vs-clock-average" in spo.read_text()
    # Every workload drawn (nine: more than the eight once drawn silently).
    check(spo, tmp_path / "spo.png", figures=9)
    a2s = tmp_path / "a2s.html"
    cli("reproduce", "a2s", "--seeds", "1", "--launches", "64", "--reserved", "850", "--report", str(a2s))
    assert "Fig. 9 (Large)" in a2s.read_text()
    check(a2s, tmp_path / "a2s.png", figures=3)
    hyb = tmp_path / "hybrid.html"
    cli(
        "reproduce",
        "hybrid",
        "--scale",
        "0.005",
        "--memory",
        "20,30",
        "--workloads",
        "balanced",
        "--report",
        str(hyb),
    )
    assert "Fig. 5c (balanced)" in hyb.read_text()
    check(hyb, tmp_path / "hybrid.png", figures=3)
    dr = tmp_path / "dr.html"
    cli(
        "reproduce",
        "dr-swap",
        "--rounds",
        "2",
        "--categories",
        "browser,news",
        "--accesses-per-turn",
        "20000",
        "--captures",
        "",
        "--report",
        str(dr),
    )
    text = dr.read_text()
    assert "Table IV at 128 MB" in text and "energy saving vs DRAM-backed" in text and "(paper)" in text
    check(dr, tmp_path / "dr.png", figures=5)


def test_a_report_that_cannot_be_written_is_an_error(tmp_path):
    exp = tmp_path / "exp.toml"
    exp.write_text(f'[experiment]\ntrace = "{SQLITE}"\n[axes]\npolicy = ["lru"]\nmemory = ["5%"]\n')
    p = subprocess.run(
        [sys.executable, "-m", "mobmem.cli", "report", str(exp), "-o", str(tmp_path / "no" / "r.html")],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 4 and "cannot write it" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("figure", ["miss_ratio", "io_relative"])
def test_figures_draw_seeds_as_mean_and_spread(figure):
    from mobmem.report import plots

    recs = [
        {
            "policy": p,
            "memory": m,
            "faults": f,
            "accesses": 100,
            "io_total_ns": f * 10.0,
            "io_swap_read_ns": f * 2.0,
            "io_swap_write_ns": f * 3.0,
            "io_file_read_ns": f * 5.0,
        }
        for p, m, f in [
            ("lru", "10%", 10),
            ("lru", "10%", 14),
            ("lru", "5%", 30),
            ("opt", "10%", 5),
            ("opt", "5%", 20),
        ]
    ]
    fig = plots.miss_ratio(recs) if figure == "miss_ratio" else plots.io_relative(recs, "lru")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["5%", "10%"]  # sizes in their numeric order
    if figure == "miss_ratio":
        lru = ax.lines[0].get_ydata()
        assert list(lru) == pytest.approx([0.30, 0.12])  # the mean of the two 10% repeats
    else:
        tops = sorted(b.get_y() + b.get_height() for b in ax.patches)
        assert tops[-1] == pytest.approx(1.0)  # lru against itself


def test_bars_put_the_paper_beside_ours_and_the_legend_over_no_bar():
    """A paper series is hatched in the colour of ours beside it; a series with no value anywhere is
    left out; the legend sits right of the axes; Fig. 4's form names policies in its legend, not in
    rotated labels over the bars."""
    from mobmem.report import plots

    fig = plots.bars(
        {
            "a": {"VAN": 1.0, "VAN (paper)": 2.0, "VAN+S": 3.0, "VAN+S (paper)": None, "x (paper)": None},
            "b": {"VAN": 2.0, "VAN+S": 1.0, "VAN+S (paper)": 4.0},
        },
        "v",
        "t",
    )
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["VAN", "VAN (paper)", "VAN+S", "VAN+S (paper)"]
    bars = {c.get_label(): c.patches for c in ax.containers}
    assert bars["VAN (paper)"][0].get_hatch() and not bars["VAN"][0].get_hatch()
    assert bars["VAN+S (paper)"][0].get_edgecolor() == bars["VAN+S"][0].get_facecolor()
    fig.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    assert legend.x0 >= ax.get_window_extent().x1
    recs = [
        {
            "policy": p,
            "memory": m,
            "io_total_ns": 1.0,
            "io_swap_read_ns": 0.2,
            "io_swap_write_ns": 0.3,
            "io_file_read_ns": 0.5,
        }
        for p in ("clock", "lru", "arc")
        for m in ("5%", "10%")
    ]
    fig = plots.io_relative(recs, "clock")
    ax = fig.axes[0]
    assert not ax.texts and not ax.collections  # no rotated names, no error bars of zero
    assert [t.get_text() for t in ax.get_legend().get_texts()][-3:] == ["1. clock", "2. lru", "3. arc"]


def test_an_old_or_missing_plotting_library_is_a_clear_error(monkeypatch):
    """The figures need matplotlib 3.10 (a patch's own hatch width): an older one is named, with the
    command that upgrades it, as a missing one is — not an AttributeError deep in a figure."""
    import matplotlib

    from mobmem._optional import need
    from mobmem.errors import ConfigError

    assert need("matplotlib.pyplot", "figures") is not None
    monkeypatch.setattr(matplotlib, "__version__", "3.9.4")
    with pytest.raises(
        ConfigError, match=r"figures needs matplotlib>=3.10 \(found 3.9.4\): pip install --upgrade"
    ):
        need("matplotlib.pyplot", "figures")
    with pytest.raises(ConfigError, match="pip install 'nosuchpkg'"):
        need("nosuchpkg", "x")
