"""A scripted fake of Google's Gemini API, for driving the real Gemini CLI offline.

Gemini CLI (``GOOGLE_GEMINI_BASE_URL``, an API key) posts
``/v1beta/models/<model>:streamGenerateContent?alt=sse`` with the whole history in
``contents`` (``{"role": "user"|"model", "parts": [...]}``; a part is ``text``,
``functionCall {name, args, id}`` or ``functionResponse {name, id, response}``); the reply is
server-sent ``data:`` lines, here one, holding ``candidates[0].content.parts``, a finish reason
and the usage. Conversations are told apart by their task text: the first user text (a
sub-agent's holds the prompt its parent passed to ``invoke_agent``). The server, scripts and
recording are shared with the other fakes (``fake_server``).
"""

from __future__ import annotations

import itertools
import json
import math
import re
from dataclasses import dataclass
from typing import Any

from .fake_server import BaseRequest, FakeServer, Item, Turn, as_turn

_ids = itertools.count(1)
SUB_AGENT = "generalist"  # a built-in sub-agent of Gemini CLI 0.61.0 with no output schema
LAUNCH_REFUSED = "Tool execution blocked:"  # what a BeforeTool deny hands the model


# --- what a script answers with ------------------------------------------------------------------


def say(value: str) -> Item:
    """Model text."""
    return {"type": "text", "text": value}


def call(name: str, args: dict[str, Any], call_id: str | None = None) -> Item:
    """A function call; ``call_id`` defaults to a unique id to find its response by."""
    return {"type": "call", "name": name, "args": args, "id": call_id or f"gcall{next(_ids):06d}"}


def invoke_agent(
    prompt: str,
    agent: str = SUB_AGENT,
    *,
    call_id: str | None = None,
    wait_for_previous: bool | None = None,
) -> Item:
    """An ``invoke_agent`` call: Gemini CLI's sub-agent tool."""
    args: dict[str, Any] = {"agent_name": agent, "prompt": prompt}
    if wait_for_previous is not None:
        args["wait_for_previous"] = wait_for_previous
    return call("invoke_agent", args, call_id)


def complete(response: str, call_id: str | None = None) -> Item:
    """A sub-agent's ``complete_task`` (``generalist``'s result is ``{"response": …}``)."""
    return call("complete_task", {"result": {"response": response}}, call_id)


def complete_text(result: str, call_id: str | None = None) -> Item:
    """``complete_task`` of an agent without an output schema (a custom agent's): a string."""
    return call("complete_task", {"result": result}, call_id)


# --- what the client sent ------------------------------------------------------------------------


@dataclass
class FunctionResponse:
    call_id: str
    name: str
    response: dict[str, Any]

    @property
    def text(self) -> str:
        """The response as the model reads it: its ``output`` (or ``error``) text, else JSON."""
        for key in ("output", "error"):
            value = self.response.get(key)
            if isinstance(value, str):
                return value
        return json.dumps(self.response)


