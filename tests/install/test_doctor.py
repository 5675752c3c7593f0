"""doctor: each check sees the real state of a config folder and names the fix."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from spawnkit.install import doctor
from spawnkit.install import registrations as regs
from spawnkit.install.changes import apply
from spawnkit.install.install import plan_install, resolve_target

from .conftest import run_cli


def _doctor(cfg: Path) -> tuple[int, dict[str, dict]]:
    result = run_cli("doctor", "--config-dir", str(cfg), "--json")
    data = json.loads(result.stdout)
    assert data["ok"] == (result.exit_code == 0)
    return result.exit_code, {c["name"]: c for c in data["checks"]}


def test_a_fresh_install_is_all_ok(cfg: Path):
    assert run_cli("install", "--config-dir", str(cfg)).exit_code == 0
    code, checks = _doctor(cfg)
    assert code == 0
    assert {c["status"] for c in checks.values()} == {"ok"}, checks
    n = len(regs.registrations())
    assert checks["hooks registered"]["detail"].startswith(f"{n} of {n} in ")
    assert "answers an empty payload in" in checks["hooks run"]["detail"]
    assert checks["mode"]["detail"].startswith("warn")
    text = run_cli("doctor", "--config-dir", str(cfg))
    assert text.exit_code == 0 and text.stdout.rstrip().endswith("all good")


def test_nothing_installed_is_broken_with_the_install_command_as_fix(tmp_path: Path):
    code, checks = _doctor(tmp_path / "none")
    assert code == 1
    for name in (
        "config folder",
        "mode",
        "hooks registered",
        "hooks run",
        "standard",
        "spawnkit skill",
    ):
        assert checks[name]["status"] == "broken", name
        assert f"spawnkit install --config-dir {tmp_path / 'none'}" in checks[name]["fix"]


def test_a_removed_registration_is_named(cfg: Path):
    assert run_cli("install", "--config-dir", str(cfg)).exit_code == 0
    settings = cfg / "settings.json"
    data = json.loads(settings.read_text())
    del data["hooks"]["SubagentStop"]
    settings.write_text(json.dumps(data))
    code, checks = _doctor(cfg)
    assert code == 1
    n = len(regs.registrations())
    assert checks["hooks registered"]["detail"].startswith(f"1 of {n} missing")
    assert "SubagentStop" in checks["hooks registered"]["detail"]


def test_a_malformed_user_hook_breaks_the_whole_file(cfg: Path):
    assert run_cli("install", "--config-dir", str(cfg)).exit_code == 0
    settings = cfg / "settings.json"
    data = json.loads(settings.read_text())
    data["hooks"]["PreToolUse"].insert(0, {"matcher": "Bash", "hooks": [{"type": "command"}]})
    settings.write_text(json.dumps(data))
    code, checks = _doctor(cfg)
    assert code == 1
    assert "ignores this whole settings file" in checks["hooks registered"]["detail"]


def test_a_malformed_hook_under_a_lenient_event_is_a_warning(cfg: Path):
    assert run_cli("install", "--config-dir", str(cfg)).exit_code == 0
    settings = cfg / "settings.json"
    data = json.loads(settings.read_text())
    data["hooks"]["Stop"].append({"hooks": [{"type": "command", "command": "x", "timeout": -1}]})
    settings.write_text(json.dumps(data))
    code, checks = _doctor(cfg)
    assert code == 0
    assert checks["hooks registered"]["status"] == "warn"
    assert "skips this entry" in checks["hooks registered"]["detail"]


def test_invalid_settings_json_is_broken(cfg: Path):
    assert run_cli("install", "--config-dir", str(cfg)).exit_code == 0
    (cfg / "settings.json").write_text("{ nope")
    code, checks = _doctor(cfg)
    assert code == 1 and "is not valid JSON" in checks["hooks registered"]["detail"]


def test_a_vanished_interpreter_is_broken(cfg: Path, tmp_path: Path):
    apply(plan_install(resolve_target("user", cfg), python=str(tmp_path / "gone" / "python3")))
    code, checks = _doctor(cfg)
    assert code == 1
    assert checks["hooks run"]["status"] == "broken"
    assert "gone/python3, which does not exist" in checks["hooks run"]["detail"]
    assert checks["hooks registered"]["status"] == "warn"  # another installation's command


def test_a_hook_that_fails_on_an_empty_payload_is_broken(cfg: Path, tmp_path: Path, monkeypatch):
    failing = tmp_path / "bin" / "python3"
    failing.parent.mkdir()
    failing.write_text("#!/bin/sh\necho 'hook exploded' >&2\nexit 3\n")
    failing.chmod(0o755)
    apply(plan_install(resolve_target("user", cfg), python=str(failing)))
    monkeypatch.setattr(sys, "executable", str(failing))  # this installation's interpreter
    code, checks = _doctor(cfg)
    assert code == 1
    assert "exited 3 on an empty payload: hook exploded" in checks["hooks run"]["detail"]


def test_an_edited_standard_and_a_bad_mode_are_reported(cfg: Path):
    assert run_cli("install", "--config-dir", str(cfg)).exit_code == 0
    (cfg / "standards" / "CONTEXT_MANAGEMENT.md").write_text("edited\n")
    (cfg / "spawnkit.json").write_text('{"version": 1, "mode": "loud"}')
    code, checks = _doctor(cfg)
    assert code == 1
    assert checks["standard"]["status"] == "warn"
    assert "edited by hand" in checks["standard"]["detail"]
    assert checks["mode"]["status"] == "broken" and "'loud'" in checks["mode"]["detail"]


def test_human_output_prints_the_fix_under_each_problem(tmp_path: Path):
    result = run_cli("doctor", "--config-dir", str(tmp_path / "none"))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    broken = [i for i, line in enumerate(lines) if line.lstrip().startswith("broken")]
    assert broken and all("fix: spawnkit install" in lines[i + 1] for i in broken)


def test_checks_are_plain_functions_that_can_be_extended(cfg: Path):
    def check_extra(ctx: doctor.Context) -> doctor.CheckResult:
        return doctor.CheckResult(
            "extra", doctor.WARN, f"looked at {ctx.target.config_dir}", "nothing"
        )

    results = doctor.run_checks(resolve_target("user", cfg), [doctor.check_version, check_extra])
    assert [r.name for r in results] == ["version", "extra"]
    assert results[1].detail == f"looked at {cfg}"


def test_mode_off_is_a_warning(cfg: Path):
    assert run_cli("install", "--config-dir", str(cfg)).exit_code == 0
    (cfg / "spawnkit.json").write_text('{"version": 1, "mode": "off"}')
    code, checks = _doctor(cfg)
    assert code == 0 and checks["mode"]["status"] == "warn"


def test_the_plugin_enabled_beside_installed_hooks_is_a_warning(cfg: Path):
    (cfg / "settings.json").write_text('{"enabledPlugins": {"spawnkit@spawnkit": true}}\n')
    assert run_cli("install", "--config-dir", str(cfg)).exit_code == 0
    code, checks = _doctor(cfg)
    assert code == 0
    assert checks["plugin overlap"]["status"] == "warn"
    assert "claude plugin disable spawnkit@spawnkit" in checks["plugin overlap"]["fix"]


def test_skills_commands_and_agents_are_linted(cfg: Path):
    assert run_cli("install", "--config-dir", str(cfg)).exit_code == 0
    bad = cfg / "skills" / "fan-out" / "SKILL.md"
    bad.parent.mkdir()
    bad.write_text(
        "---\nname: fan-out\ndescription: Audits every file.\n---\n"
        "Spawn 10 sub-agents in parallel with the Agent tool, one per file, and paste their"
        " full output.\n"
    )
    (cfg / "commands").mkdir()
    (cfg / "commands" / "hello.md").write_text("Say hello.\n")
    code, checks = _doctor(cfg)
    assert code == 0
    skills = checks["skills"]
    assert skills["status"] == "warn"
    assert skills["detail"].startswith("3 found, 2 clean;") and skills["detail"].endswith("fan-out")
    assert skills["fix"] == f"spawnkit lint {cfg}"
