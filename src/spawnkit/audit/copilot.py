"""Read one Copilot CLI session: ``$COPILOT_HOME/session-state/<id>/events.jsonl``.

As Copilot CLI 1.0.102 writes it (tests/fixtures/audit/copilot/, captured from the real
client). One file holds the whole session, sub-agents included: every record is
``{"type", "data", "id", "timestamp", "parentId"}``, and a sub-agent's records carry its
``agentId``. What the audit reads:

- ``session.start``: ``data.context.cwd``, ``data.copilotVersion``;
- ``assistant.message`` of the orchestrator (no ``agentId``): ``data.toolRequests`` — a
  ``task`` call is a launch (``arguments.description``, ``agent_type``, ``mode``);
- ``subagent.started``: the launch's ``toolCallId`` and the sub-agent's ``agentId``;
- ``tool.execution_complete`` of the orchestrator: a sync ``task``'s ``result.content`` is the
  sub-agent's answer as the parent got it; ``success: false`` with ``error.code`` ``denied``
  is a launch a preToolUse hook refused (``error.message`` "Denied by preToolUse hook: …");
  a background ``task`` answers only "Agent started in background…", and the answer comes
  later in a ``read_agent`` result (``arguments.agent_id``);
- ``session.usage_record`` of the orchestrator: each model response's prompt (``inputTokens``,
  every input token), ``outputTokens`` and ``model``, and the window (``maxPromptTokens``); it
  is written before the tool results of that response, so what arrives after it goes into the
  next prompt;
- in a sub-agent's records: ``assistant.message`` (its answers), a ``user.message`` with
  ``source: "system"`` right after one (a subagentStop block's reason, sent as its next
  message), ``tool.execution_start`` of ``create``/``edit``/``bash`` (files it wrote).
"""

from __future__ import annotations

from typing import Any

from spawnkit.audit import signals
from spawnkit.audit.discovery import Source
from spawnkit.audit.jsonl import count, record_type, records, string, timestamp
from spawnkit.audit.model import ContextPoint, InputStats, Session
from spawnkit.audit.reader import Child, Launch, Orchestrator

KNOWN_TYPES = frozenset(
    {
        "session.start",
        "session.resume",
        "session.shutdown",
        "session.info",
        "session.warning",
        "session.error",
        "session.model_change",
        "session.usage_record",
        "session.compaction_start",
        "session.compaction_complete",
        "session.truncation",
        "user.message",
        "system.message",
        "system.notification",
        "assistant.message",
        "assistant.turn_start",
        "assistant.turn_end",
        "assistant.reasoning",
        "tool.execution_start",
        "tool.execution_partial_result",
        "tool.execution_progress",
        "tool.execution_complete",
        "hook.start",
        "hook.end",
        "subagent.started",
        "subagent.configured",
        "subagent.completed",
        "subagent.failed",
        "subagent.selected",
        "skill.invoked",
        "skill.context_delivered_ref",
        "abort",
    }
)
SPAWN_TOOLS = frozenset({"task"})
READ_AGENT = "read_agent"
VIEW_TOOLS = frozenset({"view"})
WRITE_TOOLS = frozenset({"create", "edit"})
SHELL_TOOLS = frozenset({"bash"})


def read(source: Source, stats: InputStats) -> Session | None:
    """The session in ``source.path``; None when not one record is of a type Copilot writes."""
    root = _Root(
        Session(id=source.session_id, host=source.host, path=source.path, project=source.project)
    )
    children: dict[str, _Subagent] = {}
    recognised = 0
    unknown: dict[str, int] = {}
    for record in records(source.path, stats):
        kind = record_type(record)
        if kind not in KNOWN_TYPES:
            unknown[kind] = unknown.get(kind, 0) + 1
            continue
        recognised += 1
        agent = record.get("agentId")
        if isinstance(agent, str) and agent:
            child = children.get(agent)
            if child is None:
                child = children[agent] = _Subagent()
            child.take(record, kind)
            if kind == "subagent.started":
                root.started(agent, record.get("data"))
        else:
            root.feed(record, stats)
    if not recognised:
        if unknown:
            stats.not_transcripts += 1
        return None
    stats.unknown_records.update(unknown)
    root.close()
    session = root.s
    session.subagent_transcripts = len(children)
    for ret in session.returns:
        child = children.get(ret.agent_id)
        if child is not None:
            child.finish().apply(ret)
    root.settle()
    return session


