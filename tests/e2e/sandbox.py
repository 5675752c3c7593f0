"""An isolated HOME + project in which to run a real client and spawnkit; here Claude Code's.

``Sandbox`` is what every client's sandbox shares (``codex_sandbox`` adds Codex CLI's).
Used by the e2e fixtures and by benchmarks/context.py. Nothing from the outer environment leaks in:
the client gets an ``env -i``-style environment pointing it at the fake API.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .fake_api import FakeAnthropic

CLAUDE_VERSION = "2.1.330"
INSTALL_HINT = (
    f"npm install @anthropic-ai/claude-code@{CLAUDE_VERSION} and set SPAWNKIT_CLAUDE_BIN to its "
    "node_modules/.bin/claude (.ci/run does both)"
)
RUN_TIMEOUT = 180.0  # a safety net only: a scripted run takes about a second


class ClientMisconfigured(RuntimeError):
    """The client's SPAWNKIT_*_BIN variable is set but unusable."""


def find_client(variable: str, name: str, hint: str) -> str | None:
    """``$variable``, else ``name`` on PATH; None when neither exists."""
    configured = os.environ.get(variable)
    if configured:
        if not os.access(configured, os.X_OK):
            raise ClientMisconfigured(f"{variable}={configured} is not executable; {hint}")
        return configured
    return shutil.which(name)


