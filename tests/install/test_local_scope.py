"""Scopes keep to their own files (issue 14, items 3, 10 and 15).

``--scope local`` is this machine's: it may touch ``settings.local.json`` and files of its own
named ``*.local.json``, never a file a project commits. Backups of a project's files go to the
user's folder, so a project keeps no stray ``.bak``. A ``--config-dir`` that does not exist is
asked about, not created behind the user's back.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from spawnkit.commands import planned
from spawnkit.hook import config as hook_config
from spawnkit.hosts import paths
from spawnkit.lint.rules import ALL
from spawnkit.template import store

from .conftest import run_cli, snapshot

ALIASES = {rule.name: rule.code for rule in ALL}


def _git(project: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=project, capture_output=True, text=True, check=True
    ).stdout


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    """A git project whose .claude (project scope installed, plus a settings file of the
    team's) is committed."""
    folder = tmp_path / "project"
    (folder / ".claude").mkdir(parents=True)
    (folder / ".claude" / "settings.json").write_text('{\n  "model": "opus"\n}\n')
    monkeypatch.chdir(folder)
    assert run_cli("install", "--scope", "project").exit_code == 0
    for stray in (folder / ".claude").glob("*.bak"):  # none today; see the backups test below
        stray.unlink()
    _git(folder, "init", "-q")
    _git(folder, "add", "-A")
    _git(folder, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "team setup")
    return folder


def _mode(project: Path) -> str:
    env = {"HOME": os.environ["HOME"], "CLAUDE_PROJECT_DIR": str(project)}
    loaded = hook_config.load(env, str(paths.claude_config_dir()), str(project), ALIASES)
    assert not loaded.problems, loaded.problems
    return loaded.mode("CM001")


def test_local_scope_never_touches_a_committed_file(project: Path):
    store_dir = store.store_dir(paths.claude_config_dir())
    assert run_cli("install").exit_code == 0  # the user scope: puts the template store there
    assert store_dir.is_dir()
    committed = _git(project, "ls-files").split()

    result = run_cli("install", "--scope", "local", "--mode", "enforce")
    assert result.exit_code == 0, result.output
    status = _git(project, "status", "--porcelain", "--untracked-files=all").splitlines()
    assert not [line for line in status if not line.startswith("??")], status  # none modified
    added = sorted(line[3:] for line in status)
    assert added == [
        ".claude/.spawnkit/install.local.json",
        ".claude/settings.local.json",
        ".claude/spawnkit.local.json",
    ]
    assert all(name.endswith(".local.json") for name in added)
    assert _git(project, "ls-files").split() == committed
    assert _mode(project) == "enforce"  # the hook reads this machine's mode for the project

    result = run_cli("uninstall", "--scope", "local")
    assert result.exit_code == 0, result.output
    assert _git(project, "status", "--porcelain", "--untracked-files=all") == ""
    assert _mode(project) == "warn"
    assert store_dir.is_dir(), "a local uninstall removed the user-level template store"
    assert "template store" not in result.stdout


def test_a_projects_backups_go_to_the_users_folder(project: Path):
    """Uninstall and install back up the project's settings.json into the user's folder.

    (A teammate's edit since the install keeps them both: the file is not as it was before the
    install, so they may matter; a file given back byte for byte takes them along, see
    tests/security/test_22_uninstall_leaves_nothing_of_its_own.py.)"""
    settings = project / ".claude" / "settings.json"
    settings.write_text(settings.read_text().replace("{", '{\n  "env": {"TEAM": "1"},', 1))
    result = run_cli("uninstall", "--scope", "project")
    assert result.exit_code == 0, result.output
    dot = project / ".claude"
    assert not list(dot.glob("*.bak")), "a backup was left in the project"
    untracked = [
        line
        for line in _git(project, "status", "--porcelain", "--untracked-files=all").splitlines()
        if line.startswith("??")
    ]
    assert untracked == []
    from spawnkit.install.changes import personal_backups_dir

    # one from the install (the team's file as it was), one from this uninstall
    saved = sorted(personal_backups_dir(dot).glob("settings.json.spawnkit-*.bak"))
    assert len(saved) == 2, list(personal_backups_dir(dot).parent.rglob("*"))
    assert json.loads(saved[0].read_text()) == {"model": "opus"}
    assert str(saved[1]) in result.stdout  # the user is told where it is
    assert json.loads(saved[1].read_text())["hooks"]  # the settings as they were, hooks and all
    assert all(path.stat().st_mode & 0o077 == 0 for path in saved)  # settings may hold secrets


def test_a_config_dir_that_does_not_exist_is_asked_about(tmp_path: Path, monkeypatch):
    missing = tmp_path / "typo" / ".claude"
    result = run_cli("install", "--config-dir", str(missing))
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"spawnkit: error: --config-dir {missing} does not exist; check the path, or pass --yes"
        " to create it"
    )
    assert not (tmp_path / "typo").exists()
    dry = run_cli("install", "--config-dir", str(missing), "--dry-run")
    assert dry.exit_code == 0 and "does not exist: a real install asks" in dry.stdout
    assert not (tmp_path / "typo").exists()

    monkeypatch.setattr(planned, "interactive", lambda: True)
    declined = run_cli("install", "--config-dir", str(missing), input="n\n")
    assert declined.exit_code == 130 and "does not exist. Create it" in declined.stdout
    assert not (tmp_path / "typo").exists()
    accepted = run_cli("install", "--config-dir", str(missing), input="y\ny\n")
    assert accepted.exit_code == 0, accepted.output
    assert (missing / "settings.json").is_file()

    monkeypatch.setattr(planned, "interactive", lambda: False)
    other = tmp_path / "other" / ".claude"
    assert run_cli("install", "--config-dir", str(other), "--yes").exit_code == 0
    assert snapshot(other)
