"""``spawnkit install --host copilot``: a hook file of spawnkit's own, byte-identical round trips.

Copilot CLI loads every ``*.json`` under ``$COPILOT_HOME/hooks``: spawnkit writes its entries
into ``hooks/spawnkit-hooks.json`` and never opens another file there. Every variant is a
hooks folder shaped like a user's (missing, empty, the user's own files beside spawnkit's in
Copilot's flat format or Claude Code's nested one, odd formatting, a file of the user's under
spawnkit's very name). For each: install writes the five registrations, each with its own
``--event``; the user's files are neither rewritten nor touched; a second install changes no
byte; uninstall gives the folder back byte for byte.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from spawnkit.install import registrations as regs

from .conftest import run_cli, snapshot, without_backups

FLAT = (
    '{\n  "version": 1,\n  "hooks": {\n    "preToolUse": [\n      {"type": "command", "bash":'
    ' "./audit.sh", "timeoutSec": 30}\n    ],\n    "subagentStop": [{"type": "command", "bash":'
    ' "echo done"}]\n  }\n}\n'
)
NESTED_CRLF = json.dumps(
    {
        "hooks": {
            "postToolUse": [{"matcher": "edit", "hooks": [{"type": "command", "command": "fmt"}]}]
        }
    },
    indent="\t",
).replace("\n", "\r\n")

FOLDERS: dict[str, dict[str, str] | None] = {
    "no hooks folder": None,
    "empty hooks folder": {},
    "the user's flat file beside": {"mine.json": FLAT},
    "nested, tabs, CRLF, no final newline; a README": {
        "team.json": NESTED_CRLF,
        "README.md": "my hooks\n",
        "old.json.bak": "{}",
    },
    "a file of the user's under spawnkit's name, one line": {
        "spawnkit-hooks.json": '{"hooks": {"subagentStop": [{"type": "command", "bash": "x"}]}}'
    },
    "the user's file under spawnkit's name, empty object, unicode": {
        "spawnkit-hooks.json": '{"description": "naïve — mine"}\n',
        "zz.json": FLAT,
    },
}


def _home(tmp_path: Path, files: dict[str, str] | None) -> Path:
    home = tmp_path / "copilot-home"
    home.mkdir()
    (home / "config.json").write_text('// kept by Copilot\n{\n  "firstLaunchAt": "x"\n}\n')
    if files is not None:
        hooks = home / "hooks"
        hooks.mkdir()
        for name, text in files.items():
            (hooks / name).write_bytes(text.encode("utf-8"))
    return home


def _install(home: Path, *extra: str):
    return run_cli("install", "--host", "copilot", "--config-dir", str(home), "--yes", *extra)


def _uninstall(home: Path, *extra: str):
    return run_cli("uninstall", "--host", "copilot", "--config-dir", str(home), "--yes", *extra)


def _stats(home: Path) -> dict[str, tuple[int, int]]:
    """Inode and mtime of every file the user had in the hooks folder (besides spawnkit's)."""
    hooks = home / "hooks"
    if not hooks.is_dir():
        return {}
    return {
        p.name: (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in hooks.iterdir()
        if not p.name.startswith("spawnkit-hooks.json")
    }


@pytest.mark.parametrize("variant", list(FOLDERS))
def test_install_twice_then_uninstall_gives_the_folder_back(tmp_path, variant):
    files = FOLDERS[variant]
    home = _home(tmp_path, files)
    before, untouched = snapshot(home), _stats(home)

    first = _install(home, "--mode", "enforce")
    assert first.exit_code == 0, first.output + first.stderr
    path = home / "hooks" / "spawnkit-hooks.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    ours = {
        (event, group.get("matcher")): hook["command"]
        for event, groups in data["hooks"].items()
        for group in groups
        if isinstance(group, dict) and "hooks" in group
        for hook in group["hooks"]
        if regs.is_managed(hook.get("command"))
    }
    table = regs.registrations("copilot")
    assert sorted(ours, key=str) == sorted(((r.event, r.matcher) for r in table), key=str)
    for (event, _), command in ours.items():
        assert command.endswith(f" --host copilot --event {event} {regs.CURRENT_MARKER}")
        assert command.startswith("test ! -f ") and regs.is_generated(command)
    # The user's entries in a file of that name are kept, every other file never opened.
    if files and "spawnkit-hooks.json" in files:
        theirs = json.loads(files["spawnkit-hooks.json"])
        for key, value in theirs.items():
            if key != "hooks":
                assert data[key] == value
        for event, groups in theirs.get("hooks", {}).items():
            assert data["hooks"][event][: len(groups)] == groups
    assert _stats(home) == untouched
    made = () if files is not None else ("hooks",)  # the folder install had to create
    assert {k: v for k, v in snapshot(home).items() if not k.startswith(_OURS + made)} == {
        k: v for k, v in before.items() if not k.startswith(_OURS)
    }
    assert (home / "skills" / "spawnkit" / "SKILL.md").is_file()
    assert json.loads((home / "spawnkit.json").read_text())["mode"] == "enforce"

    installed = without_backups(snapshot(home))
    second = _install(home)
    assert second.exit_code == 0 and "already installed" in second.output
    assert without_backups(snapshot(home)) == installed

    removed = _uninstall(home)
    assert removed.exit_code == 0, removed.output + removed.stderr
    assert without_backups(snapshot(home)) == before
    assert _stats(home) == untouched


_OURS = (
    "hooks/spawnkit-hooks.json",
    "hooks/spawnkit-hooks.json.spawnkit-",  # the backup of a file of the user's under our name
    "skills",
    "standards",
    "spawnkit.json",
    ".spawnkit",
)


def test_dry_run_writes_nothing_and_shows_the_file(tmp_path):
    home = _home(tmp_path, {"mine.json": FLAT})
    before = snapshot(home)
    dry = _install(home, "--dry-run")
    assert dry.exit_code == 0 and "nothing was written" in dry.output
    assert "create  hooks/spawnkit-hooks.json" in dry.output
    assert snapshot(home) == before


def test_a_broken_file_under_spawnkits_name_is_refused_untouched(tmp_path):
    home = _home(tmp_path, {"spawnkit-hooks.json": '{"hooks": [1, 2'})
    before = snapshot(home)
    refused = _install(home)
    assert refused.exit_code == 2 and "not valid JSON" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert snapshot(home) == before


@pytest.mark.parametrize("force", [False, True])
def test_a_changed_entry_of_ours_is_kept_and_said_unless_forced(tmp_path, force):
    home = _home(tmp_path, None)
    before = snapshot(home)
    assert _install(home).exit_code == 0
    path = home / "hooks" / "spawnkit-hooks.json"
    text = path.read_text()
    command = json.loads(text)["hooks"]["subagentStop"][0]["hooks"][0]["command"]
    path.write_text(text.replace(command, "nice -n 5 " + command))
    done = _uninstall(home, *(["--force"] if force else []))
    assert done.exit_code == 0
    if force:
        assert without_backups(snapshot(home)) == before
    else:
        assert "keeps the subagentStop entry marked as spawnkit's: modified by you" in done.output
        assert "nice -n 5" in path.read_text()


def test_the_guard_exits_zero_when_the_package_is_gone(tmp_path):
    """Copilot denies a tool call whose preToolUse hook fails: a removed spawnkit must not make
    every task call fail. The Claude Code form exits 1 there (a non-blocking error)."""
    gone = str(tmp_path / "removed" / "spawnkit" / "hook" / "__main__.py")
    copilot = regs.command_text("/usr/bin/python3", gone, "copilot", True, "preToolUse")
    claude = regs.command_text("/usr/bin/python3", gone)
    ran = [subprocess.run(["bash", "-c", c], input="{}", text=True) for c in (copilot, claude)]
    assert [r.returncode for r in ran] == [0, 1]


@pytest.mark.parametrize(
    ("command", "ok"),
    [
        ("{copilot}", True),
        ("{copilot_and}", False),  # Claude's guard form on Copilot: a deny when spawnkit is gone
        ("{copilot_no_event}", False),
        ("{copilot_bad_event}", False),
        ("{claude_with_event}", False),
    ],
)
def test_only_the_exact_copilot_shape_is_spawnkits(command, ok):
    python, script = "/usr/bin/python3", "/opt/x/spawnkit/hook/__main__.py"
    good = regs.command_text(python, script, "copilot", True, "subagentStop")
    shapes = {
        "copilot": good,
        "copilot_and": good.replace("test ! -f", "test -f").replace(" || ", " && "),
        "copilot_no_event": good.removesuffix(" --event subagentStop"),
        "copilot_bad_event": good.replace("subagentStop", "agentStop"),
        "claude_with_event": regs.command_text(python, script) + " --event subagentStop",
    }
    assert regs.is_generated(regs.marked(command.format(**shapes))) is ok


def test_project_scope_writes_dot_github_and_says_what_trust_it_needs(tmp_path, monkeypatch):
    project, copilot_home = tmp_path / "proj", tmp_path / "copilot-home"
    project.mkdir()
    copilot_home.mkdir()
    (project / ".github").mkdir()
    (project / ".github" / "workflows").mkdir()
    (project / ".github" / "workflows" / "ci.yml").write_text("on: push\n")
    monkeypatch.setenv("COPILOT_HOME", str(copilot_home))
    monkeypatch.chdir(project)
    before_home, before_project = snapshot(copilot_home), snapshot(project)

    done = run_cli("install", "--host", "copilot", "--scope", "project", "--yes")
    assert done.exit_code == 0, done.output + done.stderr
    assert (project / ".github" / "hooks" / "spawnkit-hooks.json").is_file()
    assert (project / ".github" / "skills" / "spawnkit" / "SKILL.md").is_file()
    assert "only in a folder the user trusts" in done.output
    assert snapshot(copilot_home) == before_home  # trust is the user's decision, never written

    doctor = run_cli("doctor", "--host", "copilot", "--scope", "project", "--json")
    checks = {c["name"]: c for c in json.loads(doctor.stdout)["checks"]}
    assert checks["folder trusted"]["status"] == "warn"
    assert "--trust-folder" in checks["folder trusted"]["fix"]
    (copilot_home / "config.json").write_text(
        "// User settings belong in settings.json.\n"
        + json.dumps({"trustedFolders": [str(tmp_path)]})
    )
    doctor = run_cli("doctor", "--host", "copilot", "--scope", "project", "--json")
    checks = {c["name"]: c for c in json.loads(doctor.stdout)["checks"]}
    assert checks["folder trusted"]["status"] == "ok", checks["folder trusted"]
    assert checks["hooks registered"]["status"] == "ok"

    assert run_cli("uninstall", "--host", "copilot", "--scope", "project", "--yes").exit_code == 0
    assert without_backups(snapshot(project)) == before_project


def test_copilot_has_no_local_scope():
    refused = run_cli("install", "--host", "copilot", "--scope", "local", "--yes")
    assert refused.exit_code == 2 and "Copilot CLI has no local scope" in refused.stderr


def test_copilot_home_is_where_the_user_scope_goes(tmp_path, monkeypatch):
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "elsewhere"))
    done = run_cli("install", "--host", "copilot", "--yes")
    assert done.exit_code == 0, done.output + done.stderr
    assert (tmp_path / "elsewhere" / "hooks" / "spawnkit-hooks.json").is_file()
    assert not (Path(os.environ["HOME"]) / ".copilot").exists()
    assert run_cli("uninstall", "--host", "copilot", "--yes").exit_code == 0
    assert not (tmp_path / "elsewhere").exists()
