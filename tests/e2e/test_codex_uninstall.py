"""Codex 5: install then uninstall leaves hooks.json and config.toml byte-identical, and the
user's own trusted hook working alongside spawnkit's and after it; after a session ran with
spawnkit's hooks, nothing of spawnkit's stays in $CODEX_HOME (issue 30: no backup, no hook
state)."""

from __future__ import annotations

import json

from spawnkit.install.codex_trust import expected_entries
from spawnkit.standard import protocol
from tests.snapshots import differences, tree

from .fake_responses import spawn_agent, wait_agent

CONTRACT_HEAD = protocol.load()["return_block"][0]


def _user_hooks(codex) -> tuple[bytes, bytes]:
    """A user's hooks.json with their own hooks on spawnkit's events, trusted in config.toml."""
    record = codex.recorder("user")
    hook = [{"type": "command", "command": record, "timeout": 10}]
    hooks = {
        "PreToolUse": [{"matcher": "spawn_agent", "hooks": hook}],
        "SubagentStop": [{"hooks": hook}],
        "Stop": [{"hooks": hook}],
    }
    raw = (json.dumps({"hooks": hooks}, indent=4) + "\n").encode()
    codex.hooks_path.write_bytes(raw)
    trust = "".join(
        f'\n[hooks.state."{key}"]\ntrusted_hash = "{value}"\n'
        for key, value in expected_entries(str(codex.hooks_path), hooks).items()
    )
    with codex.config_path.open("a", encoding="utf-8") as fh:
        fh.write("# my trusted hooks\n" + trust)
    return raw, codex.config_path.read_bytes()


def _delegate(codex, fake_responses, tag: str):
    call = spawn_agent(f"C5{tag}-SUB: check the build")
    fake_responses.conversation(
        f"C5{tag}-ORCH",
        call,
        lambda req: wait_agent([req.spawned_agent_id(call["call_id"])]),
        "Ok.",
    )
    sub = fake_responses.conversation(f"C5{tag}-SUB", "AGENT: build\nSTATUS: COMPLETE")
    codex.run(f"C5{tag}-ORCH: delegate")
    return sub


def test_user_hooks_fire_alongside_spawnkit_and_both_files_come_back_byte_identical(
    codex, fake_responses
):
    hooks_before, config_before = _user_hooks(codex)

    codex.spawnkit("install", "--host", "codex", "--mode", "enforce", "--yes")
    assert codex.hooks_path.read_bytes() != hooks_before
    installed = _delegate(codex, fake_responses, "A")
    assert CONTRACT_HEAD in installed.first.text  # spawnkit's hooks ran ...
    events = [p["hook_event_name"] for p in codex.recorded("user")]
    assert events.count("PreToolUse") == 1 and "SubagentStop" in events and "Stop" in events

    codex.spawnkit("uninstall", "--host", "codex", "--yes")
    assert codex.hooks_path.read_bytes() == hooks_before
    assert codex.config_path.read_bytes() == config_before
    before = len(codex.recorded("user"))
    removed = _delegate(codex, fake_responses, "B")
    assert CONTRACT_HEAD not in removed.first.text  # spawnkit is gone ...
    after = [p["hook_event_name"] for p in codex.recorded("user")[before:]]
    assert after.count("PreToolUse") == 1 and "SubagentStop" in after  # ... the user's hook is not


def test_install_into_an_empty_codex_home_and_out_again_leaves_it_as_it_was(codex):
    config_before = codex.config_path.read_bytes()
    codex.spawnkit("install", "--host", "codex", "--yes")
    assert codex.hooks_path.is_file() and (codex.codex_home / "skills" / "spawnkit").is_dir()
    codex.spawnkit("uninstall", "--host", "codex", "--yes")
    assert not codex.hooks_path.exists()
    assert codex.config_path.read_bytes() == config_before
    assert not (codex.codex_home / "skills").exists()


# What Codex writes for itself in $CODEX_HOME while it runs.
CODEX_OWN = (
    "sessions",
    "log",
    "logs",
    "history.jsonl",
    "version.json",
    "tmp",
    "cache",
    "thread-writer-locks",  # rollout writers' lock files (codex_rollout::writer_lock), left at times
    "*.sqlite",  # its databases (state, thread history, queue), with their journals
    "*.sqlite-*",
)


def test_install_a_session_and_uninstall_leave_codex_home_as_it_was(codex, fake_responses):
    _user_hooks(codex)
    _delegate(codex, fake_responses, "Z")  # Codex writes its own files first
    before = tree(codex.codex_home)

    codex.spawnkit("install", "--host", "codex", "--mode", "enforce", "--yes")
    _delegate(codex, fake_responses, "Y")  # spawnkit's hook runs: it keeps its session state
    assert list((codex.codex_home / ".spawnkit" / "sessions").glob("*.json"))
    assert list(codex.codex_home.glob("*.spawnkit-*.bak"))
    removed = codex.spawnkit("uninstall", "--host", "codex", "--yes")

    assert differences(before, tree(codex.codex_home), CODEX_OWN) == []
    assert "runtime state" in removed.stdout  # what went is said
