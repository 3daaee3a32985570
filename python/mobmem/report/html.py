"""A self-contained HTML page: inline CSS, figures as inline SVG, no script or font from anywhere
else, so it opens with no network. A small inline script counts the figures that are laid out with
a size (``data-figures`` / ``data-visible`` on ``<body>``), which the report's browser test reads."""

from __future__ import annotations

import html
import io
import json
from typing import Any

CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 12.5px; }
th, td { padding: 3px 8px; border-bottom: 1px solid #eee; text-align: right; }
th { background: #f4f4f4; } td:first-child, th:first-child { text-align: left; }
.within { color: #1a7f37; } .outside { color: #c62828; font-weight: 600; } .note { color: #666; }
figure.plot { margin: 1em 0; } figure.plot svg { max-width: 100%; height: auto; }
pre { background: #f7f7f7; padding: 0.8em; overflow-x: auto; font-size: 12px; }
details { margin: 0.4em 0; }
"""

SCRIPT = """
window.addEventListener('load', function () {
  var figs = Array.prototype.slice.call(document.querySelectorAll('figure.plot svg'));
  var visible = figs.filter(function (f) {
    var r = f.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(f).visibility !== 'hidden';
  });
  document.body.dataset.figures = figs.length;
  document.body.dataset.visible = visible.length;
});
"""


def esc(x: Any) -> str:
    return html.escape(str(x))


def figure(fig: Any, caption: str = "") -> str:
    """A matplotlib figure as inline SVG (closed after drawing)."""
    from .._optional import need

    plt = need("matplotlib.pyplot", "drawing figures")

    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    svg = buf.getvalue()
    svg = svg[svg.index("<svg") :]  # drop the XML prologue and DOCTYPE
    cap = f"<figcaption class='note'>{esc(caption)}</figcaption>" if caption else ""
    return f"<figure class='plot'>{svg}{cap}</figure>"


def _fmt(v: Any) -> Any:
    from ..table import num

    return num(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v


def table(cols: list[str], rows: list[list[Any]], classes: list[str] | None = None) -> str:
    head = "".join(f"<th>{esc(c)}</th>" for c in cols)
    body = []
    for i, r in enumerate(rows):
        cls = f" class='{classes[i]}'" if classes and classes[i] else ""
        body.append(f"<tr{cls}>" + "".join(f"<td>{esc(_fmt(v))}</td>" for v in r) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def details(summary: str, obj: Any) -> str:
    return f"<details><summary>{esc(summary)}</summary><pre>{esc(json.dumps(obj, indent=1, default=str))}</pre></details>"


def page(title: str, sections: list[tuple[str, str]]) -> str:
    parts = [f"<h2>{esc(h)}</h2>\n{body}" if h else body for h, body in sections]
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{esc(title)}</title>"
        f"<style>{CSS}</style><script>{SCRIPT}</script></head>"
        f"<body><h1>{esc(title)}</h1>\n" + "\n".join(parts) + "\n</body></html>\n"
    )


def write(path: str, text: str) -> None:
    """Writes the page whole or not at all (a temporary file beside it, then renamed)."""

    def put(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)

    write_via(path, put)


def write_via(path: str, fill: Any) -> None:
    """Has ``fill(tmp)`` write a temporary file beside ``path``, then renames it: the file appears
    whole or not at all."""
    import os
    import tempfile

    from ..errors import MobmemIOError

    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".mobmem-", suffix=os.path.splitext(path)[1])
        os.close(fd)
        try:
            fill(tmp)
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)  # as an ordinary new file, not mkstemp's 0600
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    except OSError as e:
        raise MobmemIOError(f"{path}: cannot write it ({e.strerror or e})") from None
