"""The audit for a terminal: a table per session with a bar per return, within 80 columns.

Colour is added with click's styles; click strips it when the output is not a terminal.
Bars use block characters when the output encoding has them, ``#`` and ``|`` otherwise.
Every value a transcript holds (session and agent ids, projects, descriptions, senders,
skill names and paths, workflow names and statuses, record types, findings' messages)
passes the output gate (``base.shown``) before it is laid out, so none can write a control
character to the terminal; the styles are spawnkit's own.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from datetime import datetime

import click

from spawnkit.audit.by_skill import SkillUsage
from spawnkit.audit.model import FROM_ESTIMATE, FROM_SHARED_USAGE, Audit, Message, Return, Session
from spawnkit.base.shown import shown

WIDTH = 80
BAR = 18  # cells
LABEL = 17


def write(
    audit: Audit, out: Callable[[str], None], encoding: str | None = "utf-8", by: str = "session"
) -> None:
    """Write the report to ``out``: each session as it is read (``by`` ``"session"``) or, by
    ``"skill"``, a table of the skills once every session is read; then the summary."""
    fancy = _can_encode("█│→·×", encoding)
    out("\n".join([*_fit(_standard(audit, fancy)), ""]) + "\n")
    lines = []
    if by == "skill":
        for _ in audit.sessions:
            pass  # read them all: the table needs every session
        lines += [*_skills(audit, fancy), ""]
    else:
        for session in audit.sessions:
            if session.returns or session.messages or session.findings:
                out("\n".join(_session(session, audit, fancy)) + "\n\n")
        if audit.totals.quiet_sessions:
            quiet = _count(audit.totals.quiet_sessions, "session")
            lines += [f"{quiet} without sub-agents or findings not shown.", ""]
    lines += _summary(audit, audit.totals.as_dict(), fancy)
    out("\n".join(lines) + "\n")


def render(audit: Audit, encoding: str | None = "utf-8", by: str = "session") -> str:
    parts: list[str] = []
    write(audit, parts.append, encoding, by)
    return "".join(parts)


SKILL_COLUMN = 20


def _skills(audit: Audit, fancy: bool) -> list[str]:
    """One row per skill, the costliest first, its file and its rules broken under it (with a
    session as evidence); then a row for the returns launched outside any skill."""
    totals = audit.skills
    ranked = totals.ranked()
    times, dot = ("×", "·") if fancy else ("x", "-")
    head = (
        f"  {'skill':<{SKILL_COLUMN}} {'runs':>4} {'returns':>7} {'tokens':>8} {'largest':>7} "
        f"{'over':>4} {'peak':>4} {'wf':>3}"
    )
    lines = [click.style("by skill", bold=True), click.style(head, bold=True)]
    if not ranked:
        lines.append("  no skill ran in these sessions")
    others = totals.kinds[1:]  # messages, and any kind counted beside the returns
    for usage in ranked:
        lines.append(_skill_row(usage, shown(usage.name or ""), str(usage.runs)))
        path = shown(usage.path) if usage.path else "(its file was not found)"
        lines.append(f"    {path}")  # whole: to be copied
        lines += _other_kinds(usage, others) + _evidence(usage, times, dot)
    outside = totals.unattributed
    lines.append(_skill_row(outside, "outside any skill", "-"))
    lines += _other_kinds(outside, others) + _evidence(outside, times, dot)
    if totals.over_limit:
        lines.append(f"  {totals.over_limit:,} more skills counted together as '(more skills)'")
    return lines


def _skill_row(usage: SkillUsage, label: str, runs: str) -> str:
    r = usage.returns
    return (
        f"  {_clip(label, SKILL_COLUMN):<{SKILL_COLUMN}} {runs:>4} {r.count:>7,} {r.tokens:>8,} "
        f"{r.max_tokens:>7,} {r.over_budget:>4,} {usage.peak_parallel:>4} {usage.workflow_runs:>3}"
    )


def _other_kinds(usage: SkillUsage, kinds: list[str]) -> list[str]:
    """``    messages 2, 1,234 tokens (largest 700), 2 over budget``: each other kind counted."""
    lines = []
    for kind in kinds:
        tally = usage.tallies.get(kind)
        if tally and tally.count:
            lines += _fit(
                f"    {kind} {tally.count:,}, {tally.tokens:,} tokens (largest "
                f"{tally.max_tokens:,}), {tally.over_budget:,} over budget"
            )
    return lines


def _evidence(usage: SkillUsage, times: str, dot: str) -> list[str]:
    """Per rule broken: how often, in which sessions, and the first finding's own words."""
    lines = []
    for code, n in sorted(usage.findings.items()):
        seen = [e for e in usage.evidence if e["code"] == code]
        sessions = sorted({shown(e["session"][:8]) for e in seen})
        where = ", ".join(sessions) + (" …" if n > len(seen) else "")
        first = seen[0] if seen else None
        when = ""
        if first and first["started"] is not None:
            when = " " + datetime.fromtimestamp(first["started"]).strftime("%Y-%m-%d")
        text = f"    {code} {times}{n} (session {where}{when})"
        if first:
            text += f": {shown(first['message'])}"
        lines += textwrap.wrap(text, WIDTH, subsequent_indent="      ", break_on_hyphens=False)
    return lines


