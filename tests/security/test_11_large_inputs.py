"""Reproduction 11: large inputs were slow enough to break things.

A 10.7 MB settings.json took 28 s to install and 44 s to uninstall (every edit
re-parsed the whole file); a Read payload with a 15 MB ``file_path`` took 11.6 s,
over the client's 10 s hook timeout. Speed itself is measured in
``benchmarks/install.py`` and ``benchmarks/hook.py``; these tests pin the causes:
one parse per command however many entries change, and no work on a path no
system could open.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from spawnkit.install import registrations as regs
from spawnkit.install import settings_merge as sm

from .conftest import HOOK, run_cli, write_json

ENTRIES = 300


def _other_installation(i: int) -> str:
    script = f"/opt/venv{i}/lib/python3.11/site-packages/spawnkit/hook/__main__.py"
    return regs.marked(f"test -f {script} && /opt/venv{i}/bin/python -I -S {script}")


@pytest.mark.parametrize("verb", ["install", "uninstall"])
def test_the_settings_are_parsed_once_however_many_entries_change(
    tmp_path: Path, monkeypatch, verb: str
):
    cfg = tmp_path / "claude"
    groups = [
        {"matcher": "Read", "hooks": [{"type": "command", "command": _other_installation(i)}]}
        for i in range(ENTRIES)
    ]
    write_json(cfg / "settings.json", {"hooks": {"PreToolUse": groups}})
    calls = []
    real = sm.parse

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(sm, "parse", counting)
    result = run_cli(verb, "--yes", "--config-dir", str(cfg))
    assert result.exit_code == 0, result.output
    assert len(calls) <= 4, f"{len(calls)} parses for {ENTRIES} stale entries"
    left = sm.managed_hooks((cfg / "settings.json").read_text())
    assert len(left) == (len(regs.registrations()) if verb == "install" else 0)
    assert (
        result.stdout.count("stale or duplicate" if verb == "install" else "removes") >= ENTRIES - 1
    )


def test_a_read_of_a_15_mb_path_is_not_examined(tmp_path: Path):
    project = tmp_path / "proj"
    project.mkdir()
    path = str(project / ".audit-reports" / ("x" * 15_000_000)) + ".md"
    payload = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": path},
        "session_id": "s",
        "cwd": str(project),
    }
    env = {"HOME": str(tmp_path), "CLAUDE_PROJECT_DIR": str(project), "SPAWNKIT_MODE": "enforce"}
    proc = subprocess.run(
        [sys.executable, "-I", "-S", str(HOOK)],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=env,
        cwd=project,
        timeout=60,
    )
    assert proc.returncode == 0
    assert proc.stdout == b"", "a path no system can open needs no answer (the Read fails anyway)"
