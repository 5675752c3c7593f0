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

import time
from collections.abc import Callable
from html import escape
from typing import Any

from spawnkit import __version__
from spawnkit.audit.model import Audit
from spawnkit.audit.render_json import iso, session_data

MAX_CHARTED = 500  # sessions drawn in full; the rest are counted
W, H = 560, 230
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 18, 34

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
"""


def write(audit: Audit, out: Callable[[str], None]) -> None:
    """Write the page to ``out``: each session as it is read, the summary cards last (CSS
    ``order`` shows them first), so the page is never held whole."""
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
        if not session.returns:
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
    if skipped:
        notes.append(
            f"{skipped:,} more session(s) with returns are counted, not drawn (the page draws the "
            f"first {MAX_CHARTED}); narrow the audit with --since, --project or --session."
        )
    out(_cards(summary, budget, notes) + "\n" + _worst(summary) + "\n</main>\n")
    out(_footer(audit) + "\n</body></html>\n")


def render(audit: Audit) -> str:
    parts: list[str] = []
    write(audit, parts.append)
    return "".join(parts)


def _cards(summary: dict[str, Any], budget: int, notes: list[str]) -> str:
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
        ("good" if summary["blocked"] else "", summary["blocked"], "blocked by spawnkit"),
        (
            "good" if summary["tokens_kept_out"] else "",
            f"{summary['tokens_kept_out']:,}",
            "tokens kept on disk instead",
        ),
        ("bad" if findings else "good", findings, "findings"),
    ]
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
    meta = (
        f"peak context {s['peak_context']:,} tokens{share}"
        + (" (estimated)" if s["context_source"] == "estimate" else "")
        + f" · grew {s['context_growth']:,} · returns brought ~{s['return_tokens']:,}"
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
            _findings_table(s),
            "</article>",
        ]
    )


def _kind(r: dict[str, Any]) -> str:
    if r["blocked"]:
        return "blocked"
    return "over" if r["over_budget"] else "ok"


def _nice(value: float) -> int:
    """A round axis maximum at or above ``value``."""
    value = max(value, 1)
    step = 10 ** (len(str(int(value))) - 1)
    for m in (1, 2, 2.5, 5, 10):
        if m * step >= value:
            return int(m * step)
    return int(10 * step)


def _scale(top: float) -> Callable[[float], float]:
    """The y coordinate of a value on a chart whose axis runs from 0 to ``top``."""

    def y(value: float) -> float:
        return H - BOTTOM - (H - TOP - BOTTOM) * value / top

    return y


def _chart(cls: str, label: str, top: int, marks: list[str], caption: str) -> str:
    """One chart: the y axis from 0 to ``top``, the ``marks`` drawn over it, a caption."""
    head = (
        f'<svg class="{cls}" viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img" '
        f'aria-label="{label}">'
    )
    svg = "".join([head, *_y_axis(top), *marks, "</svg>"])
    return f"<figure>{svg}<figcaption>{caption}</figcaption></figure>"


def _y_axis(top: int) -> list[str]:
    out = []
    scale = _scale(top)
    for i in range(5):
        value = top * i / 4
        y = scale(value)
        out.append(f'<line class="axis" x1="{LEFT}" y1="{y:.1f}" x2="{W - RIGHT}" y2="{y:.1f}"/>')
        label = f"{value / 1000:g}k" if value >= 1000 else f"{value:g}"
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
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
    top = _nice(max(peak, window if show_window else 0) * 1.08)
    n = max(len(points), 1)

    def x(i: int) -> float:
        return LEFT + (W - LEFT - RIGHT) * (i / (n - 1) if n > 1 else 0.5)

    y = _scale(top)
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
    stacked: dict[int, int] = {}
    for k, r in enumerate(s["returns"], 1):
        turn = min(r["turn"], len(points) - 1) if points else 0
        base = points[turn]["tokens"] if points else 0
        lift = stacked.get(turn, 0)
        stacked[turn] = lift + 1
        label = r["description"] or r["agent_type"] or r["agent_id"]
        svg.append(
            f'<circle class="return-mark {_kind(r)}" data-agent="{escape(r["agent_id"])}" '
            f'cx="{x(turn):.1f}" cy="{y(base) - 9 - 10 * lift:.1f}" r="5">'
            f"<title>return {k}: {escape(label)} · {r['tokens']:,} tokens</title></circle>"
        )
    svg.append(
        f'<text x="{LEFT}" y="{H - 8}">1</text><text x="{W - RIGHT}" y="{H - 8}" '
        f'text-anchor="end">{len(points)} responses</text>'
    )
    caption = (
        "Orchestrator context after each model response (tokens). Dots: sub-agent returns, at the "
        "first response that carried them — green within budget, red over, amber blocked."
    )
    return _chart("context-chart", "Orchestrator context over the session", top, svg, caption)


def _returns_chart(s: dict[str, Any], budget: int) -> str:
    rets = s["returns"]
    tallest = max([budget] + [max(r["tokens"], r["full_tokens"] or 0) for r in rets])
    top = _nice(tallest * 1.08)
    inner = W - LEFT - RIGHT
    slot = inner / max(len(rets), 1)
    width = max(2.0, min(40.0, slot * 0.6))
    y = _scale(top)
    svg = []
    for k, r in enumerate(rets):
        cx = LEFT + slot * (k + 0.5)
        label = escape(r["description"] or r["agent_type"] or r["agent_id"])
        if r["blocked"] and r["full_tokens"]:
            svg.append(
                f'<rect class="held-back" x="{cx - width / 2:.1f}" y="{y(r["full_tokens"]):.1f}" '
                f'width="{width:.1f}" height="{y(0) - y(r["full_tokens"]):.1f}">'
                f"<title>{label}: held back {r['full_tokens']:,} tokens, saved on disk</title></rect>"
            )
        height = max(y(0) - y(r["tokens"]), 1.0)
        svg.append(
            f'<rect class="return-bar {_kind(r)}" data-agent="{escape(r["agent_id"])}" '
            f'x="{cx - width / 2:.1f}" y="{y(0) - height:.1f}" width="{width:.1f}" '
            f'height="{height:.1f}"><title>{label}: {r["tokens"]:,} tokens received'
            f"</title></rect>"
        )
        if len(rets) <= 30:
            svg.append(
                f'<text x="{cx:.1f}" y="{H - BOTTOM + 14}" text-anchor="middle">{k + 1}</text>'
            )
    svg.append(_rule("budget-line", y(budget), f"budget {budget}"))
    caption = (
        "Tokens each return put into the orchestrator's context, against the budget line. "
        "Dashed outline: the longer answer spawnkit held back and saved on disk."
    )
    label = "Tokens of each sub-agent return against the budget"
    return _chart("returns-chart", label, top, svg, caption)


def _returns_table(s: dict[str, Any], budget: int) -> str:
    rows = []
    for k, r in enumerate(s["returns"], 1):
        kind = _kind(r)
        tag = (
            '<span class="tag blocked">blocked</span>'
            if kind == "blocked"
            else ('<span class="tag over">over budget</span>' if kind == "over" else "")
        )
        held = f"{r['full_tokens']:,}" if r["full_tokens"] else ""
        saved = (
            f"<code>{escape(_short(r['saved_path'], s['project']))}</code>"
            if r["saved_path"]
            else ""
        )
        sent = f" ×{r['deliveries']}" if r["deliveries"] > 1 else ""
        rows.append(
            f"<tr><td class=num>{k}</td><td>{escape(r['description'] or r['agent_type'])}</td>"
            f"<td><code>{escape(r['agent_id'])}</code></td>"
            f"<td class=num>{r['tokens']:,}{sent}</td><td>{tag}</td><td class=num>{held}</td>"
            f"<td>{saved}</td></tr>"
        )
    return (
        '<table class="returns"><thead><tr><th class=num>#</th><th>sub-agent</th><th>agent id</th>'
        "<th class=num>tokens received</th><th></th><th class=num>held back</th>"
        "<th>saved at</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
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
        + " Token figures are spawnkit's offline estimate unless the client recorded them."
    )
    return f"<footer>{escape(text)}</footer>"
