"""Read one Qwen Code session: ``~/.qwen/projects/<project>/chats/<session>.jsonl`` and its
sub-agents' ``~/.qwen/projects/<project>/subagents/<session>/agent-<agent id>.jsonl``.

As Qwen Code 0.24.4 writes them (captured from the real client, tests/fixtures/audit/qwen/).
Every record is ``{"uuid", "parentUuid", "sessionId", "timestamp", "type", "cwd", "version",
…}``; what the audit reads:

- ``assistant`` (the orchestrator's model response): ``message.parts`` holds its text and
  ``functionCall``s ({``id``, ``name``, ``args``}), ``usageMetadata`` the response's
  ``promptTokenCount`` (every input token) and ``candidatesTokenCount``;
- an ``agent`` call is a launch (``description``, ``subagent_type``, ``run_in_background``,
  which is on unless set to false); its sub-agent's id is ``<subagent_type>-<call id>``;
- ``tool_result``: ``message.parts[].functionResponse`` ({``id``, ``response``: ``output`` or
  ``error``}) and ``toolCallResult.resultDisplay.executionMode`` (foreground: the output is
  the sub-agent's answer; background: a launch notice); an ``error`` with ``errorType``
  ``execution_denied`` is a launch a hook refused;
- ``user`` with ``subtype: "notification"``: ``<task-notification>`` blocks, Claude Code's
  format, one per background agent that ended (its ``<result>`` is what the orchestrator got);
- a sub-agent's file: ``assistant`` records (its answers) and a ``user`` record with
  ``externalInputKind: "message"`` after one (a SubagentStop block's reason).
"""

from __future__ import annotations

from typing import Any

from spawnkit.audit import signals
from spawnkit.audit.discovery import Source
from spawnkit.audit.jsonl import count, record_type, sections, string, timestamp
from spawnkit.audit.model import ContextPoint, InputStats, Session
from spawnkit.audit.reader import Child, Launch, Orchestrator, read_session
from spawnkit.hook import tasks

KNOWN_TYPES = frozenset({"user", "assistant", "system", "tool_result"})
SPAWN_TOOLS = frozenset({"agent"})
READ_TOOLS = frozenset({"read_file"})
WRITE_TOOLS = frozenset({"write_file", "edit"})
SHELL_TOOLS = frozenset({"run_shell_command"})


def read(source: Source, stats: InputStats) -> Session | None:
    return read_session(source, stats, _Root, _Subagent)


def _parts(rec: dict[str, Any]) -> list[dict[str, Any]]:
    message = rec.get("message")
    parts = message.get("parts") if isinstance(message, dict) else None
    return [p for p in parts if isinstance(p, dict)] if isinstance(parts, list) else []


def _text(parts: list[dict[str, Any]]) -> str:
    return "\n".join(p["text"] for p in parts if isinstance(p.get("text"), str))


