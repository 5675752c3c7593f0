"""An independent recomputation of what ``spawnkit audit`` derives from recorded usage.

Written apart from ``spawnkit.audit`` (nothing of it is imported) and kept plain on purpose,
so that a test can hold the audit's JSON to it: from a transcript's usage fields alone,

- the orchestrator's context after each model response (``points``: prompt, output, model);
- where each sub-agent return (and each workflow result) landed: the index of the first
  response whose prompt holds it (``gap``);
- the growth of the prompt across that gap: next prompt - (previous prompt + previous output),
  when both responses were recorded by the same model, no compaction lies between and the
  prompt grew (else None).

Rules, per client, as read from the real clients' transcripts:

Claude Code (``<session>.jsonl``): a response is an ``assistant`` record's ``message.id``; a
response streamed into several records keeps the usage of its last one; sub-agents' records
(``isSidechain``), ``<synthetic>`` messages and all-zero usage are not responses; the prompt is
``input_tokens + cache_creation_input_tokens + cache_read_input_tokens``. A return is the
``tool_result`` of an ``Agent``/``Task`` call that is not ``async_launched``, or the
``<task-notification>`` naming the call (background agents, workflows). A message a sub-agent
sent the orchestrator (SendMessage) is each ``<agent-message from="…">`` block of a ``user``
record or a ``queued_command`` attachment (``messages``: the sender for a call id, the body's
characters).

Codex (``rollout-*.jsonl``): a response is a ``token_count`` event whose running totals
changed; the prompt is ``input_tokens`` (the cached part is inside it). An item the model wrote
(reasoning, tool call, assistant message) opens a response; what arrives before that
response's ``token_count`` goes into the prompt after the next one. A return is the agent's
``completed`` words in a ``wait_agent`` output or a ``<subagent_notification>``.

Copilot CLI (``events.jsonl``, sub-agents' records inside it with an ``agentId``): a response
is a ``session.usage_record`` without ``agentId``; the prompt is ``inputTokens``. It is written
before the results of the tools that response called, so they go into the next prompt. A
return is the ``result.content`` of a successful ``tool.execution_complete`` of a sync ``task``
call, or of a ``read_agent`` call whose ``agent_id`` is a background task's agent (started in a
``subagent.started`` naming the call) once it holds the agent's turns (``[Turn``).

Gemini CLI (``chats/session-*.jsonl``): a response is a ``gemini`` message, counted once per
``id`` (each is written again once its tool calls ran); the prompt is ``tokens.input``. A return
is the ``output`` of an ``invoke_agent`` call's result in that second writing (an ``error`` is
a refused launch); it goes into the next response's prompt.

Qwen Code (``chats/<session>.jsonl``): a response is an ``assistant`` record of the main agent
with ``usageMetadata``; the prompt is ``promptTokenCount``. A return is the ``output`` of a
foreground ``agent`` call's ``tool_result``, or the inside of a ``<task-notification>`` naming
the call (``<tool-use-id>``) in a ``user`` record, for a background one.

``python -m tests.audit.recompute FILE...`` prints the recomputation as JSON.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

SPAWN_TOOLS = {"Agent", "Task"}


@dataclass
class Point:
    prompt: int
    output: int
    model: str = ""


@dataclass
class Landing:
    """One return: the call it answers and the gap it landed in."""

    call_id: str
    gap: int
    chars: int  # characters as delivered (framing included)


@dataclass
class Recomputed:
    points: list[Point] = field(default_factory=list)
    landings: list[Landing] = field(default_factory=list)
    messages: list[Landing] = field(default_factory=list)  # call_id: the sender
    breaks: set[int] = field(default_factory=set)

    def growth(self, gap: int) -> int | None:
        if gap < 1 or gap >= len(self.points) or gap in self.breaks:
            return None
        before, after = self.points[gap - 1], self.points[gap]
        if before.model and after.model and before.model != after.model:
            return None
        grown = after.prompt - before.prompt - before.output
        return grown if grown > 0 else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "points": [asdict(p) for p in self.points],
            "returns": [
                {**asdict(land), "growth": self.growth(land.gap)} for land in self.landings
            ],
        }


def _lines(path: Path):
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                yield record


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)
        )
    return ""


def _between(text: str, start: str, end: str) -> list[str]:
    found, at = [], 0
    while True:
        i = text.find(start, at)
        if i < 0:
            return found
        j = text.find(end, i + len(start))
        if j < 0:
            return found
        found.append(text[i + len(start) : j])
        at = j + len(end)


def _agent_messages(out: Recomputed, text: str) -> None:
    for block in _between(text, '<agent-message from="', "\n</agent-message>"):
        sender, _, body = block.partition('">\n')
        out.messages.append(Landing(sender, len(out.points), len(body)))


def claude(path: Path) -> Recomputed:
    out = Recomputed()
    index: dict[str, int] = {}  # message id -> point
    calls: set[str] = set()
    landed: set[str] = set()
    for rec in _lines(path):
        if rec.get("isSidechain") is True:
            continue
        kind = rec.get("type")
        if kind == "system" and rec.get("subtype") == "compact_boundary":
            out.breaks.add(len(out.points))
        msg = rec.get("message") if isinstance(rec.get("message"), dict) else {}
        content = msg.get("content")
        if kind == "assistant":
            usage = msg.get("usage") if isinstance(msg.get("usage"), dict) else None
            model = msg.get("model") if isinstance(msg.get("model"), str) else ""
            key = msg.get("id") or rec.get("requestId") or rec.get("uuid")
            if usage and model != "<synthetic>" and not rec.get("isApiErrorMessage"):
                prompt = sum(
                    usage.get(k) or 0
                    for k in (
                        "input_tokens",
                        "cache_creation_input_tokens",
                        "cache_read_input_tokens",
                    )
                )
                output = usage.get("output_tokens") or 0
                if prompt > 0 and isinstance(key, str):
                    if key in index:  # a later record of a streamed response: its final usage
                        point = out.points[index[key]]
                        point.prompt, point.output = prompt, output
                    else:
                        index[key] = len(out.points)
                        out.points.append(Point(prompt, output, model[:80]))
            if isinstance(content, list):
                for block in content:
                    if isinstance(block, dict) and block.get("type") == "tool_use":
                        if block.get("name") in SPAWN_TOOLS | {"Workflow"}:
                            calls.add(str(block.get("id")))
        elif kind == "user":
            texts = [content] if isinstance(content, str) else []
            for block in content if isinstance(content, list) else []:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "text" and isinstance(block.get("text"), str):
                    texts.append(block["text"])
                if block.get("type") != "tool_result":
                    continue
                call = str(block.get("tool_use_id"))
                result = rec.get("toolUseResult")
                launched = isinstance(result, dict) and (
                    result.get("status") == "async_launched" or "runId" in result
                )
                if (
                    call in calls
                    and call not in landed
                    and not launched
                    and not block.get("is_error")
                ):
                    landed.add(call)
                    text = _text(block.get("content"))
                    out.landings.append(Landing(call, len(out.points), len(text)))
            for text in texts:
                _agent_messages(out, text)
                for note in _between(text, "<task-notification>", "</task-notification>"):
                    call = next(iter(_between(note, "<tool-use-id>", "</tool-use-id>")), "")
                    if call in calls and call not in landed:
                        landed.add(call)
                        out.landings.append(Landing(call, len(out.points), len(note)))
        elif kind == "attachment":
            att = rec.get("attachment") if isinstance(rec.get("attachment"), dict) else {}
            prompt = att.get("prompt") if att.get("type") == "queued_command" else None
            _agent_messages(out, prompt or "")
            for note in _between(prompt or "", "<task-notification>", "</task-notification>"):
                call = next(iter(_between(note, "<tool-use-id>", "</tool-use-id>")), "")
                if call in calls and call not in landed:
                    landed.add(call)
                    out.landings.append(Landing(call, len(out.points), len(note)))
    return out


def codex(path: Path) -> Recomputed:
    out = Recomputed()
    totals: Any = None
    waiting = False  # the model wrote; its token_count is still to come
    model = ""
    agents: dict[str, str] = {}  # agent id -> spawn call
    spawns: set[str] = set()
    seen: set[tuple[str, str]] = set()

    def land(agent: str, words: str) -> None:
        call = agents.get(agent)
        if call is None or (call, words) in seen:
            return
        seen.add((call, words))
        out.landings.append(Landing(call, len(out.points) + waiting, len(words)))

    for rec in _lines(path):
        payload = rec.get("payload") if isinstance(rec.get("payload"), dict) else {}
        kind, inner = rec.get("type"), payload.get("type")
        if kind == "turn_context" and isinstance(payload.get("model"), str):
            model = payload["model"]
        elif kind == "compacted":
            out.breaks.add(len(out.points))
        elif kind == "event_msg" and inner == "token_count":
            info = payload.get("info") if isinstance(payload.get("info"), dict) else {}
            if info.get("total_token_usage") is not None:
                if info["total_token_usage"] == totals:
                    continue
                totals = info["total_token_usage"]
            last = info.get("last_token_usage") or {}
            if last.get("input_tokens"):
                out.points.append(
                    Point(last["input_tokens"], last.get("output_tokens") or 0, model)
                )
                waiting = False
        elif kind == "response_item":
            role = payload.get("role")
            if inner in ("reasoning", "function_call", "custom_tool_call") or (
                inner == "message" and role == "assistant"
            ):
                waiting = True
            if inner == "function_call" and payload.get("name") == "spawn_agent":
                spawns.add(str(payload.get("call_id")))
            elif inner == "function_call_output":
                output = payload.get("output")
                text = output if isinstance(output, str) else _text(output)
                try:
                    data = json.loads(text) if text.startswith("{") else {}
                except ValueError:
                    data = {}
                call = str(payload.get("call_id"))
                if call in spawns and isinstance(data.get("agent_id"), str):
                    agents[data["agent_id"]] = call
                status = data.get("status") if isinstance(data, dict) else None
                for agent, state in (status or {}).items() if isinstance(status, dict) else ():
                    if isinstance(state, dict) and isinstance(state.get("completed"), str):
                        land(agent, state["completed"])
            elif inner == "message" and role == "user":
                text = _text(payload.get("content"))
                for note in _between(text, "<subagent_notification>", "</subagent_notification>"):
                    try:
                        data = json.loads(note.strip())
                    except ValueError:
                        continue
                    state = data.get("status") if isinstance(data, dict) else None
                    agent = data.get("agent_path") or data.get("agent_id")
                    if isinstance(state, dict) and isinstance(state.get("completed"), str):
                        land(str(agent), state["completed"])
    return out


def copilot(path: Path) -> Recomputed:
    out = Recomputed()
    calls: dict[str, tuple[str, dict]] = {}  # call id -> (tool, arguments)
    agents: dict[str, str] = {}  # agent id -> task call
    landed: set[str] = set()
    for rec in _lines(path):
        kind = rec.get("type")
        data = rec.get("data") if isinstance(rec.get("data"), dict) else {}
        if kind == "subagent.started" and rec.get("agentId"):
            agents[str(rec["agentId"])] = str(data.get("toolCallId"))
        if rec.get("agentId"):
            continue
        if kind == "session.compaction_complete":
            out.breaks.add(len(out.points))
        elif kind == "session.usage_record":
            usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
            if usage.get("inputTokens"):
                out.points.append(
                    Point(
                        usage["inputTokens"],
                        usage.get("outputTokens") or 0,
                        usage.get("model") or "",
                    )
                )
        elif kind == "assistant.message":
            for call in data.get("toolRequests") or []:
                if isinstance(call, dict):
                    args = call.get("arguments") if isinstance(call.get("arguments"), dict) else {}
                    calls[str(call.get("toolCallId"))] = (str(call.get("name")), args)
        elif kind == "tool.execution_complete" and data.get("success") is True:
            call = str(data.get("toolCallId"))
            result = data.get("result") if isinstance(data.get("result"), dict) else {}
            text = result.get("content") if isinstance(result.get("content"), str) else ""
            name, args = calls.get(call, ("", {}))
            if name == "task" and args.get("mode") != "background":
                target = call
            elif name == "read_agent" and "[Turn " in text:
                target = agents.get(str(args.get("agent_id")), "")
            else:
                continue
            if target and target not in landed:
                landed.add(target)
                out.landings.append(Landing(target, len(out.points), len(text)))
    return out


def gemini(path: Path) -> Recomputed:
    out = Recomputed()
    seen: set[str] = set()
    landed: set[str] = set()
    for rec in _lines(path):
        if rec.get("type") != "gemini":
            continue
        key = str(rec.get("id"))
        tokens = rec.get("tokens") if isinstance(rec.get("tokens"), dict) else {}
        if key not in seen and tokens.get("input"):
            seen.add(key)
            out.points.append(
                Point(tokens["input"], tokens.get("output") or 0, rec.get("model", ""))
            )
        for call in rec.get("toolCalls") or []:
            if not isinstance(call, dict) or call.get("name") != "invoke_agent":
                continue
            call_id = str(call.get("id")).removeprefix("invoke_agent__")
            for part in call.get("result") or []:
                body = (part.get("functionResponse") or {}).get("response") or {}
                text = body.get("output")
                if isinstance(text, str) and call_id not in landed:
                    landed.add(call_id)
                    out.landings.append(Landing(call_id, len(out.points), len(text)))
    return out


def qwen(path: Path) -> Recomputed:
    out = Recomputed()
    background: set[str] = set()
    landed: set[str] = set()
    for rec in _lines(path):
        if rec.get("agentId") or rec.get("isSidechain"):
            continue
        kind = rec.get("type")
        message = rec.get("message") if isinstance(rec.get("message"), dict) else {}
        parts = [p for p in message.get("parts") or [] if isinstance(p, dict)]
        if kind == "system" and rec.get("subtype") == "chat_compression":
            out.breaks.add(len(out.points))
        elif kind == "assistant":
            usage = rec.get("usageMetadata") if isinstance(rec.get("usageMetadata"), dict) else {}
            if usage.get("promptTokenCount"):
                out.points.append(
                    Point(
                        usage["promptTokenCount"],
                        usage.get("candidatesTokenCount") or 0,
                        rec.get("model") or "",
                    )
                )
            for part in parts:
                call = part.get("functionCall") or {}
                args = call.get("args") if isinstance(call.get("args"), dict) else {}
                if call.get("name") == "agent" and args.get("run_in_background") is not False:
                    background.add(str(call.get("id")))
        elif kind == "tool_result":
            for part in parts:
                response = part.get("functionResponse") or {}
                call_id = str(response.get("id"))
                text = (response.get("response") or {}).get("output")
                if response.get("name") != "agent" or not isinstance(text, str):
                    continue
                display = (rec.get("toolCallResult") or {}).get("resultDisplay") or {}
                if display.get("executionMode") == "background":
                    background.add(call_id)
                else:
                    background.discard(call_id)
                    landed.add(call_id)
                    out.landings.append(Landing(call_id, len(out.points), len(text)))
        elif kind == "user":
            text = "\n".join(p["text"] for p in parts if isinstance(p.get("text"), str))
            for note in _between(text, "<task-notification>", "</task-notification>"):
                tool = _between(note, "<tool-use-id>", "</tool-use-id>")
                call_id = tool[0].strip() if tool else ""
                if call_id in background and call_id not in landed and "<result>" in note:
                    landed.add(call_id)
                    out.landings.append(Landing(call_id, len(out.points), len(note)))
    return out


def recompute(path: Path) -> Recomputed:
    """The recomputation of one orchestrator transcript, by its client's format."""
    if path.name == "events.jsonl":
        return copilot(path)
    if path.parent.name == "chats":
        return gemini(path) if path.name.startswith("session-") else qwen(path)
    return codex(path) if path.name.startswith("rollout-") else claude(path)


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(json.dumps({"path": name, **recompute(Path(name)).as_dict()}, indent=1))
