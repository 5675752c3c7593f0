"""An isolated HOME (``~/.qwen``) and project in which to run the real Qwen Code and spawnkit.

``qwen --auth-type openai --approval-mode yolo -o json PROMPT`` runs offline against the fake
Chat Completions API (``fake_chat``) through ``OPENAI_BASE_URL``; nothing reaches the network.
Without ``yolo`` a headless run refuses the ``agent`` tool. Qwen Code rewrites a settings.json
that lacks ``"$version": 4`` when it starts, so the user's settings the sandbox writes carry it,
as every file Qwen Code itself has touched does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .fake_chat import FakeChat
from .sandbox import RUN_TIMEOUT, Sandbox, find_client

QWEN_VERSION = "0.24.4"
QWEN_HINT = (
    f"npm install @qwen-code/qwen-code@{QWEN_VERSION} and set SPAWNKIT_QWEN_BIN to its "
    "node_modules/.bin/qwen (.ci/run does both)"
)
MODEL = "fake-model"
BASE_SETTINGS = {"$version": 4}


def find_qwen() -> str | None:
    """$SPAWNKIT_QWEN_BIN, else ``qwen`` on PATH; None when neither exists."""
    return find_client("SPAWNKIT_QWEN_BIN", "qwen", QWEN_HINT)


@dataclass
class QwenRun:
    """The outcome of one ``qwen`` run."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    events: list[dict[str, Any]] = field(default_factory=list)  # -o json

    @property
    def result(self) -> str:
        for event in reversed(self.events):
            if event.get("type") == "result":
                return str(event.get("result", ""))
        return self.stdout.strip()


class QwenSandbox(Sandbox):
    """An isolated HOME (``qwen_home`` = ``home/.qwen``) and a project."""

    def __init__(self, root: Path, binary: str, api: FakeChat) -> None:
        super().__init__(root)
        self.binary = binary
        self.api = api
        self.qwen_home = self.home / ".qwen"
        self.qwen_home.mkdir(parents=True, exist_ok=True)
        self.write_settings(BASE_SETTINGS)

    @property
    def env(self) -> dict[str, str]:
        return {
            **super().env,
            "OPENAI_API_KEY": "sk-fake",
            "OPENAI_BASE_URL": f"{self.api.url}/v1",
            "OPENAI_MODEL": MODEL,
            "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1",
            "NO_COLOR": "1",
        }

    @property
    def settings_path(self) -> Path:
        return self.qwen_home / "settings.json"

    def write_settings(self, data: dict[str, Any] | str) -> Path:
        text = data if isinstance(data, str) else json.dumps(data, indent=2) + "\n"
        self.settings_path.write_text(text, encoding="utf-8")
        return self.settings_path

    def chats(self) -> list[Path]:
        """Every transcript the client wrote (sessions and sub-agents), oldest first."""
        projects = self.qwen_home / "projects"
        files = projects.rglob("*.jsonl") if projects.is_dir() else []
        return sorted(files, key=lambda p: p.stat().st_mtime)

    def run(
        self,
        prompt: str,
        *,
        extra_args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
        timeout: float = RUN_TIMEOUT,
        check: bool = True,
    ) -> QwenRun:
        """``qwen --auth-type openai --approval-mode yolo -o json PROMPT`` in the project."""
        args = [
            self.binary,
            "--auth-type",
            "openai",
            "--approval-mode",
            "yolo",
            "-o",
            "json",
            *extra_args,
            prompt,
        ]
        code, stdout, stderr, seconds = self.run_group(
            "qwen", args, {**self.env, **(env or {})}, timeout
        )
        run = QwenRun(args, code, stdout, stderr, seconds)
        start = stdout.find("[")
        if start != -1:
            try:
                parsed = json.loads(stdout[start:])
                run.events = [e for e in parsed if isinstance(e, dict)]
            except ValueError:
                pass
        if check:
            self.assert_ran("qwen", code, stdout, stderr)
        return run
