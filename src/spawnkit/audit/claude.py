"""Read one Claude Code session: the orchestrator's transcript and its sub-agents' transcripts.

Formats as Claude Code 2.1.330 writes them (see tests/fixtures/audit/claude/, captured from the
real client). ``<config>/projects/<project>/<session>.jsonl`` holds the orchestrator:

- ``assistant`` records, one per content block, with ``message.id`` and ``message.usage``
  (input, cache and output tokens: the context size of that model response);
- ``Agent`` (formerly ``Task``) ``tool_use`` blocks: the launches;
- ``user`` records with a ``tool_result`` for each: a foreground return carries
  ``toolUseResult.content`` (the sub-agent's final words) and ``agentId``; a background launch
  answers ``status: async_launched``; a launch a hook refused is an ``is_error`` result;
- background returns arrive later as ``<task-notification>`` text in a ``queued_command``
  attachment (or a user message): ``<tool-use-id>`` and ``<result>``;
- what a sub-agent sent the orchestrator with ``SendMessage`` arrives the same two ways: a
  ``user`` message (``Another Claude session sent a message: <agent-message from="…">…``,
  the orchestrator idle) or a ``queued_command`` attachment (busy), both with ``origin``
  ``{kind: "peer", from, senderTaskId}``; the ``queue-operation`` records that queue it are
  copies, never read.

``<session>/subagents/agent-<agentId>.jsonl`` holds a sub-agent (2.0.x: ``agent-<id>.jsonl``
beside the session); a SubagentStop block shows there as a ``hook_blocking_error`` attachment
after the answer it held back. A ``Workflow`` call answers ``async_launched`` with a ``runId``;
its result comes back in a notification and its files are read by ``workflows``.

Older clients differ (see tests/fixtures/audit-real): 2.0.x writes a response streamed into
several records with a provisional output count on all but the last; a resumed session
replays its history (the same message ids and tool calls again); ``<synthetic>`` messages
(API errors, interruptions) carry all-zero usage; 1.0.x keeps sub-agents' records
(``isSidechain``) in the main file.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from spawnkit import tokens
from spawnkit.audit import signals, skills, workflows
from spawnkit.audit.discovery import Source
from spawnkit.audit.jsonl import count, record_type, sections, string, text_of, timestamp
from spawnkit.audit.model import ContextPoint, InputStats, Message, Session, WorkflowRun
from spawnkit.audit.reader import Child, Launch, Orchestrator, read_session
from spawnkit.hook import agent_messages, tasks

AGENT_TOOLS = frozenset({"Agent", "Task"})
WORKFLOW_TOOL = "Workflow"
SKILL_TOOL = "Skill"  # the model invoking a skill (or, 2.1.x, a custom command): input.skill
# User records that are the client's, not a prompt: a built-in command's output and caveat,
# an interruption; and anywhere in the text, a background agent's notification or a sub-agent's
# message (both arrive as user records).
_NOT_PROMPTS = (
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "[Request interrupted by user",
)
_DELIVERED = (tasks.OPEN, agent_messages.OPEN + " ")


def _from_the_client(text: str) -> bool:
    """A user record's text that the client wrote, not the user: no prompt."""
    head = text[:4096]
    return text.startswith(_NOT_PROMPTS) or any(mark in head for mark in _DELIVERED)


KNOWN_TYPES = frozenset(
    {
        "user",
        "assistant",
        "attachment",
        "system",
        "summary",
        "progress",
        "queue-operation",
        "api-request",
        "api-request-shape",
        "api-request-blob",
        "tools-used",
        "last-prompt",
        "atis-latch",
        "cost-state",
        "file-history-snapshot",
        "custom-title",
        "mode",
    }
)
# Records never needed, recognised by their first bytes so they are not even parsed.
_SKIP_TYPES = frozenset(
    {
        b"api-request",
        b"api-request-shape",
        b"api-request-blob",
        b"queue-operation",
        b"tools-used",
        b"last-prompt",
        b"atis-latch",
        b"cost-state",
        b"file-history-snapshot",
        b"mode",
    }
)
_SKIP_ATTACHMENTS = frozenset(
    {
        b"prompt_snapshot",
        b"skill_listing",
        b"agent_listing_delta",
        b"deferred_tools_delta",
        b"environment",
        b"model",
        b"auto_mode",
        b"remote_session_change",
        b"date",
        b"session_context",
        b"hook_success",
        b"hook_additional_context",
        b"hook_system_message",
    }
)
_TYPE_HEAD = b'{"type":"'
_ATTACHMENT_HEAD = b'"attachment":{"type":"'

