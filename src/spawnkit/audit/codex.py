"""Read one Codex session: the root thread's rollout and its sub-agents' rollouts.

Formats as Codex CLI 0.169.0 writes them (see tests/fixtures/audit/codex/, captured from the
real client, multi-agent v1, the default). Every record is ``{"timestamp", "type", "payload"}``:

- ``session_meta`` (first): the thread ``id``, ``cwd``, ``cli_version``; a sub-agent's names its
  parent (``source.subagent.thread_spawn.parent_thread_id``);
- ``response_item`` ``function_call`` ``spawn_agent`` (namespace ``multi_agent_v1``): a launch;
  its ``function_call_output`` is ``{"agent_id", "nickname"}``, or the refusal text of a hook;
- the sub-agent's final words reach the parent in full, often twice: in ``wait_agent``'s output
  ``{"status": {"<id>": {"completed": "<words>"}}}`` and as a user message
  ``<subagent_notification>{"agent_path": "<id>", "status": {"completed": …}}``;
- ``event_msg`` ``token_count``: ``last_token_usage`` of each model response (the context) and
  ``model_context_window``.

In a sub-agent's rollout a SubagentStop block is a user message ``<hook_prompt …>REASON``
following the answer it held back.
"""

from __future__ import annotations

import json
import os
import posixpath
from typing import Any

from spawnkit.audit import signals
from spawnkit.audit.discovery import Source
from spawnkit.audit.jsonl import count, record_type, sections, string, text_of, timestamp
from spawnkit.audit.model import ContextPoint, InputStats, Return, Session
from spawnkit.audit.reader import Child, Launch, Orchestrator, read_session
from spawnkit.hosts import kinds

KNOWN_TYPES = frozenset(
    {
        "session_meta",
        "response_item",
        "event_msg",
        "world_state",
        "turn_context",
        "token_usage_record",
        "compacted",
    }
)
_SKIP_TYPES = frozenset({b"world_state", b"token_usage_record"})
# the usage, and a real user prompt: ``user_message`` (up to 0.1xx), a ``UserMessage`` item (0.169)
_KEEP_EVENTS = frozenset({b"token_count", b"task_complete", b"user_message"})
_USER_ITEM = b'"item":{"type":"UserMessage"'
_SKILL_OPEN = "<skill>\n"
_TYPE_KEY = b'"type":"'
_PAYLOAD_HEAD = b'"payload":{"type":"'
_NOTE_OPEN = "<subagent_notification>"
_NOTE_CLOSE = "</subagent_notification>"
SPAWN_TOOLS = frozenset({"spawn_agent"})
# What the model itself writes into a rollout (an assistant message too).
_MODEL_ITEMS = frozenset(
    {"reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call"}
)
WAIT_TOOLS = frozenset({"wait_agent", "wait"})
SHELL_TOOLS = frozenset({"exec_command", "shell", "local_shell"})


def skip_line(line: bytes) -> bool:
    """True for a compact record the audit never needs (world state, duplicate item events…)."""
    at = line.find(_TYPE_KEY, 0, 120)
    if at == -1:
        return False
    start = at + len(_TYPE_KEY)
    end = line.find(b'"', start, start + 40)
    if end == -1:
        return False
    kind = line[start:end]
    if kind in _SKIP_TYPES:
        return True
    if kind != b"event_msg" or not line.startswith(_PAYLOAD_HEAD, end + 2):
        return False
    inner = end + 2 + len(_PAYLOAD_HEAD)
    stop = line.find(b'"', inner, inner + 60)
    if stop == -1 or line[inner:stop] in _KEEP_EVENTS:
        return False
    return line[inner:stop] != b"item_completed" or line.find(_USER_ITEM, stop, stop + 400) == -1


def read(source: Source, stats: InputStats) -> Session | None:
    return read_session(source, stats, _Root, _Subagent)