class _Root(Orchestrator):
    known = KNOWN_TYPES

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.calls: dict[str, tuple[str, dict[str, Any]]] = {}  # call id -> (tool, arguments)

    def feed(self, rec: dict[str, Any], stats: InputStats) -> None:
        kind = record_type(rec)
        stamp = rec.get("timestamp")
        self.seen(stamp)
        data = rec.get("data")
        if not isinstance(data, dict):
            return
        if kind == "session.start":
            context = data.get("context")
            cwd = context.get("cwd") if isinstance(context, dict) else None
            self.s.project = self.s.project or (cwd if isinstance(cwd, str) else "")
            self.s.client_version = string(data.get("copilotVersion"))[:40]
        elif kind == "assistant.message":
            calls = data.get("toolRequests")
            for call in calls if isinstance(calls, list) else ():
                if isinstance(call, dict):
                    self._call(call, stamp)
        elif kind == "tool.execution_complete":
            self._result(data, stamp)
        elif kind == "session.usage_record":
            self._usage(data.get("usage"), stamp)
        elif kind == "session.compaction_complete":
            self.compacted()
            self.spans.ended()
        elif kind == "skill.invoked":
            # the model's ``skill`` tool call or the user's /name: its SKILL.md path recorded
            self.spans.invoked(data.get("name"), path=string(data.get("path"))[:4096])
        elif kind == "user.message" and data.get("source") in (None, "user"):
            self.spans.ended()  # a prompt of the user's: a new turn

    def _call(self, call: dict[str, Any], stamp: Any) -> None:
        name = string(call.get("name"))
        call_id = string(call.get("toolCallId"))
        args = call.get("arguments")
        args = args if isinstance(args, dict) else {}
        self.calls[call_id] = (name, args)
        when = timestamp(stamp)
        if name in SPAWN_TOOLS:
            self.launch(
                Launch(
                    call_id,
                    signals.label(
                        args.get("description") or args.get("name") or args.get("prompt")
                    ),
                    when,
                    agent_type=string(args.get("agent_type")),
                    background=args.get("mode") == "background",
                )
            )
        elif name in VIEW_TOOLS and isinstance(args.get("path"), str):
            if signals.is_report(args["path"], self.s.project):
                self.read_back(call_id, args["path"], when)
        elif name in WRITE_TOOLS and isinstance(args.get("path"), str):
            self.wrote(args["path"], when)
        elif name in SHELL_TOOLS and isinstance(args.get("command"), str):
            self.shell(call_id, args["command"], self.s.project, when)

    def started(self, agent_id: str, data: Any) -> None:
        """``subagent.started``: the launch it answers now has its agent id."""
        call_id = string(data.get("toolCallId")) if isinstance(data, dict) else ""
        launch = self.launches.get(call_id)
        if launch is not None and not launch.agent_id:
            launch.agent_id = agent_id
            self.by_agent[agent_id] = launch

    def _result(self, data: dict[str, Any], stamp: Any) -> None:
        call_id = string(data.get("toolCallId"))
        ok = data.get("success") is True
        result = data.get("result")
        error = data.get("error")
        if ok:
            text = string(result.get("content")) if isinstance(result, dict) else ""
        else:
            text = string(error.get("message")) if isinstance(error, dict) else ""
        self.arrived(text)
        self.read_result(call_id, text, refused=not ok)
        name, args = self.calls.get(call_id, ("", {}))
        launch = self.launches.get(call_id)
        if launch is not None and not launch.done:
            if not ok:
                self.refused(launch, text)
            elif not launch.background:
                self.returned(launch, text, stamp)
        elif name == READ_AGENT:
            target = self.by_agent.get(string(args.get("agent_id")))
            if ok and target is not None and not target.done and "[Turn " in text:
                self.returned(target, text, stamp)

    def _usage(self, usage: Any, stamp: Any) -> None:
        if not isinstance(usage, dict):
            return
        window = usage.get("maxPromptTokens")
        if isinstance(window, int) and not isinstance(window, bool) and window > 0:
            self.s.context_window = window
            self.s.context_window_source = "recorded"
        prompt, output = count(usage.get("inputTokens")), count(usage.get("outputTokens"))
        if not prompt:
            return  # nothing sent: no response
        point = ContextPoint(prompt + (output or 0), timestamp(stamp), prompt, output or 0)
        point.model = string(usage.get("model"))[:80]
        self.s.context.append(point)

    def close(self) -> None:
        super().close()
        if not self.s.context:
            self.s.context_source = "none"  # no usage recorded: none invented


class _Subagent(Child):
    """What a sub-agent's own records add: when it ended, what spawnkit held back."""

    known = KNOWN_TYPES

    def __init__(self) -> None:
        super().__init__()
        self.first: Any = None
        self.last: Any = None

    def take(self, rec: dict[str, Any], kind: str) -> None:
        if isinstance(rec.get("timestamp"), str):
            self.first = self.first or rec["timestamp"]
            self.last = rec["timestamp"]
        self.feed(rec, kind)

    def feed(self, rec: dict[str, Any], kind: str) -> None:
        data = rec.get("data")
        if not isinstance(data, dict):
            return
        if kind == "assistant.message":
            content = string(data.get("content"))
            if content:
                self.new_answer()
                self.parts.append(content)
        elif kind == "user.message" and data.get("source") == "system":
            self.block(string(data.get("transformedContent")) or string(data.get("content")))
        elif kind == "tool.execution_start":
            name = string(data.get("toolName"))
            args = data.get("arguments")
            if name in WRITE_TOOLS:
                self.facts.wrote_files = True
            elif name in SHELL_TOOLS and isinstance(args, dict):
                command = args.get("command")
                if isinstance(command, str) and signals.shell_writes_file(command):
                    self.facts.wrote_files = True

    def finish(self):  # noqa: ANN201 - SubagentFacts
        self.facts.started = timestamp(self.first)
        self.facts.finished = timestamp(self.last)
        return self.facts
