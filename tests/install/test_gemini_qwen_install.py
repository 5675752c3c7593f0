"""``spawnkit install / uninstall / doctor --host gemini|qwen``: spawnkit's entries in the user's
settings.json ``hooks`` beside the user's own, byte-identical round trips, and what doctor
checks besides (folder trust, hook toggles, Qwen Code's ``"$version"``).

Gemini CLI names its entries' timeouts in milliseconds and turns hooks off by name, so its
entries carry ``"name": "spawnkit"``; it keeps hook settings (``enabled``, ``disabled``) under
``hooks`` too, which are not events. Qwen Code rewrites a settings.json without
``"$version": 4``: a file install creates has it, and uninstall takes the file away again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from spawnkit.install import registrations as regs
from spawnkit.install import settings_merge as sm

from .conftest import run_cli, snapshot, without_backups

GEMINI_FILES: dict[str, str | None] = {
    "no settings.json": None,
    "the API key's auth only": '{\n  "security": {"auth": {"selectedType": "gemini-api-key"}}\n}\n',
    "a hook and a key of the user's, hook settings under hooks": (
        '{\n  "model": {"name": "gemini-2.5-pro"},\n  "hooks": {\n    "enabled": true,\n'
        '    "disabled": ["old-one"],\n    "BeforeTool": [\n      {"matcher": "run_shell_command",'
        ' "hooks": [{"name": "guard", "type": "command", "command": "./guard.sh",'
        ' "timeout": 5000}]}\n    ]\n  }\n}\n'
    ),
    "tabs, CRLF, no final newline": '{\r\n\t"ui": {"theme": "GitHub"},\r\n\t"hooks": {}\r\n}',
}
QWEN_FILES: dict[str, str | None] = {
    "no settings.json": None,
    "the version only": '{\n  "$version": 4\n}\n',
    "a hook and a key of the user's": (
        '{\n  "$version": 4,\n  "ui": {"theme": "Qwen Dark"},\n  "hooks": {\n    "SubagentStop":'
        ' [{"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5}]}]\n  }\n}\n'
    ),
    "empty file": "",
}


def _home(tmp_path: Path, host: str, text: str | None) -> Path:
    folder = tmp_path / f"{host}-home"
    folder.mkdir()
    (folder / "installation_id").write_text("abc\n")
    if text is not None:
        (folder / "settings.json").write_bytes(text.encode("utf-8"))
    return folder


def _run(verb: str, host: str, folder: Path, *extra: str):
    return run_cli(verb, "--host", host, "--config-dir", str(folder), "--yes", *extra)


@pytest.mark.parametrize(
    ("host", "variant"),
    [("gemini", v) for v in GEMINI_FILES] + [("qwen", v) for v in QWEN_FILES],
)
def test_install_twice_then_uninstall_gives_the_folder_back(tmp_path, host, variant):
    text = (GEMINI_FILES if host == "gemini" else QWEN_FILES)[variant]
    folder = _home(tmp_path, host, text)
    before = snapshot(folder)

    done = _run("install", host, folder, "--mode", "enforce")
    assert done.exit_code == 0, done.output + done.stderr
    settings = folder / "settings.json"
    data = json.loads(settings.read_text(encoding="utf-8"))
    table = regs.registrations(host)
    managed = sm.managed_hooks(settings.read_text(encoding="utf-8"), client=_label(host))
    assert sorted((h.event, h.matcher) for h in managed) == sorted(
        (r.event, r.matcher) for r in table
    )
    if host == "gemini":
        assert {h.timeout for h in managed} == {10_000}  # milliseconds
        entries = [
            e for event, groups in data["hooks"].items() if event[0].isupper() for e in groups
        ]
        ours = [h for e in entries for h in e["hooks"] if regs.is_managed(h["command"])]
        assert {h["name"] for h in ours} == {"spawnkit"}
    else:
        assert {h.timeout for h in managed} == {10}  # seconds
        assert data["$version"] == 4  # what Qwen Code needs not to rewrite the file
    if text:
        # every key of the user's is still there, as it was
        original = json.loads(text)
        for key, value in original.items():
            if key != "hooks":
                assert data[key] == value
        for event, groups in original.get("hooks", {}).items():
            if isinstance(groups, list):
                assert data["hooks"][event][: len(groups)] == groups
            else:
                assert data["hooks"][event] == groups
    installed = snapshot(folder)
    again = _run("install", host, folder)
    assert again.exit_code == 0 and "already installed and up to date" in again.output
    assert without_backups(snapshot(folder)) == without_backups(installed)

    gone = _run("uninstall", host, folder)
    assert gone.exit_code == 0, gone.output + gone.stderr
    assert without_backups(snapshot(folder)) == without_backups(before)


def _label(host: str) -> str:
    from spawnkit import hosts

    return hosts.get(host).label


def test_only_gemini_keeps_settings_under_hooks():
    text = '{"hooks": {"enabled": true, "disabled": ["x"], "AfterAgent": []}}'
    assert sm.load(text, client="Gemini CLI") is not None
    with pytest.raises(sm.SettingsError, match="hooks.enabled must be a list"):
        sm.load(text, client="Claude Code")
    with pytest.raises(sm.SettingsError, match="hooks.enabled must be a list"):
        sm.load(text, client="Qwen Code")


def test_qwen_seeded_version_stays_when_the_user_added_a_key(tmp_path):
    folder = _home(tmp_path, "qwen", None)
    assert _run("install", "qwen", folder).exit_code == 0
    settings = folder / "settings.json"
    data = json.loads(settings.read_text())
    settings.write_text(json.dumps({**data, "ui": {"theme": "x"}}, indent=2) + "\n")
    assert _run("uninstall", "qwen", folder).exit_code == 0
    assert json.loads(settings.read_text()) == {"$version": 4, "ui": {"theme": "x"}}


def test_a_qwen_file_without_its_version_is_left_so_and_said(tmp_path):
    folder = _home(tmp_path, "qwen", '{"ui": {"theme": "x"}}\n')
    done = _run("install", "qwen", folder)
    assert done.exit_code == 0
    assert "$version" not in (folder / "settings.json").read_text()  # never a key of the user's
    assert 'has no "$version": 4, so Qwen Code rewrites it' in done.output
    checks = _checks("qwen", folder)
    assert checks["settings version"]["status"] == "warn"


def _checks(host: str, folder: Path) -> dict[str, dict]:
    result = run_cli("doctor", "--host", host, "--config-dir", str(folder), "--json")
    return {c["name"]: c for c in json.loads(result.stdout)["checks"]}


@pytest.fixture
def gemini_user(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "h"
    (home / ".gemini").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    monkeypatch.delenv("GEMINI_CLI_TRUST_WORKSPACE", raising=False)
    monkeypatch.delenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH", raising=False)
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(tmp_path / "no-system.json"))
    project = tmp_path / "proj"
    project.mkdir()
    monkeypatch.chdir(project)
    assert run_cli("install", "--host", "gemini", "--yes").exit_code == 0
    return home / ".gemini"


@pytest.mark.parametrize(
    ("rules", "status", "says"),
    [
        (None, "warn", "has no rule in"),
        ({"{proj}": "TRUST_FOLDER"}, "ok", "is trusted"),
        ({"{proj}/sub": "TRUST_FOLDER"}, "warn", "has no rule in"),  # a child trusts no parent
        ({"{proj}/x": "TRUST_PARENT"}, "ok", "TRUST_PARENT"),  # the parent of the rule's folder
        ({"{tmp}": "TRUST_FOLDER", "{proj}": "DO_NOT_TRUST"}, "broken", "DO_NOT_TRUST"),
        ({"{tmp}": "DO_NOT_TRUST", "{proj}": "TRUST_FOLDER"}, "ok", "is trusted"),  # longest wins
    ],
)
def test_doctor_says_whether_gemini_trusts_the_folder(gemini_user, tmp_path, rules, status, says):
    if rules is not None:
        text = {k.format(proj=tmp_path / "proj", tmp=tmp_path): v for k, v in rules.items()}
        (gemini_user / "trustedFolders.json").write_text(
            "// Gemini CLI's\n" + json.dumps(text), encoding="utf-8"
        )
    check = _checks("gemini", gemini_user)["folder trusted"]
    assert check["status"] == status and says in check["detail"], check
    if status != "ok":
        assert "no hook (yours neither)" in check["detail"] and "trust the folder" in check["fix"]


def test_gemini_folder_trust_turned_off_or_forced(gemini_user, monkeypatch):
    settings = gemini_user / "settings.json"
    data = json.loads(settings.read_text())
    settings.write_text(json.dumps({**data, "security": {"folderTrust": {"enabled": False}}}))
    check = _checks("gemini", gemini_user)["folder trusted"]
    assert check["status"] == "ok" and "folder trust is off" in check["detail"]
    settings.write_text(json.dumps(data))
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    check = _checks("gemini", gemini_user)["folder trusted"]
    assert check["status"] == "ok" and "GEMINI_CLI_TRUST_WORKSPACE" in check["detail"]


@pytest.mark.parametrize(
    ("where", "setting", "says"),
    [
        ("user", {"hooksConfig": {"enabled": False}}, "turns every hook off"),
        ("project", {"hooksConfig": {"disabled": ["spawnkit"]}}, "turns spawnkit's hooks off"),
        ("system", {"hooksConfig": {"enabled": False}}, "no-system.json"),
        ("user", {"hooksConfig": {"disabled": ["someone-else"]}}, None),
    ],
)
def test_doctor_names_the_gemini_setting_that_turns_hooks_off(
    gemini_user, tmp_path, where, setting, says
):
    path = {
        "user": gemini_user / "settings.json",
        "project": tmp_path / "proj" / ".gemini" / "settings.json",
        "system": tmp_path / "no-system.json",
    }[where]
    path.parent.mkdir(parents=True, exist_ok=True)
    old = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps({**old, **setting}))
    check = _checks("gemini", gemini_user)["hooks enabled"]
    if says is None:
        assert check["status"] == "ok"
    else:
        assert check["status"] == "broken" and says in check["detail"], check


@pytest.fixture
def qwen_user(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "qwen"
    folder.mkdir()
    monkeypatch.setenv("QWEN_HOME", str(folder))
    monkeypatch.delenv("QWEN_CODE_STOP_HOOK_BLOCK_CAP", raising=False)
    project = tmp_path / "proj"
    project.mkdir()
    monkeypatch.chdir(project)
    assert run_cli("install", "--host", "qwen", "--yes").exit_code == 0
    return folder


def test_doctor_on_qwen_toggles_and_block_cap(qwen_user, monkeypatch):
    checks = _checks("qwen", qwen_user)
    assert checks["hooks enabled"]["status"] == "ok"
    assert "8 SubagentStop blocks in a row" in checks["hooks enabled"]["detail"]
    assert checks["settings version"]["status"] == "ok"
    assert "folder trusted" not in checks  # only a project's hooks need it
    monkeypatch.setenv("QWEN_CODE_STOP_HOOK_BLOCK_CAP", "2")  # = spawnkit's max_retries
    check = _checks("qwen", qwen_user)["hooks enabled"]
    assert check["status"] == "warn" and "honours 2" in check["detail"]
    monkeypatch.setenv("QWEN_CODE_STOP_HOOK_BLOCK_CAP", "3")
    assert _checks("qwen", qwen_user)["hooks enabled"]["status"] == "ok"
    settings = qwen_user / "settings.json"
    settings.write_text(json.dumps({**json.loads(settings.read_text()), "disableAllHooks": True}))
    check = _checks("qwen", qwen_user)["hooks enabled"]
    assert check["status"] == "broken" and "disableAllHooks" in check["detail"]


def test_a_qwen_project_needs_trust_only_when_folder_trust_is_on(qwen_user, tmp_path):
    assert run_cli("install", "--host", "qwen", "--scope", "project", "--yes").exit_code == 0
    project = tmp_path / "proj"
    result = run_cli("doctor", "--host", "qwen", "--scope", "project", "--json")
    check = {c["name"]: c for c in json.loads(result.stdout)["checks"]}["folder trusted"]
    assert check["status"] == "ok" and "folder trust is off (by default)" in check["detail"]
    (qwen_user / "settings.json").write_text(
        json.dumps({"$version": 4, "security": {"folderTrust": {"enabled": True}}})
    )
    result = run_cli("doctor", "--host", "qwen", "--scope", "project", "--json")
    check = {c["name"]: c for c in json.loads(result.stdout)["checks"]}["folder trusted"]
    assert check["status"] == "warn" and "no project hook" in check["detail"]
    assert (project / ".qwen" / "settings.json").is_file()
    assert (project / ".qwen" / "skills" / "spawnkit" / "SKILL.md").is_file()


def test_host_all_takes_gemini_and_qwen_only_where_their_folder_is(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for variable in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "COPILOT_HOME", "QWEN_HOME"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    monkeypatch.chdir(tmp_path)
    (home / ".qwen").mkdir()
    done = run_cli("install", "--host", "all", "--yes")
    assert done.exit_code == 0, done.output + done.stderr
    assert "Qwen Code, user scope" in done.output and "Gemini CLI" not in done.output
    assert (home / ".qwen" / "settings.json").is_file() and not (home / ".gemini").exists()
    report = json.loads(run_cli("doctor", "--host", "all", "--json").stdout)
    assert [h["host"] for h in report["hosts"]] == ["claude-code", "codex", "copilot", "qwen"]
    assert run_cli("uninstall", "--host", "all", "--yes").exit_code == 0
    assert not (home / ".qwen" / "settings.json").exists()


def test_gemini_cli_home_moves_the_whole_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path / "elsewhere"))
    monkeypatch.chdir(tmp_path)
    done = run_cli("install", "--host", "gemini", "--yes")
    assert done.exit_code == 0, done.stderr
    assert (tmp_path / "elsewhere" / ".gemini" / "settings.json").is_file()
    made = run_cli("new", "demo", "--host", "gemini", "--scope", "user", "--defaults")
    assert made.exit_code == 0, made.stderr
    assert (tmp_path / "elsewhere" / ".gemini" / "skills" / "demo" / "SKILL.md").is_file()


@pytest.mark.parametrize(("host", "folder"), [("gemini", ".gemini"), ("qwen", ".qwen")])
def test_new_puts_the_skill_where_the_host_reads_skills(tmp_path, monkeypatch, host, folder):
    monkeypatch.chdir(tmp_path)
    made = run_cli("new", "demo", "--host", host, "--defaults")
    assert made.exit_code == 0, made.stderr
    skill = tmp_path / folder / "skills" / "demo" / "SKILL.md"
    assert skill.is_file()
    linted = run_cli("lint", "--format", "json", str(skill.parent))
    assert linted.exit_code == 0, linted.stdout
    assert os.path.basename(str(skill.parent)) == "demo"
