"""Reproduction 10: hangs.

A FIFO at ``.claude/skills/x/SKILL.md`` blocked the lint-on-write hook; a FIFO as
settings.json hung install and doctor; the hook waited forever when stdin never
closed. Each is now refused or answered within seconds (the subprocess timeouts
below only stop a hang; they are not a speed claim).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import HOOK, one_line_error, spawnkit

PAYLOADS = Path(__file__).resolve().parents[1] / "fixtures" / "payloads"
HANG = 30  # seconds: far beyond any answer, short enough to fail a hang


def _hook(payload: bytes | None, env: dict, cwd: Path, timeout: float = HANG):
    return subprocess.run(
        [sys.executable, "-I", "-S", str(HOOK)],
        input=payload,
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=timeout,
    )


def test_a_fifo_skill_file_does_not_block_lint_on_write(tmp_path: Path):
    project = tmp_path / "proj"
    skill = project / ".claude" / "skills" / "x"
    skill.mkdir(parents=True)
    os.mkfifo(skill / "SKILL.md")
    data = json.loads((PAYLOADS / "PostToolUse_Write.json").read_text())
    data["tool_input"]["file_path"] = str(skill / "SKILL.md")
    data["cwd"] = str(project)
    env = {"HOME": str(tmp_path), "CLAUDE_PROJECT_DIR": str(project), "PATH": "/usr/bin:/bin"}
    proc = _hook(json.dumps(data).encode(), env, project)
    assert proc.returncode == 0 and proc.stdout == b""


@pytest.mark.parametrize("verb", ["install", "uninstall", "doctor"])
def test_a_fifo_settings_file_is_refused_not_waited_on(tmp_path: Path, verb: str):
    cfg = tmp_path / "claude"
    cfg.mkdir()
    os.mkfifo(cfg / "settings.json")
    args = (verb, "--config-dir", str(cfg)) + (("--yes",) if verb != "doctor" else ())
    proc = spawnkit(*args, timeout=HANG)
    if verb == "doctor":
        assert proc.returncode == 1 and "not a regular file" in proc.stdout
    else:
        assert "not a regular file" in one_line_error(proc)


def test_the_hook_gives_up_on_a_stdin_that_never_closes(tmp_path: Path):
    env = {"HOME": str(tmp_path), "CLAUDE_CONFIG_DIR": str(tmp_path / "c"), "PATH": "/usr/bin:/bin"}
    (tmp_path / "c").mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", str(HOOK)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        cwd=tmp_path,
    )
    try:
        proc.stdin.write(b'{"hook_event_name": "PreToolUse"')  # and never more, never EOF
        proc.stdin.flush()
        assert proc.wait(timeout=HANG) == 0
        assert proc.stdout.read() == b""
    finally:
        proc.kill()
        proc.stdin.close()
    assert "no payload" in (tmp_path / "c" / ".spawnkit" / "hook.log").read_text()


@pytest.mark.parametrize("where", ["SKILL.md", "pyproject.toml"])
def test_lint_refuses_a_fifo_instead_of_waiting(tmp_path: Path, where: str):
    skill = tmp_path / ".claude" / "skills" / "x"
    skill.mkdir(parents=True)
    fifo = skill / "SKILL.md" if where == "SKILL.md" else tmp_path / "pyproject.toml"
    if where != "SKILL.md":
        (skill / "SKILL.md").write_text("---\nname: x\ndescription: A skill.\n---\nBody.\n")
    os.mkfifo(fifo)
    proc = spawnkit("lint", ".claude/skills/x", cwd=tmp_path, timeout=HANG)
    assert "Traceback" not in proc.stderr
    if where == "SKILL.md":
        assert proc.returncode == 2 and "not a regular file" in proc.stderr
    else:  # not a config file at all: skipped like a missing one
        assert proc.returncode == 0, proc.stderr