def _standard(audit: Audit, fancy: bool) -> str:
    return (
        f"spawnkit audit (budget {audit.budget} tokens per return, {audit.max_parallel} at once, "
        f"state file every {audit.checkpoint_every})"
    )


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _session(s: Session, audit: Audit, fancy: bool) -> list[str]:
    arrow, dot = ("→", "·") if fancy else ("->", "-")
    when = datetime.fromtimestamp(s.started).strftime("%Y-%m-%d %H:%M") if s.started else "?"
    lines = [click.style(_clip(f"{shown(s.id)}  {s.host}  {when}", WIDTH), bold=True)]
    if s.project:
        lines.append(_clip(f"  {shown(s.project)}", WIDTH))
    if s.context:
        first, peak = s.context[0].tokens, s.peak_context
        window = s.context_window or 0
        share = f" {peak / window:.0%} of {_k(window)}" if window else ""
        estimated = " est." if s.context_source == "estimate" else ""
        context = f"context{estimated} {_k(first)} {arrow} {_k(s.context[-1].tokens)}"
        context += f", peak{share or ' ' + _k(peak)}"
    else:
        context = "no context recorded"
    lines.append(
        _clip(
            f"  {context} {dot} parallel {s.peak_parallel} {dot} "
            f"{_count(len(s.state_writes), 'state write')}",
            WIDTH,
        )
    )
    extras = []
    if s.denied_launches:
        extras.append(f"{s.denied_launches} launch(es) refused by spawnkit")
    if s.messages_held:
        extras.append(f"{s.messages_held} message(s) to the orchestrator refused by spawnkit")
    denied_reads = sum(1 for t in s.report_reads if t.denied)
    if denied_reads:
        extras.append(f"{denied_reads} report read(s) refused by spawnkit")
    if extras:
        lines += _fit("  " + f" {dot} ".join(extras))
    scale = max([audit.budget] + [r.tokens for r in s.returns] + [m.tokens for m in s.messages])
    tick = "│" if fancy else "|"
    if s.returns:
        legend = _legend(s.returns)
        lines.append(
            f"  {'#':>3}  {'sub-agent':<{LABEL}} {'tokens':>7}   {tick} = budget {audit.budget}"
            + (f"  {legend}" if legend else "")
        )
        for n, ret in enumerate(s.returns, 1):
            lines.append(_row(n, ret, scale, audit.budget, fancy))
    if s.messages:
        # what sub-agents sent with SendMessage: the same context, its own column
        lines += _fit(
            f"  sub-agent text received: answers {s.return_tokens:,} tokens {dot} messages "
            f"{s.message_tokens:,} tokens"
        )
        legend = _legend(s.messages)
        lines.append(
            f"  {'#':>3}  {'message from':<{LABEL}} {'tokens':>7}   {tick} = budget {audit.budget}"
            + (f"  {legend}" if legend else "")
        )
        for n, message in enumerate(s.messages, 1):
            lines.append(_message_row(n, message, scale, audit.budget, fancy))
    for run in s.workflows:
        lines += _fit(_workflow_line(run, audit.budget, dot))
    for f in s.findings:
        colour = "red" if f.severity == "error" else "yellow"
        prefix = f"  {click.style(f.code, fg=colour)} "
        body = textwrap.wrap(shown(f.message), WIDTH - 8, break_on_hyphens=False) or [""]
        lines.append(prefix + body[0])
        lines += ["        " + more for more in body[1:]]
    return lines


MARKS = {FROM_SHARED_USAGE: "*", FROM_ESTIMATE: "~"}


def _legend(returns: list[Return] | list[Message]) -> str:
    """What the marks after the token counts mean, for the marks this table uses."""
    used = {r.tokens_source for r in returns}
    said = []
    if FROM_SHARED_USAGE in used:
        said.append("* shared")
    if FROM_ESTIMATE in used:
        said.append("~ estimated")
    return "(" + ", ".join(said) + ")" if said else ""


def _workflow_line(run, budget: int, dot: str) -> str:
    """``  workflow probe (wf_1): 2 agents, their answers 1,234 tokens · result 25 · peak 1``."""
    name = shown(run.name or run.run_id)
    agents = _count(len(run.agents), "agent")
    answers = sum(a.answer_tokens or 0 for a in run.agents)
    text = f"  workflow {name}: {agents} (answers ~{answers:,} tokens, kept out of context)"
    if run.result is not None:
        mark = MARKS.get(run.result.tokens_source, "")
        over = " over budget" if run.result.tokens > budget else ""
        text += f" {dot} result {mark}{run.result.tokens:,} tokens{over}"
    elif not run.status:
        text += f" {dot} no result received"
    if run.status and run.status != "completed":
        text += f" {dot} {shown(run.status)}"
    return text + f" {dot} peak {run.peak_parallel} at once"


def _bar(tokens: int, scale: int, budget: int, fancy: bool) -> str:
    """The cells of a bar of ``tokens`` against ``scale``, the budget at the shade change (or
    the tick), so it reads without colour too."""
    cells = max(1, round(tokens / scale * BAR)) if tokens else 0
    mark = min(BAR - 1, round(budget / scale * BAR))
    within, over, tick = ("█", "▓", "│") if fancy else ("=", "#", "|")
    bar = []
    for i in range(BAR):
        if i < cells:
            bar.append(
                click.style(over, fg="red") if i >= mark else click.style(within, fg="green")
            )
        elif i == mark:
            bar.append(tick)
        else:
            bar.append(" ")
    return "".join(bar)


def _row(n: int, ret: Return, scale: int, budget: int, fancy: bool) -> str:
    """``  1  label   1,545  ████████▓▓▓▓▓▓▓▓  3.1x budget``."""
    label = shown(ret.description or ret.agent_type or ret.agent_id or "sub-agent")
    if ret.blocked:
        note = f"blocked, {ret.full_tokens or 0:,} saved"
    elif ret.tokens > budget:
        note = f"{ret.tokens / budget:.1f}x budget"
    elif ret.estimated_tokens > budget:  # what a hook, judging by the estimate, would say
        note = f"estimate ~{ret.estimated_tokens:,}"
    else:
        note = ""
    mark = MARKS.get(ret.tokens_source, " ")
    bar = _bar(ret.tokens, scale, budget, fancy)
    head = f"  {n:>3}  {_clip(label, LABEL):<{LABEL}} {ret.tokens:>7,}{mark}  {bar} "
    if ret.deliveries > 1:
        sent = f" (sent {ret.deliveries}x)"
        fits = len(click.unstyle(head)) + len(note) + len(sent) <= WIDTH
        note = (note + (sent if fits else f" ({ret.deliveries}x)")).strip()
    return (head + note).rstrip()


def _message_row(n: int, message: Message, scale: int, budget: int, fancy: bool) -> str:
    """``  1  mate1          11,868~  ████████▓▓▓▓▓▓▓▓  23.7x budget``: one message."""
    label = shown(message.sender or message.description or "sub-agent")
    if message.tokens > budget:
        note = f"{message.tokens / budget:.1f}x budget"
    elif message.estimated_tokens > budget:
        note = f"estimate ~{message.estimated_tokens:,}"
    else:
        note = ""
    mark = MARKS.get(message.tokens_source, " ")
    bar = _bar(message.tokens, scale, budget, fancy)
    return f"  {n:>3}  {_clip(label, LABEL):<{LABEL}} {message.tokens:>7,}{mark}  {bar} {note}".rstrip()


