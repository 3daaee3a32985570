"""Plain-text tables for the CLI (no dependencies)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

#: The widest a table or note line may be: a terminal or a diff side by side.
WIDTH = 100


def render(
    headers: Sequence[str], rows: Sequence[Sequence[object]], title: str | None = None, width: int = WIDTH
) -> str:
    """Columns sized to their widest cell; the first column left-aligned, the others right. A table
    wider than ``width`` wraps its last column (text, then left-aligned) onto lines of its own;
    else it breaks its headings over lines, then puts each row's last cell (text) on indented lines
    under the row, named by its heading. A row's name is never cut (a table of long names stays
    wider). A title is wrapped too. Every word of every cell is kept."""
    heads = [str(h) for h in headers]
    body = [[str(c) for c in r] for r in rows]
    n = len(heads)
    data = [max((len(r[i]) for r in body), default=0) for i in range(n)]
    widths = [max(data[i], len(heads[i])) for i in range(n)]

    def total(ws: list[int]) -> int:
        return sum(ws) + 2 * (len(ws) - 1)

    def before() -> int:
        return total(widths[:-1]) + 2 if len(widths) > 1 else 0

    head_lines = [[h] for h in heads]
    # 1. A long text column wraps in place when it has room.
    wrap_last = n > 1 and total(widths) > width and data[-1] > width - before() and width - before() >= 20
    if wrap_last:
        widths[-1] = max(width - before(), len(max(heads[-1].split(), key=len, default="")))
        head_lines[-1] = textwrap.wrap(heads[-1], widths[-1]) or [""]
    # 2. Headings break over lines.
    if total(widths) > width:
        for i, h in enumerate(heads[: n - 1 if wrap_last else n]):
            room = max(data[i], max((len(w) for w in h.split()), default=0))
            head_lines[i] = textwrap.wrap(h, room, break_on_hyphens=False) or [""]
            widths[i] = max(data[i], max(len(x) for x in head_lines[i]))
    # 3. The last column leaves the table: each row's cell follows the row, indented.
    under: list[str] = []
    under_head = ""
    if n > 2 and not wrap_last and total(widths) > width:
        under_head = heads[-1]
        under = [r[-1] for r in body]
        heads, head_lines, widths, data = heads[:-1], head_lines[:-1], widths[:-1], data[:-1]
        body = [r[:-1] for r in body]
        n -= 1

    def line(r: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i == 0 or (wrap_last and i == n - 1) else c.rjust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()

    out = []
    if title:
        out.append(
            textwrap.fill(
                title, width, subsequent_indent="  ", break_on_hyphens=False, break_long_words=False
            )
        )
    depth = max(len(h) for h in head_lines)
    for k in range(depth):
        # Headings sit on the last lines, above the rule.
        out.append(line([h[k - depth + len(h)] if k >= depth - len(h) else "" for h in head_lines]))
    out.append("  ".join("-" * w for w in widths))
    for k, r in enumerate(body):
        last = textwrap.wrap(r[-1], widths[-1], break_on_hyphens=False) or [""] if wrap_last else [r[-1]]
        out.append(line([*r[:-1], last[0]]))
        out.extend(" " * before() + x for x in last[1:])
        if under and under[k].strip():
            out.append(
                textwrap.fill(
                    f"{under_head}: {under[k]}",
                    width,
                    initial_indent="    ",
                    subsequent_indent="      ",
                    break_on_hyphens=False,
                    break_long_words=False,
                )
            )
    return "\n".join(out)


def wrap(parts: Sequence[str], sep: str, width: int = WIDTH) -> str:
    """A heading of ``parts`` joined by ``sep``, each part kept whole: a part that would pass
    ``width`` starts a new line, indented; the line it leaves ends with the separator where that
    fits. (Only a single part longer than ``width`` passes it.)"""
    lines = [parts[0]] if parts else []
    for i, part in enumerate(parts[1:], 2):
        # A separator left at the end of a line (more follows) counts too.
        tail = len(sep.rstrip()) if i < len(parts) else 0
        if len(lines[-1]) + len(sep) + len(part) + tail <= width:
            lines[-1] += sep + part
        else:
            if len(lines[-1]) + len(sep.rstrip()) <= width:
                lines[-1] += sep.rstrip()
            lines.append("  " + part)
    return "\n".join(lines)


def fit_prose(text: str, width: int = WIDTH) -> str:
    """``text`` with its prose lines wrapped to ``width`` (each keeps its indentation); a line with
    a run of two spaces (a table's row) is left as it is."""
    out: list[str] = []
    for line in text.splitlines():
        body = line.lstrip()
        lead = line[: len(line) - len(body)]
        if len(line) > width and "  " not in body:
            out.extend(
                textwrap.wrap(
                    body,
                    width,
                    initial_indent=lead,
                    subsequent_indent=lead,
                    break_on_hyphens=False,
                    break_long_words=False,
                )
            )
        else:
            out.append(line)
    return "\n".join(out)


def note(name: str, text: str, width: int = WIDTH) -> str:
    """``  name: text`` wrapped to ``width``, its continuation lines under the text."""
    head = f"  {name}: "
    return textwrap.fill(
        text, width, initial_indent=head, subsequent_indent=" " * min(len(head), 12), break_on_hyphens=False
    )


def num(v: float | int) -> str:
    """Thousands separators for counts, three significant decimals for small reals."""
    if isinstance(v, int):
        return f"{v:,}"
    if abs(v) >= 100:
        return f"{v:,.0f}"
    if abs(v) >= 1:
        return f"{v:.2f}"
    return f"{v:.3g}"


def seconds(v: float) -> str:
    """A duration people read: ``1.23 s``, ``12.3 ms``, ``45 µs`` (never ``0.000 s``)."""
    if v >= 1:
        return f"{v:.2f} s"
    if v >= 1e-3:
        return f"{v * 1e3:.3g} ms"
    return f"{v * 1e6:.3g} µs"


def ratio(v: float | None) -> str:
    return "—" if v is None else f"{v:.3f}×"
