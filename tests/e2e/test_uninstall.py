"""Scenario 7: install then uninstall leaves the user's own hooks working, byte for byte, and
the Claude Code folder as it was (issue 30: no backup or hook state of spawnkit's left)."""

from __future__ import annotations

import json

from spawnkit.standard import protocol
from tests.snapshots import differences, tree

from .fake_api import agent

CONTRACT_HEAD = protocol.load()["return_block"][0]


def _user_settings(claude) -> bytes:
    """A user's settings with their own hooks on the very events and matchers spawnkit uses."""
    record = claude.recorder("user")
    hook = [{"type": "command", "command": record, "timeout": 10}]
    data = {
        "model": "claude-opus-5-5",
        "permissions": {"allow": ["Bash(git status)"]},
        "hooks": {
            "PreToolUse": [{"matcher": "Agent|Task", "hooks": hook}],
            "SubagentStop": [{"hooks": hook}],
            "Stop": [{"hooks": hook}],
        },
    }
    raw = (json.dumps(data, indent=4, ensure_ascii=False) + "\n").encode()
    claude.settings_path.write_bytes(raw)
    return raw


def _delegate(claude, fake_api, tag: str):
    call = agent(f"S7{tag}-SUB: check the build", background=False)
    fake_api.conversation(f"S7{tag}-ORCH", call, "Build checked.")
    sub = fake_api.conversation(f"S7{tag}-SUB", "AGENT: build\nSTATUS: COMPLETE")
    claude.run(f"S7{tag}-ORCH: delegate")
    return sub


def test_user_hook_fires_alongside_spawnkit_and_after_its_uninstall(claude, fake_api):
    original = _user_settings(claude)

    claude.spawnkit("install", "--mode", "enforce", "--yes")
    installed = _delegate(claude, fake_api, "A")
    assert CONTRACT_HEAD in installed.first.last_user_text  # spawnkit's hooks ran...
    events = [p["hook_event_name"] for p in claude.recorded("user")]
    assert (
        events.count("PreToolUse") == 1 and "SubagentStop" in events and "Stop" in events
    )  # ...and the user's

    claude.spawnkit("uninstall", "--yes")
    assert claude.settings_path.read_bytes() == original
    before = len(claude.recorded("user"))
    removed = _delegate(claude, fake_api, "B")
    assert CONTRACT_HEAD not in removed.first.text  # spawnkit is gone...
    after = [p["hook_event_name"] for p in claude.recorded("user")[before:]]
    assert (
        after.count("PreToolUse") == 1 and "SubagentStop" in after and "Stop" in after
    )  # ...the user's hook is not


# What Claude Code writes for itself in its folder and HOME while it runs.
CLAUDE_OWN = (
    ".claude/projects",
    ".claude/todos",
    ".claude/statsig",
    ".claude/shell-snapshots",
    ".claude/session-env",
    ".claude/file-history",
    ".claude/plans",
    ".claude/debug",
    ".claude/sessions",
    ".claude/.claude.json",
    ".claude/backups",
    ".claude/plugins",
    ".claude.json",
)


def test_install_a_session_and_uninstall_leave_the_claude_folder_as_it_was(claude, fake_api):
    _user_settings(claude)
    _delegate(claude, fake_api, "C0")  # Claude Code writes its own files first
    before = tree(claude.home)

    claude.spawnkit("install", "--mode", "enforce", "--yes")
    _delegate(claude, fake_api, "C1")  # spawnkit's hook runs: it keeps its session state
    assert list((claude.config_dir / ".spawnkit" / "sessions").glob("*.json"))
    assert list(claude.config_dir.glob("settings.json.spawnkit-*.bak"))
    removed = claude.spawnkit("uninstall", "--yes")

    assert differences(before, tree(claude.home), CLAUDE_OWN) == []
    assert "runtime state" in removed.stdout  # what went is said
