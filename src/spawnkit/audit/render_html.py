"""The audit as one self-contained HTML page: inline CSS and SVG, no script, no network.

Per session: the orchestrator's context after each model response with a dot where each
sub-agent return landed, a bar per return against the budget line (with the held-back size
behind a blocked one), the returns and the findings. A Content-Security-Policy forbids every
fetch and script, so the page cannot reach out even if a transcript smuggled markup into a
label; every text from a transcript is escaped anyway.

Each session is drawn from ``render_json.session_data``, so the page and ``--format json``
agree; sessions are written as they are read and the summary last (shown first by CSS).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from html import escape
from typing import Any

from spawnkit import __version__
from spawnkit.audit.model import Audit
from spawnkit.audit.render_json import iso, session_data, skills_data

MAX_CHARTED = 500  # sessions drawn in full; the rest are counted
W, H = 560, 230
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 18, 44

CSS = """
:root{--ink:#1d2330;--muted:#5d6677;--line:#d9dee7;--ok:#2f9e61;--over:#d64545;
--held:#e0a100;--bg:#f6f7fa;--card:#fff;--accent:#3b63c4}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",
Roboto,sans-serif;color:var(--ink);background:var(--bg)}
header{padding:22px 32px 8px}h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:0}
.sub{color:var(--muted);margin:0}main{padding:0 32px 32px;display:flex;flex-direction:column}
.cards{order:-1}.cards .sub{flex-basis:100%}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:14px 0 20px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 14px;
min-width:130px}.card b{display:block;font-size:22px}.card span{color:var(--muted);font-size:12px}
.card.bad b{color:var(--over)}.card.good b{color:var(--ok)}
.session{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:16px 18px;
margin:0 0 18px}.meta{color:var(--muted);margin:2px 0 10px;font-size:13px}
.charts{display:flex;flex-wrap:wrap;gap:16px}figure{margin:0}
figcaption{color:var(--muted);font-size:12px;margin-top:2px;max-width:560px}
svg text{font:11px system-ui,sans-serif;fill:var(--muted)}
.axis{stroke:var(--line)}.curve{fill:none;stroke:var(--accent);stroke-width:2}
.point{fill:var(--accent)}.return-mark{stroke:#fff;stroke-width:1.5}
.ok{fill:var(--ok)}.over{fill:var(--over)}.blocked{fill:var(--held)}
.held-back{fill:none;stroke:var(--held);stroke-dasharray:4 3;stroke-width:1.5}
.budget-line{stroke:var(--over);stroke-dasharray:6 4;stroke-width:1.5}
.window-line{stroke:var(--muted);stroke-dasharray:2 4}
table{border-collapse:collapse;margin:12px 0 0;width:100%;font-size:13px}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600}table.returns td:nth-child(2),
table.returns td:nth-child(3){white-space:nowrap}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.tag{display:inline-block;border-radius:4px;padding:0 6px;font-size:12px;color:#fff}
.tag.error{background:var(--over)}.tag.warning{background:var(--held)}
.tag.blocked{background:var(--held)}.tag.over{background:var(--over)}
code{font-size:12px;word-break:break-all}
details.findings{margin-top:10px}details.findings summary{cursor:pointer;font-weight:600}
svg text.label{paint-order:stroke;stroke:#fff;stroke-width:4px;stroke-linejoin:round}
footer{color:var(--muted);font-size:12px;padding:0 32px 24px}
.return-bar.estimated{fill-opacity:.45;stroke:currentColor;stroke-dasharray:3 2}
td .mark{color:var(--muted);margin-left:1px}.tag.note{background:var(--muted)}
p.legend{color:var(--muted);font-size:12px;margin:4px 0 0}.legend-item{margin-right:14px}
table.workflows ul.agents{margin:0;padding-left:16px}svg text.xlabel,svg text.xtime{font-size:10px}
.skills{order:-1}.skill-bar.ok{fill:var(--ok)}.skill-bar.over{fill:var(--over)}
.skill-bar.outside{fill:var(--muted)}svg text.skill-name{fill:var(--ink);font-size:12px}
table.skills td small{color:var(--muted)}table.skills details summary{cursor:pointer}
table.skills ul{margin:2px 0 0;padding-left:16px}tr.outside td{color:var(--muted)}
"""


def write(audit: Audit, out: Callable[[str], None], by: str = "session") -> None:
    """Write the page to ``out``: each session as it is read, the summary cards last (CSS
    ``order`` shows them first), so the page is never held whole. ``by`` ``"skill"``: the
    per-skill section (a chart and a table) instead of the sessions."""
    budget = audit.budget
    out(
        "\n".join(
            [
                "<!doctype html>",
                '<html lang="en"><head><meta charset="utf-8">',
                '<meta name="viewport" content="width=device-width, initial-scale=1">',
                '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
                "style-src 'unsafe-inline'\">",
                "<title>spawnkit audit: what sub-agent returns cost</title>",
                f"<style>{CSS}</style></head><body>",
                "<header><h1>What sub-agent returns cost the orchestrator</h1>",
                f'<p class="sub">spawnkit {escape(__version__)} · '
                f"{escape(iso(time.time()) or '')} · budget {budget} tokens per return · at most "
                f"{audit.max_parallel} sub-agents at once · a state file every "
                f"{audit.checkpoint_every} returns</p></header><main>",
            ]
        )
        + "\n"
    )
    drawn = skipped = 0
    for session in audit.sessions:
        if not (session.returns or session.messages) or by == "skill":
            continue
        if drawn >= MAX_CHARTED:
            skipped += 1
            continue
        drawn += 1
        out(_session(session_data(session, budget), budget) + "\n")
    summary = audit.totals.as_dict()
    quiet = summary["sessions"] - summary["sessions_with_returns"]
    notes = []
    if quiet:
        notes.append(f"{quiet:,} session(s) without sub-agent returns are counted, not drawn.")
    if by == "skill":
        notes = [
            f"{summary['sessions']:,} session(s) read; each return is counted under its skill."
        ]
    if skipped:
        notes.append(
            f"{skipped:,} more session(s) with returns are counted, not drawn (the page draws the "
            f"first {MAX_CHARTED}); narrow the audit with --since, --project or --session."
        )
    skills = _skills(skills_data(audit.skills), budget) if by == "skill" else ""
    out(_cards(summary, budget, notes) + "\n" + skills + _worst(summary) + "\n</main>\n")
    out(_footer(audit) + "\n</body></html>\n")


def render(audit: Audit, by: str = "session") -> str:
    parts: list[str] = []
    write(audit, parts.append, by)
    return "".join(parts)


def _cards(summary: dict[str, Any], budget: int, notes: list[str]) -> str:
    """The summary cards; those of spawnkit's enforcement only where it acted (a user who
    never installed spawnkit has nothing to read in a row of zeros)."""
    findings = sum(summary["findings_by_code"].values())
    cards = [
        ("", summary["sessions"], "sessions"),
        ("", summary["returns"], "sub-agent returns"),
        (
            "bad" if summary["over_budget"] else "good",
            summary["over_budget"],
            f"over {budget} tokens",
        ),
        ("", f"{summary['tokens_received']:,}", "tokens received from sub-agents"),
    ]
    if summary["messages"]:
        cards.append(
            (
                "bad" if summary["messages_over_budget"] else "",
                f"{summary['message_tokens']:,}",
                f"tokens in {summary['messages']} message(s) from sub-agents",
            )
        )
    if summary["workflow_runs"]:
        cards.append(("", summary["workflow_runs"], "workflow runs"))
    if summary["blocked"]:
        cards += [
            ("good", summary["blocked"], "blocked by spawnkit"),
            ("good", f"{summary['tokens_kept_out']:,}", "tokens kept on disk instead"),
        ]
    if summary["denied_launches"] or summary["denied_reads"]:
        refused = summary["denied_launches"] + summary["denied_reads"]
        cards.append(("good", refused, "launches and reads refused by spawnkit"))
    cards.append(("bad" if findings else "good", findings, "findings"))
    body = "".join(
        f'<div class="card {cls}"><b>{value}</b><span>{escape(label)}</span></div>'
        for cls, value, label in cards
    )
    extra = "".join(f'<p class="sub">{escape(n)}</p>' for n in notes)
    return f'<section class="cards">{body}{extra}</section>'


def _session(s: dict[str, Any], budget: int) -> str:
    sid = escape(s["id"])
    when = escape((s["started"] or "")[:16].replace("T", " "))
    window = s["context_window"]
    share = f" ({s['peak_context'] / window:.0%} of {window:,})" if window else ""
    estimated = any(r["tokens_source"] == "estimate" for r in s["returns"])
    if s["context_source"] == "none":
        context = "no context recorded"
    else:
        context = f"peak context {s['peak_context']:,} tokens{share}" + (
            " (estimated)" if s["context_source"] == "estimate" else ""
        )
        context += f" · grew {s['context_growth']:,}"
    meta = (
        context
        + f" · returns brought {'~' if estimated else ''}{s['return_tokens']:,}"
        + (f" · messages brought {s['message_tokens']:,}" if s["messages"] else "")
        + (f" · {s['messages_held']} message(s) refused" if s["messages_held"] else "")
        + f" · peak parallel {s['peak_parallel']}"
        + f" · {len(s['state_writes'])} state write(s)"
        + (f" · {s['denied_launches']} launch(es) refused" if s["denied_launches"] else "")
    )
    return "\n".join(
        [
            f'<article class="session" id="s-{sid}" data-session="{sid}">',
            f"<h2>{escape(s['host'])} session <code>{sid}</code> · {when}</h2>",
            f'<p class="meta">{escape(s["project"])}<br>{escape(meta)}</p>',
            '<div class="charts">',
            _context_chart(s),
            _returns_chart(s, budget),
            "</div>",
            _returns_table(s, budget),
            _messages_table(s, budget),
            _workflows_table(s, budget),
            _findings_table(s),
            "</article>",
        ]
    )


def _kind(r: dict[str, Any]) -> str:
    if r["blocked"]:
        return "blocked"
    return "over" if r["over_budget"] else "ok"


def ticks(value: float, most: int = 5) -> tuple[int, int]:
    """(top, step) of an axis from 0 that holds ``value``: a round step (1, 2 or 5 times a
    power of ten, at least 1) and at most ``most`` steps up to the top."""
    value = max(value, 1.0)
    raw = value / most
    magnitude = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    step = max(1, int(step))
    return math.ceil(value / step) * step, step


def _scale(top: float) -> Callable[[float], float]:
    """The y coordinate of a value on a chart whose axis runs from 0 to ``top``."""

    def y(value: float) -> float:
        return H - BOTTOM - (H - TOP - BOTTOM) * value / top

    return y


def _chart(cls: str, label: str, axis: tuple[int, int], marks: list[str], caption: str) -> str:
    """One chart: the y axis from 0 to ``axis`` (top, step), the ``marks`` over it, a caption."""
    head = (
        f'<svg class="{cls}" viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img" '
        f'aria-label="{label}">'
    )
    svg = "".join([head, *_y_axis(*axis), *marks, "</svg>"])
    return f"<figure>{svg}<figcaption>{caption}</figcaption></figure>"


def _amount(value: float) -> str:
    """12k, 2.5k, 500: an axis label."""
    return f"{value / 1000:g}k" if value >= 1000 else f"{value:g}"


def _y_axis(top: int, step: int) -> list[str]:
    out = []
    scale = _scale(top)
    for value in range(0, top + 1, step):
        y = scale(value)
        out.append(f'<line class="axis" x1="{LEFT}" y1="{y:.1f}" x2="{W - RIGHT}" y2="{y:.1f}"/>')
        out.append(
            f'<text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{_amount(value)}</text>"
        )
    return out


def _rule(cls: str, y: float, label: str) -> str:
    """A labelled horizontal line across a chart (the budget, the context window)."""
    return (
        f'<line class="{cls}" x1="{LEFT}" y1="{y:.1f}" x2="{W - RIGHT}" y2="{y:.1f}"/>'
        f'<text x="{W - RIGHT}" y="{y - 4:.1f}" text-anchor="end" class="label">{label}</text>'
    )


def _context_chart(s: dict[str, Any]) -> str:
    points = s["context"]
    window = s["context_window"] or 0
    peak = max((p["tokens"] for p in points), default=0)
    show_window = bool(window) and peak >= window * 0.5
    axis = ticks(max(peak, window if show_window else 0) * 1.05)
    n = max(len(points), 1)

    def x(i: float) -> float:
        return LEFT + (W - LEFT - RIGHT) * (i / (n - 1) if n > 1 else 0.5)

    y = _scale(axis[0])
    svg = []
    if show_window:
        svg.append(_rule("window-line", y(window), f"context window {window:,}"))
    if points:
        coords = " ".join(f"{x(i):.1f},{y(p['tokens']):.1f}" for i, p in enumerate(points))
        svg.append(f'<polyline class="curve" points="{coords}"/>')
        for i, p in enumerate(points):
            svg.append(
                f'<circle class="point" cx="{x(i):.1f}" cy="{y(p["tokens"]):.1f}" r="2.5">'
                f"<title>response {i + 1}: {p['tokens']:,} tokens</title></circle>"
            )
    by_gap: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    for k, r in enumerate(s["returns"], 1):
        by_gap.setdefault(r["turn"], []).append((k, r))
    for gap, group in by_gap.items():
        for j, (k, r) in enumerate(group, 1):
            cx, cy = _on_curve(points, gap, j / (len(group) + 1), x, y)
            svg.append(
                f'<circle class="return-mark {_kind(r)}" data-agent="{escape(r["agent_id"])}" '
                f'data-source="{escape(r["tokens_source"])}" data-turn="{gap}" '
                f'cx="{cx:.1f}" cy="{cy:.1f}" r="5">'
                f"<title>return {k}: {escape(_label(r))} · {r['tokens']:,}"
                f"{MARKS.get(r['tokens_source'], '')} tokens</title></circle>"
            )
    svg += _x_axis(points, x)
    caption = (
        "Orchestrator context after each model response (tokens). Dots: sub-agent returns, on "
        "the rise of the curve they caused (between the response before and the first one that "
        "carried them) — green within budget, red over, amber blocked."
    )
    return _chart("context-chart", "Orchestrator context over the session", axis, svg, caption)


def _on_curve(
    points: list[dict[str, Any]],
    gap: int,
    share: float,
    x: Callable[[float], float],
    y: Callable[[float], float],
) -> tuple[float, float]:
    """Where a return that landed before response ``gap`` sits on the drawn curve: ``share``
    of the way along the segment that rises into that response (on the nearest point when the
    session has no such segment)."""
    if not points:
        return x(0), y(0)
    if 1 <= gap < len(points):
        a, b = points[gap - 1]["tokens"], points[gap]["tokens"]
        at = gap - 1 + share
        return x(at), y(a + (b - a) * share)
    last = min(max(gap, 0), len(points) - 1)
    return x(last), y(points[last]["tokens"])


def _x_axis(points: list[dict[str, Any]], x: Callable[[float], float]) -> list[str]:
    """Model response numbers at round steps, and the session's first and last times."""
    n = len(points)
    if not n:
        return []
    _, step = ticks(n, 6)
    numbers = sorted(
        {1, *range(step, n + 1, step)} | ({n} if n - (n // step) * step > step / 2 else set())
    )
    out = [
        f'<text class="xtick" x="{x(i - 1):.1f}" y="{H - BOTTOM + 14}" text-anchor="middle">{i}</text>'
        for i in numbers
    ]
    first, last = points[0].get("time"), points[-1].get("time")
    label = "model response"
    out.append(
        f'<text class="xlabel" x="{(LEFT + W - RIGHT) / 2:.1f}" y="{H - 6}" text-anchor="middle">'
        f"{label}</text>"
    )
    if first and last:
        out.append(f'<text class="xtime" x="{LEFT}" y="{H - 6}">{escape(first[11:16])} UTC</text>')
        out.append(
            f'<text class="xtime" x="{W - RIGHT}" y="{H - 6}" text-anchor="end">'
            f"{escape(last[11:16])} UTC</text>"
        )
    return out


def _returns_chart(s: dict[str, Any], budget: int) -> str:
    rets = s["returns"]
    tallest = max([budget] + [max(r["tokens"], r["full_tokens"] or 0) for r in rets])
    axis = ticks(tallest * 1.05)
    inner = W - LEFT - RIGHT
    slot = inner / max(len(rets), 1)
    width = max(2.0, min(40.0, slot * 0.6))
    y = _scale(axis[0])
    svg = []
    for k, r in enumerate(rets):
        cx = LEFT + slot * (k + 0.5)
        label = escape(_label(r))
        if r["blocked"] and r["full_tokens"]:
            svg.append(
                f'<rect class="held-back" x="{cx - width / 2:.1f}" y="{y(r["full_tokens"]):.1f}" '
                f'width="{width:.1f}" height="{y(0) - y(r["full_tokens"]):.1f}">'
                f"<title>{label}: held back {r['full_tokens']:,} tokens, saved on disk</title></rect>"
            )
        height = max(y(0) - y(r["tokens"]), 1.0)
        source = r["tokens_source"]
        estimated = " estimated" if source == "estimate" else ""
        svg.append(
            f'<rect class="return-bar {_kind(r)}{estimated}" data-agent="{escape(r["agent_id"])}" '
            f'data-source="{escape(source)}" '
            f'x="{cx - width / 2:.1f}" y="{y(0) - height:.1f}" width="{width:.1f}" '
            f'height="{height:.1f}"><title>{label}: {r["tokens"]:,}{MARKS.get(source, "")} tokens '
            f"received ({escape(SOURCES.get(source, ''))})</title></rect>"
        )
        if len(rets) <= 30:
            svg.append(
                f'<text class="xtick" x="{cx:.1f}" y="{H - BOTTOM + 14}" text-anchor="middle">'
                f"{k + 1}</text>"
            )
    svg.append(
        f'<text class="xlabel" x="{(LEFT + W - RIGHT) / 2:.1f}" y="{H - 6}" '
        'text-anchor="middle">return, in the order received</text>'
    )
    svg.append(_rule("budget-line", y(budget), f"budget {budget}"))
    caption = (
        "Tokens each return put into the orchestrator's context, against the budget line: the "
        "recorded usage, or spawnkit's estimate where nothing was recorded (pale, marked ~). "
        "Dashed outline: the longer answer spawnkit held back and saved on disk."
    )
    label = "Tokens of each sub-agent return against the budget"
    return _chart("returns-chart", label, axis, svg, caption)


MARKS = {"usage": "", "usage-shared": "*", "estimate": "~"}
SOURCES = {
    "usage": "the growth of the orchestrator's next prompt, as the client recorded it",
    "usage-shared": "the recorded growth, shared by characters with what else arrived with it",
    "estimate": "spawnkit's offline estimate: nothing usable was recorded",
}


def _tokens_cell(r: dict[str, Any]) -> str:
    """A return's tokens with the mark of where they come from (and why, on hover)."""
    mark = MARKS.get(r["tokens_source"], "")
    sent = f" ×{r['deliveries']}" if r["deliveries"] > 1 else ""
    title = escape(SOURCES.get(r["tokens_source"], ""))
    return (
        f'<td class=num data-source="{escape(r["tokens_source"])}" title="{title}">'
        f'{r["tokens"]:,}<span class="mark">{mark}</span>{sent}</td>'
    )


def _returns_table(s: dict[str, Any], budget: int) -> str:
    """One row per return; the columns of spawnkit's enforcement only when it held one back."""
    held = any(r["blocked"] for r in s["returns"])
    rows = []
    for k, r in enumerate(s["returns"], 1):
        kind = _kind(r)
        if kind == "blocked":
            tag = '<span class="tag blocked">blocked</span>'
        elif kind == "over":
            tag = '<span class="tag over">over budget</span>'
        elif r["estimate_over_budget"]:
            tag = f'<span class="tag note">estimate ~{r["estimated_tokens"]:,}</span>'
        else:
            tag = ""
        cells = [
            f"<td class=num>{k}</td><td>{escape(_label(r))}</td>",
            f"<td><code>{escape(r['agent_id'])}</code></td>",
            _tokens_cell(r),
            f"<td>{tag}</td>",
        ]
        if held:
            saved = (
                f"<code>{escape(_short(r['saved_path'], s['project']))}</code>"
                if r["saved_path"]
                else ""
            )
            full = f"{r['full_tokens']:,}" if r["full_tokens"] else ""
            cells.append(f"<td class=num>{full}</td><td>{saved}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    head = (
        "<th class=num>#</th><th>sub-agent</th><th>agent id</th>"
        "<th class=num>tokens received</th><th></th>"
    )
    if held:
        head += "<th class=num>held back</th><th>saved at</th>"
    used = [
        src
        for src in ("usage-shared", "estimate")
        if any(r["tokens_source"] == src for r in s["returns"])
    ]
    legend = "".join(
        f'<span class="legend-item"><b>{MARKS[src]}</b> {escape(SOURCES[src])}</span>'
        for src in used
    )
    note = f'<p class="legend">{legend}</p>' if legend else ""
    return (
        f'<table class="returns"><thead><tr>{head}</tr></thead><tbody>'
        + "".join(rows)
        + "</tbody></table>"
        + note
    )


def _messages_table(s: dict[str, Any], budget: int) -> str:
    """What sub-agents sent the orchestrator with SendMessage: sub-agent text in its context,
    apart from the answers."""
    if not s["messages"]:
        return ""
    rows = []
    for k, m in enumerate(s["messages"], 1):
        if m["over_budget"]:
            tag = '<span class="tag over">over budget</span>'
        elif m["estimate_over_budget"]:
            tag = f'<span class="tag note">estimate ~{m["estimated_tokens"]:,}</span>'
        else:
            tag = ""
        mark = MARKS.get(m["tokens_source"], "")
        title = escape(SOURCES.get(m["tokens_source"], ""))
        rows.append(
            f'<tr data-sender="{escape(m["sender"])}"><td class=num>{k}</td>'
            f"<td>{escape(m['sender'])}</td><td>{escape(m['description'] or m['agent_type'])}</td>"
            f'<td class=num data-source="{escape(m["tokens_source"])}" title="{title}">'
            f'{m["tokens"]:,}<span class="mark">{mark}</span></td><td>{tag}</td></tr>'
        )
    return (
        '<table class="messages"><thead><tr><th class=num>#</th><th>message from</th>'
        "<th>sub-agent</th><th class=num>tokens received</th><th></th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _label(r: dict[str, Any]) -> str:
    label = r["description"] or r["agent_type"] or r["agent_id"]
    return f"workflow {label}" if r.get("kind") == "workflow" else label


def _workflows_table(s: dict[str, Any], budget: int) -> str:
    """Each workflow run: its agents (whose answers went to the script), the result the
    orchestrator received against the budget, how many agents ran at once."""
    if not s["workflows"]:
        return ""
    rows = []
    for w in s["workflows"]:
        agents = "".join(
            f"<li>{escape(a['label'] or a['agent_id'])}"
            + (f" <small>({escape(a['phase'])})</small>" if a["phase"] else "")
            + (f": ~{a['answer_tokens']:,} tokens" if a["answer_tokens"] is not None else "")
            + "</li>"
            for a in w["agents"]
        )
        if w["result_tokens"] is None:
            result = "<td class=num>none</td>"
        else:
            mark = MARKS.get(w["result_tokens_source"] or "", "")
            over = ' <span class="tag over">over budget</span>' if w["result_over_budget"] else ""
            result = f'<td class=num data-source="{escape(w["result_tokens_source"] or "")}">'
            result += f'{w["result_tokens"]:,}<span class="mark">{mark}</span>{over}</td>'
        rows.append(
            f'<tr data-run="{escape(w["run_id"])}"><td>{escape(w["name"] or w["run_id"])}'
            f"<br><code>{escape(w['run_id'])}</code></td><td>{escape(w['status'] or '-')}</td>"
            f"<td class=num>{w['agent_count']}</td><td><ul class=agents>{agents}</ul></td>"
            f"<td class=num>~{w['answer_tokens']:,}</td>{result}"
            f"<td class=num>{w['peak_parallel']}</td></tr>"
        )
    return (
        '<table class="workflows"><thead><tr><th>workflow run</th><th>status</th>'
        "<th class=num>agents</th><th>agents' answers (to the script)</th>"
        "<th class=num>answers, kept out</th><th class=num>result received</th>"
        f"<th class=num>at once</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _short(path: str, project: str) -> str:
    """A path inside the session's project, relative to it."""
    prefix = project.rstrip("/") + "/"
    return path[len(prefix) :] if project and path.startswith(prefix) else path


def _findings_table(s: dict[str, Any]) -> str:
    """The findings; folded under a one-line count by rule when there are more than a few."""
    findings = s["findings"]
    if not findings:
        return '<p class="meta">No findings: this session kept to the standard.</p>'
    rows = "".join(
        f"<tr><td><b>{escape(f['code'])}</b></td><td>{escape(f['name'])}</td>"
        f'<td><span class="tag {escape(f["severity"])}">{escape(f["severity"])}</span></td>'
        f"<td>{escape(f['message'])}</td></tr>"
        for f in findings
    )
    counts: dict[str, int] = {}
    for f in findings:
        counts[f["code"]] = counts.get(f["code"], 0) + 1
    label = ", ".join(f"{code} ×{n}" if n > 1 else code for code, n in counts.items())
    opened = " open" if len(findings) <= 5 else ""
    return (
        f'<details class="findings"{opened}><summary>{len(findings)} finding(s): '
        f"{escape(label)}</summary>"
        '<table class="findings"><thead><tr><th>rule</th><th>name</th><th>severity</th>'
        f"<th>finding</th></tr></thead><tbody>{rows}</tbody></table></details>"
    )


SKILL_ROW = 26  # the chart's height per skill
SKILL_LABEL = 190  # room for the skills' names, left of the bars


def _skills(data: dict[str, Any], budget: int) -> str:
    """The per-skill section: one horizontal bar per skill for the tokens its returns brought
    (red where any was over the budget), then a table with every counter, each skill's file
    and the rules its runs broke, with the sessions as evidence."""
    rows = [*data["skills"], {**data["unattributed"], "name": None, "path": None}]
    return (
        '<section class="session skills" id="skills"><h2>By skill</h2>'
        + _skills_chart(rows)
        + _skills_table(rows, budget)
        + "</section>\n"
    )


def _skill_kind(row: dict[str, Any]) -> str:
    if row["name"] is None:
        return "outside"
    return "over" if row["over_budget"] else "ok"


def _skills_chart(rows: list[dict[str, Any]]) -> str:
    top, _ = ticks(max([r["tokens"] for r in rows] + [1]) * 1.05)
    width = W + 200
    inner = width - SKILL_LABEL - 250  # room for the figures after the longest bar
    height = TOP + SKILL_ROW * len(rows) + 8
    marks = []
    seen: dict[str, int] = {}
    for k, row in enumerate(rows):
        y = TOP + SKILL_ROW * k
        name = row["name"] if row["name"] is not None else "outside any skill"
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:  # another skill of that name (another project): as in the table
            name = f"{name} ({seen[name]})"
        name = escape(name)
        length = max(inner * row["tokens"] / top, 1.0 if row["returns"] else 0.0)
        over = f", {row['over_budget']} over budget" if row["over_budget"] else ""
        label = f"{row['tokens']:,} tokens · {row['returns']} return(s){over}"
        marks.append(
            f'<text class="skill-name" x="{SKILL_LABEL - 8}" y="{y + 15}" text-anchor="end">'
            f"{_clip(name, 28)}</text>"
            f'<rect class="skill-bar {_skill_kind(row)}" data-skill="{name}" '
            f'x="{SKILL_LABEL}" y="{y + 3}" width="{length:.1f}" height="{SKILL_ROW - 8}">'
            f"<title>{name}: {escape(label)}, largest {row['max_tokens']:,}</title></rect>"
            f'<text x="{SKILL_LABEL + length + 6:.1f}" y="{y + 15}">{escape(label)}</text>'
        )
    svg = (
        f'<svg class="skills-chart" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="Tokens each skill\'s returns brought">'
        + "".join(marks)
        + "</svg>"
    )
    caption = (
        "Tokens the returns of each skill's runs put into the orchestrator's context, across "
        "sessions, the costliest first (red: at least one return over the budget; grey: "
        "returns launched outside any skill)."
    )
    return f"<figure>{svg}<figcaption>{caption}</figcaption></figure>"


def _clip(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def _skills_table(rows: list[dict[str, Any]], budget: int) -> str:
    body = []
    seen: dict[str, int] = {}
    for row in rows:
        outside = row["name"] is None
        if outside:
            who = "outside any skill"
        else:
            seen[row["name"]] = seen.get(row["name"], 0) + 1
            twin = f" ({seen[row['name']]})" if seen[row["name"]] > 1 else ""
            where = escape(row["path"]) if row["path"] else "its file was not found"
            who = f"<b>{escape(row['name'] + twin)}</b><br><small><code>{where}</code></small>"
        over = (
            f'<span class="tag over">{row["over_budget"]:,}</span>' if row["over_budget"] else "0"
        )
        body.append(
            f'<tr class="{"outside" if outside else "skill"}" '
            f'data-skill="{escape(row["name"] or "")}"><td>{who}</td>'
            f"<td class=num>{'-' if outside else row['runs']}</td>"
            f"<td class=num>{row['returns']:,}{_messages_note(row)}</td>"
            f"<td class=num>{row['tokens']:,}</td>"
            f"<td class=num>{row['max_tokens']:,}</td><td class=num>{over}</td>"
            f"<td class=num>{row['peak_parallel']}</td><td class=num>{row['workflow_runs']}</td>"
            f"<td>{_rules(row)}</td></tr>"
        )
    return (
        '<table class="skills"><thead><tr><th>skill</th><th class=num>runs</th>'
        "<th class=num>returns</th><th class=num>tokens</th><th class=num>largest</th>"
        f"<th class=num>over {budget}</th>"
        "<th class=num>at once</th><th class=num>workflow runs</th><th>rules broken</th>"
        f"</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def _messages_note(row: dict[str, Any]) -> str:
    """Beside the returns: the messages its sub-agents sent the orchestrator, when any."""
    if not row.get("messages"):
        return ""
    return (
        f'<br><small class="messages">+{row["messages"]:,} message(s), '
        f"{row['messages_tokens']:,} tokens</small>"
    )


def _rules(row: dict[str, Any]) -> str:
    """Each rule broken, folded: its count, then the sessions it was seen in."""
    if not row["findings"]:
        return ""
    parts = []
    for code, n in row["findings"].items():
        seen = "".join(
            f"<li><code>{escape(e['session'][:8])}</code> "
            f"{escape((e['started'] or '')[:10])}: {escape(e['message'])}</li>"
            for e in row["evidence"]
            if e["code"] == code
        )
        parts.append(
            f'<details data-code="{escape(code)}"><summary><b>{escape(code)}</b> ×{n}</summary>'
            f"<ul>{seen}</ul></details>"
        )
    return "".join(parts)


def _worst(summary: dict[str, Any]) -> str:
    worst = "".join(
        f"<tr><td class=num>{w['tokens']:,}</td><td>{escape(w['description'])}</td>"
        f"<td><code>{escape(w['session'][:8])}</code></td><td>{escape(w['host'])}</td></tr>"
        for w in summary["worst_returns"]
    )
    close = "".join(
        f"<tr><td class=num>{c['share']:.0%}</td><td class=num>{c['peak_context']:,}</td>"
        f"<td class=num>{(c['context_window'] or 0):,}</td>"
        f"<td><code>{escape(c['session'][:8])}</code></td><td>{escape(c['host'])}</td></tr>"
        for c in summary["closest_to_limit"]
    )
    return (
        '<article class="session"><h2>Across sessions</h2>'
        '<table class="worst"><thead><tr><th class=num>tokens</th><th>largest returns</th>'
        f"<th>session</th><th>host</th></tr></thead><tbody>{worst}</tbody></table>"
        '<table class="closest"><thead><tr><th class=num>of window</th><th class=num>peak</th>'
        "<th class=num>window</th><th>closest to the context limit</th><th>host</th></tr></thead>"
        f"<tbody>{close}</tbody></table></article>"
    )


def _footer(audit: Audit) -> str:
    stats = audit.stats
    problems = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in stats.problems.items())
    unknown = ", ".join(f"{k} ×{n}" for k, n in stats.unknown_records.most_common())
    text = (
        f"Read {stats.files:,} file(s), {stats.lines:,} line(s), {stats.bytes:,} bytes in "
        f"{audit.seconds:.2f} s."
        + (f" Skipped: {problems}." if problems else "")
        + (f" Records of unknown types: {unknown}." if unknown else "")
        + " Context figures are the usage the clients recorded (else marked estimated). A return's"
        " tokens are its words' share of the growth of the orchestrator's next prompt, as"
        " recorded; marked * when shared with other input of the same turn, ~ when nothing"
        " usable was recorded and spawnkit's offline estimate stands in. That estimate, which"
        " the hooks enforce the budget with, errs high: it is calibrated never to under-count"
        " the tokenizer that counts the most. Agents' answers in workflow runs are estimates."
    )
    return f"<footer>{escape(text)}</footer>"
