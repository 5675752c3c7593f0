"""Issue 30, item 7 (messages): doctor's fix lines said "fix it".

A bad scope value in ``spawnkit.json`` (``"agents": {"Explore": "bogus"}``) got ``fix: fix it``;
a malformed hook entry ``correct or remove that entry`` (which? where?); an unreadable
settings file ``fix the file``; a check that could not run ``see the message``. And an
``agents`` entry for ``workflow-subagent`` made the scope line say "warns about
workflow-subagent" right beside "never a workflow's agents". Now every fix line names what to
change, where, and to what; the workflow entry is reported as doing nothing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from spawnkit import hosts

from .conftest import run_cli

GENERIC = {
    "fix it",
    "see the message",
    "correct or remove that entry",
    "fix the file",
    "fix the file, then run spawnkit install",
}
VAGUE = re.compile(r"\bfix (it|the file|its)\b|see the message|that entry\b", re.I)
MODES = "off, warn or enforce"


def doctor(*args: str) -> dict[str, dict]:
    result = run_cli("doctor", "--json", *args)
    assert result.exit_code in (0, 1), result.output
    return {check["name"]: check for check in json.loads(result.stdout)["checks"]}


def assert_fixes_are_specific(checks: dict[str, dict]) -> None:
    for check in checks.values():
        if check["status"] == "ok":
            continue
        fix = check["fix"]
        assert fix and fix.strip().lower() not in GENERIC, check
        assert not VAGUE.search(fix), check  # not even inside a longer line
        assert "/" in fix or "spawnkit " in fix or "`" in fix, check  # a file or a command


@pytest.fixture
def cfg(tmp_path: Path) -> Path:
    folder = tmp_path / "claude"
    folder.mkdir()
    assert run_cli("install", "--config-dir", str(folder), "--yes").exit_code == 0
    return folder


def _config(cfg: Path, **values) -> Path:
    path = cfg / "spawnkit.json"
    path.write_text(json.dumps({"version": 1, "mode": "warn", **values}) + "\n")
    return path


def test_a_bad_scope_value_gets_a_fix_naming_the_modes_and_the_file(cfg: Path):
    path = _config(cfg, agents={"Explore": "bogus"})
    check = doctor("--config-dir", str(cfg))["return budget scope"]
    assert check["status"] == "warn"
    assert "'bogus' is not one of" in check["detail"]
    assert check["fix"] == f'set "Explore" under "agents" in {path} to {MODES}'


@pytest.mark.parametrize(
    "values, wanted",
    [
        ({"mode": "loud"}, '"mode" in {path} to ' + MODES),
        ({"rules": {"CM001": "hard"}}, '"CM001" under "rules" in {path} to ' + MODES),
        ({"rules": {"no-such-rule": "warn"}}, "`spawnkit rule`"),
        ({"rules": ["CM001"]}, 'write "rules" in {path} as an object'),
        ({"max_retries": 9}, '"max_retries" in {path} to a whole number from 0 to 5'),
        ({"agents": ["Explore"]}, 'write "agents" in {path} as an object'),
        ({"agents": {"": "off"}}, 'in "agents" of {path}, name an agent type'),
        ({"version": 7}, 'set "version" in {path} to 1'),
    ],
)
def test_each_bad_setting_names_its_key_its_file_and_what_it_takes(cfg: Path, values, wanted):
    path = _config(cfg, **values)
    checks = doctor("--config-dir", str(cfg))
    scope = checks["return budget scope"]
    assert scope["status"] == "warn", scope
    assert wanted.format(path=path) in scope["fix"], scope
    assert_fixes_are_specific(checks)


def test_not_json_at_all(cfg: Path):
    path = cfg / "spawnkit.json"
    path.write_text("{mode: warn}\n")
    checks = doctor("--config-dir", str(cfg))
    assert f"make {path} valid JSON" in checks["return budget scope"]["fix"]
    assert_fixes_are_specific(checks)


def test_a_workflow_agent_entry_is_said_to_do_nothing_never_listed(cfg: Path):
    path = _config(cfg, agents={"workflow-subagent": "warn", "Plan": "off"})
    check = doctor("--config-dir", str(cfg))["return budget scope"]
    listed = check["detail"].split("; never a workflow's agents")[0]
    assert "workflow-subagent" not in listed  # never "warns about workflow-subagent"
    assert "leaves alone Plan" in listed
    assert check["status"] == "warn"
    assert "a workflow's agents are outside every scope" in check["detail"]
    assert check["fix"] == f"remove 'workflow-subagent' from \"agents\" in {path}"


def test_a_malformed_hook_entry_is_named_with_its_place_and_file(cfg: Path):
    settings = cfg / "settings.json"
    data = json.loads(settings.read_text())
    data["hooks"]["PreToolUse"].append({"matcher": "Bash", "hooks": [{"type": "command"}]})
    settings.write_text(json.dumps(data, indent=2) + "\n")
    checks = doctor("--config-dir", str(cfg))
    fix = checks["hooks registered"]["fix"]
    where = f"hooks.PreToolUse[{len(data['hooks']['PreToolUse']) - 1}].hooks[0]"
    assert f'in {settings}, correct {where} (needs a non-empty "command")' in fix
    assert_fixes_are_specific(checks)


def test_a_settings_file_that_is_not_json_names_the_file(cfg: Path):
    settings = cfg / "settings.json"
    settings.write_text("{not json")
    checks = doctor("--config-dir", str(cfg))
    assert str(settings) in checks["hooks registered"]["fix"]
    assert_fixes_are_specific(checks)


def test_a_check_that_cannot_run_says_the_fix_of_its_refusal(cfg: Path):
    settings = cfg / "settings.json"
    settings.write_bytes(b'{"model": "\xff"}\n')  # not UTF-8: every settings check refuses
    checks = doctor("--config-dir", str(cfg))
    assert any(c["status"] == "broken" for c in checks.values())
    assert_fixes_are_specific(checks)


@pytest.mark.parametrize("name", [h.name for h in hosts.all_hosts()])
def test_nothing_installed_every_fix_is_a_command(tmp_path: Path, name: str):
    checks = doctor("--host", name, "--config-dir", str(tmp_path / "none"))
    assert_fixes_are_specific(checks)


def test_codex_config_toml_that_is_not_toml_names_the_file(tmp_path: Path):
    codex = tmp_path / "codex"
    codex.mkdir()
    assert run_cli("install", "--host", "codex", "--config-dir", str(codex), "--yes").exit_code == 0
    (codex / "config.toml").write_text("[hooks\n")
    checks = doctor("--host", "codex", "--config-dir", str(codex))
    assert str(codex / "config.toml") in checks["hooks trusted"]["fix"]
    assert_fixes_are_specific(checks)
