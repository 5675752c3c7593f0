"""Run the hook on real Claude Code 2.1.330, Codex CLI 0.169.0 and Copilot CLI 1.0.102
payloads, in-process or through its script."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spawnkit import hosts
from spawnkit.hook import main as hook_main

REPO = Path(__file__).resolve().parents[2]
PAYLOADS = REPO / "tests" / "fixtures" / "payloads"
CODEX_PAYLOADS = REPO / "tests" / "fixtures" / "codex-payloads"
COPILOT_PAYLOADS = REPO / "tests" / "fixtures" / "copilot-payloads"
GEMINI_PAYLOADS = REPO / "tests" / "fixtures" / "gemini-payloads"
QWEN_PAYLOADS = REPO / "tests" / "fixtures" / "qwen-payloads"
SCRIPT = REPO / "src" / "spawnkit" / "hook" / "__main__.py"
NOW = 1_800_000_000.0


def payload(name: str) -> dict[str, Any]:
    """A real payload captured from Claude Code (tests/fixtures/payloads/<name>.json)."""
    return json.loads((PAYLOADS / f"{name}.json").read_text(encoding="utf-8"))


def codex_payload(name: str) -> dict[str, Any]:
    """A real payload captured from Codex CLI (tests/fixtures/codex-payloads/<name>.json)."""
    return json.loads((CODEX_PAYLOADS / f"{name}.json").read_text(encoding="utf-8"))


def copilot_payload(name: str) -> dict[str, Any]:
    """A real payload captured from Copilot CLI (tests/fixtures/copilot-payloads/<name>.json)."""
    return json.loads((COPILOT_PAYLOADS / f"{name}.json").read_text(encoding="utf-8"))


def gemini_payload(name: str) -> dict[str, Any]:
    """A real payload captured from Gemini CLI (tests/fixtures/gemini-payloads/<name>.json)."""
    return json.loads((GEMINI_PAYLOADS / f"{name}.json").read_text(encoding="utf-8"))


def qwen_payload(name: str) -> dict[str, Any]:
    """A real payload captured from Qwen Code (tests/fixtures/qwen-payloads/<name>.json)."""
    return json.loads((QWEN_PAYLOADS / f"{name}.json").read_text(encoding="utf-8"))


class Hook:
    """One isolated Claude setup: its own config dir, project dir and environment."""

    host = hosts.get("claude-code")
    project_folder = ".claude"

    def __init__(self, tmp: Path) -> None:
        self.config_dir = tmp / "claude-config"
        self.project = tmp / "proj"
        self.home = tmp / "home"
        for d in (self.config_dir, self.project, self.home):
            d.mkdir()
        self.env: dict[str, str] = {
            "HOME": str(self.home),
            "CLAUDE_CONFIG_DIR": str(self.config_dir),
            "CLAUDE_PROJECT_DIR": str(self.project),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        }
        self.now = NOW
        self.args: list[str] = []

    @property
    def state_dir(self) -> Path:
        return self.config_dir / ".spawnkit"

    def prepare(self, data: dict[str, Any]) -> dict[str, Any]:
        """Point the payload's cwd at this test's project (paths in it stay as captured)."""
        data = dict(data)
        data["cwd"] = str(self.project)
        return data

    def raw(self, data: bytes, env: dict[str, str] | None = None, **kw: Any) -> str:
        kw.setdefault("host", self.host)
        return hook_main.run(data, {**self.env, **(env or {})}, self.now, **kw)

    def __call__(self, data: dict[str, Any], env: dict[str, str] | None = None, **kw: Any) -> Any:
        """Run in-process; the parsed JSON answer, or None when the hook stays silent."""
        out = self.raw(json.dumps(self.prepare(data)).encode(), env, **kw)
        return json.loads(out) if out else None

    def script(
        self, data: dict[str, Any] | bytes, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """Run the real script the way settings.json does: <python> -I -S <script>."""
        stdin = data if isinstance(data, bytes) else json.dumps(self.prepare(data)).encode()
        proc = subprocess.run(
            [sys.executable, "-I", "-S", str(SCRIPT), *self.args],
            input=stdin,
            capture_output=True,
            env={**self.env, **(env or {})},
            cwd=self.project,
            timeout=60,
        )
        return subprocess.CompletedProcess(
            proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()
        )

    def write_config(self, where: str, data: Any) -> Path:
        base = self.config_dir if where == "user" else self.project / self.project_folder
        base.mkdir(parents=True, exist_ok=True)
        path = base / "spawnkit.json"
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        return path


class CodexHook(Hook):
    """One isolated Codex setup: CODEX_HOME, a project (the payload's cwd), no Claude variables.

    Runs the hook as ``--host codex``, the way spawnkit's Codex hooks.json entries do."""

    host = hosts.get("codex")
    project_folder = ".codex"

    def __init__(self, tmp: Path) -> None:
        super().__init__(tmp)
        self.config_dir = tmp / "codex-home"
        self.config_dir.mkdir()
        self.env = {
            "HOME": str(self.home),
            "CODEX_HOME": str(self.config_dir),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        }
        self.args = ["--host", "codex"]


class CopilotHook(Hook):
    """One isolated Copilot CLI setup: COPILOT_HOME and the project Copilot names in
    $COPILOT_PROJECT_DIR. Runs the hook as ``--host copilot --event <event>``, the way
    spawnkit's hooks/spawnkit-hooks.json entries do; the event comes from the payload's
    fixture name (``subagentStop_first`` -> ``subagentStop``) unless given."""

    host = hosts.get("copilot")
    project_folder = ".github"

    def __init__(self, tmp: Path) -> None:
        super().__init__(tmp)
        self.config_dir = tmp / "copilot-home"
        self.config_dir.mkdir()
        self.env = {
            "HOME": str(self.home),
            "COPILOT_HOME": str(self.config_dir),
            "COPILOT_PROJECT_DIR": str(self.project),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        }
        self.use("")

    def use(self, event: str) -> None:
        self.event = event
        self.args = ["--host", "copilot", "--event", event]

    def __call__(self, data: Any, env: dict[str, str] | None = None, **kw: Any) -> Any:
        """``data``: a fixture name or a payload; ``event=`` names the event (default: from
        the fixture name, else the last one used)."""
        if isinstance(data, str):
            kw.setdefault("event", data.split("_")[0])
            data = copilot_payload(data)
        self.use(kw.setdefault("event", self.event))
        return super().__call__(data, env, **kw)

    def script(  # type: ignore[override]
        self, data: Any, env: dict[str, str] | None = None, event: str = ""
    ) -> subprocess.CompletedProcess[str]:
        if isinstance(data, str):
            event = event or data.split("_")[0]
            data = copilot_payload(data)
        self.use(event or self.event)
        return super().script(data, env)


class GeminiHook(Hook):
    """One isolated Gemini CLI setup: ``~/.gemini`` under its own HOME and the project Gemini
    names in $GEMINI_PROJECT_DIR. Runs the hook as ``--host gemini``, the way spawnkit's
    settings.json entries do; a fixture name stands for its payload, whose transcript path
    is moved under this HOME."""

    host = hosts.get("gemini")
    project_folder = ".gemini"

    def __init__(self, tmp: Path) -> None:
        super().__init__(tmp)
        self.config_dir = self.home / ".gemini"
        self.config_dir.mkdir()
        self.env = {
            "HOME": str(self.home),
            "GEMINI_PROJECT_DIR": str(self.project),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        }
        self.args = ["--host", "gemini"]

    def prepare(self, data: dict[str, Any]) -> dict[str, Any]:
        data = super().prepare(data)
        path = data.get("transcript_path")
        if isinstance(path, str) and path.startswith("/home/user/"):
            data["transcript_path"] = str(self.home) + path[len("/home/user") :]
        return data

    def __call__(self, data: Any, env: dict[str, str] | None = None, **kw: Any) -> Any:
        if isinstance(data, str):
            data = gemini_payload(data)
        return super().__call__(data, env, **kw)


class QwenHook(Hook):
    """One isolated Qwen Code setup: $QWEN_HOME and the project in $QWEN_PROJECT_DIR; runs the
    hook as ``--host qwen``. A fixture name stands for its payload."""

    host = hosts.get("qwen")
    project_folder = ".qwen"

    def __init__(self, tmp: Path) -> None:
        super().__init__(tmp)
        self.config_dir = tmp / "qwen-home"
        self.config_dir.mkdir()
        self.env = {
            "HOME": str(self.home),
            "QWEN_HOME": str(self.config_dir),
            "QWEN_PROJECT_DIR": str(self.project),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        }
        self.args = ["--host", "qwen"]

    def __call__(self, data: Any, env: dict[str, str] | None = None, **kw: Any) -> Any:
        if isinstance(data, str):
            data = qwen_payload(data)
        return super().__call__(data, env, **kw)


@pytest.fixture
def gemini(tmp_path: Path) -> GeminiHook:
    return GeminiHook(tmp_path)


@pytest.fixture
def qwen(tmp_path: Path) -> QwenHook:
    return QwenHook(tmp_path)


@pytest.fixture
def hook(tmp_path: Path) -> Hook:
    return Hook(tmp_path)


@pytest.fixture
def codex(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CodexHook:
    """Codex names no project in the hook's environment: the hook takes the folder it runs in,
    so in-process runs happen in the project (as Codex starts the hook there)."""
    hook = CodexHook(tmp_path)
    monkeypatch.chdir(hook.project)
    return hook


@pytest.fixture
def copilot(tmp_path: Path) -> CopilotHook:
    return CopilotHook(tmp_path)


def session_file(hook: Hook, session: str) -> dict[str, Any]:
    return json.loads((hook.state_dir / "sessions" / f"{session}.json").read_text())
