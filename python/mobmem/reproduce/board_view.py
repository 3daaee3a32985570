"""The fidelity scoreboard and the reproductions' judged claims as people read them: text tables for
the terminal and the reports, and the HTML pieces (:mod:`.scoreboard` computes what they show).
Each table is made from the records as ``--json`` carries them; one row builder serves all."""

from __future__ import annotations

import json
from typing import Any

from . import fidelity

#: The columns of a claim's row (``where`` only in the scoreboard's per-paper tables).
CLAIM_HEADS = ["claim (* headline)", "where", "paper", "ours", "diff (% or points)", "", "rests on"]
LEDGER_HEADS = ["input", "value", "source", "range", "moved by", "flips the verdict of"]


def rule_text() -> str:
    return (
        f"R: within {fidelity.TOLERANCE:.0%} of the paper's value (at least {fidelity.POINTS_FLOOR:g} points for a"
        " percentage; a change on the same side of zero; a share or level within"
        f" {fidelity.POINTS_FLOOR:g} points or {fidelity.TOLERANCE:.0%} of both it and its complement); a bound"
        " holds; an ordering is the same. D: the direction only. N: neither, a failed bound, not measured, a"
        " series flat where the paper's moves, or a direction, ordering or difference within the seeds' spread."
        " F: a fitted number. E: agrees, but the same with the claim's subject idle (its processes touching no"
        " page), or already the paper's without it (set by the rest). C: R only for another value of an assumed"
        " input in its range."
    )


def _ours(r: dict[str, Any]) -> str:
    v = r["ours"]
    if v is None:
        return "—"
    if isinstance(v, list):
        return " < ".join(v)
    return f"{v:.4g}"


def _paper(r: dict[str, Any]) -> str:
    p = r["paper"]
    if isinstance(p, list):
        return " < ".join(p)
    if r["kind"] == "direction":
        return "rises" if p == "+" else "falls"
    bound = {"at-least": "≥ ", "at-most": "≤ "}.get(r["kind"], "")
    return f"{bound}{p:g}"


def why(r: dict[str, Any], width: int = 70) -> str:
    """What a verdict rests on, in a line: the fitted input, what sets an echo, where a C holds, the
    checked cause of a difference, or the inputs that flip it (the JSON has them whole)."""
    if r["fitted"]:
        out = f"fitted: {r['fitted']}"
    elif r["set_by"]:
        out = f"set by {r['set_by']}"
    elif r["holds_for"]:
        out = f"R if {r['holds_for']}"
    elif r.get("judged_by") in ("series", "noise"):
        out = r["note"].split("; ")[0]
    elif r.get("cause"):
        out = f"why: {r['cause']}"
    else:
        out = f"flipped by {', '.join(r['flips'])}" if r["flips"] else ""
    return out if len(out) <= width else out[: width - 1] + "…"


def claim_row(r: dict[str, Any], where: bool = True, width: int = 70) -> list[Any]:
    """One claim's row under :data:`CLAIM_HEADS` (without ``where`` when it is left out)."""
    diff = "" if r["difference"] is None else f"{r['difference']:+.1f}"
    head = r["id"] + (" *" if r["headline"] else "")
    cells = [head, r["where"], _paper(r), _ours(r), diff, r["verdict"], why(r, width)]
    return cells if where else [cells[0], *cells[2:]]


def _short(v: Any) -> str:
    t = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return t if len(t) <= 40 else t[:37] + "..."


def _flips(ids: list[str], whole: bool) -> str:
    if not ids:
        return "none"
    if whole or len(ids) <= 2:
        return ", ".join(ids)
    return f"{len(ids)} claims: {', '.join(ids[:2])}, …"


def ledger_row(i: dict[str, Any], whole: bool = False) -> list[Any]:
    """One input's row under :data:`LEDGER_HEADS`: a scaled input's values are factors (×)."""
    x = "×" if i.get("scale") else ""
    rng = ", ".join(f"{x}{_short(v)}" for v in i["range"])
    if not i["range"]:
        tried = ""
    elif not i["moved_by"]:
        tried = "not moved: no way to move it"
    else:
        tried = _flips(i["flips"], whole) if i["tried"] else "not tried"
    return [i["name"], f"{x}{_short(i['value'])}", _short(i["source"]), rng, i["moved_by"], tried]


def ledger_text(name: str, inputs: list[dict[str, Any]]) -> str:
    """A paper's inputs ledger as a table: value, source, range, how it is moved, what it flips."""
    from ..table import render

    return render(LEDGER_HEADS, [ledger_row(i) for i in inputs], title=f"{name}: inputs ledger")


def _assumed_line(p: dict[str, Any]) -> str:
    """How many assumed inputs the sensitivity moved, and which it could not."""
    assumed = [i for i in p["inputs"] if i["range"]]
    stuck = [i["name"] for i in assumed if not i["moved_by"]]
    tried = sum(i["tried"] for i in assumed)
    line = f"{len(assumed)} assumed inputs, {tried} moved over their range"
    return line + (f"; no way to move {len(stuck)}: {', '.join(stuck)}" if stuck else "")


