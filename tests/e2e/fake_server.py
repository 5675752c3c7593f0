"""What both scripted fake model APIs share: HTTP on 127.0.0.1, recording, scripts, SSE.

A real client (Claude Code, Codex CLI) is the thing under test; only the vendor's network API is
faked. Each conversation (the main thread, every sub-agent) is told apart by a substring of its
task text and answered from a script; every request is recorded so a test can assert what the
model actually received. The wire format of each vendor lives in its own module
(``fake_api.FakeAnthropic``, ``fake_responses.FakeResponses``), which subclasses ``FakeServer``.
Standard library only, threaded: sub-agents run concurrently with the main thread.
"""

from __future__ import annotations

import itertools
import json
import threading
import urllib.request
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Item = dict[str, Any]  # one content block (Anthropic) or output item (Responses)
Turn = list[Item]
Responder = Callable[[Any], Turn | Item | str | None]
Step = Turn | Item | str | Responder


def as_turn(step: Turn | Item | str | None, text: Callable[[str], Item]) -> Turn | None:
    """A script step as the list of items a reply is made of: a str is one ``text`` item, one
    item a list of one; None stays None (the conversation's final answer then)."""
    if step is None:
        return None
    if isinstance(step, str):
        return [text(step)]
    if isinstance(step, dict):
        return [step]
    return list(step)


def sse(events: Iterable[tuple[str, dict[str, Any]]]) -> bytes:
    """Server-sent events: ``event: NAME`` and one ``data:`` line of JSON each."""
    return b"".join(
        f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()
        for name, data in events
    )


