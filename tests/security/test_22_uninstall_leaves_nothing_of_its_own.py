"""Issue 30, item 6: uninstall left spawnkit's own files in the user's folder.

After ``install`` then ``uninstall``, the ``settings.json.spawnkit-<ts>.bak`` files install and
uninstall had made stayed in ``~/.claude`` (``hooks.json`` and ``config.toml`` ones in
``~/.codex``, ``spawnkit-hooks.json`` ones in ``~/.copilot/hooks``), and so did the hook's
session files in ``<config>/.spawnkit/sessions``. Now install records what a file held before
it and each backup it made; when uninstall gives the file back byte for byte, those backups
hold nothing the file does not and go with it (uninstall then makes none of its own), and a
user-scope uninstall removes the hook's runtime state. What still matters stays and is named:
backups of a file the user edited since, and the replies the hook saved in projects.

Every host spawnkit describes is tried (``hosts.all_hosts()``): a new host is covered by
its description alone.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from spawnkit import hosts
from spawnkit.install import registrations as regs
from spawnkit.install.changes import apply, personal_backups_dir
from spawnkit.install.install import plan_install, resolve_target
from spawnkit.standard import protocol
from tests.snapshots import tree

from .conftest import run_cli

# A file of the user's own where each host keeps its hooks (Copilot CLI: beside spawnkit's own
# file), and Codex's config.toml with a setting of theirs.
USER_FILES: dict[str, dict[str, bytes]] = {
    "claude-code": {"settings.json": b'{\n    "model": "opus",\n    "env": {"A": "1"}\n}\n'},
    "codex": {
        "hooks.json": b'{\n  "hooks": {}\n}\n',
        "config.toml": b'model = "gpt-5"\n\n[projects."/srv/app"]\ntrust_level = "trusted"\n',
    },
    "copilot": {"hooks/mine.json": b'{"version": 1, "hooks": {}}\n'},
}
HOSTS = [host.name for host in hosts.all_hosts()]
OTHER_PYTHON = "/opt/older/bin/python3"  # an earlier install's interpreter: entries rewritten


def user_files(host: hosts.Host) -> dict[str, bytes]:
    """The user's own files for ``host`` (a new host: its hooks file, holding a key of theirs)."""
    files = USER_FILES.get(host.name)
    if files is None:
        files = {host.hooks_file: b'{\n  "theme": "dark"\n}\n'}
        if host.trust_file:
            files[host.trust_file] = b'model = "mine"\n'
    return files


def setup_home(host: hosts.Host) -> Path:
    config = Path(host.config_dir(os.environ))
    for rel, data in user_files(host).items():
        (config / rel).parent.mkdir(parents=True, exist_ok=True)
        (config / rel).write_bytes(data)
    os.chmod(config / next(iter(user_files(host))), 0o600)  # a private file stays private
    return config


def run_hook_event(host: hosts.Host, project: Path) -> subprocess.CompletedProcess[str]:
    """One PreToolUse of a sub-agent launch, through the command install registered, as the
    host runs it (a shell, the payload on stdin, the project as the working folder)."""
    reg = next(
        r
        for r in regs.registrations(host.name)
        if host.event_names.get(r.event, r.event) == "PreToolUse"
        and r.matcher
        and re.fullmatch(f"(?:{r.matcher})", host.spawn_tools[0])  # Gemini's are anchored
    )
    command = regs.command_for(host.name)(reg)
    payload = {
        host.session_field: "uninstall-probe",
        host.tool_name_field: host.spawn_tools[0],
        host.tool_input_field: {host.spawn_text_key: "Survey the repository."},
        "cwd": str(project),
    }
    if host.event_field:
        payload[host.event_field] = host.own_event("PreToolUse")  # Gemini CLI: BeforeTool
    env = dict(os.environ)
    if host.project_env:
        env[host.project_env] = str(project)
    return subprocess.run(
        ["bash", "-c", command],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=60,
        check=False,
    )


def sessions(config: Path) -> list[Path]:
    return sorted((config / ".spawnkit" / "sessions").glob("*.json"))


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    folder = tmp_path / "work" / "app"
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    return folder


@pytest.mark.parametrize("name", HOSTS)
def test_install_a_hook_event_and_uninstall_leave_the_users_folder_byte_identical(
    name: str, project: Path
):
    host = hosts.get(name)
    home = Path(os.environ["HOME"])
    config = setup_home(host)
    before, project_before = tree(home), tree(project)

    # an earlier install (another interpreter), then today's: the hooks file is rewritten and
    # backed up twice
    apply(plan_install(resolve_target("user", host=name), python=OTHER_PYTHON))
    installed = run_cli("install", "--host", name, "--mode", "enforce", "--yes")
    assert installed.exit_code == 0, installed.output
    made = [p for p in config.rglob("*.spawnkit-*.bak")]
    assert made, "install made no backup: the test would show nothing"
    ran = run_hook_event(host, project)
    assert ran.returncode == 0, ran.stderr
    assert sessions(config), "the hook wrote no session state: the test would show nothing"

    removed = run_cli("uninstall", "--host", name, "--yes")
    assert removed.exit_code == 0, removed.output
    assert "runtime state" in removed.stdout
    assert tree(home) == before, sorted(set(tree(home)) ^ set(before)) or "bytes or modes differ"
    assert tree(project) == project_before


@pytest.mark.parametrize("name", HOSTS)
def test_uninstall_into_a_folder_install_created_leaves_no_folder(name: str, project: Path):
    host = hosts.get(name)
    home = Path(os.environ["HOME"])
    before = tree(home)
    assert run_cli("install", "--host", name, "--yes").exit_code == 0
    assert run_hook_event(host, project).returncode == 0
    assert run_cli("uninstall", "--host", name, "--yes").exit_code == 0
    assert tree(home) == before


