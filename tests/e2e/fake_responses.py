"""A scripted fake of the OpenAI Responses API, for driving the real Codex CLI offline.

Codex posts ``/v1/responses`` with ``stream: true`` and the whole history in ``input``; the reply
is server-sent events: ``response.created``, then per output item ``response.output_item.added``,
``response.output_text.delta`` (text only) and ``response.output_item.done``, and last
``response.completed`` with the output and the usage. Conversations are told apart by their task
text: the first user message that is not harness context (a v1 sub-agent starts fresh with the
spawn message as its only such message) or, for a v2 sub-agent (which inherits its parent's
history), the agent path Codex sends in ``x-codex-turn-metadata`` (``/root/<task_name>``).
"""

from __future__ import annotations

import itertools
import json
import math
import re
import uuid
from dataclasses import dataclass
from typing import Any

from .fake_server import BaseRequest, FakeServer, Item, Turn, as_turn, sse

_ids = itertools.count(1)
V1 = "multi_agent_v1"
V2 = "collaboration"
# User messages Codex adds around the task: not what a conversation is recognised by.
_HARNESS_PREFIXES = (
    "<environment_context>",
    "<user_instructions>",
    "<skills_instructions>",
    "<permissions instructions>",
    "# AGENTS.md",
    "<subagent_notification>",
    "<hook_prompt",
    "<turn_aborted>",
)
_MODEL_ITEMS = ("message", "function_call", "custom_tool_call", "reasoning")


# --- output items a script answers with ----------------------------------------------------------


def say(value: str) -> Item:
    """An assistant message."""
    return {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": value, "annotations": []}],
    }


def function_call(
    name: str, arguments: dict[str, Any], namespace: str | None = None, call_id: str | None = None
) -> Item:
    """A function call; ``call_id`` defaults to a unique ``call_…`` so tests can find its output."""
    item: Item = {
        "type": "function_call",
        "call_id": call_id or f"call_fake{next(_ids):06d}",
        "name": name,
        "arguments": json.dumps(arguments),
    }
    if namespace:
        item["namespace"] = namespace
    return item


def spawn_agent(message: str, *, task_name: str | None = None, call_id: str | None = None) -> Item:
    """A ``spawn_agent`` call: multi-agent v1, or v2 when ``task_name`` is given."""
    if task_name is None:
        return function_call(
            "spawn_agent", {"message": message, "fork_context": False}, V1, call_id
        )
    return function_call("spawn_agent", {"task_name": task_name, "message": message}, V2, call_id)


def wait_agent(targets: list[str] | None = None, timeout_ms: int = 120_000) -> Item:
    """``wait_agent``: v1 with agent ids, v2 (no targets) when ``targets`` is None."""
    if targets is None:
        return function_call("wait_agent", {"timeout_ms": timeout_ms}, V2)
    return function_call("wait_agent", {"targets": targets, "timeout_ms": timeout_ms}, V1)


def apply_patch(patch: str, call_id: str | None = None) -> Item:
    """The freeform ``apply_patch`` tool (a custom tool call whose input is the patch text)."""
    return {
        "type": "custom_tool_call",
        "call_id": call_id or f"call_fake{next(_ids):06d}",
        "name": "apply_patch",
        "input": patch,
    }


def exec_command(cmd: str, call_id: str | None = None) -> Item:
    return function_call("exec_command", {"cmd": cmd, "yield_time_ms": 10_000}, None, call_id)


def add_file_patch(path: str, text: str) -> str:
    """A patch that creates ``path`` with ``text``."""
    lines = "".join(f"+{line}\n" for line in text.splitlines())
    return f"*** Begin Patch\n*** Add File: {path}\n{lines}*** End Patch\n"


# --- what the client sent ------------------------------------------------------------------------


def _item_text(item: Any) -> str:
    """The text of one input item: message contents, tool call arguments and outputs."""
    if not isinstance(item, dict):
        return ""
    kind = item.get("type")
    if kind in ("message", "agent_message") or (kind is None and "role" in item):
        # agent_message: how v2 hands a task to a sub-agent (its payload as "encrypted" content,
        # plain text against this fake).
        content = item.get("content")
        if isinstance(content, str):
            return content
        return "".join(
            str(c.get("text", c.get("encrypted_content", "")))
            for c in content or []
            if isinstance(c, dict)
        )
    if kind == "function_call":
        return str(item.get("arguments", ""))
    if kind == "custom_tool_call":
        return str(item.get("input", ""))
    if kind in ("function_call_output", "custom_tool_call_output"):
        return output_text(item.get("output"))
    return ""


