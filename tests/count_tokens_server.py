"""A scripted stand-in for Anthropic's count_tokens endpoint on 127.0.0.1, for tests only."""

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    status: int = 200
    body: bytes = b'{"input_tokens": 42}'
    hang: bool = False  # hold the request open until the server stops (for timeouts)


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict


@dataclass
class FakeCountTokens:
    """Answers every POST with ``reply``; records what it received."""

    reply: Reply = field(default_factory=Reply)
    received: list[Received] = field(default_factory=list)
    url: str = ""

    def __post_init__(self) -> None:
        self._release = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                raw = self.rfile.read(length)
                fake.received.append(
                    Received(
                        self.path,
                        {k.lower(): v for k, v in self.headers.items()},
                        json.loads(raw.decode("utf-8")),
                    )
                )
                if fake.reply.hang:
                    fake._release.wait(30)
                    return
                self.send_response(fake.reply.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(fake.reply.body)))
                self.end_headers()
                self.wfile.write(fake.reply.body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    def env(self, key: str = "sk-test-key") -> dict[str, str]:
        return {"ANTHROPIC_API_KEY": key, "ANTHROPIC_BASE_URL": self.url}

    def close(self) -> None:
        self._release.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)