def test_backups_of_a_file_the_user_edited_since_stay_and_are_named(project: Path):
    host = hosts.CLAUDE_CODE
    config = setup_home(host)
    settings = config / "settings.json"
    original = settings.read_bytes()
    assert run_cli("install", "--yes").exit_code == 0
    [backup] = config.glob("settings.json.spawnkit-*.bak")
    data = json.loads(settings.read_text())
    data["env"]["B"] = "2"  # the user's own edit while spawnkit is installed
    settings.write_text(json.dumps(data, indent=4) + "\n")

    removed = run_cli("uninstall", "--yes")
    assert removed.exit_code == 0, removed.output
    assert backup.read_bytes() == original  # it may still matter: kept ...
    assert f"kept {backup}" in removed.stdout  # ... and named
    assert '"B": "2"' in settings.read_text() and "spawnkit-managed" not in settings.read_text()
    # uninstall's own backup (the file with spawnkit's entries and the user's edit) is made too
    assert len(list(config.glob("settings.json.spawnkit-*.bak"))) == 2


def test_a_changed_entry_kept_keeps_the_hook_state_it_still_writes(project: Path):
    host = hosts.CLAUDE_CODE
    config = setup_home(host)
    assert run_cli("install", "--yes").exit_code == 0
    settings = config / "settings.json"
    text = settings.read_text()
    settings.write_text(text.replace('"command": "test -f', '"command": "nice test -f', 1))
    assert run_hook_event(host, project).returncode == 0
    removed = run_cli("uninstall", "--yes")
    assert removed.exit_code == 0, removed.output
    assert "keeps the PreToolUse" in removed.stdout
    assert sessions(config), "the hook still runs: its state must stay"


def test_the_replies_the_hook_saved_are_kept_and_named(project: Path, tmp_path: Path, monkeypatch):
    host = hosts.CLAUDE_CODE
    setup_home(host)
    assert run_cli("install", "--yes").exit_code == 0
    assert run_hook_event(host, project).returncode == 0
    saved = project / protocol.load()["returns_dir"] / "uninstall-probe"
    saved.mkdir(parents=True)
    (saved / "agent-1.md").write_text("the whole reply\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # found through the session state, not the working folder

    removed = run_cli("uninstall", "--yes")
    assert removed.exit_code == 0, removed.output
    assert str(saved.parent) in removed.stdout and "keeps the sub-agent replies" in removed.stdout
    assert (saved / "agent-1.md").read_text() == "the whole reply\n"


def test_a_project_install_takes_its_backups_out_of_the_users_folder(project: Path):
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b'{"permissions": {"allow": []}}\n')
    user = Path(hosts.CLAUDE_CODE.config_dir(os.environ))
    assert run_cli("install", "--scope", "project", "--yes").exit_code == 0
    kept = personal_backups_dir(project / ".claude")
    assert list(kept.glob("settings.json.spawnkit-*.bak")), "no backup to take back"
    removed = run_cli("uninstall", "--scope", "project", "--yes")
    assert removed.exit_code == 0, removed.output
    assert settings.read_bytes() == b'{"permissions": {"allow": []}}\n'
    assert not kept.exists() and not kept.parent.exists()
    # what stays serves more than this project: the machine's install id (it tells this
    # machine's project records from cloned ones) and the template store (every skill's)
    left = {p.name for p in (user / ".spawnkit").iterdir()}
    assert left <= {"install-id", "template-store", "template-store.lock"}, left
    assert {p.name for p in user.iterdir()} == {".spawnkit"}


def test_a_record_without_originals_still_drops_backups_identical_to_the_result(project: Path):
    """An install made by an older spawnkit recorded no backups: one whose bytes are exactly what
    the file holds after uninstall is a copy of nothing."""
    config = setup_home(hosts.CLAUDE_CODE)
    assert run_cli("install", "--yes").exit_code == 0
    record = config / ".spawnkit" / "install.json"
    data = json.loads(record.read_text())
    for rec in data["settings"].values():
        rec.pop("original")
    record.write_text(json.dumps(data, indent=2) + "\n")
    assert run_cli("uninstall", "--yes").exit_code == 0
    assert not list(config.glob("*.bak"))


def test_a_dry_run_names_what_goes_and_removes_nothing(project: Path):
    host = hosts.CLAUDE_CODE
    config = setup_home(host)
    assert run_cli("install", "--yes").exit_code == 0
    assert run_hook_event(host, project).returncode == 0
    before = tree(config)
    dry = run_cli("uninstall", "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert "install's backup" in dry.stdout and "runtime state" in dry.stdout
    assert tree(config) == before


def _doctor_says(*args: str) -> str:
    result = run_cli("doctor", "--json", *args)
    checks = {c["name"]: c for c in json.loads(result.stdout)["checks"]}
    return checks["uninstall"]["detail"]


def test_doctor_says_what_uninstall_takes_back_and_what_it_keeps(project: Path):
    host = hosts.CLAUDE_CODE
    config = setup_home(host)
    assert run_cli("install", "--yes").exit_code == 0
    assert run_hook_event(host, project).returncode == 0
    said = _doctor_says()
    assert "settings.json (back as it was before install)" in said
    assert "1 backup(s) install made" in said and "the hook's state (1 session file(s))" in said

    settings = config / "settings.json"
    settings.write_text(settings.read_text().replace('"A": "1"', '"A": "2"'))
    [backup] = config.glob("settings.json.spawnkit-*.bak")
    said = _doctor_says()
    assert "(your edits since stay)" in said and f"keeps {backup}" in said
    removed = run_cli("uninstall", "--yes")
    assert f"kept {backup}" in removed.stdout and backup.exists()  # as doctor said
