"""A scripted fake of the OpenAI Chat Completions API, for driving the real Copilot CLI offline.

Copilot CLI (``COPILOT_PROVIDER_TYPE=openai``) posts ``/v1/chat/completions`` with
``stream: true`` and the whole history in ``messages``; the reply is server-sent ``data:`` lines
of ``chat.completion.chunk`` objects (``delta.content`` or ``delta.tool_calls``), a finish chunk,
a usage chunk and ``data: [DONE]``. Conversations are told apart by their task text: the first
user message (a sub-agent's is the prompt its parent passed to the ``task`` tool). The server,
scripts and recording are shared with the other fakes (``fake_server``).
"""

from __future__ import annotations

import itertools
import json
import math
import time
import uuid
from dataclasses import dataclass
from typing import Any

from .fake_server import BaseRequest, FakeServer, Item, Turn, as_turn

_ids = itertools.count(1)


# --- what a script answers with ------------------------------------------------------------------


def say(value: str) -> Item:
    """Assistant text."""
    return {"type": "text", "text": value}


def tool_call(name: str, arguments: dict[str, Any], call_id: str | None = None) -> Item:
    """A function tool call; ``call_id`` defaults to a unique ``call_…`` to find its result by."""
    return {
        "type": "tool_call",
        "id": call_id or f"call_fake{next(_ids):06d}",
        "name": name,
        "arguments": arguments,
    }


def task(
    prompt: str,
    name: str = "sub",
    *,
    description: str = "scripted sub task",
    agent_type: str = "general-purpose",
    mode: str = "sync",
    call_id: str | None = None,
) -> Item:
    """A ``task`` call (Copilot's sub-agent tool): ``mode`` sync waits, background returns at once."""
    args = {
        "description": description,
        "prompt": prompt,
        "agent_type": agent_type,
        "name": name,
        "mode": mode,
    }
    return tool_call("task", args, call_id)


# --- what the client sent ------------------------------------------------------------------------


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


@dataclass
class ToolResult:
    call_id: str
    text: str


@dataclass
class Request(BaseRequest):
    """One recorded Chat Completions request."""

    @property
    def messages(self) -> list[dict[str, Any]]:
        msgs = self.body.get("messages")
        return [m for m in msgs if isinstance(m, dict)] if isinstance(msgs, list) else []

    @property
    def tools(self) -> list[str]:
        names = []
        for tool in self.body.get("tools") or []:
            if isinstance(tool, dict):
                function = tool.get("function")
                names.append(str((function or {}).get("name") or tool.get("name") or ""))
        return names

    def tool_schema(self, name: str) -> dict[str, Any] | None:
        for tool in self.body.get("tools") or []:
            function = tool.get("function") if isinstance(tool, dict) else None
            if isinstance(function, dict) and function.get("name") == name:
                return function
        return None

    def texts_of(self, role: str) -> list[str]:
        return [_text(m.get("content")) for m in self.messages if m.get("role") == role]

    @property
    def first_user_text(self) -> str:
        users = self.texts_of("user")
        return users[0] if users else ""

    @property
    def last_user_text(self) -> str:
        users = self.texts_of("user")
        return users[-1] if users else ""

    @property
    def match_text(self) -> str:
        return self.first_user_text

    @property
    def assistant_turns(self) -> int:
        return sum(1 for m in self.messages if m.get("role") == "assistant")

    @property
    def new_text(self) -> str:
        """Everything after the last assistant message: tool results, hook text, reminders."""
        msgs = self.messages
        last = max((i for i, m in enumerate(msgs) if m.get("role") == "assistant"), default=-1)
        return "\n".join(_text(m.get("content")) for m in msgs[last + 1 :])

    @property
    def text(self) -> str:
        """Everything the model is shown, as plain text (tool call arguments included)."""
        parts = []
        for m in self.messages:
            parts.append(_text(m.get("content")))
            for call in m.get("tool_calls") or []:
                if isinstance(call, dict):
                    parts.append(str((call.get("function") or {}).get("arguments", "")))
        return "\n".join(parts)

    def tool_calls(self) -> list[dict[str, Any]]:
        """Every tool call the history holds: ``{"id", "name", "arguments"}`` (arguments parsed)."""
        found = []
        for m in self.messages:
            if m.get("role") != "assistant":
                continue
            for call in m.get("tool_calls") or []:
                function = call.get("function") if isinstance(call, dict) else None
                if not isinstance(function, dict):
                    continue
                try:
                    args = json.loads(function.get("arguments") or "{}")
                except ValueError:
                    args = {}
                found.append(
                    {"id": call.get("id"), "name": function.get("name"), "arguments": args}
                )
        return found

    def tool_results(self) -> list[ToolResult]:
        return [
            ToolResult(str(m.get("tool_call_id")), _text(m.get("content")))
            for m in self.messages
            if m.get("role") == "tool"
        ]

    def tool_result(self, call_id: str) -> ToolResult | None:
        return next((r for r in self.tool_results() if r.call_id == call_id), None)

    def launch_refused(self, call_id: str) -> bool:
        """A launch (Copilot's ``task``, Qwen Code's ``agent``) came back refused by a hook: the
        sub-agent never started. Copilot CLI says "Denied by preToolUse hook: <reason>"; Qwen
        Code hands the model the reason alone (spawnkit's names its rule)."""
        res = self.tool_result(call_id)
        if res is None:
            return False
        return res.text.startswith("Denied by preToolUse hook") or res.text.startswith(
            "spawnkit max-parallel (CM005)"
        )

    def agent_result(self, call_id: str) -> str | None:
        """The sub-agent's words the parent got for a sync ``task`` call, or None if not yet."""
        res = self.tool_result(call_id)
        if res is None or self.launch_refused(call_id):
            return None
        return res.text