class _Root(Orchestrator):
    known = KNOWN_TYPES

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.notes: set[tuple[str, int]] = set()

    def feed(self, rec: dict[str, Any], stats: InputStats) -> None:
        kind = record_type(rec)
        stamp = rec.get("timestamp")
        if rec.get("isSidechain") is True or rec.get("agentId"):
            return  # a sub-agent's record (its own file holds them)
        self.seen(stamp)
        if not self.s.project and isinstance(rec.get("cwd"), str):
            self.s.project = rec["cwd"]
        if not self.s.client_version:
            self.s.client_version = string(rec.get("version"))[:40]
        if kind == "assistant":
            self._response(rec, stamp)
        elif kind == "tool_result":
            self._results(rec, stamp)
        elif kind == "user":
            text = _text(_parts(rec))
            self.arrived(text)
            if tasks.OPEN in text:
                self._notifications(text, stamp)
        elif kind == "system" and string(rec.get("subtype")) in ("chat_compression", "compact"):
            self.compacted()

    def _response(self, rec: dict[str, Any], stamp: Any) -> None:
        when = timestamp(stamp)
        usage = rec.get("usageMetadata")
        if isinstance(usage, dict):
            prompt = count(usage.get("promptTokenCount"))
            output = count(usage.get("candidatesTokenCount")) or 0
            if prompt:
                point = ContextPoint(prompt + output, when, prompt, output)
                point.model = string(rec.get("model"))[:80]
                self.s.context.append(point)
        for part in _parts(rec):
            call = part.get("functionCall")
            if isinstance(call, dict):
                self._call(call, when)

    def _call(self, call: dict[str, Any], when: float | None) -> None:
        name, call_id = string(call.get("name")), string(call.get("id"))
        args = call.get("args")
        args = args if isinstance(args, dict) else {}
        if name in SPAWN_TOOLS:
            agent_type = string(args.get("subagent_type")) or "general-purpose"
            launch = Launch(
                call_id,
                signals.label(args.get("description") or args.get("prompt")),
                when,
                agent_type=agent_type,
                agent_id=f"{agent_type}-{call_id}",
                background=args.get("run_in_background") is not False,
            )
            self.launches[call_id] = launch
            self.by_agent[launch.agent_id] = launch
        elif name in READ_TOOLS and isinstance(args.get("file_path"), str):
            if signals.is_report(args["file_path"], self.s.project):
                self.read_back(call_id, args["file_path"], when)
        elif name in WRITE_TOOLS and isinstance(args.get("file_path"), str):
            self.wrote(args["file_path"], when)
        elif name in SHELL_TOOLS and isinstance(args.get("command"), str):
            self.shell(call_id, args["command"], self.s.project, when)

    def _results(self, rec: dict[str, Any], stamp: Any) -> None:
        outcome = rec.get("toolCallResult")
        outcome = outcome if isinstance(outcome, dict) else {}
        display = outcome.get("resultDisplay")
        for part in _parts(rec):
            response = part.get("functionResponse")
            if not isinstance(response, dict):
                continue
            call_id = string(response.get("id"))
            body = response.get("response")
            body = body if isinstance(body, dict) else {}
            error = "error" in body
            text = string(body.get("error") if error else body.get("output"))
            self.arrived(text)
            self.read_result(call_id, text, refused=error)
            launch = self.launches.get(call_id)
            if launch is None or launch.done:
                continue
            if error:
                self.refused(launch, text)
                continue
            mode = display.get("executionMode") if isinstance(display, dict) else None
            if mode == "background" or (mode is None and text.startswith("Background agent")):
                launch.background = True
            else:
                launch.background = False
                self.returned(launch, text, stamp)

    def _notifications(self, text: str, stamp: Any) -> None:
        for note in sections(text, tasks.OPEN, tasks.CLOSE):
            parsed = tasks.Notification(note)
            tool, task = parsed.tool_use_id, parsed.task_id
            launch = self.launches.get(tool) if tool else None
            if launch is None and task:
                launch = self.by_agent.get(task)
            if launch is None or launch.done or parsed.result is None:
                continue
            words = parsed.result
            key = (launch.tool_use_id, len(words))
            if key in self.notes:
                continue
            self.notes.add(key)
            ret = self.returned(launch, words, stamp, received=note)
            ret.status = parsed.status[:40] or ret.status


class _Subagent(Child):
    """A sub-agent's own file: its answers, the blocks that held one back, the files it wrote."""

    known = KNOWN_TYPES

    def feed(self, rec: dict[str, Any], kind: str) -> None:
        parts = _parts(rec)
        if kind == "assistant":
            text = _text(parts)
            if text:
                self.new_answer()
                self.parts.append(text)
            for part in parts:
                call = part.get("functionCall")
                if not isinstance(call, dict):
                    continue
                name = string(call.get("name"))
                args = call.get("args") if isinstance(call.get("args"), dict) else {}
                if name in WRITE_TOOLS:
                    self.facts.wrote_files = True
                elif name in SHELL_TOOLS and signals.shell_writes_file(string(args.get("command"))):
                    self.facts.wrote_files = True
        elif kind == "user" and rec.get("externalInputKind") == "message":
            self.block(_text(parts))