def output_text(output: Any) -> str:
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        return "\n".join(c.get("text", "") for c in output if isinstance(c, dict))
    if isinstance(output, dict):
        return str(output.get("content", ""))
    return ""


@dataclass
class ToolOutput:
    call_id: str
    text: str


@dataclass
class Request(BaseRequest):
    """One recorded Responses API request."""

    @property
    def input(self) -> list[dict[str, Any]]:
        items = self.body.get("input")
        return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []

    @property
    def metadata(self) -> dict[str, Any]:
        try:
            data = json.loads(self.headers.get("x-codex-turn-metadata", "{}"))
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    @property
    def agent_name(self) -> str:
        """``/root`` for the main thread, ``/root/<task_name>`` for a v2 sub-agent."""
        return str(self.metadata.get("agent_name", ""))

    @property
    def tools(self) -> list[str]:
        names = []
        for tool in self.body.get("tools") or []:
            if not isinstance(tool, dict):
                continue
            if tool.get("type") == "namespace":
                names += [f"{tool.get('name')}.{t.get('name')}" for t in tool.get("tools", [])]
            else:
                names.append(str(tool.get("name") or tool.get("type")))
        return names

    def messages_of(self, role: str) -> list[str]:
        return [
            _item_text(i)
            for i in self.input
            if i.get("type", "message") == "message" and i.get("role") == role
        ]

    @property
    def task_text(self) -> str:
        """The first user message that is the task, not context Codex adds around it."""
        for text in self.messages_of("user"):
            if not text.lstrip().startswith(_HARNESS_PREFIXES):
                return text
        return ""

    @property
    def match_text(self) -> str:
        name = self.agent_name
        return f"{name}\n{self.task_text}" if name.count("/") > 1 else self.task_text

    @property
    def last_user_text(self) -> str:
        users = self.messages_of("user")
        return users[-1] if users else ""

    @property
    def developer_text(self) -> str:
        return "\n".join(self.messages_of("developer"))

    @property
    def own_input(self) -> list[dict[str, Any]]:
        """The input without history a v2 sub-agent inherited: from its task message on."""
        items = self.input
        name = self.agent_name
        if name.count("/") > 1:
            for i in range(len(items) - 1, -1, -1):
                item = items[i]
                if item.get("type") == "agent_message" and item.get("recipient") == name:
                    return items[i:]
        return items

    @property
    def assistant_turns(self) -> int:
        """Model turns in this conversation's own history: runs of consecutive model-made items."""
        turns, inside = 0, False
        for item in self.own_input:
            kind = item.get("type", "message")
            made = kind in _MODEL_ITEMS and (kind != "message" or item.get("role") == "assistant")
            if made and not inside:
                turns += 1
            inside = made
        return turns

    @property
    def new_text(self) -> str:
        """Everything after the last model-made item: tool outputs, hook context, notifications."""
        items = self.input
        last = -1
        for i, item in enumerate(items):
            kind = item.get("type", "message")
            if kind in _MODEL_ITEMS and (kind != "message" or item.get("role") == "assistant"):
                last = i
        return "\n".join(_item_text(i) for i in items[last + 1 :])

    @property
    def text(self) -> str:
        """Everything the model is shown: instructions and every input item, as plain text."""
        return "\n".join(
            [str(self.body.get("instructions", ""))] + [_item_text(i) for i in self.input]
        )

    def tool_outputs(self) -> list[ToolOutput]:
        return [
            ToolOutput(str(i.get("call_id")), output_text(i.get("output")))
            for i in self.input
            if i.get("type") in ("function_call_output", "custom_tool_call_output")
        ]

    def tool_result(self, call_id: str) -> ToolOutput | None:
        return next((o for o in self.tool_outputs() if o.call_id == call_id), None)

    def spawned_agent_id(self, call_id: str) -> str | None:
        """The agent id (v1) or task path (v2) a ``spawn_agent`` call returned, if it returned."""
        out = self.tool_result(call_id)
        if out is None:
            return None
        try:
            data = json.loads(out.text)
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        found = data.get("agent_id") or data.get("task_name")
        return found if isinstance(found, str) else None

    def launch_refused(self, call_id: str) -> bool:
        """``spawn_agent`` call ``call_id`` has an output naming no agent: it never started."""
        return self.tool_result(call_id) is not None and self.spawned_agent_id(call_id) is None

    def agent_result(self, call_id: str) -> str | None:
        """The sub-agent's final words the parent received for spawn call ``call_id``, or None."""
        return next(iter(self.agent_results(call_id)), None)

    def agent_results(self, call_id: str) -> list[str]:
        """Every copy of the sub-agent's final words the parent received for ``call_id``.

        v1: the ``completed`` status in a ``wait_agent`` output, and the
        ``<subagent_notification>`` Codex adds as a user message (often both); v2: the
        ``FINAL_ANSWER`` ``agent_message`` whose author is the sub-agent's task path.
        """
        agent = self.spawned_agent_id(call_id)
        if agent is None:
            return []
        found = []
        for out in self.tool_outputs():
            try:
                data = json.loads(out.text)
            except ValueError:
                continue
            status = data.get("status") if isinstance(data, dict) else None
            if isinstance(status, dict) and isinstance(status.get(agent), dict):
                done = status[agent].get("completed")
                if isinstance(done, str):
                    found.append(done)
        for note in self.notifications():
            path = str(note.get("agent_path", ""))
            if path == agent or path.endswith("/" + agent.rsplit("/", 1)[-1]) or agent in path:
                done = (note.get("status") or {}).get("completed")
                if isinstance(done, str):
                    found.append(done)
        for item in self.input:  # v2: an agent_message from the sub-agent's task path
            if item.get("type") == "agent_message" and item.get("author") == agent:
                final = re.search(r"FINAL_ANSWER.*?Payload:\n(.*)", _item_text(item), re.S)
                if final:
                    found.append(final.group(1))
        return found

    def notifications(self) -> list[dict[str, Any]]:
        found = []
        for text in self.messages_of("user"):
            for body in re.findall(
                r"<subagent_notification>(.*?)</subagent_notification>", text, re.S
            ):
                try:
                    data = json.loads(body)
                except ValueError:
                    continue
                if isinstance(data, dict):
                    found.append(data)
        return found


