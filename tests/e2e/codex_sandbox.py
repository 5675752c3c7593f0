"""An isolated HOME, CODEX_HOME and git project in which to run the real Codex CLI and spawnkit.

``codex exec --json`` runs against the fake Responses API (``fake_responses``) through a custom
model provider in ``$CODEX_HOME/config.toml``; nothing reaches the network. Hooks run only when
trusted: the sandbox never passes ``--dangerously-bypass-hook-trust`` unless a test asks for it,
so spawnkit's own trust entries are what makes its hooks run.
"""

from __future__ import annotations

import json
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .fake_responses import FakeResponses
from .sandbox import RUN_TIMEOUT, Sandbox, find_client

CODEX_VERSION = "0.169.0"
CODEX_HINT = (
    f"npm install @openai/codex@{CODEX_VERSION} and set SPAWNKIT_CODEX_BIN to its "
    "node_modules/.bin/codex (.ci/run does both)"
)
# A model Codex has no metadata for gets fallback metadata: multi-agent v1 tools, no apply_patch.
MODEL = "fake-model"
# A catalogued model whose metadata offers the apply_patch tool (but no multi-agent tools).
PATCH_MODEL = "gpt-5.5"


def find_codex() -> str | None:
    """$SPAWNKIT_CODEX_BIN, else ``codex`` on PATH; None when neither exists."""
    return find_client("SPAWNKIT_CODEX_BIN", "codex", CODEX_HINT)


def base_config(api_url: str, project: Path) -> str:
    """The user's config.toml before spawnkit: the fake provider, no approvals, trusted project.

    It carries comments and an odd table order on purpose: uninstall must give it back byte
    for byte."""
    return f"""\
# my Codex settings (kept by hand)
model = "{MODEL}"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[projects."{project}"]
trust_level = "trusted"  # my project

[model_providers.fake]
name = "Fake Responses"
base_url = "{api_url}/v1"
env_key = "OPENAI_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
"""


@dataclass
class CodexRun:
    """The outcome of one ``codex exec --json`` run."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    events: list[dict[str, Any]] = field(default_factory=list)

    def items(self, kind: str | None = None) -> list[dict[str, Any]]:
        """Completed items (agent messages, tool calls, errors…), optionally of one type."""
        found = [
            ev["item"]
            for ev in self.events
            if ev.get("type") == "item.completed" and isinstance(ev.get("item"), dict)
        ]
        return [i for i in found if kind is None or i.get("type") == kind]

    @property
    def result(self) -> str:
        """The last agent message: what the user is shown as the answer."""
        messages = self.items("agent_message")
        return str(messages[-1].get("text", "")) if messages else ""

    @property
    def warnings(self) -> list[str]:
        return [str(i.get("message", "")) for i in self.items("error")]


class CodexSandbox(Sandbox):
    """An isolated HOME (``CODEX_HOME`` = ``home/.codex``) and a git project."""

    def __init__(self, root: Path, binary: str, api: FakeResponses) -> None:
        super().__init__(root)
        self.binary = binary
        self.api = api
        self.codex_home = self.home / ".codex"
        self.codex_home.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(self.project)], check=True)
        self.config_path.write_text(base_config(api.url, self.project), encoding="utf-8")

    @property
    def env(self) -> dict[str, str]:
        return {**super().env, "CODEX_HOME": str(self.codex_home), "OPENAI_API_KEY": "sk-fake"}

    @property
    def config_path(self) -> Path:
        return self.codex_home / "config.toml"

    @property
    def hooks_path(self) -> Path:
        return self.codex_home / "hooks.json"

    def write_hooks(self, data: dict[str, Any]) -> Path:
        self.hooks_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        return self.hooks_path

    def run(
        self,
        prompt: str,
        *,
        model: str | None = None,
        enable: tuple[str, ...] = (),
        bypass_hook_trust: bool = False,
        extra_args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
        timeout: float = RUN_TIMEOUT,
        check: bool = True,
    ) -> CodexRun:
        """``codex exec --skip-git-repo-check --json PROMPT`` in the project, stdin closed."""
        args = [self.binary, "exec", "--skip-git-repo-check", "--json"]
        if model:
            args += ["-m", model]
        for feature in enable:
            args += ["--enable", feature]
        if bypass_hook_trust:
            args.append("--dangerously-bypass-hook-trust")
        args += [*extra_args, prompt]
        started = time.monotonic()
        proc = subprocess.run(
            args,
            cwd=self.project,
            env={**self.env, **(env or {})},
            stdin=subprocess.DEVNULL,
            check=False,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        run = CodexRun(args, proc.returncode, proc.stdout, proc.stderr, time.monotonic() - started)
        for line in proc.stdout.splitlines():
            if line.startswith("{"):
                try:
                    run.events.append(json.loads(line))
                except ValueError:
                    continue
        if check:
            self.assert_ran("codex", proc.returncode, proc.stdout, proc.stderr)
        return run
