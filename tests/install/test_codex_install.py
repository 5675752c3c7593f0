"""``spawnkit install --host codex``: hooks.json + config.toml trust, byte-identical round trips.

Every variant pairs a hooks.json and a config.toml shaped like a user's (comments, tables in odd
order, their own hooks and trust entries, CRLF, no final newline, missing files). For each:
install writes spawnkit's hooks and exactly their trust entries; a second install changes no
byte; uninstall gives back both files byte for byte and leaves no spawnkit file behind.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spawnkit.install import codex_config, codex_trust
from spawnkit.install import registrations as regs

from .conftest import run_cli, snapshot, without_backups

USER_HOOK = [{"type": "command", "command": "notify-send codex", "timeout": 5}]

HOOKS = {
    "missing": None,
    "empty file": b"",
    "empty object": b"{}\n",
    "own hooks on spawnkit's events": (
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [{"matcher": "spawn_agent", "hooks": USER_HOOK}],
                    "SubagentStop": [{"hooks": USER_HOOK}],
                    "Stop": [{"hooks": USER_HOOK}],
                }
            },
            indent=4,
        )
        + "\n"
    ).encode(),
    "tabs, CRLF, unicode, no final newline": json.dumps(
        {"description": "mes crochets — naïve", "hooks": {"Stop": [{"hooks": USER_HOOK}]}},
        indent="\t",
        ensure_ascii=False,
    )
    .replace("\n", "\r\n")
    .encode(),
    "one line": b'{"hooks": {"PostToolUse": [{"matcher": "apply_patch", "hooks": '
    b'[{"type": "command", "command": "fmt"}]}]}}',
}

CONFIGS = {
    "missing": None,
    "empty": "",
    "fake provider (as the e2e tests)": (
        '# mine\nmodel = "m"\nmodel_provider = "fake"\n\n[model_providers.fake]\n'
        'name = "Fake"\nbase_url = "http://127.0.0.1:9/v1"\n'
    ),
    "odd table order, comments": (
        '[projects."/p"]\ntrust_level = "trusted"  # yes\n\n[tui]\nanimations = false\n\n'
        '# top-level keys can come first too\n[profiles.fast]\nmodel = "m"\n'
    ),
    "CRLF without final newline": 'model = "m"\r\n[tui]\r\nanimations = false',
    "existing trust entries": (
        '[hooks.state."/somewhere/else/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:'
        + "ab" * 32
        + '"\n'
    ),
    "hooks in config.toml": '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "x"\n',
    "features table": "[features]\nmulti_agent_v2 = true\n",
}

PAIRS = [(h, c) for h in HOOKS for c in CONFIGS]


def _codex_home(tmp_path: Path, hooks: bytes | None, config: str | None) -> Path:
    home = tmp_path / "codex-home"
    home.mkdir()
    if hooks is not None:
        (home / "hooks.json").write_bytes(hooks)
    if config is not None:
        (home / "config.toml").write_bytes(config.encode())
    return home


def _install(home: Path, *extra: str):
    return run_cli("install", "--host", "codex", "--config-dir", str(home), "--yes", *extra)


def _uninstall(home: Path):
    return run_cli("uninstall", "--host", "codex", "--config-dir", str(home), "--yes")


@pytest.mark.parametrize(("hooks_name", "config_name"), PAIRS)
def test_install_twice_then_uninstall_gives_both_files_back(tmp_path, hooks_name, config_name):
    hooks, config = HOOKS[hooks_name], CONFIGS[config_name]
    home = _codex_home(tmp_path, hooks, config)
    before = snapshot(home)

    first = _install(home, "--mode", "enforce")
    assert first.exit_code == 0, first.output + first.stderr
    data = json.loads((home / "hooks.json").read_text(encoding="utf-8"))
    ours = [
        (event, group.get("matcher"))
        for event, groups in data["hooks"].items()
        for group in groups
        for hook in group["hooks"]
        if regs.is_managed(hook["command"])
    ]
    assert sorted(ours, key=str) == sorted(
        ((r.event, r.matcher) for r in regs.registrations("codex")), key=str
    )
    assert all(
        "--host codex" in h["command"]
        for g in data["hooks"].values()
        for x in g
        for h in x["hooks"]
        if regs.is_managed(h["command"])
    )
    # Exactly spawnkit's handlers are trusted, with the hash Codex computes; nothing else moved.
    config_text = (home / "config.toml").read_bytes().decode("utf-8")
    trusted = codex_config.trust_entries(codex_config.parse(config_text))
    expected = codex_trust.expected_entries(str(home / "hooks.json"), data["hooks"])
    own = {k: v for k, v in expected.items() if trusted.get(k) == v}
    assert len(own) == len(ours)
    if config:
        assert config_text.startswith(config)
    assert (home / "skills" / "spawnkit" / "SKILL.md").is_file()
    assert (home / "standards" / "CONTEXT_MANAGEMENT.md").is_file()
    assert json.loads((home / "spawnkit.json").read_text())["mode"] == "enforce"

    installed = without_backups(snapshot(home))
    second = _install(home)
    assert second.exit_code == 0 and "already installed" in second.output
    assert without_backups(snapshot(home)) == installed

    removed = _uninstall(home)
    assert removed.exit_code == 0, removed.output + removed.stderr
    assert without_backups(snapshot(home)) == before


def test_a_new_interpreter_rewrites_the_hashes_in_place(tmp_path, monkeypatch):
    home = _codex_home(
        tmp_path, HOOKS["own hooks on spawnkit's events"], CONFIGS["odd table order, comments"]
    )
    original = (home / "config.toml").read_bytes()
    assert _install(home).exit_code == 0
    first = codex_config.trust_entries(codex_config.parse((home / "config.toml").read_text()))
    monkeypatch.setattr("sys.executable", "/opt/other/python3")
    assert _install(home).exit_code == 0
    data = json.loads((home / "hooks.json").read_text())
    trusted = codex_config.trust_entries(codex_config.parse((home / "config.toml").read_text()))
    assert trusted != first and set(trusted) == set(first)
    assert codex_trust.untrusted(str(home / "hooks.json"), data["hooks"], trusted) == [
        k
        for k in codex_trust.expected_entries(str(home / "hooks.json"), data["hooks"])
        if k not in first
    ]
    assert _uninstall(home).exit_code == 0
    assert (home / "config.toml").read_bytes() == original


def test_dry_run_and_refusals_write_nothing(tmp_path):
    home = _codex_home(tmp_path, HOOKS["own hooks on spawnkit's events"], 'model = "unterminated\n')
    before = snapshot(home)
    refused = _install(home)
    assert refused.exit_code == 2
    assert "config.toml is not valid TOML" in refused.stderr and "Traceback" not in refused.stderr
    assert snapshot(home) == before
    (home / "config.toml").write_text('model = "m"\n')
    before = snapshot(home)
    dry = _install(home, "--dry-run")
    assert (
        dry.exit_code == 0
        and "+[hooks.state." in dry.output
        and "nothing was written" in dry.output
    )
    assert snapshot(home) == before


def test_refused_when_config_toml_cannot_take_the_entries(tmp_path):
    home = _codex_home(tmp_path, None, "[hooks]\nstate = { }\n")
    before = snapshot(home)
    refused = _install(home)
    assert refused.exit_code == 2 and "inline table" in refused.stderr
    assert snapshot(home) == before


def test_project_scope_uses_dot_codex_dot_agents_and_the_users_config(tmp_path, monkeypatch):
    project, codex_home = tmp_path / "proj", tmp_path / "codex-home"
    project.mkdir()
    codex_home.mkdir()
    (codex_home / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    monkeypatch.chdir(project)
    before_home, before_project = snapshot(codex_home), snapshot(project)

    done = run_cli("install", "--host", "codex", "--scope", "project", "--yes")
    assert done.exit_code == 0, done.output + done.stderr
    hooks = project / ".codex" / "hooks.json"
    assert (project / ".agents" / "skills" / "spawnkit" / "SKILL.md").is_file()
    assert (project / ".codex" / "spawnkit.json").is_file()
    trusted = codex_config.trust_entries(
        codex_config.parse((codex_home / "config.toml").read_text())
    )
    assert trusted and all(key.startswith(f"{hooks}:") for key in trusted)
    doctor = run_cli("doctor", "--host", "codex", "--scope", "project", "--json")
    checks = {c["name"]: c for c in json.loads(doctor.stdout)["checks"]}
    assert checks["hooks trusted"]["status"] == "ok"
    assert checks["project trusted"]["status"] == "ok"

    assert run_cli("uninstall", "--host", "codex", "--scope", "project", "--yes").exit_code == 0
    assert without_backups(snapshot(codex_home)) == before_home
    # Only the backup of the hooks.json install had created is left (as for Claude Code).
    left = snapshot(project)
    assert set(without_backups(left)) - {".codex"} == set(before_project)
    assert all(".spawnkit-" in k for k in left if k.startswith(".codex/"))


def test_codex_has_no_local_scope(tmp_path):
    refused = run_cli("install", "--host", "codex", "--scope", "local", "--yes")
    assert refused.exit_code == 2 and "Codex CLI has no local scope" in refused.stderr


def test_host_all_installs_into_every_host(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "copilot"))
    done = run_cli("install", "--host", "all", "--yes")
    assert done.exit_code == 0, done.output + done.stderr
    assert "Claude Code, user scope" in done.output and "Codex CLI, user scope" in done.output
    assert "Copilot CLI, user scope" in done.output
    assert (tmp_path / "claude" / "settings.json").is_file()
    assert (tmp_path / "codex" / "hooks.json").is_file()
    assert (tmp_path / "codex" / "config.toml").is_file()
    assert (tmp_path / "copilot" / "hooks" / "spawnkit-hooks.json").is_file()
    doctor = run_cli("doctor", "--host", "all", "--json")
    report = json.loads(doctor.stdout)
    assert [h["host"] for h in report["hosts"]] == ["claude-code", "codex", "copilot"]
    assert run_cli("uninstall", "--host", "all", "--yes").exit_code == 0
    assert not (tmp_path / "codex" / "hooks.json").exists()
    assert not (tmp_path / "codex" / "config.toml").exists()
    assert not (tmp_path / "copilot").exists()
    refused = run_cli("install", "--host", "all", "--config-dir", str(tmp_path / "x"), "--yes")
    assert refused.exit_code == 2 and "one --host" in refused.stderr


def _checks(home: Path) -> dict[str, dict]:
    result = run_cli("doctor", "--host", "codex", "--config-dir", str(home), "--json")
    return {c["name"]: c for c in json.loads(result.stdout)["checks"]}


def test_doctor_sees_hooks_codex_would_skip(tmp_path):
    home = _codex_home(
        tmp_path, HOOKS["own hooks on spawnkit's events"], CONFIGS["odd table order, comments"]
    )
    assert _install(home).exit_code == 0
    checks = _checks(home)
    assert checks["hooks registered"]["status"] == "ok"
    # The user's own hooks are not trusted: a warning about theirs, not a spawnkit failure.
    assert checks["hooks trusted"]["status"] == "warn"
    assert "of yours" in checks["hooks trusted"]["detail"]

    # A hook whose command changed (so its hash no longer matches) would be skipped.
    data = json.loads((home / "hooks.json").read_text())
    hook = data["hooks"]["SubagentStop"][-1]["hooks"][0]
    hook["timeout"] = 11
    (home / "hooks.json").write_text(json.dumps(data, indent=4) + "\n")
    checks = _checks(home)
    assert checks["hooks trusted"]["status"] == "broken"
    assert "hash no longer matches" in checks["hooks trusted"]["detail"]
    assert "spawnkit install --host codex" in checks["hooks trusted"]["fix"]

    assert _install(home).exit_code == 0  # rewrites the entries
    assert _checks(home)["hooks trusted"]["status"] in ("ok", "warn")

    with (home / "config.toml").open("a") as fh:
        fh.write("\n[features]\nhooks = false\n")
    checks = _checks(home)
    assert (
        checks["hooks trusted"]["status"] == "broken"
        and "hooks = false" in checks["hooks trusted"]["detail"]
    )


def test_doctor_on_a_fresh_codex_install_is_all_ok(tmp_path):
    home = _codex_home(tmp_path, None, CONFIGS["fake provider (as the e2e tests)"])
    assert _install(home, "--mode", "enforce").exit_code == 0
    result = run_cli("doctor", "--host", "codex", "--config-dir", str(home))
    assert result.exit_code == 0, result.output
    assert "Codex CLI, user scope" in result.output and "all good" in result.output
    names = [c for c in _checks(home)]
    assert "hooks trusted" in names and "plugin overlap" not in names


def test_uninstall_names_user_hooks_that_move_up(tmp_path):
    home = _codex_home(tmp_path, None, 'model = "m"\n')
    assert _install(home).exit_code == 0
    data = json.loads((home / "hooks.json").read_text())
    data["hooks"]["SubagentStop"].append({"hooks": USER_HOOK})  # added after spawnkit's
    (home / "hooks.json").write_text(json.dumps(data, indent=2) + "\n")
    done = _uninstall(home)
    assert done.exit_code == 0
    assert "subagent_stop:1:0" in done.output and "moves to subagent_stop:0:0" in done.output
    left = json.loads((home / "hooks.json").read_text())
    assert left == {"hooks": {"SubagentStop": [{"hooks": USER_HOOK}]}}
