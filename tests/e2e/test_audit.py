"""Issue 16: ``spawnkit audit`` on the transcripts a real Claude Code session just wrote.

The fake API sees exactly what the orchestrator model was sent, so it is the independent truth:
per sub-agent, the words the orchestrator received (estimated with ``spawnkit.tokens``, like the
audit), whether spawnkit held a longer answer back, and how many sub-agents were running at once
(each sub-agent here waits until its siblings have started, so they certainly overlap).
"""

from __future__ import annotations

import pytest

from spawnkit.standard import protocol

from .audit_checks import audit_session, check_overlap, check_returns
from .fake_api import FakeAnthropic, agent, text
from .sandbox import client_version
from .scenarios import long_answer, mixed, obey_block, once_started


def _audit(claude) -> dict:
    return audit_session(claude, "claude-code", client_version(claude.binary))


def _overlapping(api: FakeAnthropic, tag: str, running: int):
    """One orchestrator message launching cap + 1 foreground sub-agents that each answer at
    length only once ``running`` of them have started (so they overlap for sure)."""
    n = protocol.max_parallel() + 1
    calls, subs = [], []
    for i in range(1, n + 1):
        name = f"{tag}-SUB-{i}"
        calls.append(agent(f"{name}: audit part {i}.", f"audit part {i}", background=False))
        first = once_started(api, subs, running, long_answer(name, 1500))
        subs.append(api.conversation(name, first, obey_block(name), name=name))
    main = api.conversation(f"{tag}-ORCH", [text("Fanning out."), *calls], "Done.")
    return f"{tag}-ORCH: audit the repository.", main, subs, calls


@pytest.mark.parametrize("mode", ["off", "enforce"])
def test_audit_reports_what_the_fake_api_received(claude, fake_api, mode):
    enforced = mode == "enforce"
    if enforced:
        claude.spawnkit("install", "--mode", "enforce", "--yes")
    cap = protocol.max_parallel()
    prompt, main, subs, calls = _overlapping(fake_api, "AUD", cap if enforced else cap + 1)

    claude.run(prompt)
    session = _audit(claude)

    ids = [call["id"] for call in calls]
    returns = check_returns(session, main, ids, subs, claude.project)
    check_overlap(session, returns, enforced)


@pytest.mark.parametrize("mode", ["off", "enforce"])
def test_audit_of_background_agents_reads_and_checkpoints(claude, fake_api, mode):
    enforced = mode == "enforce"
    if enforced:
        claude.spawnkit("install", "--mode", "enforce", "--yes")
    plan = mixed(fake_api, "BGA", claude.project, enforced=enforced)

    claude.run(plan.prompt)
    session = _audit(claude)

    ids = [call["id"] for call in plan.calls]
    returns = check_returns(session, plan.main, ids, plan.subs, claude.project)
    assert all(r["background"] for r in returns.values())
    assert [w["path"] for w in session["state_writes"]] == [plan.state_file]
    (read,) = session["report_reads"]
    assert read["path"] == plan.report_read and read["denied"] is enforced
    codes = sorted(f["code"] for f in session["findings"])
    if enforced:
        assert session["denied_launches"] == 1 and session["peak_parallel"] <= 2
        assert codes == []
    else:
        assert session["peak_parallel"] == 3
        assert codes == ["CM001", "CM001", "CM005", "CM006"]
