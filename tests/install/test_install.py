"""What install writes and how it treats what is already there."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from spawnkit.commands import planned
from spawnkit.files import atomic
from spawnkit.install import registrations as regs
from spawnkit.install import settings_merge as sm
from spawnkit.install.changes import apply
from spawnkit.install.install import plan_install, resolve_target
from spawnkit.install.uninstall import plan_uninstall
from spawnkit.standard import resources

from .conftest import run_cli, snapshot, without_backups


def _install(cfg: Path, *args: str):
    result = run_cli("install", "--config-dir", str(cfg), *args)
    assert result.exit_code == 0, result.output
    return result


def _managed(cfg: Path, name: str = "settings.json") -> list[sm.ManagedHook]:
    return sm.managed_hooks((cfg / name).read_text(encoding="utf-8"))


def test_installs_standard_skill_config_and_record(cfg: Path):
    _install(cfg)
    assert (
        cfg / "standards/CONTEXT_MANAGEMENT.md"
    ).read_bytes() == resources.standard_doc_path().read_bytes()
    assert (cfg / "skills/spawnkit/SKILL.md").read_bytes() == (
        resources.bundled_skills_dir() / "spawnkit/SKILL.md"
    ).read_bytes()
    assert json.loads((cfg / "spawnkit.json").read_text()) == {"version": 1, "mode": "warn"}
    record = json.loads((cfg / ".spawnkit/install.json").read_text())
    assert set(record["files"]) == {
        "standards/CONTEXT_MANAGEMENT.md",
        "skills/spawnkit/SKILL.md",
        "spawnkit.json",
    }
    assert sorted(record["dirs"]) == [".spawnkit", "skills", "skills/spawnkit", "standards"]


def test_hook_command_is_absolute_quoted_guarded_and_marked(tmp_path: Path):
    odd = tmp_path / "my tools" / "it's python"
    odd.parent.mkdir()
    odd.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    odd.chmod(0o755)
    command = regs.installed_command(str(odd))
    assert command.endswith(" # spawnkit-managed:v1")
    proc = subprocess.run(
        ["bash", "-c", command], input="{}", check=False, capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 0, proc.stderr


def test_a_missing_hook_script_fails_open_instead_of_blocking(tmp_path: Path, monkeypatch):
    """Python exits 2 on a missing script, which Claude Code reads as "block the tool call"."""
    gone = str(tmp_path / "gone" / "__main__.py")
    monkeypatch.setattr(regs, "hook_argv", lambda python=None: [sys.executable, "-I", "-S", gone])
    broken = regs.installed_command()
    unguarded = broken.split(" && ", 1)[1]
    assert (
        subprocess.run(
            ["bash", "-c", unguarded], input=b"{}", check=False, capture_output=True, timeout=30
        ).returncode
        == 2
    )  # what the guard is for
    proc = subprocess.run(
        ["bash", "-c", broken], input=b"{}", check=False, capture_output=True, timeout=30
    )
    assert proc.returncode not in (0, 2)


def test_symlinked_settings_stay_a_link_to_the_updated_target(cfg: Path, tmp_path: Path):
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "claude-settings.json"
    original = b'{\n  "model": "opus"\n}\n'
    real.write_bytes(original)
    (cfg / "settings.json").symlink_to(real)

    _install(cfg)
    assert (cfg / "settings.json").is_symlink()
    assert os.readlink(cfg / "settings.json") == str(real)
    assert len(_managed(cfg)) == len(regs.registrations())
    assert sorted(p.name for p in dotfiles.iterdir()) == [
        "claude-settings.json"
    ]  # no backups there
    assert len(atomic.list_backups(cfg / "settings.json")) == 1

    assert run_cli("uninstall", "--config-dir", str(cfg)).exit_code == 0
    assert (cfg / "settings.json").is_symlink() and real.read_bytes() == original


def test_file_mode_is_kept(cfg: Path):
    settings = cfg / "settings.json"
    settings.write_text("{}\n")
    settings.chmod(0o640)
    _install(cfg)
    assert stat.S_IMODE(settings.stat().st_mode) == 0o640


def test_backups_are_taken_before_each_change_and_only_five_kept(cfg: Path):
    original = b'{"model": "opus"}\n'
    (cfg / "settings.json").write_bytes(original)
    _install(cfg)
    (first,) = atomic.list_backups(cfg / "settings.json")
    assert first.read_bytes() == original
    assert stat.S_IMODE(first.stat().st_mode) == 0o600
    target = resolve_target("user", cfg)
    for n in range(5):  # newer spawnkits (another interpreter each) rewrite their entries
        apply(plan_install(target, python=f"/opt/spawnkit-{n}/bin/python3"))
    backups = atomic.list_backups(cfg / "settings.json")
    assert len(backups) == 5
    assert first not in backups  # the oldest went
    # the file comes back as it was: every backup install made of it goes with the uninstall
    assert run_cli("uninstall", "--config-dir", str(cfg)).exit_code == 0
    assert (cfg / "settings.json").read_bytes() == original
    assert atomic.list_backups(cfg / "settings.json") == []


def test_a_newer_spawnkit_replaces_its_entries_in_place(cfg: Path):
    target = resolve_target("user", cfg)
    apply(plan_install(target, python="/opt/old/bin/python3"))
    settings = cfg / "settings.json"
    data = json.loads(settings.read_text())
    # the user adds a hook after spawnkit's, in the same event
    data["hooks"]["PreToolUse"].append(
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "mine"}]}
    )
    settings.write_text(json.dumps(data, indent=2) + "\n")
    before = settings.read_text()

    apply(plan_install(target, python="/opt/new/bin/python3"))
    after = settings.read_text()
    assert after == before.replace("/opt/old/bin/python3", "/opt/new/bin/python3")
    assert json.loads(after)["hooks"]["PreToolUse"][-1]["hooks"][0]["command"] == "mine"


def test_entries_of_a_past_marker_are_recognised_and_replaced(cfg: Path, monkeypatch):
    _install(cfg)
    settings = cfg / "settings.json"
    v1 = settings.read_text()
    monkeypatch.setattr(regs, "CURRENT_MARKER", "# spawnkit-managed:v2")
    monkeypatch.setattr(regs, "PAST_MARKERS", ("# spawnkit-managed:v1",))
    _install(cfg)
    v2 = settings.read_text()
    assert v2 == v1.replace("spawnkit-managed:v1", "spawnkit-managed:v2")


def test_stale_and_duplicate_entries_are_removed(cfg: Path):
    marked = regs.installed_command()
    stale = {
        "hooks": {
            "SessionEnd": [{"hooks": [{"type": "command", "command": marked, "timeout": 3}]}],
            "SubagentStop": [
                {"hooks": [{"type": "command", "command": marked, "timeout": 10}]},
                {"hooks": [{"type": "command", "command": marked, "timeout": 10}]},
            ],
        }
    }
    (cfg / "settings.json").write_text(json.dumps(stale, indent=2))
    _install(cfg)
    found = [(h.event, h.matcher) for h in _managed(cfg)]
    assert sorted(found, key=str) == sorted(
        ((r.event, r.matcher) for r in regs.registrations()), key=str
    )
    assert json.loads((cfg / "settings.json").read_text())["hooks"]["SessionEnd"] == []


def test_mode_is_set_kept_and_merged_into_an_existing_config(cfg: Path):
    (cfg / "spawnkit.json").write_text(
        '{\n    "version": 1,\n    "mode": "warn",\n    "rules": {"CM005": "off"}\n}\n'
    )
    _install(cfg, "--mode", "enforce")
    assert (
        (cfg / "spawnkit.json").read_text()
        == '{\n    "version": 1,\n    "mode": "enforce",\n    "rules": {"CM005": "off"}\n}\n'
    )
    result = _install(cfg)  # no --mode: the configured one stays
    assert "already installed" in result.stdout
    assert json.loads((cfg / "spawnkit.json").read_text())["mode"] == "enforce"


def test_a_foreign_file_in_the_way_is_backed_up_and_restored_by_uninstall(cfg: Path):
    standard = cfg / "standards" / "CONTEXT_MANAGEMENT.md"
    standard.parent.mkdir()
    standard.write_text("my own notes\n")
    result = _install(cfg)
    assert "differed from spawnkit's copy" in result.stdout
    (saved,) = atomic.list_backups(standard)
    assert saved.read_text() == "my own notes\n"
    assert run_cli("uninstall", "--config-dir", str(cfg)).exit_code == 0
    assert standard.read_text() == "my own notes\n"
    assert atomic.list_backups(standard) == []


def test_user_skills_are_never_touched(cfg: Path):
    mine = cfg / "skills" / "my-audit" / "SKILL.md"
    mine.parent.mkdir(parents=True)
    mine.write_text("---\nname: my-audit\ndescription: mine\n---\nbody\n")
    before = snapshot(mine.parent)
    _install(cfg)
    assert run_cli("uninstall", "--config-dir", str(cfg)).exit_code == 0
    assert snapshot(mine.parent) == before
    assert sorted(p.name for p in (cfg / "skills").iterdir()) == ["my-audit"]


def test_project_and_local_scopes_share_dot_claude(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_cli("install", "--scope", "project").exit_code == 0
    assert run_cli("install", "--scope", "local").exit_code == 0
    dot = tmp_path / ".claude"
    registered = len(regs.registrations())
    assert len(_managed(dot, "settings.json")) == len(_managed(dot, "settings.local.json"))
    assert len(_managed(dot, "settings.json")) == registered

    result = run_cli("uninstall", "--scope", "local")
    assert result.exit_code == 0
    assert (dot / "standards/CONTEXT_MANAGEMENT.md").is_file()  # the project's: untouched
    assert not (dot / "settings.local.json").exists()

    assert run_cli("uninstall", "--scope", "project").exit_code == 0
    assert set(without_backups(snapshot(dot))) == set()


def test_user_scope_follows_claude_config_dir(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    assert resolve_target("user").settings_path == tmp_path / "cc" / "settings.json"
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert resolve_target("user").config_dir == tmp_path / "home" / ".claude"
    assert (
        resolve_target("local", cwd=tmp_path).settings_path
        == tmp_path / ".claude" / "settings.local.json"
    )


def test_a_malformed_user_hook_is_reported_but_not_touched(cfg: Path):
    """A visible warning with its fix, and exit 1: the hooks are installed but will not run."""
    bad = {"hooks": {"PreToolUse": [{"hooks": [{"type": "command"}]}]}}
    (cfg / "settings.json").write_text(json.dumps(bad))
    result = run_cli("install", "--config-dir", str(cfg))
    assert result.exit_code == 1
    [warning] = result.stderr.strip().splitlines()
    assert warning.startswith("spawnkit: warning: ")
    assert 'hooks.PreToolUse[0].hooks[0] needs a non-empty "command"' in warning
    assert "ignores this whole settings file" in warning
    assert "spawnkit's hooks will not run either" in warning and "fix or remove" in warning
    assert "note: warning" not in result.stdout
    assert (
        json.loads((cfg / "settings.json").read_text())["hooks"]["PreToolUse"][0]
        == bad["hooks"]["PreToolUse"][0]
    )


def test_json_output(cfg: Path):
    result = run_cli("install", "--config-dir", str(cfg), "--json")
    data = json.loads(result.stdout)
    assert data["applied"] is True and data["scope"] == "user"
    assert {c["action"] for c in data["changes"]} == {"create"}
    again = json.loads(run_cli("install", "--config-dir", str(cfg), "--json").stdout)
    assert again["applied"] is False and again["changes"] == []
    dry = json.loads(run_cli("uninstall", "--config-dir", str(cfg), "--json", "--dry-run").stdout)
    assert dry["applied"] is False and dry["diff"] == ""  # it only removes what install made
    assert all(c["action"] == "delete" and c["bytes"] > 0 for c in dry["changes"])


def test_on_a_terminal_it_asks_first_and_no_means_nothing_changes(cfg: Path, monkeypatch):
    """Answering no is an abort, like Ctrl-C: exit 130, not 1 (which means problems found)."""
    monkeypatch.setattr(planned, "interactive", lambda: True)
    result = run_cli("install", "--config-dir", str(cfg), input="n\n")
    assert "Apply these changes?" in result.stdout
    assert result.exit_code == 130
    assert result.stderr.strip().splitlines() == ["spawnkit: error: aborted, nothing written"]
    assert snapshot(cfg) == {}
    result = run_cli("install", "--config-dir", str(cfg), "--yes")
    assert "Apply these changes?" not in result.stdout and result.exit_code == 0


def test_without_a_terminal_it_never_waits_for_an_answer(cfg: Path):
    proc = subprocess.run(
        [sys.executable, "-m", "spawnkit", "install", "--config-dir", str(cfg)],
        stdin=subprocess.DEVNULL,
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert (cfg / "settings.json").is_file()


def test_uninstall_when_nothing_is_installed(cfg: Path):
    result = run_cli("uninstall", "--config-dir", str(cfg))
    assert result.exit_code == 0
    assert "not installed" in result.stdout
    assert snapshot(cfg) == {}


def test_uninstall_keeps_an_edited_standard_and_says_so(cfg: Path):
    _install(cfg)
    standard = cfg / "standards" / "CONTEXT_MANAGEMENT.md"
    standard.write_text(standard.read_text() + "\nOur team's addendum.\n")
    result = run_cli("uninstall", "--config-dir", str(cfg))
    assert result.exit_code == 0
    assert f"kept {standard}: it changed since spawnkit installed it" in result.stdout
    assert standard.read_text().endswith("Our team's addendum.\n")
    assert not (cfg / "skills" / "spawnkit").exists()
    assert not (cfg / ".spawnkit").exists()


def test_uninstall_keeps_entries_the_user_added_to_created_containers(cfg: Path):
    _install(cfg)
    settings = cfg / "settings.json"
    data = json.loads(settings.read_text())
    data["hooks"]["SubagentStart"].append({"hooks": [{"type": "command", "command": "mine"}]})
    settings.write_text(json.dumps(data, indent=2) + "\n")
    assert run_cli("uninstall", "--config-dir", str(cfg)).exit_code == 0
    assert json.loads(settings.read_text()) == {
        "hooks": {"SubagentStart": [{"hooks": [{"type": "command", "command": "mine"}]}]}
    }


def test_uninstall_without_a_record_still_removes_marked_entries(cfg: Path):
    (cfg / "settings.json").write_text('{"model": "opus"}\n')
    _install(cfg)
    (cfg / ".spawnkit" / "install.json").unlink()
    plan = plan_uninstall(resolve_target("user", cfg))
    apply(plan)
    assert _managed(cfg) == []
    assert json.loads((cfg / "settings.json").read_text())["model"] == "opus"
