"""The real Claude Code CLI loads what `spawnkit install` writes; the user's hooks keep firing."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from spawnkit.install import registrations as regs
from spawnkit.install import settings_merge as sm

from .fake_api import agent

SPAWNKIT_ONLY = ("SubagentStart", "PostToolBatch")  # events only spawnkit registers here
REPO = Path(__file__).resolve().parents[2]


def _user_settings(claude) -> dict:
    record = claude.recorder("user")
    return {
        "model": "sonnet",
        "permissions": {"allow": ["Bash(ls:*)"]},
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Agent|Task",
                    "hooks": [{"type": "command", "command": record, "timeout": 10}],
                }
            ],
            "SubagentStop": [{"hooks": [{"type": "command", "command": record, "timeout": 10}]}],
        },
    }


def _delegate(claude, fake_api, tag: str, **run_args):
    call = agent(f"{tag}-SUB: count the files", background=False)
    fake_api.conversation(f"{tag}-MAIN", call, "main done")
    sub = fake_api.conversation(f"{tag}-SUB", "There are 3 files.")
    return claude.run(f"{tag}-MAIN: delegate", **run_args), sub


def _started(run, event: str) -> int:
    return sum(
        1
        for ev in run.events
        if ev.get("subtype") == "hook_started" and ev.get("hook_event") == event
    )


def test_installed_hooks_fire_beside_the_users_own(claude, fake_api):
    claude.write_settings(_user_settings(claude))
    claude.spawnkit("install", "--yes", "--mode", "enforce")
    settings = json.loads(claude.settings_path.read_text())
    assert len(sm.managed_hooks(claude.settings_path.read_text())) == len(regs.registrations())

    run, sub = _delegate(claude, fake_api, "E2E-INSTALL")

    # the user's hooks still fire, on the same event and matcher spawnkit also uses
    assert len(claude.recorded("user", "PreToolUse")) == 1
    assert len(claude.recorded("user", "SubagentStop")) == 1
    # spawnkit's fire too: one more PreToolUse runner, and events only spawnkit listens to
    assert _started(run, "PreToolUse") == 2
    assert _started(run, "SubagentStop") == 2
    for event in SPAWNKIT_ONLY:
        assert _started(run, event) >= 1, event
    assert all(r["exit_code"] == 0 for r in run.hook_responses())
    # and they did their job: in enforce mode (read from the installed spawnkit.json) the
    # sub-agent's prompt got the standard's return contract appended
    assert "RETURN CONTRACT" in sub.requests[0].last_user_text
    assert settings["model"] == "sonnet"


def test_the_plugin_gives_the_same_hooks_without_pip(claude, fake_api):
    run, sub = _delegate(
        claude, fake_api, "E2E-PLUGIN", plugin_dirs=(REPO,), env={"SPAWNKIT_MODE": "enforce"}
    )
    expected: dict[str, int] = {}
    for reg in regs.registrations():
        if reg.matcher in (None, "Agent|Task"):
            expected[reg.event] = expected.get(reg.event, 0) + 1
    for event, count in expected.items():
        assert _started(run, event) == count, event
    assert "RETURN CONTRACT" in sub.requests[0].last_user_text


BAD_ENTRIES = {
    "PreToolUse, hook without command": ("PreToolUse", {"type": "command"}),
    "PreToolUse, unknown key": ("PreToolUse", {"type": "command", "command": "true", "note": "x"}),
    "PermissionRequest, zero timeout": (
        "PermissionRequest",
        {"type": "command", "command": "true", "timeout": 0},
    ),
    "Stop, hook without command": ("Stop", {"type": "command"}),
    "SubagentStop, unknown hook type": ("SubagentStop", {"type": "shell", "command": "true"}),
}


@pytest.mark.parametrize("name", list(BAD_ENTRIES))
def test_hook_problems_agree_with_what_the_client_drops(claude, fake_api, name):
    """doctor calls some entries fatal to the whole file; the real client must agree."""
    event, entry = BAD_ENTRIES[name]
    settings = _user_settings(claude)
    settings["hooks"].setdefault(event, []).append({"matcher": "Nothing", "hooks": [entry]})
    claude.write_settings(settings)
    fatal = any(p.fatal for p in sm.hook_problems(claude.settings_path.read_text()))

    _delegate(claude, fake_api, "E2E-BAD")
    user_hooks_fired = bool(claude.recorded("user", "SubagentStop"))
    assert user_hooks_fired != fatal


def test_the_marketplace_entry_installs_the_plugin(claude, fake_api):
    for args in (["marketplace", "add", str(REPO)], ["install", "spawnkit@spawnkit"]):
        proc = subprocess.run(
            [claude.binary, "plugin", *args],
            env=claude.env,
            cwd=claude.project,
            check=False,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
    settings = json.loads(claude.settings_path.read_text())
    assert settings["enabledPlugins"] == {"spawnkit@spawnkit": True}

    run, sub = _delegate(claude, fake_api, "E2E-MARKET", env={"SPAWNKIT_MODE": "enforce"})
    for event in ("PreToolUse", "SubagentStart", "SubagentStop", "PostToolBatch"):
        assert _started(run, event) == 1, event
    assert "RETURN CONTRACT" in sub.requests[0].last_user_text
