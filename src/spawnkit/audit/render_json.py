"""The audit as JSON, version 3, described by ``standards/schemas/audit.schema.json``.

Written as the sessions are read (the ``sessions`` array first, then the per-skill view and
the summary), so the report of any number of sessions never has to be held whole. The HTML
report draws each session from the same ``session_data`` and the skills from the same
``skill_data``, so both always show the same numbers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from spawnkit import __version__
from spawnkit.audit.by_skill import SkillTotals, SkillUsage, Tally
from spawnkit.audit.model import Audit, ContextPoint, Message, Return, Session, WorkflowRun

# 2: a return's tokens come from the recorded usage where they can; 3: each return, workflow run,
# read-back and finding names its skill; per session the skills it ran; top-level ``skills``
# and ``unattributed``
VERSION = 3


def iso(moment: float | None) -> str | None:
    """Epoch seconds as ``2026-11-24T00:16:28.386Z`` (UTC), or None."""
    if moment is None:
        return None
    stamp = datetime.fromtimestamp(moment, tz=timezone.utc)
    return stamp.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def write(audit: Audit, out: Callable[[str], None], by: str = "session") -> None:
    """Write the report to ``out`` piece by piece: one session at a time as they are read.
    Both views are always there (``sessions``, then ``skills``): ``by`` only names the one
    asked for."""
    head = {
        "version": VERSION,
        "tool": f"spawnkit {__version__}",
        "generated": iso(datetime.now(timezone.utc).timestamp()),
        "standard": {
            "return_budget_tokens": audit.budget,
            "max_parallel": audit.max_parallel,
            "checkpoint_every": audit.checkpoint_every,
        },
        "roots": audit.roots,
        "by": by,
    }
    out("{\n" + ",\n".join(_member(k, v) for k, v in head.items()) + ',\n  "sessions": [')
    separator = "\n    "
    for session in audit.sessions:
        out(separator + _dump(session_data(session, audit.budget), "    "))
        separator = ",\n    "
    out("\n  ]" if separator != "\n    " else "]")
    stats = audit.stats
    by_skill = skills_data(audit.skills)
    tail = {
        "skills": by_skill["skills"],
        "unattributed": by_skill["unattributed"],
        "summary": {
            **audit.totals.as_dict(),
            "skills": len(by_skill["skills"]),
            "skills_over_limit": audit.skills.over_limit,
        },
        "input": {
            "files": stats.files,
            "bytes": stats.bytes,
            "lines": stats.lines,
            "seconds": round(audit.seconds, 3),
            "problems": stats.problems,
            "unknown_records": dict(stats.unknown_records.most_common()),
        },
    }
    out(",\n" + ",\n".join(_member(k, v) for k, v in tail.items()) + "\n}\n")


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode


def _dump(value: Any, indent: str) -> str:
    """``value`` indented two spaces a level, except that each object whose values are all
    scalars (a context point, a finding) and each list of scalars stays on one line: readable,
    and written by the C encoder (``indent`` makes ``json`` fall back to its Python one, the
    most of an audit's time on a large report)."""
    if isinstance(value, dict) and value and not _flat(value.values()):
        inner = indent + "  "
        items = (f"{inner}{_COMPACT(k)}: {_dump(v, inner)}" for k, v in value.items())
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    if isinstance(value, list) and value and not _flat(value):
        inner = indent + "  "
        return "[\n" + ",\n".join(inner + _dump(v, inner) for v in value) + f"\n{indent}]"
    return _COMPACT(value)


def _flat(values: Any) -> bool:
    return not any(isinstance(v, (dict, list)) and v for v in values)


def _member(key: str, value: Any) -> str:
    return f"  {json.dumps(key)}: {_dump(value, '  ')}"


def session_data(s: Session, budget: int) -> dict[str, Any]:
    first = s.context[0].tokens if s.context else 0
    return {
        "id": s.id,
        "host": s.host,
        "path": s.path,
        "project": s.project,
        "client_version": s.client_version,
        "started": iso(s.started),
        "ended": iso(s.ended),
        "context_window": s.context_window,
        "context_window_source": s.context_window_source,
        "context_source": s.context_source,
        "context": [_point(i, p) for i, p in enumerate(s.context)],
        "peak_context": s.peak_context,
        "context_growth": (s.context[-1].tokens - first) if s.context else 0,
        "skills": [
            {"name": k.name, "runs": k.runs, "path": k.path, "base_dir": k.base_dir or None}
            for k in s.skills.values()
        ],
        "returns": [_return(r, budget) for r in s.returns],
        "return_tokens": s.return_tokens,
        "messages": [_message(m, budget) for m in s.messages],
        "message_tokens": s.message_tokens,
        "messages_held": s.messages_held,
        "workflows": [_workflow(w, budget) for w in s.workflows],
        "peak_parallel": s.peak_parallel,
        "denied_launches": s.denied_launches,
        "failed_launches": s.failed_launches,
        "report_reads": [
            {"path": t.path, "time": iso(t.time), "denied": t.denied, "skill": t.skill}
            for t in s.report_reads
        ],
        "state_writes": [{"path": t.path, "time": iso(t.time)} for t in s.state_writes],
        "subagent_transcripts": s.subagent_transcripts,
        "findings": [
            {
                "code": f.code,
                "name": f.name,
                "severity": f.severity,
                "message": f.message,
                "agent_id": f.agent_id,
                "skill": f.skill,
            }
            for f in s.findings
        ],
    }


def _point(turn: int, p: ContextPoint) -> dict[str, Any]:
    point: dict[str, Any] = {"turn": turn, "time": iso(p.time), "tokens": p.tokens}
    if p.prompt is not None:
        point.update(prompt=p.prompt, output=p.output)
    if p.model:
        point["model"] = p.model
    return point


def _return(r: Return, budget: int) -> dict[str, Any]:
    return {
        "agent_id": r.agent_id,
        "kind": r.kind,
        "description": r.description,
        "agent_type": r.agent_type,
        "tool_use_id": r.tool_use_id,
        "background": r.background,
        "status": r.status,
        "tokens": r.tokens,
        "tokens_source": r.tokens_source,
        "estimated_tokens": r.estimated_tokens,
        "chars": r.chars,
        "delivered_chars": r.delivered_chars,
        "delivered_tokens": r.delivered_tokens,
        "deliveries": r.deliveries,
        "over_budget": r.tokens > budget,
        "estimate_over_budget": r.estimated_tokens > budget,
        "blocked": r.blocked,
        "blocks": r.blocks,
        "saved_path": r.saved_path,
        "full_tokens": r.full_tokens,
        "wrote_files": r.wrote_files,
        "launched": iso(r.launched),
        "received": iso(r.received),
        "finished": iso(r.finished),
        "turn": r.turn,
        "skill": r.skill,
    }


def _message(m: Message, budget: int) -> dict[str, Any]:
    return {
        "sender": m.sender,
        "agent_id": m.agent_id,
        "description": m.description,
        "agent_type": m.agent_type,
        "tokens": m.tokens,
        "tokens_source": m.tokens_source,
        "estimated_tokens": m.estimated_tokens,
        "chars": m.chars,
        "delivered_chars": m.delivered_chars,
        "delivered_tokens": m.delivered_tokens,
        "over_budget": m.tokens > budget,
        "estimate_over_budget": m.estimated_tokens > budget,
        "received": iso(m.received),
        "turn": m.turn,
        "skill": m.skill,
    }


def _workflow(w: WorkflowRun, budget: int) -> dict[str, Any]:
    result = w.result
    return {
        "run_id": w.run_id,
        "name": w.name,
        "tool_use_id": w.tool_use_id,
        "status": w.status,
        "launched": iso(w.launched),
        "skill": w.skill,
        "script_path": w.script_path or None,
        "agents": [
            {
                "agent_id": a.agent_id,
                "label": a.label,
                "phase": a.phase,
                "answer_tokens": a.answer_tokens,
                "answer_chars": a.answer_chars,
                "started": iso(a.started),
                "finished": iso(a.finished),
                "wrote_files": a.wrote_files,
            }
            for a in w.agents
        ],
        "agent_count": len(w.agents),
        "reported_agent_count": w.reported_agents,
        "answer_tokens": sum(a.answer_tokens or 0 for a in w.agents),
        "peak_parallel": w.peak_parallel,
        "result_tokens": result.tokens if result else None,
        "result_tokens_source": result.tokens_source if result else None,
        "result_over_budget": bool(result and result.tokens > budget),
    }


def skills_data(totals: SkillTotals) -> dict[str, Any]:
    """The per-skill view: ``skills`` (the costliest first) and ``unattributed``."""
    kinds = totals.kinds
    return {
        "skills": [skill_data(u, kinds) for u in totals.ranked()],
        "unattributed": skill_data(totals.unattributed, kinds),
    }


def skill_data(u: SkillUsage, kinds: list[str]) -> dict[str, Any]:
    """One skill (or, ``name`` None, what ran outside any skill): its counters per kind of item
    (``returns``, ``tokens``, ``max_tokens``, ``over_budget`` for the returns), its rules
    broken with the first sessions as evidence."""
    data: dict[str, Any] = {}
    if u.name is not None:
        data.update(name=u.name, path=u.path)
    data["runs"] = u.runs
    data["sessions"] = u.sessions
    data["hosts"] = dict(sorted(u.hosts.items()))
    for kind in kinds:
        data.update(u.tallies.get(kind, Tally()).as_dict(kind))
    data.update(
        peak_parallel=u.peak_parallel,
        workflow_runs=u.workflow_runs,
        findings=dict(sorted(u.findings.items())),
        evidence=[{**e, "started": iso(e["started"])} for e in u.evidence],
        first_seen=iso(u.first),
        last_seen=iso(u.last),
    )
    return data


def render(audit: Audit, by: str = "session") -> str:
    parts: list[str] = []
    write(audit, parts.append, by)
    return "".join(parts)