class _Root(Orchestrator):
    skip = staticmethod(skip_line)
    known = KNOWN_TYPES

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.waits: set[str] = set()
        self.delivered: dict[tuple[str, int, int], Return] = {}
        self.totals: Any = None  # the last token_count's running totals
        self.model = ""
        self.pending = False  # the model answered; its token_count has not come yet

    def feed(self, rec: dict[str, Any], stats: InputStats) -> None:
        kind = record_type(rec)
        stamp = rec.get("timestamp")
        self.seen(stamp)
        payload = rec.get("payload")
        if not isinstance(payload, dict):
            return
        if kind == "session_meta":
            self.s.project = self.s.project or str(payload.get("cwd") or "")
            self.s.client_version = str(payload.get("cli_version") or "")[:40]
        elif kind == "response_item":
            self._item(payload, stamp)
        elif kind == "event_msg":
            event = payload.get("type")
            if event == "token_count":
                self._tokens(payload.get("info"), stamp)
            elif event == "user_message" or (
                event == "item_completed"
                and isinstance(payload.get("item"), dict)
                and payload["item"].get("type") == "UserMessage"
            ):
                self.spans.ended()  # the user's prompt: a new turn
        elif kind == "turn_context":
            self.model = string(payload.get("model"))[:80]
        elif kind == "compacted":
            self.compacted()
            self.spans.ended()

    def gap(self) -> int:
        """Codex 0.169 writes a response's token_count after the outputs of the tools it
        called (0.104 before them): what arrives while a response awaits its count goes into
        the prompt after the next one."""
        return len(self.s.context) + self.pending

    def _item(self, item: dict[str, Any], stamp: Any) -> None:
        kind = string(item.get("type"))
        if kind in _MODEL_ITEMS or kind == "message" and item.get("role") == "assistant":
            self.pending = True
        if kind == "function_call":
            self._call(item, stamp)
        elif kind == "custom_tool_call" and item.get("name") == "apply_patch":
            self._patch(str(item.get("input") or ""), stamp)
        elif kind == "function_call_output":
            self._output(item, stamp)
        elif kind == "message" and item.get("role") == "user":
            text = text_of(item.get("content"))
            self.arrived(text)
            if _NOTE_OPEN in text:
                self._notification(text, stamp)
            elif text.startswith(_SKILL_OPEN):
                self._skill(text)

    def _call(self, item: dict[str, Any], stamp: Any) -> None:
        name = string(item.get("name"))
        call_id = str(item.get("call_id") or "")
        args = _json(item.get("arguments"))
        when = timestamp(stamp)
        if name in SPAWN_TOOLS:
            message = args.get("message") or args.get("task_name") or ""
            # Codex sub-agents always run beside the parent, which waits or is notified.
            self.launch(
                Launch(call_id, signals.label(message), when, agent_type="default", background=True)
            )
        elif name in WAIT_TOOLS:
            self.waits.add(call_id)
        elif name in SHELL_TOOLS:
            command = _shell_command(args)
            if command is not None:
                cwd = str(args.get("workdir") or self.s.project)
                self.shell(call_id, command, cwd, when)
                self._skill_read(command, cwd)
        elif name == "apply_patch":
            self._patch(str(args.get("input") or item.get("arguments") or ""), stamp)

    def _skill(self, text: str) -> None:
        """Codex put a skill into the conversation (``<skill><name>…</name><path>…</path>``):
        the user named it (``$name``) in their prompt."""
        head = text[: len(_SKILL_OPEN) + 4400]
        name = next(sections(head, "<name>", "</name>"), "")
        path = next(sections(head, "<path>", "</path>"), "")
        self.spans.invoked(name, path=path.strip()[:4096])

    def _skill_read(self, command: str, cwd: str) -> None:
        """The model opened a skill's SKILL.md itself (how Codex's model uses a skill it picked):
        that skill runs from now on. Only a file where Codex loads skills counts."""
        for word in signals.shell_reads(command):
            if posixpath.basename(word) != "SKILL.md":
                continue
            path = signals.absolute(word, cwd)
            found = kinds.skill_folder(path, kinds.roots(os.environ))
            if found is not None:
                self.spans.invoked(found[0], path=path)

    def _patch(self, text: str, stamp: Any) -> None:
        for line in text.splitlines():
            for head in ("*** Add File: ", "*** Update File: "):
                if line.startswith(head):
                    self.wrote(line[len(head) :].strip(), timestamp(stamp))

    def _output(self, item: dict[str, Any], stamp: Any) -> None:
        call_id = str(item.get("call_id") or "")
        output = item.get("output")
        text = output if isinstance(output, str) else text_of(output)
        self.arrived(text)
        self.read_result(call_id, text)
        launch = self.launches.get(call_id)
        if launch is not None and not launch.agent_id and not launch.done:
            data = _json(text)
            agent_id = data.get("agent_id") or data.get("task_name")
            if isinstance(agent_id, str) and agent_id:
                launch.agent_id = agent_id
                self.by_agent[agent_id] = launch
            else:
                self.refused(launch, text)
        elif call_id in self.waits:
            status = _json(text).get("status")
            if isinstance(status, dict):
                for agent_id, state in status.items():
                    self._completed(str(agent_id), state, stamp)

    def _notification(self, text: str, stamp: Any) -> None:
        for note in sections(text, _NOTE_OPEN, _NOTE_CLOSE):
            data = _json(note.strip())
            agent = data.get("agent_path") or data.get("agent_id")
            if isinstance(agent, str):
                self._completed(agent, data.get("status"), stamp)

    def _completed(self, agent_id: str, state: Any, stamp: Any) -> None:
        words = state.get("completed") if isinstance(state, dict) else None
        launch = self.by_agent.get(agent_id)
        if not isinstance(words, str) or launch is None:
            return
        key = (agent_id, len(words), hash(words))
        known = self.delivered.get(key)
        if known is not None:
            known.deliveries += 1  # its words are counted once per delivery (tokens x deliveries)
            return
        self.delivered[key] = self.returned(launch, words, stamp)

    def _tokens(self, info: Any, stamp: Any) -> None:
        """One model response's usage. Codex 0.77 to 0.104 (at least) write the same event
        twice, totals unchanged: a repeat is not a new response. ``input_tokens`` already
        counts the cached input; the output counts the reasoning."""
        if not isinstance(info, dict):
            return
        window = info.get("model_context_window")
        if isinstance(window, int) and not isinstance(window, bool) and window > 0:
            self.s.context_window = window
            self.s.context_window_source = "recorded"
        totals = info.get("total_token_usage")
        if isinstance(totals, dict):
            if totals == self.totals:
                return
            self.totals = totals
        last = info.get("last_token_usage")
        if not isinstance(last, dict):
            return
        prompt, output = count(last.get("input_tokens")), count(last.get("output_tokens"))
        if not prompt:
            return  # nothing sent: a placeholder, not a response
        self.pending = False
        point = ContextPoint(prompt + (output or 0), timestamp(stamp), prompt, output or 0)
        point.model = self.model
        self.s.context.append(point)

    def close(self) -> None:
        super().close()
        if not self.s.context:
            self.s.context_source = "none"  # Codex records no usage before 0.5x; none invented