# --- the server ----------------------------------------------------------------------------------


def chunks(model: str, turn: Turn, prompt_tokens: int) -> list[dict[str, Any]]:
    """The ``chat.completion.chunk`` objects of one streamed reply."""
    cid = f"chatcmpl-fake{uuid.uuid4().hex[:16]}"
    created = int(time.time())

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": cid,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    out = [chunk({"role": "assistant", "content": ""})]
    calls = [item for item in turn if item.get("type") == "tool_call"]
    for item in turn:
        if item.get("type") == "text":
            out.append(chunk({"content": item["text"]}))
    for index, item in enumerate(calls):
        out.append(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": index,
                            "id": item["id"],
                            "type": "function",
                            "function": {
                                "name": item["name"],
                                "arguments": json.dumps(item["arguments"]),
                            },
                        }
                    ]
                }
            )
        )
    out.append(chunk({}, "tool_calls" if calls else "stop"))
    completion = max(1, math.ceil(len(json.dumps(turn)) / 4))
    out.append(
        {
            "id": cid,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": [],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion,
                "total_tokens": prompt_tokens + completion,
            },
        }
    )
    return out


def data_lines(objects: list[dict[str, Any]]) -> bytes:
    """Server-sent ``data:`` lines (no event names), ended by ``data: [DONE]``."""
    body = b"".join(f"data: {json.dumps(o, ensure_ascii=False)}\n\n".encode() for o in objects)
    return body + b"data: [DONE]\n\n"


class FakeChat(FakeServer):
    """The fake Chat Completions API (``base_url`` = ``url + "/v1"``). Use as a context manager."""

    request_class = Request

    def as_turn(self, step: Turn | Item | str | None) -> Turn | None:
        return as_turn(step, say)

    def is_side_request(self, req: Request) -> bool:
        return not req.body.get("tools")

    def chat_requests(self, conversation: str | None = ...) -> list[Request]:  # type: ignore[assignment]
        """Recorded chat requests, optionally only those of one conversation name."""
        with self._cond:
            reqs = [r for r in self.requests if r.path.endswith("/chat/completions")]
        if conversation is not ...:
            reqs = [r for r in reqs if r.conversation == conversation]
        return reqs

    @property
    def unmatched(self) -> list[Request]:
        return self.chat_requests(None)

    def respond(self, handler: Any, req: Request) -> None:
        if not req.path.endswith("/chat/completions"):
            req.conversation = "other"
            return handler.send(404, b'{"error": {"message": "not faked"}}', "application/json")
        turn = self.answer(req)
        model = str(req.body.get("model") or "gpt-4.1")
        prompt_tokens = max(1, math.ceil(len(req.raw) / 4))
        objects = chunks(model, turn, prompt_tokens)
        if req.body.get("stream"):
            handler.send(200, data_lines(objects), "text/event-stream")
            return
        message: dict[str, Any] = {"role": "assistant", "content": None}
        texts = [i["text"] for i in turn if i.get("type") == "text"]
        calls = [i for i in turn if i.get("type") == "tool_call"]
        if texts:
            message["content"] = "".join(texts)
        if calls:
            message["tool_calls"] = [
                {
                    "id": c["id"],
                    "type": "function",
                    "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])},
                }
                for c in calls
            ]
        body = {
            "id": objects[0]["id"],
            "object": "chat.completion",
            "created": objects[0]["created"],
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if calls else "stop",
                }
            ],
            "usage": objects[-1]["usage"],
        }
        handler.send(200, json.dumps(body).encode(), "application/json")

    def respond_get(self, handler: Any, req: Request) -> None:
        if req.path.endswith("/models"):
            payload = {"object": "list", "data": [{"id": "gpt-4.1", "object": "model"}]}
            return handler.send(200, json.dumps(payload).encode(), "application/json")
        handler.send(404, b'{"error": {"message": "not faked"}}', "application/json")