# --- the server ----------------------------------------------------------------------------------


def _usage(req: Request, turn: Turn) -> dict[str, Any]:
    in_tokens = max(1, math.ceil(len(req.raw) / 4))
    out_tokens = max(1, math.ceil(len(json.dumps(turn)) / 4))
    return {
        "input_tokens": in_tokens,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": out_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": in_tokens + out_tokens,
    }


def stream_events(response_id: str, turn: Turn, usage: dict[str, Any]) -> list[tuple[str, dict]]:
    """The SSE events of one response, in the order Codex expects."""
    events: list[tuple[str, dict]] = [
        ("response.created", {"type": "response.created", "response": {"id": response_id}})
    ]
    done: list[Item] = []
    for index, raw in enumerate(turn):
        item = dict(raw, id=raw.get("id") or f"item_{uuid.uuid4().hex[:12]}")
        if item["type"] == "message":
            item.setdefault("status", "completed")
        added = dict(item, content=[]) if item["type"] == "message" else item
        events.append(
            (
                "response.output_item.added",
                {"type": "response.output_item.added", "output_index": index, "item": added},
            )
        )
        if item["type"] == "message":
            for part, content in enumerate(item["content"]):
                events.append(
                    (
                        "response.output_text.delta",
                        {
                            "type": "response.output_text.delta",
                            "item_id": item["id"],
                            "output_index": index,
                            "content_index": part,
                            "delta": content.get("text", ""),
                        },
                    )
                )
        events.append(
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": index, "item": item},
            )
        )
        done.append(item)
    events.append(
        (
            "response.completed",
            {
                "type": "response.completed",
                "response": {"id": response_id, "output": done, "usage": usage},
            },
        )
    )
    return events


class FakeResponses(FakeServer):
    """The fake Responses API (``base_url`` = ``url + "/v1"``). Use as a context manager."""

    request_class = Request

    def as_turn(self, step: Turn | Item | str | None) -> Turn | None:
        return as_turn(step, say)

    def is_side_request(self, req: Request) -> bool:
        return not req.body.get("tools")

    def responses_requests(self, conversation: str | None = ...) -> list[Request]:  # type: ignore[assignment]
        """Recorded ``/v1/responses`` requests, optionally only those of one conversation name."""
        with self._cond:
            reqs = [r for r in self.requests if r.path == "/v1/responses"]
        if conversation is not ...:
            reqs = [r for r in reqs if r.conversation == conversation]
        return reqs

    @property
    def unmatched(self) -> list[Request]:
        return self.responses_requests(None)

    def respond(self, handler: Any, req: Request) -> None:
        if req.path != "/v1/responses":
            req.conversation = "other"
            return handler.send(404, b'{"error": {"message": "not faked"}}', "application/json")
        turn = self.answer(req)
        response_id = f"resp_fake{uuid.uuid4().hex[:20]}"
        handler.send(
            200, sse(stream_events(response_id, turn, _usage(req, turn))), "text/event-stream"
        )

    def respond_get(self, handler: Any, req: Request) -> None:
        handler.send(404, b'{"error": {"message": "not faked"}}', "application/json")