def text(b: dict[str, Any], rows: bool = True) -> str:
    """The scoreboard as tables: counts per paper, then (with ``rows``) one row per claim and each
    paper's inputs ledger."""
    from ..table import render

    heads = [
        "paper",
        "claims",
        *fidelity.VERDICTS,
        "not measured",
        "headline R / claims",
        "assumed inputs moved",
        "moved by subject test",
        "within noise",
        "seeds",
    ]

    def line(name: str, c: dict[str, int], h: dict[str, int], moved: str, p: dict[str, Any]) -> list[Any]:
        return [
            name,
            c["claims"],
            *(c[v] for v in fidelity.VERDICTS),
            c["not_measured"],
            f"{h['R']} / {h['claims']}",
            moved,
            len(p["subject_moved"]),
            sum(r.get("judged_by") == "noise" for r in p["claims"]),
            ", ".join(map(str, p["seeds"])) or "none",
        ]

    def moved(p: dict[str, Any]) -> tuple[int, int]:
        assumed = [i for i in p["inputs"] if i["range"]]
        return sum(i["tried"] for i in assumed), len(assumed)

    table = [
        line(p["paper"], p["counts"], p["headline"], "{} / {}".format(*moved(p)), p) for p in b["papers"]
    ]
    tot = [sum(x) for x in zip(*(moved(p) for p in b["papers"]), strict=True)] if b["papers"] else [0, 0]
    every = {
        "subject_moved": [i for p in b["papers"] for i in p["subject_moved"]],
        "claims": [r for p in b["papers"] for r in p["claims"]],
        "seeds": ["—"],  # per paper, above
    }
    table.append(line("total", b["total"], b["headline"], f"{tot[0]} / {tot[1]}", every))
    out = [render(heads, table, title="Fidelity scoreboard: claims of the papers by verdict"), "", b["rule"]]
    if not b.get("sensitivity"):
        out.append(
            "The reruns over the assumed inputs' ranges were skipped (--no-sensitivity): no C, no flips."
        )
    if not b.get("seeds", True):
        out.append("The reruns at other seeds were skipped (--no-seeds): no noise test.")
    out += _spread_lines(b)
    if rows:
        for p in b["papers"]:
            out += ["", render(CLAIM_HEADS, [claim_row(r) for r in p["claims"]], title=p["paper"])]
            out += ["", ledger_text(p["paper"], p["inputs"]), _assumed_line(p)]
    return "\n".join(out)


def _spread_lines(b: dict[str, Any]) -> list[str]:
    """Per paper run at several seeds, the seed-to-seed spread the noise test used: its largest
    over the claims that are a direction, an ordering or a difference, and which claim."""
    out = []
    for p in b["papers"]:
        if not p["seeds"]:
            continue
        most = max(((v, i) for i, v in p["spread"].items()), default=None)
        said = (
            f"largest {most[0]:.4g} ({most[1]})"
            if most
            else "no direction or difference measured at every seed"
        )
        out.append(f"{p['paper']}: seeds {', '.join(map(str, p['seeds']))}; spread of the changes {said}")
    return ["", *out] if out else []


def claims_text(claims: list[dict[str, Any]], title: str = "Beside the paper") -> str:
    """A reproduction's judged claims as a table (those it measured), with its counts: what every
    reproduction's report ends with."""
    from ..table import render

    if not claims:
        return ""
    measured = [r for r in claims if r["ours"] is not None]
    heads = [h for h in CLAIM_HEADS if h != "where"]
    c = fidelity.counts_of(claims)
    tally = ", ".join(f"{v} {c[v]}" for v in fidelity.VERDICTS)
    h = fidelity.counts_of(claims, headline_only=True)
    return "\n".join(
        [
            render(heads, [claim_row(r, where=False) for r in measured], title=title),
            f"{len(claims)} claims of the paper ({tally}); {len(claims) - len(measured)} not measured by this run;"
            f" headline claims R {h['R']} of {h['claims']}. Verdicts by one rule (docs/FIDELITY.md): {rule_text()}",
        ]
    )


def claims_html(cs: list[dict[str, Any]]) -> str:
    """A reproduction's judged claims as an HTML table, the verdict coloured: R green, F and E grey
    (no prediction), the rest red; not measured ones left out, with their count."""
    from ..report import html

    measured = [c for c in cs if c["ours"] is not None]
    rows = [claim_row(c, width=400) for c in measured]
    classes = [{"R": "within", "F": "", "E": ""}.get(c["verdict"], "outside") for c in measured]
    note = (
        f"<p class='note'>{len(cs)} claims of the paper, {len(cs) - len(measured)} not measured by this run; "
        f"* headline. {html.esc(rule_text())}</p>"
    )
    return html.table(CLAIM_HEADS, rows, classes) + note


def ledger_html(inputs: list[dict[str, Any]]) -> str:
    from ..report import html

    return "<h3>Inputs ledger</h3>" + html.table(LEDGER_HEADS, [ledger_row(i, whole=True) for i in inputs])


def report_html(b: dict[str, Any]) -> str:
    """The whole scoreboard as one self-contained HTML page."""
    from ..report import html

    sections = [("Counts", f"<pre>{html.esc(text(b, rows=False))}</pre>")]
    sections += [(p["paper"], claims_html(p["claims"]) + ledger_html(p["inputs"])) for p in b["papers"]]
    return html.page("Fidelity scoreboard", sections)
