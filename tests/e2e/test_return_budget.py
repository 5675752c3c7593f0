"""Scenario 1: two sub-agents answer ~3,000 tokens each; what does the orchestrator receive?"""

from __future__ import annotations

from spawnkit import tokens
from spawnkit.standard import protocol

from .scenarios import fan_out

BYTES_PER_TOKEN = 4  # a generous ceiling for English prose: the budget in bytes


def test_enforce_caps_each_return_and_keeps_both_full_answers_on_disk(claude, fake_api):
    claude.spawnkit("install", "--mode", "enforce", "--yes")
    fan = fan_out(fake_api, "S1E", agents=2)

    claude.run(fan.prompt)

    budget = protocol.return_budget()
    dispatch, received = fan.main.requests[0], fan.after_last_return()
    assert received.turn == 1  # both results arrive together, right after the one dispatch
    for call in fan.calls:
        got = received.agent_result(call["id"])
        assert tokens.estimate(got) <= budget
        assert len(got.encode()) <= budget * BYTES_PER_TOKEN
        assert fan.answers[call["id"]] not in received.text
    # The long answers never reached the orchestrator: its context grew by far less than one.
    one_answer = min(len(a.encode()) for a in fan.answers.values())
    assert received.size - dispatch.size < one_answer

    # Each sub-agent was told why and how to shorten, and nothing was lost: both answers are saved.
    for sub in fan.subs:
        assert [r.turn for r in sub.requests] == [0, 1]
        assert ".spawnkit/returns" in sub.requests[1].last_user_text
    saved = [
        p.read_text(encoding="utf-8")
        for p in (claude.project / ".spawnkit" / "returns").rglob("*.md")
    ]
    assert len(saved) == 2
    for answer in fan.answers.values():
        assert any(answer in copy for copy in saved)


def test_warn_lets_long_returns_through_and_warns_the_user(claude, fake_api):
    claude.spawnkit("install", "--mode", "warn", "--yes")
    fan = fan_out(fake_api, "S1W", agents=2)

    run = claude.run(fan.prompt)

    received = fan.after_last_return()
    for call in fan.calls:
        assert received.agent_result(call["id"]) == fan.answers[call["id"]]
    for sub in fan.subs:
        assert len(sub.requests) == 1  # never restarted
    # The user is told, once per over-budget return, in a hook systemMessage.
    warnings = run.system_messages("SubagentStop")
    assert len(warnings) == 2, warnings
    assert all("general-purpose" in w for w in warnings), warnings
