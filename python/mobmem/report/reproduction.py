"""``mobmem reproduce NAME --report out.html``: a reproduction's results as one self-contained HTML
page — its claims beside the paper's with the verdicts, its figures in the paper's form where the
reproduction draws them (``figures(result)`` in its module), and its printed report."""

from __future__ import annotations

from typing import Any

from . import html


def build(name: str, mod: Any, res: dict[str, Any], text: str) -> str:
    from .. import __version__

    sections: list[tuple[str, str]] = [
        (
            "",
            f"<p class='note'>mobmem {html.esc(__version__)} · <code>mobmem reproduce {html.esc(name)}</code></p>",
        )
    ]
    if res.get("claims"):
        from ..reproduce.board_view import claims_html

        sections.append(("Beside the paper", claims_html(res["claims"])))
    draw = getattr(mod, "figures", None)
    if draw is not None:
        figs = [html.figure(f, caption) for f, caption in draw(res)]
        if figs:
            sections.append(("Figures", "\n".join(figs)))
    sections.append(("Report", f"<pre>{html.esc(text)}</pre>"))
    sections.append(("Settings and results (JSON)", html.details("the whole result", res)))
    return html.page(f"Reproduction: {name}", sections)