def client_version(binary: str) -> str:
    """What ``<binary> --version`` says, e.g. ``2.1.330`` (the pin when it says nothing usable):
    tests that compare a recorded version run against whichever client is under test."""
    try:
        out = subprocess.run(
            [binary, "--version"], capture_output=True, text=True, timeout=60, check=False
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return CLAUDE_VERSION
    words = out.split()
    return words[0] if words and words[0][:1].isdigit() else CLAUDE_VERSION


def find_claude() -> str | None:
    """$SPAWNKIT_CLAUDE_BIN, else ``claude`` on PATH; None when neither exists."""
    return find_client("SPAWNKIT_CLAUDE_BIN", "claude", INSTALL_HINT)


@dataclass
class ClaudeRun:
    """The outcome of one ``claude -p`` run."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    home: Path
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def result(self) -> str:
        """The final answer printed to the user."""
        for ev in reversed(self.events):
            if ev.get("type") == "result":
                return str(ev.get("result", ""))
        return self.stdout.strip()

    def hook_responses(self, event: str | None = None) -> list[dict[str, Any]]:
        """Hook runs reported with --include-hook-events (stream-json only), in order."""
        return [
            ev
            for ev in self.events
            if ev.get("subtype") == "hook_response"
            and (event is None or ev.get("hook_event") == event)
        ]

    def transcript_entries(self) -> list[dict[str, Any]]:
        """Every entry of every session transcript (main thread and sub-agents) under the HOME."""
        entries = []
        for path in sorted((self.home / ".claude" / "projects").rglob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    entries.append(json.loads(line))
                except ValueError:
                    continue
        return entries

    def system_messages(self, event: str | None = None) -> list[str]:
        """Hook ``systemMessage``s, i.e. what the user is shown, optionally from one hook event.

        ``-p`` prints none of them; the session transcripts keep each as a
        ``hook_system_message`` attachment, which is what the interactive client displays.
        """
        found = []
        for entry in self.transcript_entries():
            att = entry.get("attachment")
            if isinstance(att, dict) and att.get("type") == "hook_system_message":
                if event is None or att.get("hookEvent") == event:
                    found.append(str(att.get("content", "")))
        return found


_RECORDER = textwrap.dedent(
    """\
    import json, os, sys, time
    data = sys.stdin.buffer.read()
    try:
        event = json.loads(data).get("hook_event_name", "unknown")
    except ValueError:
        event = "unparsable"
    name = "%020d-%d-%s.json" % (time.time_ns(), os.getpid(), event)
    os.makedirs(sys.argv[1], exist_ok=True)
    with open(os.path.join(sys.argv[1], name), "wb") as fh:
        fh.write(data)
    """
)


class Sandbox:
    """An isolated HOME and project; what every client's sandbox shares."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.project = root / "project"
        self.hooklog = root / "hooklog"
        for d in (self.home, self.project):
            d.mkdir(parents=True, exist_ok=True)

    @property
    def env(self) -> dict[str, str]:
        """A clean environment: nothing leaks in from the outer one."""
        return {
            "HOME": str(self.home),
            "PATH": os.pathsep.join(
                [str(Path(sys.executable).parent), "/usr/local/bin", "/usr/bin", "/bin"]
            ),
            "LANG": "C.UTF-8",
        }

    def recorder(self, tag: str) -> str:
        """A hook command saving each stdin payload under hooklog/<tag>/ (see recorded())."""
        script = self.root / "record_hook.py"
        if not script.exists():
            script.write_text(_RECORDER, encoding="utf-8")
        return shlex.join([sys.executable, "-I", str(script), str(self.hooklog / tag)])

    def recorded(self, tag: str, event: str | None = None) -> list[dict[str, Any]]:
        """Payloads the ``tag`` recorder received, oldest first, optionally of one event."""
        folder = self.hooklog / tag
        if not folder.is_dir():
            return []
        payloads = [json.loads(p.read_bytes()) for p in sorted(folder.glob("*.json"))]
        return [p for p in payloads if event is None or p.get("hook_event_name") == event]

    def assert_ran(self, client: str, returncode: int, stdout: str, stderr: str) -> None:
        """The client exited 0 and its fake API's scripts raised nothing."""
        assert returncode == 0, (
            f"{client} exited {returncode}\nstderr:\n{stderr[-3000:]}\nstdout:\n{stdout[-3000:]}"
        )
        api = getattr(self, "api", None)
        assert api is None or not api.errors, f"fake API script errors: {api.errors}"

    def run_group(
        self, name: str, args: list[str], env: dict[str, str], timeout: float
    ) -> tuple[int, str, str, float]:
        """``args`` in the project, stdin closed, in a process group of its own (a Node loader's
        child clients go with it): (exit code, stdout, stderr, seconds). A run past ``timeout``
        is killed with its whole group and fails the test."""
        started = time.monotonic()
        proc = subprocess.Popen(
            args,
            cwd=self.project,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            stdout, stderr = proc.communicate()
            raise AssertionError(
                f"{name} ran past {timeout:.0f} s and was killed\nstderr:\n{stderr[-3000:]}"
            ) from None
        return proc.returncode, stdout, stderr, time.monotonic() - started

    def spawnkit(
        self, *args: str, check: bool = True, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        """Run the spawnkit CLI of this checkout with HOME pointing at the sandbox, in the project
        (or in ``cwd``)."""
        proc = subprocess.run(
            [sys.executable, "-m", "spawnkit", *args],
            cwd=cwd or self.project,
            env=self.env,
            check=False,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if check and proc.returncode != 0:
            raise AssertionError(
                f"spawnkit {' '.join(args)} exited {proc.returncode}:\n{proc.stderr}{proc.stdout}"
            )
        return proc


class ClaudeSandbox(Sandbox):
    """An isolated HOME + project in which to run the real Claude Code client and spawnkit."""

    def __init__(self, root: Path, binary: str, api: FakeAnthropic) -> None:
        super().__init__(root)
        self.binary = binary
        self.api = api
        self.config_dir = self.home / ".claude"
        self.tmpdir = root / "cctmp"
        for d in (self.config_dir, self.tmpdir):
            d.mkdir(parents=True, exist_ok=True)

    @property
    def env(self) -> dict[str, str]:
        """A clean environment (nothing leaks from the outer one) aimed at the fake API."""
        env = {
            **super().env,
            "ANTHROPIC_BASE_URL": self.api.url,
            "ANTHROPIC_API_KEY": "sk-fake",
            "DISABLE_TELEMETRY": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_TMPDIR": str(self.tmpdir),
        }
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            env["IS_SANDBOX"] = "1"  # --dangerously-skip-permissions refuses root otherwise
        return env

    # --- settings and hooks -------------------------------------------------------------------

    @property
    def settings_path(self) -> Path:
        return self.config_dir / "settings.json"

    def write_settings(self, data: dict[str, Any]) -> Path:
        self.settings_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        return self.settings_path

    # --- running ------------------------------------------------------------------------------

    def start(self, prompt: str, *, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        """``claude -p PROMPT`` started in a process group of its own and not waited for: a test
        ends it midway with ``os.killpg``, as a crash or a closed terminal would."""
        return subprocess.Popen(
            [self.binary, "-p", prompt, "--dangerously-skip-permissions"],
            cwd=self.project,
            env={**self.env, **(env or {})},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def run(
        self,
        prompt: str,
        *,
        plugin_dirs: tuple[Path | str, ...] = (),
        output_format: str = "stream-json",
        extra_args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
        timeout: float = RUN_TIMEOUT,
        check: bool = True,
        skip_permissions: bool = True,
    ) -> ClaudeRun:
        """``claude -p PROMPT --dangerously-skip-permissions`` in the project dir.

        stream-json (the default) adds --verbose and --include-hook-events so hook outputs are kept.
        ``skip_permissions=False`` leaves the client's permission checks on: in ``-p`` a tool
        call nothing allows is refused instead of asked about.
        """
        args = [self.binary, "-p", prompt]
        if skip_permissions:
            args.append("--dangerously-skip-permissions")
        args += ["--output-format", output_format]
        if output_format == "stream-json":
            args += ["--verbose", "--include-hook-events"]
        for plugin in plugin_dirs:
            args += ["--plugin-dir", str(plugin)]
        args += list(extra_args)
        started = time.monotonic()
        proc = subprocess.run(
            args,
            cwd=self.project,
            env={**self.env, **(env or {})},
            check=False,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        run = ClaudeRun(
            args, proc.returncode, proc.stdout, proc.stderr, time.monotonic() - started, self.home
        )
        if output_format == "stream-json":
            run.events = [
                json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")
            ]
        elif output_format == "json" and proc.stdout.strip():
            run.events = [json.loads(proc.stdout)]
        if check:
            self.assert_ran("claude", proc.returncode, proc.stdout, proc.stderr)
        return run