def read_sse(payload: bytes) -> list[tuple[str, dict[str, Any]]]:
    """The events ``sse`` wrote, read back (for the fakes' own tests)."""
    events = []
    for chunk in payload.decode().strip().split("\n\n"):
        name, data = chunk.split("\n")
        events.append((name.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return events


def post(
    url: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> tuple[str, bytes]:
    """POST ``body`` as JSON to a fake; its content type and body (for the fakes' own tests)."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.headers["Content-Type"], response.read()


@dataclass
class BaseRequest:
    """One recorded HTTP request, with the conversation and turn it was answered as."""

    index: int
    method: str
    path: str
    query: str
    raw: bytes
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)
    conversation: str | None = None  # scripted conversation name, "side", or None when unmatched
    turn: int | None = None
    reply: Turn | None = None

    @property
    def size(self) -> int:
        """Bytes of the request body, i.e. what the model is sent."""
        return len(self.raw)

    # Each vendor's request class defines these.
    @property
    def match_text(self) -> str:
        """The text a conversation's ``match`` substring is looked for in."""
        raise NotImplementedError

    @property
    def assistant_turns(self) -> int:
        """How many model turns the history holds: the index of the step to answer."""
        raise NotImplementedError

    @property
    def text(self) -> str:
        raise NotImplementedError


@dataclass
class Conversation:
    """A scripted conversation: step ``n`` answers the request whose history has n model turns.

    Rules added with :meth:`when` are tried first, in order; a step may be a callable of it.
    """

    name: str
    match: str
    steps: list[Step] = field(default_factory=list)
    rules: list[tuple[Callable[[Any], bool], Step]] = field(default_factory=list)
    requests: list[Any] = field(default_factory=list)
    final: str = "Done."
    as_turn: Callable[[Any], Turn | None] = field(default=lambda step: step, repr=False)

    def then(self, *steps: Step) -> Conversation:
        self.steps.extend(steps)
        return self

    def when(self, predicate: Callable[[Any], bool], step: Step) -> Conversation:
        self.rules.append((predicate, step))
        return self

    def answer(self, request: Any) -> Turn:
        for predicate, step in self.rules:
            if predicate(request):
                return self._resolve(step, request)
        n = request.assistant_turns
        if n < len(self.steps):
            return self._resolve(self.steps[n], request)
        return self.as_turn(self.final)

    def _resolve(self, step: Step, request: Any) -> Turn:
        if callable(step):
            step = step(request)
        return self.as_turn(step) or self.as_turn(self.final)

    @property
    def first(self) -> Any:
        """The conversation's first request (e.g. the sub-agent's task as the model got it)."""
        return self.requests[0]

    @property
    def last(self) -> Any:
        return self.requests[-1]

    def request_with_agent_result(self, call_id: str) -> Any:
        """The first request in which the parent sees the result of sub-agent call ``call_id``."""
        for req in self.requests:
            if req.agent_result(call_id) is not None:
                return req
        raise AssertionError(f"{self.name}: no request carried the result of agent call {call_id}")

    def request_with_result(self, call_id: str) -> Any:
        """The first request carrying the result of tool call ``call_id``: what the model got next."""
        for req in self.requests:
            if req.tool_result(call_id) is not None:
                return req
        raise AssertionError(f"{self.name}: no request carried a tool result for {call_id}")


class FakeServer:
    """The HTTP side and the scripting of a fake model API. Use as a context manager."""

    request_class: type[BaseRequest] = BaseRequest

    def __init__(self, host: str = "127.0.0.1") -> None:
        self._host = host
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._cond = threading.Condition()
        self._counter = itertools.count()
        self.requests: list[Any] = []
        self.conversations: list[Conversation] = []
        self.errors: list[str] = []

    # --- vendor specifics (subclasses) -----------------------------------------------------

    def as_turn(self, step: Turn | Item | str | None) -> Turn | None:
        """A step's value as the list of items a reply is made of (a str is a text reply)."""
        raise NotImplementedError

    def is_side_request(self, req: Any) -> bool:
        """Requests that are not a conversation turn (titles, summaries, probes)."""
        return False

    def respond(self, handler: _Handler, req: Any) -> None:
        """Answer one POST (``handler.send``); ``self.answer(req)`` gives the scripted turn."""
        raise NotImplementedError

    def respond_get(self, handler: _Handler, req: Any) -> None:
        """Answer a GET or HEAD: an empty JSON object unless the vendor needs more."""
        handler.send(200, b"{}", "application/json")

    # --- scripting ---------------------------------------------------------------------------

    def conversation(self, match: str, *steps: Step, name: str | None = None) -> Conversation:
        """Script the conversation whose task text holds ``match`` (longest match wins)."""
        conv = Conversation(name or match[:40], match, list(steps), as_turn=self.as_turn)
        with self._cond:
            self.conversations.append(conv)
        return conv

    # --- lifecycle ---------------------------------------------------------------------------

    @property
    def url(self) -> str:
        assert self._server is not None, "server not started"
        return f"http://{self._host}:{self._server.server_address[1]}"

    def start(self) -> FakeServer:
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

    def __enter__(self):  # noqa: ANN204 - returns the subclass
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- inspection --------------------------------------------------------------------------

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 60.0) -> bool:
        """Block until ``predicate()`` holds; re-checked whenever a request arrives or is answered.

        Returns False on timeout."""
        with self._cond:
            return self._cond.wait_for(predicate, timeout=timeout)

    def notify(self) -> None:
        """Re-check waiters (call after changing state a predicate reads)."""
        with self._cond:
            self._cond.notify_all()

    # --- answering ---------------------------------------------------------------------------

    def record(self, req: Any) -> None:
        with self._cond:
            self.requests.append(req)
            self._cond.notify_all()

    def _route(self, req: Any) -> Turn:
        if self.is_side_request(req):
            req.conversation = "side"
            return self.as_turn("Done.") or []
        text = req.match_text
        with self._cond:
            candidates = [c for c in self.conversations if c.match in text]
        if not candidates:
            return self.as_turn("Done.") or []
        conv = max(candidates, key=lambda c: len(c.match))
        req.conversation = conv.name
        req.turn = req.assistant_turns
        with self._cond:
            conv.requests.append(req)
            self._cond.notify_all()
        return conv.answer(req)

    def answer(self, req: Any) -> Turn:
        """The scripted reply to ``req`` (a broken script answers "Done." and is recorded)."""
        try:
            turn = self._route(req)
        except Exception as exc:  # noqa: BLE001 - a broken script must not hang the client
            self.errors.append(f"request {req.index}: {type(exc).__name__}: {exc}")
            turn = self.as_turn("Done.") or []
        req.reply = turn
        self.notify()
        return turn

    def read_request(self, handler: BaseHTTPRequestHandler) -> Any:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = {}
        path, _, query = handler.path.partition("?")
        return self.request_class(
            next(self._counter),
            handler.command,
            path,
            query,
            raw,
            body if isinstance(body, dict) else {},
            {k.lower(): v for k, v in handler.headers.items()},
        )


class _Handler(BaseHTTPRequestHandler):
    owner: FakeServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the test output is the record
        pass

    def send(self, status: int, payload: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("request-id", f"req_fake{uuid.uuid4().hex[:16]}")
        self.end_headers()
        self.wfile.write(payload)

    def do_POST(self) -> None:
        req = self.owner.read_request(self)
        self.owner.record(req)
        self.owner.respond(self, req)

    def do_GET(self) -> None:
        req = self.owner.read_request(self)
        req.conversation = "other"
        self.owner.record(req)
        self.owner.respond_get(self, req)

    do_HEAD = do_GET
