"""Copilot 1: sub-agents answer ~3,000 tokens each; what does the orchestrator receive?

Installed with the real ``spawnkit install --host copilot``, run with the real Copilot CLI
against the fake Chat Completions API: the hooks live in ~/.copilot/hooks/spawnkit-hooks.json,
nowhere else.
"""

from __future__ import annotations

from spawnkit import tokens
from spawnkit.standard import protocol

from .scenarios import copilot_fan_out

BYTES_PER_TOKEN = 4  # a generous ceiling for English prose: the budget in bytes
CONTRACT_HEAD = protocol.load()["return_block"][0]


def test_enforce_caps_each_return_and_keeps_the_full_answers_on_disk(copilot, fake_chat):
    copilot.spawnkit("install", "--host", "copilot", "--mode", "enforce", "--yes")
    assert (copilot.copilot_home / "hooks" / "spawnkit-hooks.json").is_file()
    fan = copilot_fan_out(fake_chat, "P1E", agents=2, with_contract=False)

    run = copilot.run(fan.prompt)

    budget = protocol.return_budget()
    received = fan.main.last
    assert received.turn == 1  # both results came back in one request
    for call_id in fan.call_ids:
        got = received.agent_result(call_id)
        assert got is not None and tokens.estimate(got) <= budget
        assert len(got.encode()) <= budget * BYTES_PER_TOKEN
        assert fan.answer(call_id) not in received.text
        assert tokens.estimate(fan.answer(call_id)) >= 3000
    one_answer = min(len(a.encode()) for a in fan.answers.values())
    assert received.size - fan.main.first.size < one_answer

    for sub in fan.subs:
        # The launch carried the return block (preToolUse modifiedArgs) ...
        first = sub.first.last_user_text
        assert CONTRACT_HEAD in first and f"at most {budget} tokens" in first
        # ... after the budget subagentStart put before the prompt.
        assert f"may be at most {budget} tokens" in first
        assert first.index("spawnkit return budget (CM001)") < first.index(sub.name)
        # It answered at length once, was blocked with the saved copy named, answered again.
        assert [r.turn for r in sub.requests] == [0, 1]
        assert ".spawnkit/returns" in sub.requests[1].last_user_text
    saved = [
        p.read_text(encoding="utf-8")
        for p in (copilot.project / ".spawnkit" / "returns").rglob("*.md")
    ]
    assert sorted(saved) == sorted(fan.answers.values())  # whole, byte for byte
    # Copilot itself logged both blocks as spawnkit's answers.
    blocks = [o for o in run.hook_outputs("subagentStop") if o and o.get("decision") == "block"]
    assert len(blocks) == 2 and all("(CM001)" in o["reason"] for o in blocks)


def test_warn_lets_long_returns_through_and_logs_why(copilot, fake_chat):
    copilot.spawnkit("install", "--host", "copilot", "--mode", "warn", "--yes")
    fan = copilot_fan_out(fake_chat, "P1W", agents=2, with_contract=False)

    copilot.run(fan.prompt)

    for call_id in fan.call_ids:
        assert fan.main.last.agent_result(call_id) == fan.answer(call_id)
    for sub in fan.subs:
        assert len(sub.requests) == 1  # never restarted
        assert CONTRACT_HEAD not in sub.first.text
    assert not (copilot.project / ".spawnkit" / "returns").exists()
    log = (copilot.copilot_home / ".spawnkit" / "hook.log").read_text(encoding="utf-8")
    assert log.count("over the 500-token return budget (CM001)") == 2


def test_a_well_made_prompt_and_a_short_answer_pass_untouched(copilot, fake_chat):
    copilot.spawnkit("install", "--host", "copilot", "--mode", "enforce", "--yes")
    fan = copilot_fan_out(fake_chat, "P1S", agents=1, answer_tokens=200, with_contract=True)

    copilot.run(fan.prompt)

    sub = fan.subs[0]
    assert len(sub.requests) == 1
    assert sub.first.last_user_text.count(CONTRACT_HEAD) == 1  # not added twice
    assert fan.main.last.agent_result(fan.call_ids[0]) == fan.answer(fan.call_ids[0])