_AGENT_ID = re.compile(r"agentId: ([A-Za-z0-9_-]+)")


def skip_line(line: bytes) -> bool:
    """True for a compact record the audit never needs (API request copies, listings…)."""
    if line.startswith(_TYPE_HEAD):
        end = line.find(b'"', 9, 80)
        return end != -1 and line[9:end] in _SKIP_TYPES
    at = line.find(_ATTACHMENT_HEAD, 0, 400)
    if at != -1:
        start = at + len(_ATTACHMENT_HEAD)
        end = line.find(b'"', start, start + 80)
        return end != -1 and line[start:end] in _SKIP_ATTACHMENTS
    return False


def read(source: Source, stats: InputStats) -> Session | None:
    return read_session(source, stats, _Orchestrator, _Subagent)


class _Orchestrator(Orchestrator):
    skip = staticmethod(skip_line)
    known = KNOWN_TYPES

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.responses: dict[str, int] = {}  # message id -> its context point
        self.notes: set[tuple[str, int, int]] = set()
        self.estimated = 0  # running estimate, used only while no usage has been recorded
        self.usage_seen = False
        self.runs: dict[str, WorkflowRun] = {}  # by run id
        self.run_launches: dict[str, Launch] = {}  # Workflow tool_use id -> its launch
        self.deliveries: set[str] = set()  # records that delivered agent messages
        self.own_records = 0  # messages of this conversation
        self.sidechain_records = 0  # messages of a sub-agent's (older clients mixed them in)
        self.skill_calls: dict[str, str] = {}  # Skill tool_use id -> the skill it invokes
        self.commands_seen: set[str] = set()  # uuids of /name records (a replay repeats them)
        self.run_scripts: dict[str, str] = {}  # Workflow tool_use id -> its scriptPath

    def feed(self, rec: dict[str, Any], stats: InputStats) -> None:
        kind = record_type(rec)
        stamp = rec.get("timestamp")
        self.seen(stamp)
        if not self.s.project and isinstance(rec.get("cwd"), str):
            self.s.project = rec["cwd"]
            self.s.client_version = str(rec.get("version") or "")[:40]
        if rec.get("isSidechain") is True:
            self.sidechain_records += 1
            return  # older clients kept sub-agent records in the main file
        self.own_records += kind in ("user", "assistant")
        if kind == "assistant":
            self._assistant(rec)
        elif kind == "user":
            self._user(rec)
        elif kind == "attachment":
            att = rec.get("attachment")
            if isinstance(att, dict) and att.get("type") == "queued_command":
                prompt = att.get("prompt")
                if isinstance(prompt, str):
                    self._estimate(prompt)
                    self.arrived(prompt)
                    self._delivered(prompt, stamp, att.get("origin"), rec.get("uuid"))
                    if not _from_the_client(prompt):
                        self.spans.ended()  # the user's words, queued while the model worked
        elif kind == "system" and rec.get("subtype") == "compact_boundary":
            self.compacted()
            self.spans.ended()

    # --- records ------------------------------------------------------------------------------

    def _assistant(self, rec: dict[str, Any]) -> None:
        msg = rec.get("message")
        if not isinstance(msg, dict):
            return
        content = msg.get("content")
        if not self.usage_seen:
            self._estimate(text_of(content))
        self.record_tag = self.spans.tag(rec.get("attributionSkill"))
        self._point(msg, rec)
        if not isinstance(content, list):
            return
        cwd = self.s.project
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_use":
                self._tool_use(block, rec, cwd)

    def _point(self, msg: dict[str, Any], rec: dict[str, Any]) -> None:
        """The context point of this response. A response streamed into several records (one
        per content block, one message id) is one point, with the usage of its last record:
        the first ones carry a provisional output count. A synthetic message (an API error,
        an interruption) records no usage of a real request and is no point."""
        model = string(msg.get("model"))
        if model == "<synthetic>" or rec.get("isApiErrorMessage") is True:
            return
        key = msg.get("id") or rec.get("requestId") or rec.get("uuid")
        if not isinstance(key, str):
            return
        usage = _usage(msg.get("usage"))
        known = self.responses.get(key)
        if known is not None:
            point = self.s.context[known]
            if usage is not None and point.output is not None and usage[1] >= point.output:
                point.prompt, point.output = usage
                point.tokens = sum(usage)
            return
        if usage is not None:
            self.usage_seen = True
            point = ContextPoint(sum(usage), timestamp(rec.get("timestamp")), *usage, model[:80])
        elif not self.usage_seen:
            point = ContextPoint(self.estimated, timestamp(rec.get("timestamp")), model=model[:80])
        else:
            return
        self.responses[key] = len(self.s.context)
        self.s.context.append(point)

    def _tool_use(self, block: dict[str, Any], rec: dict[str, Any], cwd: str) -> None:
        name = string(block.get("name"))
        tool_id = str(block.get("id") or "")
        args = block.get("input") if isinstance(block.get("input"), dict) else {}
        when = timestamp(rec.get("timestamp"))
        if name in AGENT_TOOLS:
            if tool_id in self.launches:
                return  # the same call again: a resumed session replays its history
            self.launch(
                Launch(
                    tool_id,
                    signals.label(args.get("description")),
                    when,
                    agent_type=signals.label(args.get("subagent_type")),
                    background=args.get("run_in_background") is True,
                )
            )
        elif name == WORKFLOW_TOOL:
            if tool_id not in self.run_launches:
                script = string(args.get("scriptPath"))[:4096]
                label = args.get("name") or posixpath.basename(script)
                self.run_launches[tool_id] = Launch(
                    tool_id,
                    signals.label(label),
                    when,
                    background=True,
                    kind="workflow",
                    mark=self.spans.mark(self.record_tag),
                )
                self.run_scripts[tool_id] = script
        elif name == SKILL_TOOL:
            if tool_id not in self.skill_calls:
                self.skill_calls[tool_id] = string(args.get("skill"))
        elif name == "Read":
            path = args.get("file_path")
            if isinstance(path, str) and signals.is_report(path, cwd):
                self.read_back(tool_id, path, when)
        elif name in signals.WRITE_TOOLS:
            path = args.get("file_path") or args.get("notebook_path")
            if isinstance(path, str):
                self.wrote(path, when)
        elif name == "Bash":
            command = args.get("command")
            if isinstance(command, str):
                self.shell(tool_id, command, cwd, when)

    def _user(self, rec: dict[str, Any]) -> None:
        msg = rec.get("message")
        content = msg.get("content") if isinstance(msg, dict) else None
        stamp = rec.get("timestamp")
        if isinstance(content, str):
            self._estimate(content)
            self.arrived(content)
            self._delivered(content, stamp, rec.get("origin"), rec.get("uuid"))
            self._said(rec, content)
            return
        if not isinstance(content, list):
            return
        kinds = [b.get("type") for b in content if isinstance(b, dict)]
        if "text" in kinds and "tool_result" not in kinds:
            first = next(b for b in content if isinstance(b, dict) and b.get("type") == "text")
            self._said(rec, first.get("text") if isinstance(first.get("text"), str) else "")
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text":
                text = block.get("text")
                if isinstance(text, str):
                    self._estimate(text)
                    self.arrived(text)
                    self._delivered(text, stamp, rec.get("origin"), rec.get("uuid"))
            elif block.get("type") == "tool_result":
                self._tool_result(block, rec)

    def _said(self, rec: dict[str, Any], text: str) -> None:
        """A user record of text: the skill it invokes (``/name``), the folder the running skill
        was loaded from, or a real prompt, which ends the running skill's span."""
        if rec.get("isCompactSummary") is True:
            return
        if rec.get("isMeta") is True:
            self.spans.located(skills.base_directory(text))
            return
        command = skills.command_name(text)
        if command is not None:
            key = rec.get("uuid")
            if isinstance(key, str) and key:
                if key in self.commands_seen:
                    return  # a resumed session replays its history
                self.commands_seen.add(key)
            name = skills.clean_name(command)
            if name and not skills.is_builtin(name):
                self.spans.invoked(name)
            else:
                self.spans.ended()  # /clear, /compact…: the client's own, typed like a prompt
            return
        if not _from_the_client(text):
            self.spans.ended()

    def _tool_result(self, block: dict[str, Any], rec: dict[str, Any]) -> None:
        tool_id = str(block.get("tool_use_id") or "")
        text = text_of(block.get("content"))
        self._estimate(text)
        self.arrived(text)
        error = block.get("is_error") is True
        self.read_result(tool_id, text, refused=error)
        skill = self.skill_calls.pop(tool_id, None)
        if skill is not None and not error:
            self.spans.invoked(skill)  # a failed call loads nothing: no span (as the client)
        result = rec.get("toolUseResult")
        run = self.run_launches.get(tool_id)
        if run is not None and not run.agent_id and isinstance(result, dict):
            run_id = result.get("runId")
            if isinstance(run_id, str) and run_id:
                run.agent_id = run_id[:80]
                name = signals.label(result.get("workflowName")) or run.description
                run.description = name
                found = self._run(run_id)
                found.name, found.tool_use_id, found.launched = name, tool_id, run.launched
                found.script_path = self.run_scripts.get(tool_id, "")
                self.spans.attach(found, run.mark)
            return
        launch = self.launches.get(tool_id)
        if launch is None or launch.done:
            return
        if error or isinstance(result, str) and result.startswith("Error"):
            self.refused(launch, text)
            return
        result = result if isinstance(result, dict) else {}
        agent_id = result.get("agentId")
        if not isinstance(agent_id, str):
            found = _AGENT_ID.search(text)
            agent_id = found.group(1) if found else ""
        launch.agent_id = agent_id
        if agent_id:
            self.by_agent[agent_id] = launch
        if result.get("status") == "async_launched" or text.startswith("Async agent launched"):
            launch.background = True
            return
        words = result.get("content")
        said = text_of(words) if isinstance(words, list) else _unframe(text)
        self.returned(launch, said, rec.get("timestamp"), received=text)

    def _delivered(self, text: str, stamp: Any, origin: Any, key: Any) -> None:
        """Agent messages and task notifications in what reached the orchestrator (a message's
        text is never read as a notification: the hook's parser cuts the messages out)."""
        if agent_messages.OPEN + " " in text:
            messages, text = agent_messages.split(text)
            if messages:
                self._messages(messages, stamp, origin, key)
        if tasks.OPEN in text:
            self._notifications(text, stamp)

    def _messages(
        self, messages: list[agent_messages.AgentMessage], stamp: Any, origin: Any, key: Any
    ) -> None:
        """Sub-agents' messages to the orchestrator: sub-agent text in its context."""
        if isinstance(key, str) and key:
            if key in self.deliveries:
                return  # a resumed session replays its history
            self.deliveries.add(key)
        sender_id = origin.get("senderTaskId") if isinstance(origin, dict) else None
        when = timestamp(stamp)
        for message in messages:
            agent_id = sender_id if isinstance(sender_id, str) else message.sender
            launch = self.by_agent.get(agent_id)
            estimate = tokens.estimate(message.body)
            self.s.messages.append(
                found := Message(
                    sender=signals.label(message.sender),
                    tokens=estimate,
                    agent_id=agent_id[:80] if launch or sender_id else "",
                    description=launch.description if launch else "",
                    agent_type=launch.agent_type if launch else "",
                    estimated_tokens=estimate,
                    chars=len(message.body),
                    delivered_chars=len(message.body) + len(message.sender) + 40,
                    received=when,
                    turn=self.gap(),
                )
            )
            # its sender's skill: the one its launch was made in (none when it is unknown)
            self.spans.attach(found, launch.mark if launch else skills.Mark(None, None))

    def _notifications(self, text: str, stamp: Any) -> None:
        for note in sections(text, tasks.OPEN, tasks.CLOSE):
            # the hook's reading of the same notification (spawnkit.hook.tasks)
            parsed = tasks.Notification(note)
            result, status = parsed.result, parsed.status[:40]
            tool, task = parsed.tool_use_id or None, parsed.task_id or None
            launch = self.launches.get(tool) if tool else None
            if launch is None and task:
                launch = self.by_agent.get(task)
            if launch is None and tool:
                launch = self.run_launches.get(tool)
            if launch is None or (result is None and not status):
                continue
            words = result or ""
            key = (launch.tool_use_id, len(words), hash(words))
            if key in self.notes or launch.done:
                continue
            self.notes.add(key)
            launch.background = True
            if not launch.agent_id and task:
                launch.agent_id = task
            ret = self.returned(launch, words, stamp, received=note)
            ret.status = status or ret.status
            if launch.kind == "workflow":
                run = self._run(launch.agent_id)
                run.result, run.status = ret, ret.status
                run.reported_agents = _agent_count(note)

    def _run(self, run_id: str) -> WorkflowRun:
        run = self.runs.get(run_id)
        if run is None:
            run = self.runs[run_id] = WorkflowRun(run_id)
        return run

    def _estimate(self, text: str) -> None:
        if not self.usage_seen and text:
            self.estimated += tokens.estimate(text)

    def is_subagent(self) -> bool:
        return self.own_records == 0 and self.sidechain_records > 0

    def close(self) -> None:
        super().close()
        if self.s.context and not self.usage_seen:
            self.s.context_source = "estimate"

    def finish(self, source: Source, stats: InputStats) -> None:
        """Each workflow run of the session: the ones it launched and the ones on disk."""
        for run_id in source.workflows:
            self._run(run_id)
        for run_id, run in self.runs.items():
            files = source.workflows.get(run_id)
            if files is not None:
                workflows.read_run(run, files, stats, lambda path, st: _Subagent().read(path, st))
            self.s.workflows.append(run)


