"""An install made before the hook followed background tasks (issue 20) has six registrations;
one made before it followed sub-agents' messages (issue 35), every one but SendMessage's.

doctor must say which are missing and how to add them; running ``spawnkit install`` again
must add exactly those, leave the user's own hooks and the older ones in place, and uninstall
must still take everything back.
"""

from __future__ import annotations

import json
from pathlib import Path

from spawnkit.install import registrations as regs
from spawnkit.install.changes import apply
from spawnkit.install.install import plan_install, resolve_target
from spawnkit.install.settings_merge import managed_hooks

from .conftest import run_cli

# What `spawnkit install` registered for Claude Code before issue 20.
OLD = [
    ("PreToolUse", "Agent|Task"),
    ("PreToolUse", "Read"),
    ("PostToolUse", "Write|Edit|MultiEdit"),
    ("SubagentStart", None),
    ("SubagentStop", None),
    ("PostToolBatch", None),
]
NEW = [
    "PreToolUse TaskStop",
    "PreToolUse SendMessage",
    "PostToolUse Agent|Task|TaskStop|Workflow",
    "UserPromptSubmit",
    "Stop",
]
USERS = (
    '{\n  "model": "opus",\n  "hooks": {\n    "Stop": [\n'
    '      {"hooks": [{"type": "command", "command": "notify-send done"}]}\n    ]\n  }\n}\n'
)


def _old_install(cfg: Path, monkeypatch, table: list | None = None) -> None:
    old = [regs.Registration(event, matcher, 10) for event, matcher in table or OLD]
    with monkeypatch.context() as patch:
        patch.setattr(regs, "registrations", lambda host="claude-code": old)
        apply(plan_install(resolve_target("user", cfg)))


def _doctor(cfg: Path) -> dict:
    result = run_cli("doctor", "--config-dir", str(cfg), "--json")
    return {c["name"]: c for c in json.loads(result.stdout)["checks"]}


def test_doctor_names_the_missing_registrations_and_install_adds_them(cfg: Path, monkeypatch):
    settings = cfg / "settings.json"
    settings.write_text(USERS)
    _old_install(cfg, monkeypatch)
    assert len(managed_hooks(settings.read_text())) == len(OLD)

    check = _doctor(cfg)["hooks registered"]
    n = len(regs.registrations())
    assert check["status"] == "broken"
    assert check["detail"] == (
        f"{len(NEW)} of {n} missing in {settings} (registered by an older spawnkit?): "
        + ", ".join(NEW)
    )
    assert check["fix"].startswith(f"spawnkit install --config-dir {cfg}")

    result = run_cli("install", "--config-dir", str(cfg), "--yes")
    assert result.exit_code == 0, result.stderr
    found = [(h.event, h.matcher) for h in managed_hooks(settings.read_text())]
    assert sorted(found, key=str) == sorted(
        ((r.event, r.matcher) for r in regs.registrations()), key=str
    )
    data = json.loads(settings.read_text())
    assert data["model"] == "opus"
    assert data["hooks"]["Stop"][0] == {
        "hooks": [{"type": "command", "command": "notify-send done"}]
    }
    assert _doctor(cfg)["hooks registered"]["status"] == "ok"

    again = settings.read_bytes()
    assert run_cli("install", "--config-dir", str(cfg), "--yes").exit_code == 0
    assert settings.read_bytes() == again  # nothing left to change

    assert run_cli("uninstall", "--config-dir", str(cfg), "--yes").exit_code == 0
    assert settings.read_text() == USERS


def test_doctor_shows_the_scope_in_force(cfg: Path, tmp_path: Path, monkeypatch):
    assert run_cli("install", "--config-dir", str(cfg), "--mode", "enforce").exit_code == 0
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "spawnkit.json").write_text('{"agents": {"reviewer": "off"}}')
    monkeypatch.chdir(project)
    check = _doctor(cfg)["return budget scope"]
    assert check["status"] == "ok"
    assert check["detail"].startswith(
        "CM001 enforce: blocks general-purpose, every other type (*);"
    )
    assert f"leaves alone reviewer ({project / '.claude' / 'spawnkit.json'})," in check["detail"]
    assert "warns about Explore, Plan, plugin agents (*:*)" in check["detail"]
    assert "never a workflow's agents" in check["detail"]


def test_an_install_from_before_messages_gains_the_sendmessage_registration(cfg: Path, monkeypatch):
    settings = cfg / "settings.json"
    before = [(r.event, r.matcher) for r in regs.registrations() if r.matcher != "SendMessage"]
    assert len(before) == len(regs.registrations()) - 1
    _old_install(cfg, monkeypatch, before)

    check = _doctor(cfg)["hooks registered"]
    assert check["status"] == "broken"
    assert check["detail"].startswith(f"1 of {len(regs.registrations())} missing in {settings}")
    assert check["detail"].endswith(": PreToolUse SendMessage")

    assert run_cli("install", "--config-dir", str(cfg), "--yes").exit_code == 0
    found = sorted(((h.event, h.matcher) for h in managed_hooks(settings.read_text())), key=str)
    assert found == sorted(((r.event, r.matcher) for r in regs.registrations()), key=str)
    assert _doctor(cfg)["hooks registered"]["status"] == "ok"
