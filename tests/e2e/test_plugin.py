"""Scenario 6: the same hooks through ``claude --plugin-dir <repo>``, with nothing installed."""

from __future__ import annotations

from pathlib import Path

from spawnkit import tokens
from spawnkit.standard import protocol

from .scenarios import fan_out

REPO = Path(__file__).resolve().parents[2]
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"  # no venv: the plugin runs the hook code from the repo


def test_plugin_dir_enforces_the_protocol_without_install(claude, fake_api):
    fan = fan_out(fake_api, "S6", agents=1, with_contract=False)

    claude.run(
        fan.prompt, plugin_dirs=(REPO,), env={"PATH": SYSTEM_PATH, "SPAWNKIT_MODE": "enforce"}
    )

    assert not claude.settings_path.exists() and not (claude.config_dir / "spawnkit.json").exists()
    (call,), (sub,) = fan.calls, fan.subs
    # PreToolUse: the return block was appended to the bare prompt.
    assert protocol.load()["return_block"][0] in sub.first.last_user_text
    # SubagentStop: the long answer was held back and saved; a compact one reached the parent.
    got = fan.after_last_return().agent_result(call["id"])
    assert tokens.estimate(got) <= protocol.return_budget()
    saved = list((claude.project / ".spawnkit" / "returns").rglob("*.md"))
    assert len(saved) == 1 and fan.answers[call["id"]] in saved[0].read_text(encoding="utf-8")


def test_plugin_dir_warns_by_default(claude, fake_api):
    fan = fan_out(fake_api, "S6W", agents=1, with_contract=False)

    run = claude.run(fan.prompt, plugin_dirs=(REPO,), env={"PATH": SYSTEM_PATH})

    (call,) = fan.calls
    assert fan.after_last_return().agent_result(call["id"]) == fan.answers[call["id"]]
    assert len(run.system_messages("SubagentStop")) == 1
