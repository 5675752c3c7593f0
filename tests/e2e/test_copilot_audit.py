"""Issue 16 on Copilot CLI: ``spawnkit audit`` on the events.jsonl a real Copilot session just wrote.

The same checks as for Claude Code and Codex (``audit_checks``): per launch the tokens the
orchestrator received (the fake API is the independent truth), the answers spawnkit held back
and where it saved them, the launch the parallel cap refused, how many sub-agents ran at once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spawnkit.standard import protocol

from .audit_checks import audit_session, check_overlap, check_returns
from .copilot_sandbox import COPILOT_VERSION
from .scenarios import copilot_fan_out


@pytest.mark.parametrize("mode", ["off", "enforce"])
def test_audit_reports_what_the_fake_chat_api_delivered(copilot, fake_chat, mode):
    enforced = mode == "enforce"
    if enforced:
        copilot.spawnkit("install", "--host", "copilot", "--mode", "enforce", "--yes")
    cap = protocol.max_parallel()
    fan = copilot_fan_out(
        fake_chat,
        "PXA",
        agents=cap + 1,
        per_message=cap + 1,
        answer_tokens=1500,
        overlap=cap if enforced else cap + 1,
    )

    copilot.run(fan.prompt)
    session = audit_session(
        copilot, "copilot", COPILOT_VERSION, str(copilot.copilot_home / "session-state")
    )

    assert session["project"] == str(copilot.project)
    assert session["context_window"] > 0 and len(session["context"]) >= 2
    returns = check_returns(session, fan.main, fan.call_ids, fan.subs, copilot.project)
    check_overlap(session, returns, enforced)
    for call_id, got in returns.items():
        assert got["deliveries"] == 1 and got["background"] is False
        assert got["agent_type"] == "general-purpose"
        if got["blocked"]:
            assert Path(got["saved_path"]).read_text(encoding="utf-8") == fan.answer(call_id)


def test_audit_finds_copilot_sessions_without_a_path(copilot, fake_chat):
    fan = copilot_fan_out(fake_chat, "PXD", agents=1, answer_tokens=100)
    copilot.run(fan.prompt)
    proc = copilot.spawnkit("audit", "--format", "json", check=False)
    assert proc.returncode in (0, 1), proc.stderr
    assert '"host": "copilot"' in proc.stdout
    by_project = copilot.spawnkit("audit", "--project", ".", "--format", "json", check=False)
    assert '"host": "copilot"' in by_project.stdout
