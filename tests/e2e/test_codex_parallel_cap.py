"""Codex 2: a third spawn_agent while two sub-agents are still running, over a cap of 2."""

from __future__ import annotations

from spawnkit.standard import protocol

from .fake_responses import FakeResponses, spawn_agent, wait_agent


def _script(api: FakeResponses, tag: str):
    """Two sub-agents that keep running until the orchestrator has seen the third spawn's
    outcome, so the third spawn is certainly made while two are in flight."""
    cap = protocol.max_parallel()
    contract = "\n\n" + protocol.return_block()
    running = [spawn_agent(f"C2{tag}-RUN-{i}: long task{contract}") for i in range(cap)]
    third = spawn_agent(f"C2{tag}-THIRD: one more task{contract}")
    subs = [api.conversation(f"C2{tag}-RUN-{i}") for i in range(cap)]

    def third_once_all_started(req):
        assert api.wait_for(lambda: all(s.requests for s in subs), timeout=60)
        return third

    def wait_for_all(req):
        pending = [
            agent_id
            for c in [*running, third]
            if (agent_id := req.spawned_agent_id(c["call_id"]))
            and req.agent_result(c["call_id"]) is None
        ]
        return wait_agent(pending) if pending else "All agents done."

    main = api.conversation(f"C2{tag}-ORCH", running, third_once_all_started)
    main.when(lambda req: req.assistant_turns >= 2, wait_for_all)

    def finish_after_third_is_settled(req):
        assert api.wait_for(lambda: any(r.tool_result(third["call_id"]) for r in main.requests))
        return "AGENT: long\nSTATUS: COMPLETE"

    for sub in subs:
        sub.then(finish_after_third_is_settled)
    extra = api.conversation(f"C2{tag}-THIRD", "AGENT: extra\nSTATUS: COMPLETE")
    return main, third, extra


def test_enforce_denies_the_third_spawn_with_a_reason_the_model_can_act_on(codex, fake_responses):
    codex.spawnkit("install", "--host", "codex", "--mode", "enforce", "--yes")
    main, third, extra = _script(fake_responses, "E")

    codex.run("C2E-ORCH: fan out")

    outcome = main.request_with_result(third["call_id"]).tool_result(third["call_id"])
    assert outcome.text.startswith("Tool call blocked by PreToolUse hook: spawnkit max-parallel")
    assert "CM005" in outcome.text and "wait_agent" in outcome.text
    assert f"limit is {protocol.max_parallel()}" in outcome.text
    assert extra.requests == []  # the third sub-agent never started


def test_warn_lets_the_third_run_and_tells_the_orchestrator(codex, fake_responses):
    codex.spawnkit("install", "--host", "codex", "--mode", "warn", "--yes")
    main, third, extra = _script(fake_responses, "W")

    codex.run("C2W-ORCH: fan out")

    after = main.request_with_result(third["call_id"])
    assert after.spawned_agent_id(third["call_id"])
    assert "CM005" in after.new_text
    assert len(extra.requests) == 1
