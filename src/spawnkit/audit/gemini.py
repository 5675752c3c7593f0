"""Read one Gemini CLI session: ``~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`` and
its sub-agents' ``~/.gemini/tmp/<project>/chats/<session id>/<agent id>.jsonl``.

As Gemini CLI 0.61.0 writes them (captured from the real client, tests/fixtures/audit/gemini/).
The first record is the file's header (``{"sessionId", "projectHash", "startTime", "kind":
"main"|"subagent"}``), ``{"$set": …}`` records update it, and every message is
``{"id", "timestamp", "type", "content", …}``, written once when it is made and again, whole,
when its tool calls have run. What the audit reads:

- ``gemini`` (a model response): ``tokens.input`` (every input token of the request) and
  ``tokens.output``, once per message id; ``toolCalls`` (in its second writing) with each
  call's ``name``, ``args`` and ``result[].functionResponse.response`` (``output`` or
  ``error``);
- an ``invoke_agent`` call is a launch (``agent_name``, ``prompt``), foreground always; its
  ``agentId`` names the sub-agent's file; its output (``Subagent 'x' finished. Termination
  Reason: … Result: …``) is what the orchestrator got; an ``error`` ("Tool execution
  blocked: …") is a launch a hook refused;
- ``user`` records carrying ``functionResponse``s: the tool results as the model got them;
- a sub-agent's file: its ``complete_task`` calls (``args.result``: its answer) and their
  results (an ``error`` from spawnkit's hook: that answer was held back).

The project is the ``.project_root`` file of ``tmp/<project>/`` (read by discovery).
"""

from __future__ import annotations

import json
from typing import Any

from spawnkit.audit import signals
from spawnkit.audit.discovery import Source
from spawnkit.audit.jsonl import count, record_type, string, timestamp
from spawnkit.audit.model import ContextPoint, InputStats, Session
from spawnkit.audit.reader import Child, Launch, Orchestrator, read_session

MESSAGE_TYPES = frozenset({"user", "gemini", "info", "error", "warning"})
HEADER = "(none)"  # the header and "$set" records carry no type
KNOWN_TYPES = MESSAGE_TYPES | {HEADER}
SPAWN_TOOLS = frozenset({"invoke_agent"})
FINISH_TOOL = "complete_task"
READ_TOOLS = frozenset({"read_file"})
WRITE_TOOLS = frozenset({"write_file", "replace"})
SHELL_TOOLS = frozenset({"run_shell_command"})
_RESULT = "\nResult:\n"
# what Gemini CLI (or a hook) appends to a tool's output after the sub-agent's result
_TRAILERS = ("\n\n\n[System] ", "\n\n<hook_context>", "\n\n\n<hook_context>")


def read(source: Source, stats: InputStats) -> Session | None:
    return read_session(source, stats, _Root, _Subagent)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _calls(rec: dict[str, Any]) -> list[dict[str, Any]]:
    calls = rec.get("toolCalls")
    return [c for c in calls if isinstance(c, dict)] if isinstance(calls, list) else []


def _response(call: dict[str, Any]) -> tuple[str, bool] | None:
    """A call's result as the model got it, and whether it is an error; None before it ran."""
    for part in _list(call.get("result")):
        response = part.get("functionResponse") if isinstance(part, dict) else None
        body = response.get("response") if isinstance(response, dict) else None
        if isinstance(body, dict):
            if "error" in body:
                return string(body.get("error")), True
            return string(body.get("output")), False
    return None


def answer_of(result: Any) -> str:
    """A ``complete_task`` result as text: ``{"response": …}`` its response, a string itself,
    anything else its JSON."""
    if isinstance(result, dict) and len(result) == 1 and isinstance(result.get("response"), str):
        return result["response"]
    if isinstance(result, str):
        return result
    return json.dumps(result) if result is not None else ""


def words_of(output: str) -> str:
    """The sub-agent's words inside ``invoke_agent``'s output: what follows ``Result:``, without
    the notes appended after it, a ``{"response": …}`` unwrapped."""
    at = output.find(_RESULT)
    if at == -1:
        return output
    words = output[at + len(_RESULT) :]
    for trailer in _TRAILERS:
        cut = words.find(trailer)
        if cut != -1:
            words = words[:cut]
    try:
        return answer_of(json.loads(words))
    except ValueError:
        return words


