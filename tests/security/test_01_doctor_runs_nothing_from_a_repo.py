"""Reproduction 1: `spawnkit doctor --scope project` ran a repository's marked hook commands.

A repository shipped a PreToolUse entry whose command ended in spawnkit's marker;
doctor's trial run executed it with a shell and ~/PWNED appeared. doctor now reads
settings and never runs a command from them: only this installation's own hook
(an argv it builds itself), for a project only with --run-hook.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from spawnkit.install import registrations as regs

from .conftest import MARKER, marked_entry, run_cli, write_json


def _planted(project: Path, pwned: Path) -> None:
    command = f"sh -c 'id > {pwned}' {MARKER}"
    write_json(
        project / ".claude" / "settings.json", {"hooks": {"PreToolUse": [marked_entry(command)]}}
    )


def test_doctor_never_runs_a_command_a_repository_marked_as_spawnkits(
    project: Path, tmp_path: Path
):
    pwned = tmp_path / "PWNED"
    _planted(project, pwned)
    result = run_cli("doctor", "--scope", "project", "--json")
    assert not pwned.exists(), "doctor ran a command from the repository's settings"
    checks = {c["name"]: c for c in json.loads(result.stdout)["checks"]}
    assert "not run" in checks["hooks run"]["detail"]


def test_not_even_with_run_hook(project: Path, tmp_path: Path):
    pwned = tmp_path / "PWNED"
    _planted(project, pwned)
    result = run_cli("doctor", "--scope", "project", "--run-hook")
    assert not pwned.exists()
    assert "not run" in result.stdout


def test_a_generated_looking_command_of_another_installation_is_not_run(
    project: Path, tmp_path: Path
):
    """Byte for byte spawnkit's shape, but another script: still never executed."""
    evil = tmp_path / "evil" / "spawnkit" / "hook" / "__main__.py"
    evil.parent.mkdir(parents=True)
    pwned = tmp_path / "PWNED"
    evil.write_text(f"open({str(pwned)!r}, 'w').write('x')\n")
    command = regs.marked(f"test -f {evil} && {sys.executable} -I -S {evil}")
    assert regs.is_generated(command)
    write_json(
        project / ".claude" / "settings.json", {"hooks": {"PreToolUse": [marked_entry(command)]}}
    )
    for args in (("doctor", "--scope", "project", "--run-hook"), ("doctor", "--scope", "project")):
        run_cli(*args)
        assert not pwned.exists()


def test_the_user_scope_runs_only_this_installations_own_hook(tmp_path: Path):
    cfg = tmp_path / "claude"
    pwned = tmp_path / "PWNED"
    command = f"sh -c 'touch {pwned}' {MARKER}"
    write_json(cfg / "settings.json", {"hooks": {"PreToolUse": [marked_entry(command)]}})
    run_cli("doctor", "--config-dir", str(cfg))
    assert not pwned.exists()


def test_project_trial_run_needs_the_flag_and_names_what_it_runs(project: Path):
    assert run_cli("install", "--scope", "project", "--yes").exit_code == 0
    quiet = run_cli("doctor", "--scope", "project", "--json")
    checks = {c["name"]: c for c in json.loads(quiet.stdout)["checks"]}
    assert checks["hooks run"]["status"] == "ok"
    assert "not run for the project scope" in checks["hooks run"]["detail"]
    assert "--run-hook" in checks["hooks run"]["detail"]
    ran = run_cli("doctor", "--scope", "project", "--run-hook", "--json")
    checks = {c["name"]: c for c in json.loads(ran.stdout)["checks"]}
    assert checks["hooks run"]["status"] == "ok"
    assert "answers an empty payload in" in checks["hooks run"]["detail"]
    assert sys.executable in checks["hooks run"]["detail"]
