"""Scenario 1 at the edge: first answers just over the budget, not ten times it.

The ~3,000-token answers of ``test_return_budget`` would be held back by a hook that let twice
the budget through; these are between the budget and 1.1 times it (the first answer's size
class is checked, not assumed), so only a hook that holds the budget itself passes.
"""

from __future__ import annotations

from spawnkit import tokens
from spawnkit.standard import protocol

from .scenarios import codex_fan_out, fan_out

BUDGET = protocol.return_budget()


def _just_over(answers: dict[str, str]) -> None:
    for answer in answers.values():
        assert BUDGET < tokens.estimate(answer) <= BUDGET * 1.1, tokens.estimate(answer)


def test_claude_code_holds_back_an_answer_just_over_the_budget(claude, fake_api):
    claude.spawnkit("install", "--mode", "enforce", "--yes")
    fan = fan_out(fake_api, "S1X", agents=1, answer_tokens=BUDGET + 1)
    _just_over(fan.answers)

    claude.run(fan.prompt)

    received = fan.after_last_return()
    (call_id,) = fan.call_ids
    assert tokens.estimate(received.agent_result(call_id)) <= BUDGET
    assert fan.answer(call_id) not in received.text
    (sub,) = fan.subs
    assert [r.turn for r in sub.requests] == [0, 1]  # told to shorten, once
    (saved,) = (claude.project / ".spawnkit" / "returns").rglob("*.md")
    assert saved.read_text(encoding="utf-8") == fan.answer(call_id)


def test_codex_holds_back_an_answer_just_over_the_budget(codex, fake_responses):
    codex.spawnkit("install", "--host", "codex", "--mode", "enforce", "--yes")
    fan = codex_fan_out(fake_responses, "C1X", agents=1, answer_tokens=BUDGET + 1)
    _just_over(fan.answers)

    codex.run(fan.prompt)

    (call_id,) = fan.call_ids
    got = fan.main.last.agent_result(call_id)
    assert got is not None and tokens.estimate(got) <= BUDGET
    assert fan.answer(call_id) not in fan.main.last.text
    (saved,) = (codex.project / ".spawnkit" / "returns").rglob("*.md")
    assert saved.read_text(encoding="utf-8") == fan.answer(call_id)
