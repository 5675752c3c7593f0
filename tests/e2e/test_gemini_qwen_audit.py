"""Issue 16 on Gemini CLI and Qwen Code: ``spawnkit audit`` on the transcripts the real clients just
wrote (Gemini: ``~/.gemini/tmp/<project>/chats/``; Qwen: ``~/.qwen/projects/<slug>/chats/`` and the
sub-agent files beside them).

The same checks as for the other clients (``audit_checks``): per launch the tokens the
orchestrator received (the fake API is the independent truth), the answers spawnkit held back and
where it saved them, the launch the parallel cap refused, how many sub-agents ran at once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spawnkit.standard import protocol

from .audit_checks import audit_session, check_overlap, check_returns
from .qwen_sandbox import QWEN_VERSION
from .scenarios import gemini_fan_out, qwen_fan_out
from .test_qwen import notification


@pytest.mark.parametrize("mode", ["off", "enforce"])
def test_audit_of_gemini_reports_what_the_fake_api_delivered(gemini, fake_gemini, mode):
    enforced = mode == "enforce"
    if enforced:
        gemini.spawnkit("install", "--host", "gemini", "--mode", "enforce", "--yes")
    cap = protocol.max_parallel()
    fan = gemini_fan_out(
        fake_gemini,
        "GXA",
        agents=cap + 1,
        per_message=cap + 1,
        answer_tokens=1500,
        overlap=cap if enforced else cap + 1,
    )

    gemini.run(fan.prompt)
    # Gemini CLI records no client version in its chats
    session = audit_session(gemini, "gemini", "", str(gemini.gemini_home / "tmp"))

    assert session["project"] == str(gemini.project)
    assert len(session["context"]) >= 2
    returns = check_returns(session, fan.main, fan.call_ids, fan.subs, gemini.project)
    check_overlap(session, returns, enforced)
    for call_id, got in returns.items():
        assert got["background"] is False and got["agent_type"] == "generalist"
        assert got["finished"] is not None  # its own chat file was read
        if got["blocked"]:
            assert Path(got["saved_path"]).read_text(encoding="utf-8") == fan.answer(call_id)


@pytest.mark.parametrize("mode", ["off", "enforce"])
def test_audit_of_qwen_reports_what_the_fake_api_delivered(qwen, fake_chat, mode):
    enforced = mode == "enforce"
    if enforced:
        qwen.spawnkit("install", "--host", "qwen", "--mode", "enforce", "--yes")
    cap = protocol.max_parallel()
    fan = qwen_fan_out(
        fake_chat,
        "QXA",
        agents=cap + 1,
        per_message=cap + 1,
        answer_tokens=1500,
        overlap=cap if enforced else cap + 1,
    )

    qwen.run(fan.prompt)
    session = audit_session(qwen, "qwen", QWEN_VERSION, str(qwen.qwen_home / "projects"))

    assert session["project"] == str(qwen.project)
    returns = check_returns(session, fan.main, fan.call_ids, fan.subs, qwen.project)
    check_overlap(session, returns, enforced)
    for call_id, got in returns.items():
        assert got["background"] is False and got["agent_type"] == "general-purpose"
        if got["blocked"]:
            assert Path(got["saved_path"]).read_text(encoding="utf-8") == fan.answer(call_id)


def test_audit_of_qwen_background_agents_reads_their_notifications(qwen, fake_chat):
    qwen.spawnkit("install", "--host", "qwen", "--mode", "enforce", "--yes")
    fan = qwen_fan_out(fake_chat, "QXB", agents=2, answer_tokens=1500, background=True)

    qwen.run(fan.prompt)
    session = audit_session(qwen, "qwen", QWEN_VERSION, str(qwen.qwen_home / "projects"))

    returns = {r["tool_use_id"]: r for r in session["returns"]}
    assert sorted(returns) == sorted(fan.call_ids)
    for call_id, got in returns.items():
        words = next(
            w
            for req in fan.main.requests
            if (w := notification(req, f"general-purpose-{call_id}")) is not None
        )
        assert got["background"] is True and got["chars"] == len(words)
        assert got["blocked"] is True
        assert Path(got["saved_path"]).read_text(encoding="utf-8") == fan.answer(call_id)


def test_audit_finds_both_without_a_path(gemini, fake_gemini, qwen_bin, fake_chat, tmp_path):
    from .qwen_sandbox import QwenSandbox

    fan = gemini_fan_out(fake_gemini, "GXD", agents=1, answer_tokens=100)
    gemini.run(fan.prompt)
    qwen = QwenSandbox(tmp_path, qwen_bin, fake_chat)  # the same HOME and project
    qfan = qwen_fan_out(fake_chat, "QXD", agents=1, answer_tokens=100)
    qwen.run(qfan.prompt)
    proc = gemini.spawnkit("audit", "--format", "json", check=False)
    assert proc.returncode in (0, 1), proc.stderr
    assert '"host": "gemini"' in proc.stdout and '"host": "qwen"' in proc.stdout
    by_project = gemini.spawnkit("audit", "--project", ".", "--format", "json", check=False)
    assert '"host": "gemini"' in by_project.stdout and '"host": "qwen"' in by_project.stdout
