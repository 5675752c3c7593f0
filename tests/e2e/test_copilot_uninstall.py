"""Copilot 5: install then uninstall leaves ~/.copilot byte-identical, the user's own hook file
included, and the user's hook working alongside spawnkit's and after it; after a session ran
with spawnkit's hooks, nothing of spawnkit's stays either (issue 30: its hook state went)."""

from __future__ import annotations

from spawnkit.standard import protocol
from tests.snapshots import differences, snapshot, tree

from .fake_chat import task

CONTRACT_HEAD = protocol.load()["return_block"][0]
# What the Copilot CLI itself writes while it runs (its session records, logs, database).
COPILOT_OWN = (
    "session-state",
    "logs",
    "session-store.db*",  # its database and SQLite's journals beside it
    "config.json",
    "settings.json.lock",
    "installed-plugins",
)


def _user_hooks(copilot) -> bytes:
    """A hook file of the user's own, in Copilot's documented flat format, on spawnkit's events."""

    def entry(event: str) -> str:
        return (
            f'      {{"type": "command", "bash": "{copilot.recorder("user", event)}",'
            ' "timeoutSec": 10}'
        )

    text = (
        '{\n  "version": 1,\n  "hooks": {\n'
        + ",\n".join(
            f'    "{event}": [\n{entry(event)}\n    ]'
            for event in ("preToolUse", "subagentStop", "agentStop")
        )
        + "\n  }\n}\n"
    )
    return copilot.write_hooks("mine.json", text).read_bytes()


def _delegate(copilot, fake_chat, tag: str):
    fake_chat.conversation(f"P5{tag}-ORCH", task(f"P5{tag}-SUB: check the build", "build"), "Ok.")
    sub = fake_chat.conversation(f"P5{tag}-SUB", "AGENT: build\nSTATUS: COMPLETE")
    copilot.run(f"P5{tag}-ORCH: delegate")
    return sub


def test_install_then_uninstall_leaves_copilot_home_byte_identical(copilot, fake_chat):
    original = _user_hooks(copilot)
    _delegate(copilot, fake_chat, "A0")  # Copilot writes its own files first
    before = snapshot(copilot.copilot_home)

    copilot.spawnkit("install", "--host", "copilot", "--mode", "enforce", "--yes")
    assert (copilot.hooks_dir / "mine.json").read_bytes() == original
    assert sorted(p.name for p in copilot.hooks_dir.iterdir()) == [
        "mine.json",
        "spawnkit-hooks.json",
    ]
    copilot.spawnkit("uninstall", "--host", "copilot", "--yes")

    assert snapshot(copilot.copilot_home) == before


def test_user_hook_fires_alongside_spawnkit_and_after_its_uninstall(copilot, fake_chat):
    original = _user_hooks(copilot)
    before = tree(copilot.copilot_home)

    copilot.spawnkit("install", "--host", "copilot", "--mode", "enforce", "--yes")
    installed = _delegate(copilot, fake_chat, "A")
    assert list((copilot.copilot_home / ".spawnkit" / "sessions").glob("*.json"))  # hook state
    assert CONTRACT_HEAD in installed.first.last_user_text  # spawnkit's hooks ran ...
    events = [p.stem.rsplit("-", 1)[1] for p in sorted((copilot.hooklog / "user").glob("*"))]
    assert events.count("preToolUse") == 1 and "subagentStop" in events  # ... and the user's
    assert "agentStop" in events

    copilot.spawnkit("uninstall", "--host", "copilot", "--yes")
    assert (copilot.hooks_dir / "mine.json").read_bytes() == original
    assert sorted(p.name for p in copilot.hooks_dir.iterdir()) == ["mine.json"]
    # nothing of spawnkit's left (its hook state included), every byte and mode of the
    # user's as it was; Copilot's own files are its own
    assert differences(before, tree(copilot.copilot_home), COPILOT_OWN) == []

    seen = len(list((copilot.hooklog / "user").glob("*")))
    removed = _delegate(copilot, fake_chat, "B")
    assert CONTRACT_HEAD not in removed.first.text  # spawnkit is gone ...
    later = [p.stem.rsplit("-", 1)[1] for p in sorted((copilot.hooklog / "user").glob("*"))[seen:]]
    assert later.count("preToolUse") == 1 and "subagentStop" in later  # ... the user's is not
