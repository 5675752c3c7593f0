"""Parallel-cap paths the other tests left open, found by mutation testing (``mutmut run``).

A Codex launch whose PostToolUse answer names the agent before its SubagentStart arrives
(the slot moves from pending to running by itself), answers of the wrong shape, an empty
task name, a SubagentStart taking over the oldest pending slot by time (not by name), slots
expiring exactly at their time limit, a mode of off writing nothing, and batches that mix
sub-agent launches with other tools.
"""

from __future__ import annotations

import json

import pytest

from spawnkit.hook import parallel_cap

from .conftest import codex_payload, payload, session_file
from .test_codex import ENFORCE, launched, spawn, started
from .test_parallel_cap import CAP, SESSION, launch

CODEX_SESSION = codex_payload("run1__PreToolUse_00")["session_id"]


def _answer(n: int, response: object) -> dict:
    data = launched(n, "x")
    data["tool_response"] = response
    return data


def _state(hook, session: str = CODEX_SESSION) -> dict:
    return session_file(hook, session)


@pytest.mark.parametrize("as_text", [True, False], ids=["json-text", "object"])
def test_a_launch_answer_naming_the_agent_runs_it_before_its_start_arrives(codex, as_text):
    codex(spawn(0), ENFORCE)
    assert list(_state(codex)["pending"]) == ["call_000_0"]
    response = {"agent_id": "agent-0", "nickname": "X"}
    codex(_answer(0, json.dumps(response) if as_text else response), ENFORCE)
    state = _state(codex)
    assert state["pending"] == {} and list(state["running"]) == ["agent-0"]
    assert state["running"]["agent-0"]["t"] == codex.now


@pytest.mark.parametrize(
    "response",
    ['{"agent_id": 7}', '{"agent_id": ""}', "not json", '{"task_name": ""}', 12, None],
)
def test_a_launch_answer_without_an_agent_or_task_frees_the_slot(codex, response):
    codex(spawn(0), ENFORCE)
    codex(_answer(0, response), ENFORCE)
    state = _state(codex)
    assert state["pending"] == {} and state["running"] == {}


def test_a_launch_answer_with_a_task_name_keeps_the_slot_until_the_start(codex):
    codex(spawn(0), ENFORCE)
    codex(_answer(0, '{"task_name": "/root/report"}'), ENFORCE)
    assert list(_state(codex)["pending"]) == ["call_000_0"]


def test_a_start_takes_over_the_oldest_pending_slot_by_time(codex):
    codex(spawn(1), ENFORCE)  # call_001_0 at t
    codex.now += 1
    codex(spawn(0), ENFORCE)  # call_000_0 at t + 1: first by name, second by time
    codex(started("agent-a"), ENFORCE)
    assert list(_state(codex)["pending"]) == ["call_000_0"]


def test_a_slot_expires_exactly_at_its_time_limit():
    data = {"running": {"a": 0.0, "b": 1.0}, "pending": {}}
    parallel_cap.prune(data, parallel_cap.RUNNING_TTL)
    assert list(data["running"]) == ["b"]
    data = {"running": {}, "pending": {"p": 0.0, "q": 1.0}}
    parallel_cap.prune(data, parallel_cap.PENDING_GRACE)
    assert data["pending"] == {"q": {"t": 1.0, "seen": 1.0}}
    # a running agent's clock is its last confirmation, not its start
    data = {"running": {"c": {"t": 0.0, "seen": 5.0}}, "pending": {}}
    parallel_cap.prune(data, parallel_cap.RUNNING_TTL + 4.0)
    assert list(data["running"]) == ["c"]
    parallel_cap.prune(data, parallel_cap.RUNNING_TTL + 5.0)
    assert data["running"] == {}


def test_with_the_cap_off_a_launch_reserves_nothing(hook):
    env = {"SPAWNKIT_MODE": "enforce", "SPAWNKIT_MODE_CM005": "off"}
    for n in range(CAP + 1):
        answer = hook(launch(n), env)["hookSpecificOutput"]
        assert "permissionDecision" not in answer  # never refused
    path = hook.state_dir / "sessions" / f"{SESSION}.json"
    assert not path.exists() or json.loads(path.read_text()).get("pending", {}) == {}


def _batch(*tools: str) -> dict:
    data = payload("PostToolBatch_two_parallel_agents")
    item = data["tool_calls"][0]
    data["tool_calls"] = [
        {**item, "tool_name": tool, "tool_use_id": f"toolu_{i}"} for i, tool in enumerate(tools)
    ]
    return data


def test_other_tools_in_a_batch_are_not_counted_as_launches(hook):
    assert hook(_batch("Read", "Read", "Read", "Agent"), {"SPAWNKIT_MODE": "enforce"}) is None


def test_launches_after_another_tool_in_a_batch_are_all_counted(hook):
    answer = hook(_batch("Read", *["Agent"] * (CAP + 1)), {"SPAWNKIT_MODE": "enforce"})
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert f"you launched {CAP + 1} sub-agents in one message" in context
