"""A scripted fake of the Anthropic Messages API, for driving the real Claude Code client offline.

Each conversation (the main thread, every sub-agent) is told apart by its first user message; a
sub-agent's first user message is the prompt its parent passed to the Agent tool. The server,
the scripts and the recording are shared with the Codex fake (``fake_server``).
"""

from __future__ import annotations

import itertools
import json
import math
import re
import uuid
from dataclasses import dataclass
from typing import Any

from .fake_server import BaseRequest, Conversation, FakeServer, Item, Step, Turn, as_turn, sse

Block = Item

__all__ = [
    "Block",
    "Conversation",
    "FakeAnthropic",
    "Request",
    "Step",
    "Turn",
    "agent",
    "text",
    "tool_use",
]

_ids = itertools.count(1)


# --- content blocks a script answers with -------------------------------------------------------


def text(value: str) -> Block:
    """A text block."""
    return {"type": "text", "text": value}


def tool_use(name: str, input: dict[str, Any], id: str | None = None) -> Block:
    """A tool_use block; ``id`` defaults to a unique ``toolu_…`` so tests can look the result up."""
    return {
        "type": "tool_use",
        "id": id or f"toolu_fake{next(_ids):06d}",
        "name": name,
        "input": input,
    }


def agent(
    prompt: str,
    description: str = "scripted sub-agent",
    *,
    background: bool = False,
    subagent_type: str = "general-purpose",
    id: str | None = None,
) -> Block:
    """An Agent tool call, foreground unless ``background`` (the client defaults to background)."""
    return tool_use(
        "Agent",
        {
            "description": description,
            "prompt": prompt,
            "subagent_type": subagent_type,
            "run_in_background": background,
        },
        id=id,
    )


# --- what the client sent ------------------------------------------------------------------------


def _content_text(content: Any) -> str:
    """All text of a message's content, tool_result contents included, in order."""
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content or []:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            parts.append(block.get("text", ""))
        elif block.get("type") == "tool_result":
            parts.append(_content_text(block.get("content")))
        elif block.get("type") == "tool_use":
            parts.append(json.dumps(block.get("input", {}), ensure_ascii=False))
    return "\n".join(parts)


@dataclass
class ToolResult:
    tool_use_id: str
    text: str
    is_error: bool


@dataclass
class Request(BaseRequest):
    """One recorded Messages API request."""

    @property
    def match_text(self) -> str:
        return self.first_user_text

    @property
    def messages(self) -> list[dict[str, Any]]:
        msgs = self.body.get("messages")
        return msgs if isinstance(msgs, list) else []

    @property
    def tools(self) -> list[str]:
        return [t.get("name", "") for t in self.body.get("tools") or [] if isinstance(t, dict)]

    @property
    def system_text(self) -> str:
        return _content_text(self.body.get("system"))

    @property
    def first_user_text(self) -> str:
        for msg in self.messages:
            if msg.get("role") == "user":
                return _content_text(msg.get("content"))
        return ""

    @property
    def last_user_text(self) -> str:
        for msg in reversed(self.messages):
            if msg.get("role") == "user":
                return _content_text(msg.get("content"))
        return ""

    @property
    def new_text(self) -> str:
        """What is new to the model in this request: every message after the last assistant one.

        Tool results, hook ``additionalContext`` (sent as system messages) and notifications.
        """
        msgs = self.messages
        last = max((i for i, m in enumerate(msgs) if m.get("role") == "assistant"), default=-1)
        return "\n".join(_content_text(m.get("content")) for m in msgs[last + 1 :])

    @property
    def assistant_turns(self) -> int:
        """How many assistant messages the history holds: the index of the turn to answer."""
        return sum(1 for m in self.messages if m.get("role") == "assistant")

    @property
    def text(self) -> str:
        """Everything the model is shown: system prompt and every message, as plain text."""
        return "\n".join(
            [self.system_text] + [_content_text(m.get("content")) for m in self.messages]
        )

    def tool_results(self, last_only: bool = False) -> list[ToolResult]:
        """The tool results in the history (or only in the last user message)."""
        msgs = self.messages
        if last_only:
            msgs = [m for m in msgs if m.get("role") == "user"][-1:]
        found = []
        for msg in msgs:
            if msg.get("role") != "user" or not isinstance(msg.get("content"), list):
                continue
            for block in msg["content"]:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    found.append(
                        ToolResult(
                            block.get("tool_use_id", ""),
                            _content_text(block.get("content")),
                            bool(block.get("is_error")),
                        )
                    )
        return found

    def tool_result(self, tool_use_id: str) -> ToolResult | None:
        return next((r for r in self.tool_results() if r.tool_use_id == tool_use_id), None)

    def launch_refused(self, tool_use_id: str) -> bool:
        """Agent call ``tool_use_id`` came back as an error: the sub-agent never started."""
        res = self.tool_result(tool_use_id)
        return res is not None and res.is_error

    def agent_messages(self) -> list[tuple[str, str]]:
        """Every ``<agent-message from="…">`` the model is shown (a sub-agent's SendMessage,
        delivered as a user block or a system message): (sender, text), in order."""
        return re.findall(
            r'<agent-message from="([^"]*)">\n(.*?)\n</agent-message>', self.text, re.DOTALL
        )

    def agent_result(self, tool_use_id: str) -> str | None:
        """The sub-agent's words the parent got for Agent call ``tool_use_id``, or None if not yet.

        Foreground: the tool_result, without the client's hand-back framing. Background: the
        ``<result>`` of the ``<task-notification>`` naming that call.
        """
        res = self.tool_result(tool_use_id)
        if res is not None and not res.text.startswith("Async agent launched"):
            return unframe_report(res.text)
        for note in re.findall(
            r"<task-notification>(.*?)</task-notification>", self.text, re.DOTALL
        ):
            if f"<tool-use-id>{tool_use_id}</tool-use-id>" in note:
                found = re.search(r"<result>(.*?)</result>", note, re.DOTALL)
                return found.group(1) if found else ""
        return None


