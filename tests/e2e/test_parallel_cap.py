"""Scenario 3: a third Agent call while two background sub-agents are still running."""

from __future__ import annotations

from spawnkit.standard import protocol

from .fake_api import FakeAnthropic, agent


def _script(api: FakeAnthropic, tag: str):
    """Two background agents that keep running until the orchestrator has seen the third call's
    outcome, so the third call is certainly made while two are in flight."""
    cap = protocol.max_parallel()
    running = [
        agent(f"S3{tag}-RUN-{i}: long task", f"long task {i}", background=True) for i in range(cap)
    ]
    third = agent(f"S3{tag}-THIRD: one more task", "one more task", background=True)
    main = api.conversation(f"S3{tag}-ORCH", running)
    subs = [api.conversation(f"S3{tag}-RUN-{i}") for i in range(cap)]

    def third_once_all_started(req):
        # The running agents have sent their first request, so SubagentStart has fired for each.
        assert api.wait_for(lambda: all(s.requests for s in subs), timeout=60)
        return third

    main.then(third_once_all_started, "Waiting for the agents.")

    def finish_after_third_is_settled(req):
        assert api.wait_for(
            lambda: any(r.tool_result(third["id"]) for r in main.requests), timeout=60
        )
        return "AGENT: long\nSTATUS: COMPLETE"

    for sub in subs:
        sub.then(finish_after_third_is_settled)
    extra = api.conversation(f"S3{tag}-THIRD", "AGENT: extra\nSTATUS: COMPLETE")
    return main, third, extra


def test_enforce_denies_the_third_agent_with_a_reason(claude, fake_api):
    claude.spawnkit("install", "--mode", "enforce", "--yes")
    main, third, extra = _script(fake_api, "E")

    claude.run("S3E-ORCH: fan out")

    outcome = main.request_with_result(third["id"]).tool_result(third["id"])
    assert outcome.is_error
    assert "CM005" in outcome.text and "wait" in outcome.text.lower()
    assert str(protocol.max_parallel()) in outcome.text
    assert extra.requests == []  # the third sub-agent never started


def test_warn_lets_the_third_agent_run_and_warns_the_orchestrator(claude, fake_api):
    claude.spawnkit("install", "--mode", "warn", "--yes")
    main, third, extra = _script(fake_api, "W")

    claude.run("S3W-ORCH: fan out")

    after = main.request_with_result(third["id"])
    assert not after.tool_result(third["id"]).is_error
    assert "CM005" in after.new_text
    assert len(extra.requests) == 1