def _agent_count(note: str) -> int | None:
    count = next(sections(note, "<agent_count>", "</agent_count>"), "").strip()
    return int(count) if count.isdigit() and len(count) < 7 else None


def _usage(usage: Any) -> tuple[int, int] | None:
    """(prompt, output) a response's usage records: the prompt counts every input token,
    cached or not (input + cache writes + cache reads); None when nothing usable is there, or
    all of it is zero (a placeholder, not a request)."""
    if not isinstance(usage, dict):
        return None
    prompt = [count(usage.get(k)) for k in _PROMPT_KEYS]
    output = count(usage.get("output_tokens"))
    if all(n is None for n in prompt) or not any(prompt):
        return None
    return sum(n or 0 for n in prompt), output or 0


_PROMPT_KEYS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


def _unframe(text: str) -> str:
    """A foreground result as the sub-agent wrote it, without the client's hand-back frame."""
    framed = next(sections(text, "The report follows:\n", "\nagentId: "), None)
    if framed is None:
        return text
    return "\n".join(line.removeprefix("  ") for line in framed.split("\n"))


class _Subagent(Child):
    """What a sub-agent's own transcript adds: when it ended, what spawnkit held back."""

    skip = staticmethod(skip_line)
    known = KNOWN_TYPES

    def __init__(self) -> None:
        super().__init__()
        self.answer_id: Any = None  # one answer may span records: they share a message id

    def feed(self, rec: dict[str, Any], kind: str) -> None:
        if kind == "assistant":
            msg = rec.get("message")
            if not isinstance(msg, dict) or not isinstance(msg.get("content"), list):
                return
            if msg.get("id") != self.answer_id:
                self.answer_id = msg.get("id")
                self.new_answer()
            for block in msg["content"]:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "text" and isinstance(block.get("text"), str):
                    self.parts.append(block["text"])
                elif block.get("type") == "tool_use":
                    self.facts.wrote_files |= _writes(block)
        elif kind == "attachment":
            att = rec.get("attachment")
            if not isinstance(att, dict) or att.get("type") != "hook_blocking_error":
                return
            if att.get("hookEvent") != "SubagentStop":
                return
            error = att.get("blockingError")
            text = error.get("blockingError") if isinstance(error, dict) else error
            if isinstance(text, str):
                self.block(text)
        elif kind == "user" and rec.get("isMeta") is True:
            msg = rec.get("message")
            text = text_of(msg.get("content")) if isinstance(msg, dict) else ""
            if text.startswith("Stop hook feedback:"):
                self.block(text)
        elif kind == "user":
            msg = rec.get("message")
            content = msg.get("content") if isinstance(msg, dict) else None
            for block in content if isinstance(content, list) else ():
                if (
                    isinstance(block, dict)
                    and block.get("type") == "tool_result"
                    and block.get("is_error") is True
                    and signals.refused_message(text_of(block.get("content")))
                ):
                    self.facts.held_messages += 1  # a SendMessage spawnkit refused


def _writes(block: dict[str, Any]) -> bool:
    name = string(block.get("name"))
    if name in signals.WRITE_TOOLS:
        return True
    args = block.get("input")
    if name == "Bash" and isinstance(args, dict) and isinstance(args.get("command"), str):
        return signals.shell_writes_file(args["command"])
    return False