def _summary(audit: Audit, totals: dict, fancy: bool) -> list[str]:
    hosts = ", ".join(f"{h} {n}" for h, n in sorted(audit.totals.hosts.items()))
    lines = [click.style("summary", bold=True)]
    lines.append(f"  {_count(totals['sessions'], 'session')}" + (f" ({hosts})" if hosts else ""))
    lines.append(
        f"  {_count(totals['returns'], 'sub-agent return')}, {totals['over_budget']} over "
        f"budget, {totals['tokens_received']:,} tokens received"
    )
    if totals["messages"]:
        lines.append(
            f"  {_count(totals['messages'], 'message')} from sub-agents (SendMessage), "
            f"{totals['messages_over_budget']} over budget, {totals['message_tokens']:,} tokens "
            "received"
        )
    sources = totals["returns_by_tokens_source"]
    estimated = sources[FROM_ESTIMATE]
    if totals["returns"]:
        lines.append(
            f"  tokens from the clients' recorded usage for {totals['returns'] - estimated} of "
            f"{totals['returns']} returns"
            + (f", spawnkit's estimate (~) for {estimated}" if estimated else "")
        )
    if totals["workflow_runs"]:
        lines.append(
            f"  {_count(totals['workflow_runs'], 'workflow run')}, "
            f"{_count(totals['workflow_agents'], 'agent')}"
        )
    worst = [w for w in totals["worst_returns"] if w["tokens"] > audit.budget][:5]
    if worst:
        lines.append("  largest returns:")
        for w in worst:
            sent = f" x{w['deliveries']}" if w["deliveries"] > 1 else ""
            label = shown(w["description"] or w["agent_id"])
            mark = MARKS.get(w["tokens_source"], "")
            lines.append(
                _clip(
                    f"    {mark:>1}{w['tokens']:>7,}{sent}  {label}  ({shown(w['session'])})",
                    WIDTH,
                )
            )
    close = totals["closest_to_limit"][:3]
    if close:
        lines.append("  closest to the context limit:")
        for c in close:
            lines.append(
                f"    {c['share']:>6.0%}  {_k(c['peak_context'])} of {_k(c['context_window'])}"
                f"  ({c['host']} {shown(c['session'])})"
            )
    if totals["blocked"]:
        full, got = totals["blocked_full_tokens"], totals["blocked_received_tokens"]
        ratio = f" ({full / got:.1f}x less)" if got else ""
        lines.append(
            f"  enforcement: {totals['blocked']} return(s) blocked; {full:,} tokens saved on "
            f"disk, {got:,} received instead{ratio}"
        )
    refused = []
    if totals["denied_launches"]:
        refused.append(f"{totals['denied_launches']} launch(es) over the cap")
    if totals["denied_reads"]:
        refused.append(f"{totals['denied_reads']} report read(s)")
    if refused:
        lines.append("  refused by spawnkit: " + ", ".join(refused))
    codes = totals["findings_by_code"]
    times = "×" if fancy else "x"
    lines.append(
        "  findings: "
        + (", ".join(f"{c} {times}{n}" for c, n in codes.items()) if codes else "none")
        + ("  (see spawnkit rule CODE)" if codes else "")
    )
    lines.append("  " + input_line(audit))
    return [wrapped for line in lines for wrapped in _fit(line)]


def _fit(line: str) -> list[str]:
    """Wrap a long line at 80 columns, continuing under its first word."""
    if len(click.unstyle(line)) <= WIDTH:
        return [line]
    indent = " " * (len(line) - len(line.lstrip()) + 2)
    return textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_on_hyphens=False)


def input_line(audit: Audit) -> str:
    """One line on what was read and what was skipped (also printed on stderr by the command)."""
    stats = audit.stats
    text = (
        f"input: {_count(stats.files, 'file')}, {_count(stats.lines, 'line')}, "
        f"{_size(stats.bytes)} in {audit.seconds:.2f} s"
    )
    skipped = [f"{n} {name.replace('_', ' ')}" for name, n in stats.problems.items()]
    unknown = stats.unknown_records
    if unknown:
        kinds = ", ".join(f"{shown(str(k))} x{n}" for k, n in unknown.most_common(3))
        skipped.append(f"{sum(unknown.values())} record(s) of unknown types ({kinds})")
    if skipped:
        text += "; skipped: " + ", ".join(skipped)
    return text


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n} B"


def _k(n: int) -> str:
    """12.7k, 200k, 950."""
    return f"{n / 1000:.1f}".removesuffix(".0") + "k" if n >= 1000 else str(n)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def _can_encode(text: str, encoding: str | None) -> bool:
    try:
        text.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True