def _call_id(call: dict[str, Any]) -> str:
    """The call's id as the model gave it: Gemini CLI records ``<tool>__<id>``."""
    raw, name = string(call.get("id")), string(call.get("name"))
    return raw[len(name) + 2 :] if name and raw.startswith(name + "__") else raw


class _Root(Orchestrator):
    known = KNOWN_TYPES

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.responses: set[str] = set()  # message ids whose usage was taken
        self.ran: set[str] = set()  # tool call ids whose results were taken
        self.subagent_header = False

    def feed(self, rec: dict[str, Any], stats: InputStats) -> None:
        kind = record_type(rec)
        if kind == HEADER:
            if rec.get("kind") == "subagent":
                self.subagent_header = True
            return
        stamp = rec.get("timestamp")
        self.seen(stamp)
        if kind == "gemini":
            self._response(rec, stamp)
        elif kind == "user":
            for part in _list(rec.get("content")):
                response = part.get("functionResponse") if isinstance(part, dict) else None
                body = response.get("response") if isinstance(response, dict) else None
                if isinstance(body, dict):
                    self.arrived(string(body.get("output") or body.get("error")))
                elif isinstance(part, dict) and isinstance(part.get("text"), str):
                    self.arrived(part["text"])

    def is_subagent(self) -> bool:
        return self.subagent_header

    def _response(self, rec: dict[str, Any], stamp: Any) -> None:
        when = timestamp(stamp)
        message = string(rec.get("id"))
        if message not in self.responses:
            self.responses.add(message)
            usage = rec.get("tokens")
            prompt = count(usage.get("input")) if isinstance(usage, dict) else None
            if prompt:
                output = count(usage.get("output")) or 0
                point = ContextPoint(prompt + output, when, prompt, output)
                point.model = string(rec.get("model"))[:80]
                self.s.context.append(point)
        for call in _calls(rec):
            call_id = _call_id(call)
            if not call_id or call_id in self.ran:
                continue
            outcome = _response(call)
            if outcome is None:
                continue
            self.ran.add(call_id)
            self._call(call, call_id, when, outcome, call.get("timestamp") or stamp)

    def _call(
        self,
        call: dict[str, Any],
        call_id: str,
        when: float | None,
        outcome: tuple[str, bool],
        done: Any,
    ) -> None:
        name = string(call.get("name"))
        args = call.get("args")
        args = args if isinstance(args, dict) else {}
        text, error = outcome
        if name in SPAWN_TOOLS:
            launch = Launch(
                call_id,
                signals.label(args.get("prompt")),
                when,
                agent_type=string(args.get("agent_name")),
                agent_id=string(call.get("agentId")),
            )
            self.launches[call_id] = launch
            if error:
                self.refused(launch, text)
            else:
                self.returned(launch, words_of(text), done, received=text)
        elif name in READ_TOOLS and isinstance(args.get("file_path"), str):
            if signals.is_report(args["file_path"], self.s.project):
                self.read_back(call_id, args["file_path"], when)
            self.read_result(call_id, text, refused=error)
        elif name in WRITE_TOOLS and isinstance(args.get("file_path"), str):
            self.wrote(args["file_path"], when)
        elif name in SHELL_TOOLS and isinstance(args.get("command"), str):
            self.shell(call_id, args["command"], self.s.project, when)
            self.read_result(call_id, text, refused=error)


class _Subagent(Child):
    """A sub-agent's own file: each ``complete_task`` answer, and whether spawnkit denied it."""

    known = KNOWN_TYPES

    def __init__(self) -> None:
        super().__init__()
        self.ran: set[str] = set()

    def feed(self, rec: dict[str, Any], kind: str) -> None:
        if kind != "gemini":
            return
        for call in _calls(rec):
            call_id = _call_id(call)
            outcome = _response(call)
            if outcome is None or call_id in self.ran:
                continue
            self.ran.add(call_id)
            name = string(call.get("name"))
            args = call.get("args") if isinstance(call.get("args"), dict) else {}
            if name == FINISH_TOOL:
                self.new_answer()
                self.parts.append(answer_of(args.get("result")))
                text, error = outcome
                if error:
                    self.block(text)
            elif name in WRITE_TOOLS:
                self.facts.wrote_files = True
            elif name in SHELL_TOOLS and signals.shell_writes_file(string(args.get("command"))):
                self.facts.wrote_files = True