class _Subagent(Child):
    """What a sub-agent's own rollout adds: when it ended, what spawnkit held back."""

    skip = staticmethod(skip_line)
    known = KNOWN_TYPES

    def feed(self, rec: dict[str, Any], kind: str) -> None:
        payload = rec.get("payload")
        if not isinstance(payload, dict) or kind != "response_item":
            return
        item_type = payload.get("type")
        if item_type == "message" and payload.get("role") == "assistant":
            self.new_answer()
            self.parts.append(text_of(payload.get("content")))
        elif item_type == "message" and payload.get("role") == "user":
            text = text_of(payload.get("content"))
            if "<hook_prompt" in text:
                self.block(text)
        elif item_type in ("function_call", "custom_tool_call"):
            name = string(payload.get("name"))
            if name == "apply_patch":
                self.facts.wrote_files = True
            elif name in SHELL_TOOLS:
                command = _shell_command(_json(payload.get("arguments")))
                if command is not None and signals.shell_writes_file(command):
                    self.facts.wrote_files = True


def _shell_command(args: dict[str, Any]) -> str | None:
    """The command line of a shell tool call (``cmd``, or ``command`` as a string or a list)."""
    command = args.get("cmd") or args.get("command")
    if isinstance(command, list):
        command = " ".join(str(c) for c in command)
    return command if isinstance(command, str) else None


def _json(value: Any) -> dict[str, Any]:
    """A JSON object held in a string (tool arguments, outputs); {} when it is anything else."""
    if isinstance(value, dict):
        return value
    if not isinstance(value, str) or not value.startswith("{"):
        return {}
    try:
        data = json.loads(value)
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}
