"""Reproduction 12: install and uninstall removed any hook whose command ended in the marker.

A user's own entry that happened to end in ``# spawnkit-managed:v1``, or a
spawnkit entry the user wrapped (``nice -n 5 …``), vanished silently. Now only
an entry whose command is byte for byte one spawnkit writes counts as spawnkit's;
every removed entry is listed; a changed one is kept and named ("modified by
you"), and ``--force`` removes or replaces it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spawnkit.install import registrations as regs
from spawnkit.install import settings_merge as sm

from .conftest import MARKER, run_cli

OWN = f"~/bin/my-guard.sh {MARKER}"


def _commands(cfg: Path) -> list[tuple[str, str]]:
    data = json.loads((cfg / "settings.json").read_text())
    return [
        (event, hook["command"])
        for event, groups in data.get("hooks", {}).items()
        for group in groups
        for hook in group["hooks"]
    ]


@pytest.fixture
def cfg(tmp_path: Path) -> Path:
    folder = tmp_path / "claude"
    assert run_cli("install", "--yes", "--config-dir", str(folder)).exit_code == 0
    data = json.loads((folder / "settings.json").read_text())
    read = next(g for g in data["hooks"]["PreToolUse"] if g["matcher"] == "Read")
    read["hooks"][0]["command"] = "nice -n 5 " + regs.installed_command()  # wrapped by the user
    data["hooks"]["SessionEnd"] = [{"hooks": [{"type": "command", "command": OWN}]}]
    (folder / "settings.json").write_text(json.dumps(data, indent=2))
    return folder


def test_uninstall_keeps_changed_entries_and_lists_every_removed_one(cfg: Path):
    result = run_cli("uninstall", "--yes", "--config-dir", str(cfg))
    assert result.exit_code == 0
    left = [c for _, c in _commands(cfg)]
    assert OWN in left and "nice -n 5 " + regs.installed_command() in left
    assert result.stdout.count("modified by you") == 2
    assert "--force" in result.stdout
    assert result.stdout.count("removes spawnkit's") == len(regs.registrations()) - 1


def test_uninstall_force_removes_them(cfg: Path):
    result = run_cli("uninstall", "--yes", "--force", "--config-dir", str(cfg))
    assert result.exit_code == 0
    assert not sm.managed_hooks((cfg / "settings.json").read_text())
    assert result.stdout.count("removes spawnkit's") == len(regs.registrations()) + 1


def test_install_keeps_the_wrapped_entry_without_adding_a_second(cfg: Path):
    result = run_cli("install", "--yes", "--config-dir", str(cfg))
    assert result.exit_code == 0
    data = json.loads((cfg / "settings.json").read_text())
    reads = [
        hook["command"]
        for group in data["hooks"]["PreToolUse"]
        if group.get("matcher") == "Read"
        for hook in group["hooks"]
    ]
    assert reads == ["nice -n 5 " + regs.installed_command()]
    assert OWN in [c for _, c in _commands(cfg)]
    assert "modified by you" in result.stdout


def test_install_force_replaces_the_wrapped_entry(cfg: Path):
    result = run_cli("install", "--yes", "--force", "--config-dir", str(cfg))
    assert result.exit_code == 0
    hooks = sm.managed_hooks((cfg / "settings.json").read_text())
    assert {h.command for h in hooks} == {regs.installed_command()}
    assert len(hooks) == len(regs.registrations())
