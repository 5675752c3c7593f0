"""An isolated HOME (``~/.gemini``) and project in which to run the real Gemini CLI and spawnkit.

``gemini -p PROMPT`` runs offline against the fake Gemini API (``fake_gemini``) through
``GOOGLE_GEMINI_BASE_URL`` and an API key; nothing reaches the network. Gemini CLI loads hooks
(the user's too) only in a trusted folder, and refuses a headless run in an untrusted one (exit
55): the sandbox trusts its project in ``~/.gemini/trustedFolders.json``, the way a user who
answered the trust prompt has it, unless a test asks otherwise.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .fake_gemini import FakeGemini
from .sandbox import RUN_TIMEOUT, Sandbox, find_client

GEMINI_VERSION = "0.61.0"
GEMINI_HINT = (
    f"npm install @google/gemini-cli@{GEMINI_VERSION} and set SPAWNKIT_GEMINI_BIN to its "
    "node_modules/.bin/gemini (.ci/run does both)"
)
MODEL = "gemini-2.5-flash"
# What an API-key user's settings.json holds before spawnkit: without it a headless run exits 41.
BASE_SETTINGS = {"security": {"auth": {"selectedType": "gemini-api-key"}}}


def find_gemini() -> str | None:
    """$SPAWNKIT_GEMINI_BIN, else ``gemini`` on PATH; None when neither exists."""
    return find_client("SPAWNKIT_GEMINI_BIN", "gemini", GEMINI_HINT)


@dataclass
class GeminiRun:
    """The outcome of one ``gemini -p`` run."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    output: dict[str, Any] = field(default_factory=dict)  # --output-format json

    @property
    def result(self) -> str:
        return str(self.output.get("response", "")) if self.output else self.stdout.strip()


class GeminiSandbox(Sandbox):
    """An isolated HOME (``gemini_home`` = ``home/.gemini``) and a trusted project."""

    def __init__(self, root: Path, binary: str, api: FakeGemini, *, trusted: bool = True) -> None:
        super().__init__(root)
        self.binary = binary
        self.api = api
        self.gemini_home = self.home / ".gemini"
        self.gemini_home.mkdir(parents=True, exist_ok=True)
        self.settings_path.write_text(json.dumps(BASE_SETTINGS, indent=2) + "\n", "utf-8")
        if trusted:
            self.trust(self.project)

    @property
    def env(self) -> dict[str, str]:
        return {
            **super().env,
            "GEMINI_API_KEY": "fake-key",
            "GOOGLE_GEMINI_BASE_URL": self.api.url,
            "GEMINI_CLI_NO_RELAUNCH": "true",
            "NO_COLOR": "1",
        }

    @property
    def settings_path(self) -> Path:
        return self.gemini_home / "settings.json"

    def trust(self, folder: Path) -> None:
        """Trust ``folder`` as Gemini CLI's own trust prompt does."""
        path = self.gemini_home / "trustedFolders.json"
        data = json.loads(path.read_text("utf-8")) if path.exists() else {}
        data[str(folder)] = "TRUST_FOLDER"
        path.write_text(json.dumps(data, indent=2), "utf-8")

    def write_settings(self, data: dict[str, Any] | str) -> Path:
        text = data if isinstance(data, str) else json.dumps(data, indent=2) + "\n"
        self.settings_path.write_text(text, encoding="utf-8")
        return self.settings_path

    def chats(self) -> list[Path]:
        """Every chat file the client wrote (main sessions and sub-agents), oldest first."""
        tmp = self.gemini_home / "tmp"
        files = tmp.rglob("chats/**/*.jsonl") if tmp.is_dir() else []
        return sorted(files, key=lambda p: p.stat().st_mtime)

    def run(
        self,
        prompt: str,
        *,
        yolo: bool = False,
        extra_args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
        timeout: float = RUN_TIMEOUT,
        check: bool = True,
    ) -> GeminiRun:
        """``gemini -m MODEL -p PROMPT --output-format json`` in the project, stdin closed."""
        args = [self.binary, "-m", MODEL, "-p", prompt, "--output-format", "json"]
        if yolo:
            args += ["--approval-mode", "yolo"]
        args += list(extra_args)
        code, stdout, stderr, seconds = self.run_group(
            "gemini", args, {**self.env, **(env or {})}, timeout
        )
        run = GeminiRun(args, code, stdout, stderr, seconds)
        start = stdout.find("{")
        if start != -1:
            try:
                run.output = json.loads(stdout[start:])
            except ValueError:
                pass
        if check:
            self.assert_ran("gemini", code, stdout, stderr)
        return run
