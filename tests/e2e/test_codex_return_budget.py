"""Codex 1: two sub-agents answer ~3,000 tokens each; what does the orchestrator receive?

Installed with the real ``spawnkit install --host codex`` and run WITHOUT
``--dangerously-bypass-hook-trust``: the hooks run only because install trusted them.
"""

from __future__ import annotations

from spawnkit import tokens
from spawnkit.standard import protocol

from .scenarios import codex_fan_out

BYTES_PER_TOKEN = 4  # a generous ceiling for English prose: the budget in bytes


def test_enforce_caps_each_return_and_keeps_the_full_answers_on_disk(codex, fake_responses):
    codex.spawnkit("install", "--host", "codex", "--mode", "enforce", "--yes")
    fan = codex_fan_out(fake_responses, "C1E", agents=2)

    run = codex.run(fan.prompt)

    assert run.result == "Audit complete."
    budget = protocol.return_budget()
    received = fan.main.last
    for call_id in fan.call_ids:
        got = received.agent_result(call_id)
        assert got is not None and tokens.estimate(got) <= budget
        assert len(got.encode()) <= budget * BYTES_PER_TOKEN
        assert fan.answer(call_id) not in received.text  # neither in wait_agent nor notification
    # The orchestrator's context grew by far less than one long answer.
    one_answer = min(len(a.encode()) for a in fan.answers.values())
    assert received.size - fan.main.first.size < one_answer

    # Each sub-agent was told the budget up front (SubagentStart), then why and how to shorten.
    for sub in fan.subs:
        assert [r.turn for r in sub.requests] == [0, 1]
        assert f"may be at most {budget} tokens" in sub.first.developer_text
        assert ".spawnkit/returns" in sub.requests[1].last_user_text
    saved = [
        p.read_text(encoding="utf-8")
        for p in (codex.project / ".spawnkit" / "returns").rglob("*.md")
    ]
    assert len(saved) == 2
    for answer in fan.answers.values():
        assert any(answer in copy for copy in saved)


def test_warn_lets_long_returns_through(codex, fake_responses):
    codex.spawnkit("install", "--host", "codex", "--mode", "warn", "--yes")
    fan = codex_fan_out(fake_responses, "C1W", agents=2)

    codex.run(fan.prompt)

    for call_id in fan.call_ids:
        assert fan.main.last.agent_result(call_id) == fan.answer(call_id)
    for sub in fan.subs:
        assert len(sub.requests) == 1  # never restarted
    assert not (codex.project / ".spawnkit" / "returns").exists()


def test_without_trust_entries_codex_runs_no_hook(codex, fake_responses):
    """What the trust entries are for: the same hooks.json without them does nothing."""
    codex.spawnkit("install", "--host", "codex", "--mode", "enforce", "--yes")
    config = codex.config_path.read_text(encoding="utf-8")
    start = config.index("[hooks.state.")
    codex.config_path.write_text(config[:start], encoding="utf-8")
    fan = codex_fan_out(fake_responses, "C1U", agents=1)

    codex.run(fan.prompt)

    assert fan.main.last.agent_result(fan.call_ids[0]) == fan.answer(fan.call_ids[0])
    doctor = codex.spawnkit("doctor", "--host", "codex", check=False)
    assert doctor.returncode == 1 and "trust" in doctor.stdout
