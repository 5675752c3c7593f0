"""Helpers for the trust-boundary tests: each test replays one attack from issue 12.

Every reproduction runs through the real entry points (the CLI in-process or as a
process, the hook script) on real files in temporary folders, so it shows the
same thing on any version of spawnkit: the attack works, or it does not.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from spawnkit.cli import cli

REPO = Path(__file__).resolve().parents[2]
HOOK = REPO / "src" / "spawnkit" / "hook" / "__main__.py"
MARKER = "# spawnkit-managed:v1"


def run_cli(*args: str, input: str | None = None):
    """``spawnkit ARGS`` in-process; stdout and stderr kept apart."""
    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr in by default
    except TypeError:
        runner = CliRunner()
    return runner.invoke(cli, list(args), input=input, catch_exceptions=False)


def spawnkit(*args: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess[str]:
    """``spawnkit ARGS`` as its own process (tracebacks, hangs and kills are visible)."""
    return subprocess.run(
        [sys.executable, "-m", "spawnkit", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        check=False,
        **kwargs,
    )


def one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    """The refusal message, after checking it is one line, exit 2, and no traceback."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("spawnkit: error: "), proc.stderr
    return lines[0]


def marked_entry(command: str, matcher: str | None = "Read") -> dict:
    group: dict = {"matcher": matcher} if matcher else {}
    group["hooks"] = [{"type": "command", "command": command, "timeout": 10}]
    return group


def write_json(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cloned repository, as the working directory."""
    folder = tmp_path / "repo"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder
