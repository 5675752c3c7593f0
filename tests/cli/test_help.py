"""``--help`` and the README say the same about hosts and folders, and both say what the code does.

Issue 30, item 7: ``install --help`` named no Copilot CLI (its text was kept by hand and lagged
the host list), and ``lint --help`` listed two of the eight folders lint reads without a path.
Now those texts are built from the host descriptions and from lint's discovery; these tests hold
them to the code (every host, every folder, in the walk itself) and to the README. A host added
to ``spawnkit.hosts`` is covered here without a change to this file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from spawnkit import hosts
from spawnkit.cli import cli
from spawnkit.lint.discovery import default_root_labels, default_roots

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
HOSTS = hosts.all_hosts()


def help_text(*verb: str) -> str:
    """``spawnkit VERB --help``, wrapped lines joined (a name may be split at a line end)."""
    out = CliRunner().invoke(cli, [*verb, "--help"], terminal_width=1000).output
    return " ".join(out.split())


def _choices(verb: str, option: str) -> list[str]:
    command = cli.commands[verb]
    [param] = [p for p in command.params if option in p.opts]
    return list(param.type.choices)


@pytest.mark.parametrize("verb", [(), ("install",), ("uninstall",), ("doctor",)])
def test_help_names_every_host(verb):
    text = help_text(*verb)
    missing = [h.label for h in HOSTS if h.label not in text]
    assert not missing, f"spawnkit {' '.join(verb)} --help names no {missing}"


@pytest.mark.parametrize("verb", ["install", "uninstall", "doctor"])
def test_host_choices_are_the_hosts(verb):
    assert _choices(verb, "--host") == [*hosts.NAMES, "all"]
    text = help_text(verb)
    for host in HOSTS:  # and --scope says where each one's files go
        assert host.hooks_file in text and f"./{host.project_hooks_file}" in text, host


def test_new_names_every_hosts_skill_folders():
    assert _choices("new", "--host") == list(hosts.NAMES)
    text = help_text("new")
    for host in HOSTS:
        assert f"./{host.project_skill_dirs[0]}/NAME" in text, host
        assert f"${host.config_env}/" in text, host


def test_lint_help_lists_every_folder_lint_reads():
    text = help_text("lint")
    labels = default_root_labels()
    assert len(labels) >= len(HOSTS) + 1  # Claude Code's two, then each host's skill folders
    missing = [long for _short, long in labels if long not in text]
    assert not missing, f"lint --help leaves out {missing}"


def test_the_folders_named_are_the_folders_walked(tmp_path: Path, monkeypatch):
    """Every folder ``default_root_labels`` names is one ``default_roots`` walks, and back."""
    home, project = tmp_path / "home", tmp_path / "project"
    monkeypatch.setenv("HOME", str(home))
    for host in HOSTS:
        monkeypatch.delenv(host.config_env, raising=False)

    def where(short: str) -> Path:
        return home / short[2:] if short.startswith("~/") else project / short[2:]

    for short, _long in default_root_labels():
        where(short).mkdir(parents=True, exist_ok=True)
    (home / ".codex" / "skills" / "mine").mkdir()  # Codex's: its skills, its .system aside
    walked = {p.resolve() for p in default_roots(project)}
    named = {where(short).resolve() for short, _long in default_root_labels()}
    codex = (home / ".codex" / "skills").resolve()
    walked = {codex if p.parent == codex else p for p in walked}
    assert walked == named
    assert os.environ["HOME"] == str(home)


def test_the_readme_names_every_host():
    for host in HOSTS:
        assert host.label in README, host
        if host.name != hosts.DEFAULT:
            assert f"--host {host.name}" in README, host


def test_the_readme_names_the_folders_lint_reads():
    """Its sentence on lint without a path names exactly the folders the code reads."""
    [sentence] = re.findall(r"Without a path, lint checks (.*?)\.\s", README, re.S)
    named = set(re.findall(r"`([~.][^`]*)`", sentence))
    assert named == {short for short, _long in default_root_labels()}
