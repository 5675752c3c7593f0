"""``spawnkit doctor --host copilot``: what keeps Copilot CLI from loading spawnkit's hooks.

The policy file's effects were checked against the real Copilot CLI 1.0.102 (a private mount
namespace put the file at /etc/github-copilot/managed-settings.json): with
``allowManagedHooksOnly: true`` or ``strictPluginOnlyCustomization`` locking ``hooks`` no user
hook ran; locking only ``skills`` left them running.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spawnkit.install import copilot_policy

from .conftest import run_cli


@pytest.fixture
def installed(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "copilot-home"
    monkeypatch.setenv("COPILOT_HOME", str(home))
    done = run_cli("install", "--host", "copilot", "--yes")
    assert done.exit_code == 0, done.output + done.stderr
    return home


def _checks() -> tuple[int, dict[str, dict]]:
    result = run_cli("doctor", "--host", "copilot", "--json")
    return result.exit_code, {c["name"]: c for c in json.loads(result.stdout)["checks"]}


def _policy(tmp_path, monkeypatch, text: str | None) -> Path:
    path = tmp_path / "managed-settings.json"
    if text is not None:
        path.write_text(text)
    monkeypatch.setattr(copilot_policy, "policy_path", lambda _file: path)
    return path


def test_a_clean_install_is_healthy(installed, tmp_path, monkeypatch):
    _policy(tmp_path, monkeypatch, None)
    code, checks = _checks()
    assert code == 0, checks
    assert checks["hooks registered"]["status"] == "ok"
    assert checks["hooks registered"]["detail"].startswith("6 of 6 in ")
    assert checks["hooks run"]["status"] == "ok"
    assert checks["policy"]["status"] == "ok" and "does not exist" in checks["policy"]["detail"]
    assert "folder trusted" not in checks  # a user scope needs none
    assert "template store" not in checks and "plugin overlap" not in checks


@pytest.mark.parametrize(
    ("policy", "status"),
    [
        ({"allowManagedHooksOnly": True}, "broken"),
        ({"strictPluginOnlyCustomization": True}, "broken"),
        ({"strictPluginOnlyCustomization": ["mcp", "hooks"]}, "broken"),
        ({"strictPluginOnlyCustomization": ["skills"]}, "warn"),
        ({"allowManagedHooksOnly": False, "strictPluginOnlyCustomization": ["mcp"]}, "ok"),
        ({"allowManagedHooksOnly": "true"}, "ok"),  # not a boolean: Copilot ignores it too
        ({}, "ok"),
    ],
)
def test_the_policy_check(installed, tmp_path, monkeypatch, policy, status):
    path = _policy(tmp_path, monkeypatch, json.dumps(policy))
    code, checks = _checks()
    assert checks["policy"]["status"] == status, checks["policy"]
    assert str(path) in checks["policy"]["detail"]
    assert code == (1 if status == "broken" else 0)
    if status == "broken":
        assert "never run" in checks["policy"]["detail"]


def test_a_policy_file_that_is_not_json_is_a_warning_not_a_crash(installed, tmp_path, monkeypatch):
    _policy(tmp_path, monkeypatch, "{ nope")
    _, checks = _checks()
    assert checks["policy"]["status"] == "warn" and "not valid JSON" in checks["policy"]["detail"]


def test_a_missing_hook_file_is_broken_with_the_fix(installed):
    (installed / "hooks" / "spawnkit-hooks.json").unlink()
    code, checks = _checks()
    assert code == 1 and checks["hooks registered"]["status"] == "broken"
    assert checks["hooks registered"]["fix"] == "spawnkit install --host copilot"


@pytest.mark.parametrize(
    ("text", "trusted"),
    [
        ('// c\n// d\n{"trustedFolders": ["{project}"]}\n', True),
        ('{"trustedFolders": ["{parent}"]}', True),
        ('{"trustedFolders": ["{project}-other"]}', False),
        ('{"trustedFolders": ["{project}/sub"]}', False),
        ('{"trustedFolders": "{project}"}', False),
        ("{}", False),
    ],
)
def test_folder_trust(tmp_path, monkeypatch, text, trusted):
    project = tmp_path / "proj"
    project.mkdir()
    entry = text.replace("{project}", str(project)).replace("{parent}", str(tmp_path))
    config = {"trustedFolders": []}
    assert copilot_policy.trusted_by(config, project) is None
    home = tmp_path / "home-copilot"
    home.mkdir()
    (home / "config.json").write_text(entry)
    data = copilot_policy.read_jsonc(home / "config.json")
    assert (copilot_policy.trusted_by(data, project) is not None) is trusted
