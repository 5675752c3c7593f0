"""Task notifications: what Claude Code hands the orchestrator when a background task ends.

Claude Code 2.1.330 runs sub-agents in the background by default and ``Workflow`` scripts
always; when one ends, the orchestrator receives a ``<task-notification>``, which is also the
``prompt`` of a UserPromptSubmit (observed in the real client): ``<task-id>``,
``<tool-use-id>``, ``<status>`` (``completed``, ``failed``, ``killed``; ``blocked`` is not an
end), ``<summary>``, ``<result>`` (the text the orchestrator receives; the client cuts a
workflow's to 8,000 characters) and, for a workflow, ``<diagnostics>`` naming
``…/subagents/workflows/<runId>/journal.jsonl``. The other task signals (``background_tasks``
on Stop and SubagentStop, a workflow's agents) are read through ``Call``.

Pure parsing, standard library only, bounded (a prompt holds at most ``MAX_NOTIFICATIONS``
notifications; each field is cut at ``MAX_FIELD`` characters, the result excepted). Imported
only for a prompt that holds a notification.
"""

from __future__ import annotations

from spawnkit.hook.call import STILL_RUNNING

OPEN = "<task-notification>"
CLOSE = "</task-notification>"
MAX_NOTIFICATIONS = 64
MAX_FIELD = 4096
HEAD = 4096  # a delivered prompt opens with its first item within this many characters


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
    if OPEN not in prompt[:HEAD]:
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
