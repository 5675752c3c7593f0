"""A scripted fake of the Anthropic Messages API, for driving the real Claude Code client offline.

The real client is the thing under test; only Anthropic's network API is faked. Each conversation
(the main thread, every sub-agent) is told apart by its first user message and answered from a
script, and every request is recorded so a test can assert what the model actually received.
Standard library only, threaded: sub-agents run concurrently with the main thread.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import threading
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Block = dict[str, Any]
Turn = list[Block]
Responder = Callable[["Request"], Turn | Block | str | None]
Step = Turn | Block | str | Responder

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


def _as_turn(step: Turn | Block | str | None) -> Turn | None:
    if step is None:
        return None
    if isinstance(step, str):
        return [text(step)]
    if isinstance(step, dict):
        return [step]
    return list(step)


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
class Request:
    """One recorded HTTP request, with the conversation and turn it was answered as."""

    index: int
    method: str
    path: str
    query: str
    raw: bytes
    body: dict[str, Any]
    conversation: str | None = None  # scripted conversation name, "side", or None when unmatched
    turn: int | None = None
    reply: Turn | None = None

    @property
    def size(self) -> int:
        """Bytes of the request body, i.e. what the model is sent."""
        return len(self.raw)

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


# --- scripts -------------------------------------------------------------------------------------


@dataclass
class Conversation:
    """A scripted conversation: step ``n`` answers the request whose history has n assistant turns.

    Rules added with :meth:`when` are tried first, in order; a step may be a callable of it.
    """

    name: str
    match: str
    steps: list[Step] = field(default_factory=list)
    rules: list[tuple[Callable[[Request], bool], Step]] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    final: str = "Done."

    def then(self, *steps: Step) -> Conversation:
        self.steps.extend(steps)
        return self

    def when(self, predicate: Callable[[Request], bool], step: Step) -> Conversation:
        self.rules.append((predicate, step))
        return self

    def answer(self, request: Request) -> Turn:
        for predicate, step in self.rules:
            if predicate(request):
                return self._resolve(step, request)
        n = request.assistant_turns
        if n < len(self.steps):
            return self._resolve(self.steps[n], request)
        return [text(self.final)]

    def _resolve(self, step: Step, request: Request) -> Turn:
        if callable(step):
            step = step(request)
        return _as_turn(step) or [text(self.final)]

    @property
    def first(self) -> Request:
        """The conversation's first request (e.g. the sub-agent's prompt as the model got it)."""
        return self.requests[0]

    @property
    def last(self) -> Request:
        return self.requests[-1]

    def request_with_agent_result(self, tool_use_id: str) -> Request:
        """The first request in which the parent sees the result of Agent call ``tool_use_id``."""
        for req in self.requests:
            if req.agent_result(tool_use_id) is not None:
                return req
        raise AssertionError(
            f"{self.name}: no request carried the result of Agent call {tool_use_id}"
        )

    def request_with_result(self, tool_use_id: str) -> Request:
        """The first request carrying the result of ``tool_use_id``: what the model got next."""
        for req in self.requests:
            if req.tool_result(tool_use_id) is not None:
                return req
        raise AssertionError(f"{self.name}: no request carried a tool_result for {tool_use_id}")


def _is_side_request(body: dict[str, Any]) -> bool:
    """Requests that are not a conversation turn: titles, summaries, quota probes, classifiers."""
    return not body.get("tools")


class FakeAnthropic:
    """The fake server. Use as a context manager, or start()/stop()."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self._host = host
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._cond = threading.Condition()
        self.requests: list[Request] = []
        self.conversations: list[Conversation] = []
        self.errors: list[str] = []

    # scripting
    def conversation(self, match: str, *steps: Step, name: str | None = None) -> Conversation:
        """Script the conversation whose first user message holds ``match`` (longest match wins)."""
        conv = Conversation(name or match[:40], match, list(steps))
        with self._cond:
            self.conversations.append(conv)
        return conv

    # lifecycle
    @property
    def url(self) -> str:
        assert self._server is not None, "server not started"
        return f"http://{self._host}:{self._server.server_address[1]}"

    def start(self) -> FakeAnthropic:
        fake = self

        class Handler(_Handler):
            owner = fake

        self._server = ThreadingHTTPServer((self._host, 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        with self._cond:  # wake anyone still waiting so no thread outlives the test
            self._cond.notify_all()

    def __enter__(self) -> FakeAnthropic:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # inspection
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

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 60.0) -> bool:
        """Block until ``predicate()`` holds; re-checked whenever a request arrives or is answered.

        Returns False on timeout."""
        with self._cond:
            return self._cond.wait_for(predicate, timeout=timeout)

    def notify(self) -> None:
        """Re-check waiters (call after changing state a predicate reads)."""
        with self._cond:
            self._cond.notify_all()

    # answering
    def _record(self, req: Request) -> None:
        with self._cond:
            self.requests.append(req)
            self._cond.notify_all()

    def _route(self, req: Request) -> Turn:
        if _is_side_request(req.body):
            req.conversation = "side"
            return [text("Done.")]
        first = req.first_user_text
        with self._cond:
            candidates = [c for c in self.conversations if c.match in first]
        if not candidates:
            return [text("Done.")]
        conv = max(candidates, key=lambda c: len(c.match))
        req.conversation = conv.name
        req.turn = req.assistant_turns
        with self._cond:
            conv.requests.append(req)
            self._cond.notify_all()
        return conv.answer(req)

    def answer(self, req: Request) -> Turn:
        try:
            turn = self._route(req)
        except Exception as exc:  # noqa: BLE001 - a broken script must not hang the client
            self.errors.append(f"request {req.index}: {type(exc).__name__}: {exc}")
            turn = [text("Done.")]
        req.reply = turn
        self.notify()
        return turn


def estimate_input_tokens(raw: bytes) -> int:
    """The usage figure reported back to the client: a plain size-based estimate of the request."""
    return max(1, math.ceil(len(raw) / 4))


def _sse(events: Iterable[tuple[str, dict[str, Any]]]) -> bytes:
    return b"".join(
        f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()
        for name, data in events
    )


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


class _Handler(BaseHTTPRequestHandler):
    owner: FakeAnthropic
    protocol_version = "HTTP/1.1"
    _counter = itertools.count()

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the test output is the record
        pass

    def _read(self) -> Request:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = {}
        path, _, query = self.path.partition("?")
        return Request(
            next(self._counter),
            self.command,
            path,
            query,
            raw,
            body if isinstance(body, dict) else {},
        )

    def _send(self, status: int, payload: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("request-id", f"req_fake{uuid.uuid4().hex[:16]}")
        self.end_headers()
        self.wfile.write(payload)

    def do_POST(self) -> None:
        req = self._read()
        self.owner._record(req)
        if req.path == "/v1/messages/count_tokens":
            req.conversation = "count_tokens"
            payload = json.dumps({"input_tokens": estimate_input_tokens(req.raw)}).encode()
            return self._send(200, payload, "application/json")
        if req.path != "/v1/messages":
            req.conversation = "other"
            return self._send(200, b"{}", "application/json")
        turn = self.owner.answer(req)
        message = _message(
            str(req.body.get("model", "claude-fake")), turn, estimate_input_tokens(req.raw)
        )
        if req.body.get("stream"):
            self._send(200, _sse(stream_events(message)), "text/event-stream")
        else:
            self._send(200, json.dumps(message).encode(), "application/json")

    def do_GET(self) -> None:
        req = self._read()
        req.conversation = "other"
        self.owner._record(req)
        self._send(200, b"{}", "application/json")

    do_HEAD = do_GET
