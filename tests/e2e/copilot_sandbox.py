"""An isolated HOME (``~/.copilot``) and project in which to run the real Copilot CLI and spawnkit.

``copilot -p PROMPT --allow-all-tools -s`` runs offline (``COPILOT_OFFLINE``, no GitHub login)
against the fake Chat Completions API (``fake_chat``) through Copilot's own "bring your own
model" variables; nothing reaches the network. The npm package's ``copilot`` is a Node loader
that starts the native client as a child, so every run gets its own process group and a run
that outlives its timeout is killed with everything it started.
"""

from __future__ import annotations

import json
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .fake_chat import FakeChat
from .sandbox import RUN_TIMEOUT, Sandbox, find_client

COPILOT_VERSION = "1.0.102"
COPILOT_HINT = (
    f"npm install @github/copilot@{COPILOT_VERSION} and set SPAWNKIT_COPILOT_BIN to its "
    "node_modules/.bin/copilot (.ci/run does both)"
)
MODEL = "gpt-4.1"  # a model Copilot knows: its sub-agent tool `task` is offered


def find_copilot() -> str | None:
    """$SPAWNKIT_COPILOT_BIN, else ``copilot`` on PATH; None when neither exists."""
    return find_client("SPAWNKIT_COPILOT_BIN", "copilot", COPILOT_HINT)


@dataclass
class CopilotRun:
    """The outcome of one ``copilot -p`` run, with the session's events as Copilot logged them."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    events: list[dict[str, Any]] = field(default_factory=list)

    def of(self, kind: str, *, agent: bool | None = None) -> list[dict[str, Any]]:
        """Events of one type; ``agent`` True: a sub-agent's only, False: the main agent's."""
        return [
            e
            for e in self.events
            if e.get("type") == kind and (agent is None or bool(e.get("agentId")) == agent)
        ]

    def hook_outputs(self, hook_type: str) -> list[Any]:
        """What each hook run of one type answered (``hook.end`` ``output``), in order."""
        return [
            e["data"].get("output")
            for e in self.of("hook.end")
            if e.get("data", {}).get("hookType") == hook_type
        ]


_RECORDER = textwrap.dedent(
    """\
    import json, os, sys, time
    data = sys.stdin.buffer.read()
    name = "%020d-%d-%s.json" % (time.time_ns(), os.getpid(), sys.argv[2])
    os.makedirs(sys.argv[1], exist_ok=True)
    with open(os.path.join(sys.argv[1], name), "wb") as fh:
        fh.write(data)
    """
)


class CopilotSandbox(Sandbox):
    """An isolated HOME (``copilot_home`` = ``home/.copilot``) and a project."""

    def __init__(self, root: Path, binary: str, api: FakeChat, cache: Path) -> None:
        super().__init__(root)
        self.binary = binary
        self.api = api
        self.cache = cache
        self.copilot_home = self.home / ".copilot"
        self.copilot_home.mkdir(parents=True, exist_ok=True)

    @property
    def env(self) -> dict[str, str]:
        return {
            **super().env,
            "COPILOT_OFFLINE": "true",
            "COPILOT_AUTO_UPDATE": "false",
            "COPILOT_CACHE_HOME": str(self.cache),
            "COPILOT_PROVIDER_TYPE": "openai",
            "COPILOT_PROVIDER_BASE_URL": f"{self.api.url}/v1",
            "COPILOT_PROVIDER_API_KEY": "sk-fake",
            "COPILOT_MODEL": MODEL,
        }

    @property
    def hooks_dir(self) -> Path:
        return self.copilot_home / "hooks"

    def write_hooks(self, name: str, data: dict[str, Any] | str) -> Path:
        """A hook file of the user's own under ``~/.copilot/hooks``."""
        self.hooks_dir.mkdir(parents=True, exist_ok=True)
        path = self.hooks_dir / name
        text = data if isinstance(data, str) else json.dumps(data, indent=2) + "\n"
        path.write_text(text, encoding="utf-8")
        return path

    def recorder(self, tag: str, event: str = "") -> str:  # type: ignore[override]
        """A hook command saving each stdin payload under hooklog/<tag>/; Copilot's payloads
        name no event, so the command does (see ``recorded``)."""
        script = self.root / "record_copilot_hook.py"
        if not script.exists():
            script.write_text(_RECORDER, encoding="utf-8")
        return " ".join(
            [sys.executable, "-I", str(script), str(self.hooklog / tag), event or "unknown"]
        )

    def recorded(self, tag: str, event: str | None = None) -> list[dict[str, Any]]:
        folder = self.hooklog / tag
        if not folder.is_dir():
            return []
        found = []
        for path in sorted(folder.glob("*.json")):
            if event is None or path.stem.endswith("-" + event):
                found.append(json.loads(path.read_bytes()))
        return found

    def sessions(self) -> list[Path]:
        """Every session's events.jsonl, oldest first."""
        state = self.copilot_home / "session-state"
        files = state.glob("*/events.jsonl") if state.is_dir() else []
        return sorted(files, key=lambda p: p.stat().st_mtime)

    def run(
        self,
        prompt: str,
        *,
        extra_args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
        timeout: float = RUN_TIMEOUT,
        check: bool = True,
    ) -> CopilotRun:
        """``copilot -p PROMPT --allow-all-tools -s`` in the project, stdin closed."""
        before = set(self.sessions())
        args = [self.binary, "-p", prompt, "--allow-all-tools", "-s", *extra_args]
        code, stdout, stderr, seconds = self.run_group(
            "copilot", args, {**self.env, **(env or {})}, timeout
        )
        run = CopilotRun(args, code, stdout, stderr, seconds)
        for path in [p for p in self.sessions() if p not in before]:
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    run.events.append(json.loads(line))
                except ValueError:
                    continue
        if check:
            self.assert_ran("copilot", code, stdout, stderr)
        return run
