"""What Claude Code says about its background tasks, read from hook payloads.

Claude Code 2.1.330 runs sub-agents in the background by default, stops them with
``TaskStop`` and runs ``Workflow`` scripts whose agents answer to the script. None
of that goes through SubagentStop alone, so the hook reads every other signal the
client gives (all observed in the real client):

* a ``<task-notification>`` (the ``prompt`` of a UserPromptSubmit) when a background
  agent or a workflow ends: ``<task-id>``, ``<tool-use-id>``, ``<status>``
  (``completed``, ``failed``, ``killed``; ``blocked`` is not an end), ``<summary>``,
  ``<result>`` (the text the orchestrator receives) and, for a workflow,
  ``<diagnostics>`` naming ``…/subagents/workflows/<runId>/journal.jsonl``;
* ``background_tasks`` on Stop and SubagentStop: every background task of the session
  still running (``id``, ``type`` ``subagent`` or ``workflow``, ``status``,
  ``description``, ``agent_type``);
* a workflow's agents: ``agent_type`` ``workflow-subagent`` (or the ``agentType`` the
  script chose) and a transcript under ``subagents/workflows/``.

Pure parsing, standard library only, bounded (a prompt holds at most
``MAX_NOTIFICATIONS`` notifications; each field is cut at ``MAX_FIELD`` characters,
the result excepted).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

OPEN = "<task-notification>"
CLOSE = "</task-notification>"
WORKFLOW_AGENT_TYPE = "workflow-subagent"
WORKFLOW_TRANSCRIPTS = "/subagents/workflows/"
# A status other than these ends the task (completed, failed, killed, and any the client adds).
STILL_RUNNING = ("running", "blocked", "pending")
MAX_NOTIFICATIONS = 64
MAX_FIELD = 4096
MAX_LISTED = 256


class Notification:
    """One ``<task-notification>``; a missing field is ""; ``result`` None when absent."""

    __slots__ = ("task_id", "tool_use_id", "status", "summary", "result", "journal")

    def __init__(self, body: str) -> None:
        self.task_id = _field(body, "task-id")
        self.tool_use_id = _field(body, "tool-use-id")
        self.status = _field(body, "status").lower()
        self.summary = _field(body, "summary")
        self.result = _element(body, "result")
        self.journal = journal_path(_field(body, "diagnostics", 1 << 16))

    @property
    def ended(self) -> bool:
        return bool(self.status) and self.status not in STILL_RUNNING

    @property
    def is_workflow(self) -> bool:
        return bool(self.journal) or self.summary.startswith("Dynamic workflow")

    @property
    def name(self) -> str:
        """The quoted name in the summary (``Agent "audit" finished``), else the summary."""
        first = self.summary.find('"')
        last = self.summary.rfind('"')
        return self.summary[first + 1 : last] if 0 <= first < last else self.summary


def notifications(prompt: str) -> list[Notification]:
    """The notifications a UserPromptSubmit prompt carries (none for a person's prompt)."""
    found: list[Notification] = []
    if OPEN not in prompt[:4096]:
        return found  # a notification prompt starts with one; a person's prompt is left alone
    start = prompt.find(OPEN)
    while start != -1 and len(found) < MAX_NOTIFICATIONS:
        end = prompt.find(CLOSE, start)
        if end == -1:
            end = len(prompt)
        found.append(Notification(prompt[start + len(OPEN) : end]))
        start = prompt.find(OPEN, end)
    return found


def _element(body: str, tag: str) -> str | None:
    """The text inside the first ``<tag>…</tag>``; None when there is none.

    The result can itself hold tags (a sub-agent's answer is free text), so it runs to
    the last closing tag of its name.
    """
    start = body.find(f"<{tag}>")
    if start == -1:
        return None
    start += len(tag) + 2
    end = body.rfind(f"</{tag}>")
    return body[start:end] if end >= start else body[start:]


def _field(body: str, tag: str, limit: int = MAX_FIELD) -> str:
    start = body.find(f"<{tag}>")
    if start == -1:
        return ""
    start += len(tag) + 2
    end = body.find(f"</{tag}>", start)
    return body[start : end if end != -1 else len(body)][:limit].strip()


def journal_path(diagnostics: str) -> str:
    """The per-agent results file a workflow notification names (``…/journal.jsonl``), or ""."""
    end = diagnostics.find("journal.jsonl")
    if end == -1:
        return ""
    end += len("journal.jsonl")
    start = end
    while start > 0 and not diagnostics[start - 1].isspace():
        start -= 1
    return diagnostics[start:end]


def listed(payload: dict[str, Any]) -> list[dict[str, Any]] | None:
    """``background_tasks`` of a Stop or SubagentStop payload; None when the client sent none."""
    tasks = payload.get("background_tasks")
    if not isinstance(tasks, list):
        return None
    return [t for t in tasks[:MAX_LISTED] if isinstance(t, dict) and isinstance(t.get("id"), str)]


def running_of_type(tasks: list[dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    """The listed tasks of one ``type`` (``subagent``, ``workflow``) still running, by id."""
    return {
        t["id"]: t
        for t in tasks
        if t.get("type") == kind and str(t.get("status") or "running") in STILL_RUNNING
    }


def is_workflow_agent(agent_type: str, transcript: str) -> bool:
    """True for an agent a Workflow script started: its answer goes to the script."""
    return agent_type == WORKFLOW_AGENT_TYPE or WORKFLOW_TRANSCRIPTS in transcript.replace(
        "\\", "/"
    )