@dataclass
class Request(BaseRequest):
    """One recorded ``generateContent`` request."""

    @property
    def contents(self) -> list[dict[str, Any]]:
        items = self.body.get("contents")
        return [c for c in items if isinstance(c, dict)] if isinstance(items, list) else []

    @property
    def tools(self) -> list[str]:
        names = []
        for tool in self.body.get("tools") or []:
            for decl in (tool or {}).get("functionDeclarations") or []:
                if isinstance(decl, dict):
                    names.append(str(decl.get("name") or ""))
        return names

    def texts_of(self, role: str) -> list[str]:
        return [
            "".join(str(p.get("text", "")) for p in c.get("parts") or [] if isinstance(p, dict))
            for c in self.contents
            if c.get("role") == role
        ]

    @property
    def first_user_text(self) -> str:
        return next((t for t in self.texts_of("user") if t), "")

    @property
    def last_user_text(self) -> str:
        texts = [t for t in self.texts_of("user") if t]
        return texts[-1] if texts else ""

    @property
    def match_text(self) -> str:
        return self.first_user_text

    @property
    def assistant_turns(self) -> int:
        return sum(1 for c in self.contents if c.get("role") == "model")

    @property
    def text(self) -> str:
        """Everything the model is shown, as plain text (call arguments and responses too)."""
        parts = []
        for c in self.contents:
            for p in c.get("parts") or []:
                if not isinstance(p, dict):
                    continue
                if "text" in p:
                    parts.append(str(p["text"]))
                for key in ("functionCall", "functionResponse"):
                    if key in p:
                        parts.append(json.dumps(p[key]))
        return "\n".join(parts)

    def function_calls(self) -> list[dict[str, Any]]:
        found = []
        for c in self.contents:
            for p in c.get("parts") or []:
                if isinstance(p, dict) and isinstance(p.get("functionCall"), dict):
                    found.append(p["functionCall"])
        return found

    def function_responses(self) -> list[FunctionResponse]:
        found = []
        for c in self.contents:
            for p in c.get("parts") or []:
                fr = p.get("functionResponse") if isinstance(p, dict) else None
                if isinstance(fr, dict):
                    response = fr.get("response")
                    found.append(
                        FunctionResponse(
                            str(fr.get("id") or ""),
                            str(fr.get("name") or ""),
                            response if isinstance(response, dict) else {},
                        )
                    )
        return found

    def tool_result(self, call_id: str) -> FunctionResponse | None:
        return next((r for r in self.function_responses() if r.call_id == call_id), None)

    def launch_refused(self, call_id: str) -> bool:
        """``invoke_agent`` call ``call_id`` was refused by a hook: the sub-agent never ran."""
        res = self.tool_result(call_id)
        return res is not None and LAUNCH_REFUSED in res.text

    def agent_result(self, call_id: str) -> str | None:
        """The sub-agent's words the parent got back from ``invoke_agent`` call ``call_id``
        (None: not yet): what follows "Result:" in the tool's output, before what Gemini CLI
        appends ("[System] …", a hook's context), a ``{"response": …}`` unwrapped."""
        res = self.tool_result(call_id)
        if res is None or self.launch_refused(call_id):
            return None
        found = re.search(
            r"\nResult:\n(.*?)(?:\n\n\n?(?:\[System\]|<hook_context>)|\Z)", res.text, re.S
        )
        if found is None:
            return res.text
        words = found.group(1)
        try:
            value = json.loads(words)
        except ValueError:
            return words
        if isinstance(value, dict) and isinstance(value.get("response"), str):
            return value["response"]
        return value if isinstance(value, str) else words

    def agent_output(self, call_id: str) -> str | None:
        """The whole output of ``invoke_agent`` call ``call_id``, Gemini CLI's framing included."""
        res = self.tool_result(call_id)
        return None if res is None else res.text


# --- the server ----------------------------------------------------------------------------------


def reply(turn: Turn, prompt_tokens: int) -> dict[str, Any]:
    """One ``GenerateContentResponse`` holding the whole turn."""
    parts: list[dict[str, Any]] = []
    for item in turn:
        if item.get("type") == "text":
            parts.append({"text": item["text"]})
        elif item.get("type") == "call":
            parts.append(
                {"functionCall": {"name": item["name"], "args": item["args"], "id": item["id"]}}
            )
    completion = max(1, math.ceil(len(json.dumps(turn)) / 4))
    return {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {
            "promptTokenCount": prompt_tokens,
            "candidatesTokenCount": completion,
            "totalTokenCount": prompt_tokens + completion,
        },
        "modelVersion": "gemini-2.5-flash",
    }


class FakeGemini(FakeServer):
    """The fake Gemini API (``GOOGLE_GEMINI_BASE_URL`` = ``url``). Use as a context manager."""

    request_class = Request

    def as_turn(self, step: Turn | Item | str | None) -> Turn | None:
        return as_turn(step, say)

    def is_side_request(self, req: Request) -> bool:
        # routing, titles, next-speaker and summary checks carry no tools
        return not req.body.get("tools")

    def model_requests(self, conversation: str | None = ...) -> list[Request]:  # type: ignore[assignment]
        """Recorded ``generateContent`` requests, optionally of one conversation."""
        with self._cond:
            reqs = [r for r in self.requests if "generatecontent" in r.path.lower()]
        if conversation is not ...:
            reqs = [r for r in reqs if r.conversation == conversation]
        return reqs

    @property
    def unmatched(self) -> list[Request]:
        return self.model_requests(None)

    def respond(self, handler: Any, req: Request) -> None:
        if req.path.endswith(":countTokens"):
            total = max(1, math.ceil(len(req.raw) / 4))
            return handler.send(
                200, json.dumps({"totalTokens": total}).encode(), "application/json"
            )
        if "generatecontent" not in req.path.lower():
            req.conversation = "other"
            return handler.send(404, b'{"error": {"message": "not faked"}}', "application/json")
        turn = self.answer(req)
        body = reply(turn, max(1, math.ceil(len(req.raw) / 4)))
        if "stream" in req.path:
            data = f"data: {json.dumps(body, ensure_ascii=False)}\r\n\r\n".encode()
            return handler.send(200, data, "text/event-stream")
        handler.send(200, json.dumps(body).encode(), "application/json")
