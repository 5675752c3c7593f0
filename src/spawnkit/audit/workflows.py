"""Read one Claude Code workflow run: its journal and its agents' transcripts.

As Claude Code 2.1.330 writes them (tests/fixtures/audit/claude/workflow-*, captured from the
real client): a ``Workflow`` tool call answers at once with ``status: async_launched`` and a
``runId``; the run's files lie in ``<session>/subagents/workflows/<runId>/``:

- ``journal.jsonl``: ``{"type": "launched"}``, then per agent ``{"type": "started", "agentId",
  "label", "phase"}`` and, once it answered, ``{"type": "result", "agentId", "result"}`` with
  its whole answer (a string, or the object a schema agent gave through ``StructuredOutput``);
- ``agent-<agentId>.jsonl``: each agent's transcript, in the sub-agents' format.

The agents' answers go to the script, not to the orchestrator: what reaches its context is the
script's return value, in a ``<task-notification>`` (``claude.py`` reads that as the run's
return, judged against the return budget like any sub-agent's).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from spawnkit import tokens
from spawnkit.audit.discovery import JOURNAL
from spawnkit.audit.jsonl import record_type, records, string
from spawnkit.audit.model import InputStats, SubagentFacts, WorkflowAgent, WorkflowRun
from spawnkit.audit.signals import label

ReadAgent = Callable[[str, InputStats], SubagentFacts]


def read_run(
    run: WorkflowRun, files: dict[str, str], stats: InputStats, read_agent: ReadAgent
) -> None:
    """Fill ``run`` from its journal and its agents' transcripts (``files``: ``JOURNAL`` and
    agent ids to paths)."""
    agents: dict[str, WorkflowAgent] = {}

    def agent(agent_id: Any) -> WorkflowAgent | None:
        if not isinstance(agent_id, str) or not agent_id:
            return None
        found = agents.get(agent_id[:80])
        if found is None:
            found = agents[agent_id[:80]] = WorkflowAgent(agent_id[:80])
        return found

    journal = files.get(JOURNAL)
    if journal:
        for record in records(journal, stats):
            kind = record_type(record)
            if kind == "started":
                found = agent(record.get("agentId"))
                if found is not None:
                    found.label = label(record.get("label"))
                    found.phase = label(record.get("phase"))
            elif kind == "result":
                found = agent(record.get("agentId"))
                if found is not None:
                    answer = _text(record.get("result"))
                    found.answer_chars = len(answer)
                    found.answer_tokens = tokens.estimate(answer)
            elif kind not in ("launched", "completed", "failed"):
                stats.unknown_records[f"journal:{kind}"] += 1
    for agent_id, path in files.items():
        if agent_id == JOURNAL:
            continue
        found = agent(agent_id)
        if found is None:
            continue
        facts = read_agent(path, stats)
        found.started, found.finished = facts.started, facts.finished
        found.wrote_files = facts.wrote_files
    run.agents = sorted(agents.values(), key=lambda a: (a.started is None, a.started or 0))


def _text(result: Any) -> str:
    """An agent's answer as text: itself, or the JSON of the object a schema agent gave."""
    if isinstance(result, str):
        return result
    if result is None:
        return ""
    try:
        return json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        return string(result)
