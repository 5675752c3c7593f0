"""Issue 16: ``spawnkit audit`` on the transcripts a real Claude Code session just wrote.

The fake API sees exactly what the orchestrator model was sent, so it is the independent truth:
per sub-agent, the words the orchestrator received (estimated with ``spawnkit.tokens``, like the
audit), whether spawnkit held a longer answer back, and how many sub-agents were running at once
(each sub-agent here waits until its siblings have started, so they certainly overlap).
"""

from __future__ import annotations

import math

import pytest

from spawnkit import tokens
from spawnkit.standard import protocol

from .audit_checks import audit_session, check_overlap, check_returns
from .fake_api import FakeAnthropic, agent, text
from .sandbox import client_version
from .scenarios import (
    WORKFLOWS,
    long_answer,
    mixed,
    notified,
    obey_block,
    once_started,
    workflow_agents,
    workflow_orchestrator,
)


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
        assert codes == ["CM005", "CM006"]
        # The fake API reports a request's usage as its size / 4: the two long answers cost
        # the orchestrator under the budget by that usage, over it by the estimate the hooks
        # enforce with. The audit judges by the recorded usage and says both.
        long = [r for r in returns.values() if r["estimate_over_budget"]]
        assert len(long) == 2 and all(r["tokens"] <= protocol.return_budget() for r in long)


@pytest.mark.parametrize("name", sorted(WORKFLOWS))
def test_audit_of_a_workflow_run(claude, fake_api, name):
    """Issue 23: a Workflow run's agents, their answers (kept out of the orchestrator's
    context), how many ran at once, and the result the orchestrator received, against the
    fake API: what each agent answered and what the notification carried."""
    script, at_once = WORKFLOWS[name]
    main, call = workflow_orchestrator(fake_api, script)
    answers = workflow_agents(fake_api, name, claude.project)

    claude.run(
        "WF-ORCH: run the workflow.",
        output_format="json",
        env={"CLAUDE_CODE_WORKFLOW_MAX_CONCURRENT_AGENTS": str(at_once)},
    )
    session = _audit(claude)

    reported = [max(1, math.ceil(len(req.raw) / 4)) for req in main.requests]
    assert [p["prompt"] for p in session["context"]] == reported
    (run,) = session["workflows"]
    got = {a["label"]: a["answer_tokens"] for a in run["agents"]}
    assert got == {label: tokens.estimate(text) for label, text in answers.items()}
    assert run["peak_parallel"] == at_once and run["status"] == "completed"
    (result,) = session["returns"]
    assert result["kind"] == "workflow" and result["tool_use_id"] == call["id"]
    assert result["estimated_tokens"] == tokens.estimate(notified(main, call["id"]))
    assert result["tokens_source"] != "estimate"
    codes = sorted(f["code"] for f in session["findings"])
    assert codes == (["CM001", "CM005"] if at_once > protocol.max_parallel() else [])