def unframe_report(tool_result_text: str) -> str:
    """A foreground Agent result as the sub-agent wrote it: the client indents it inside a frame."""
    found = re.search(r"The report follows:\n(.*?)\nagentId: ", tool_result_text, re.DOTALL)
    if not found:
        return tool_result_text
    return "\n".join(line.removeprefix("  ") for line in found.group(1).split("\n"))


# --- the server ---------------------------------------------------------------------------------


def _is_side_request(body: dict[str, Any]) -> bool:
    """Requests that are not a conversation turn: titles, summaries, quota probes, classifiers."""
    return not body.get("tools")


class FakeAnthropic(FakeServer):
    """The fake Messages API. Use as a context manager, or start()/stop()."""

    request_class = Request

    def as_turn(self, step: Turn | Block | str | None) -> Turn | None:
        return as_turn(step, text)

    def is_side_request(self, req: Request) -> bool:
        return _is_side_request(req.body)

    def messages_requests(self, conversation: str | None = ...) -> list[Request]:  # type: ignore[assignment]
        """Recorded ``/v1/messages`` requests, optionally only those of one conversation name."""
        with self._cond:
            reqs = [r for r in self.requests if r.path == "/v1/messages"]
        if conversation is not ...:
            reqs = [r for r in reqs if r.conversation == conversation]
        return reqs

    @property
    def unmatched(self) -> list[Request]:
        return self.messages_requests(None)

    def respond(self, handler: Any, req: Request) -> None:
        if req.path == "/v1/messages/count_tokens":
            req.conversation = "count_tokens"
            payload = json.dumps({"input_tokens": estimate_input_tokens(req.raw)}).encode()
            return handler.send(200, payload, "application/json")
        if req.path != "/v1/messages":
            req.conversation = "other"
            return handler.send(200, b"{}", "application/json")
        turn = self.answer(req)
        message = _message(
            str(req.body.get("model", "claude-fake")), turn, estimate_input_tokens(req.raw)
        )
        if req.body.get("stream"):
            handler.send(200, sse(stream_events(message)), "text/event-stream")
        else:
            handler.send(200, json.dumps(message).encode(), "application/json")


def estimate_input_tokens(raw: bytes) -> int:
    """The usage figure reported back to the client: a plain size-based estimate of the request."""
    return max(1, math.ceil(len(raw) / 4))


def _message(model: str, turn: Turn, input_tokens: int) -> dict[str, Any]:
    out_tokens = max(1, math.ceil(len(json.dumps(turn)) / 4))
    return {
        "id": f"msg_fake{uuid.uuid4().hex[:20]}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": turn,
        "stop_reason": "tool_use" if any(b["type"] == "tool_use" for b in turn) else "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": input_tokens,
            "output_tokens": out_tokens,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
        },
    }


def stream_events(message: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The SSE events of one message: text as text_delta, tool input as input_json_delta."""
    start = dict(message, content=[], stop_reason=None)
    start["usage"] = dict(message["usage"], output_tokens=1)
    events: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": start})
    ]
    for i, block in enumerate(message["content"]):
        if block["type"] == "text":
            head, delta = (
                {"type": "text", "text": ""},
                {"type": "text_delta", "text": block["text"]},
            )
        else:
            head = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [
            (
                "content_block_start",
                {"type": "content_block_start", "index": i, "content_block": head},
            ),
            ("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": i}),
        ]
    events += [
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": message["usage"]["output_tokens"]},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return events
