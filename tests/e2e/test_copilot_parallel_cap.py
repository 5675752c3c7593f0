"""Copilot 3: three sub-agents launched in one message over a cap of 2: one is refused.

Copilot CLI runs the preToolUse hooks of parallel ``task`` calls at the same time, before any
sub-agent starts, and names no tool call in them: the hook holds a slot per launch.
"""

from __future__ import annotations

from spawnkit.standard import protocol

from .scenarios import copilot_fan_out


def test_a_third_parallel_launch_is_denied_with_a_clear_reason(copilot, fake_chat):
    cap = protocol.max_parallel()
    assert cap == 2
    copilot.spawnkit("install", "--host", "copilot", "--mode", "enforce", "--yes")
    fan = copilot_fan_out(fake_chat, "P3E", agents=cap + 1, per_message=cap + 1, overlap=cap)

    copilot.run(fan.prompt)

    received = fan.main.last
    denied = [c for c in fan.call_ids if received.launch_refused(c)]
    assert len(denied) == 1
    reason = received.tool_result(denied[0]).text
    assert reason.startswith("Denied by preToolUse hook: spawnkit max-parallel (CM005): ")
    assert f"{cap} sub-agents are already running in this session and the limit is {cap}" in reason
    assert "has returned (call read_agent), then launch this one again" in reason
    ran = [s for s in fan.subs if s.requests]
    assert len(ran) == cap  # the refused one never started; the others ran at once (overlap)
    for call_id in fan.call_ids:
        if call_id not in denied:
            assert received.agent_result(call_id) is not None


def test_warn_lets_all_three_run(copilot, fake_chat):
    copilot.spawnkit("install", "--host", "copilot", "--mode", "warn", "--yes")
    fan = copilot_fan_out(fake_chat, "P3W", agents=3, per_message=3, overlap=3, answer_tokens=100)

    copilot.run(fan.prompt)

    assert all(s.requests for s in fan.subs)
    assert not any(fan.main.last.launch_refused(c) for c in fan.call_ids)
