"""One keying rule for launches the client names no id for (Copilot CLI's ``task``, Gemini CLI's
``invoke_agent``): a launch is keyed by its fingerprint in its PreToolUse and found again by it
in its PostToolUse, so a launch that has returned is never counted as running, whether or not a
stop event came for its agent.

Last round, warn mode on Copilot CLI piled up 30 slots after 30 sync launches whose agents sent
no subagentStop: each slot was taken over by the agent's start and then waited 30 minutes.
"""

from __future__ import annotations

import copy

from .conftest import CopilotHook, copilot_payload, session_file

SESSION = copilot_payload("preToolUse_task_main")["sessionId"]


def _task(name: str, n: int, prompt: str | None = None) -> dict:
    data = copy.deepcopy(copilot_payload(name))
    if "toolArgs" in data:
        data["toolArgs"]["prompt"] = prompt or f"SUBTASK-{n}: audit part {n}"
    return data


def _start(n: int) -> dict:
    data = copy.deepcopy(copilot_payload("subagentStart_agent"))
    data["agentId"] = f"agent-{n:04d}"
    return data


def _counted(copilot: CopilotHook) -> int:
    state = session_file(copilot, SESSION)
    return len(state.get("running", {})) + len(state.get("pending", {}))


def test_thirty_sync_launches_without_a_stop_leave_nothing_counted(copilot):
    copilot.write_config("user", {"version": 1, "mode": "warn"})
    for n in range(30):
        out = copilot(_task("preToolUse_task_main", n), event="preToolUse")
        assert out is None or "max-parallel" not in str(out), n
        copilot(_start(n), event="subagentStart")
        assert _counted(copilot) == 1
        copilot(_task("postToolUse_task_main", n), event="postToolUse")
        assert _counted(copilot) == 0, n
        copilot.now += 1


def test_a_background_launch_runs_until_its_agent_stops(copilot):
    copilot.write_config("user", {"version": 1, "mode": "enforce"})
    copilot("preToolUse_task_main_2")
    copilot("subagentStart_agent_2")
    copilot("postToolUse_task_main_2")
    running = session_file(copilot, SESSION)["running"]
    agent = copilot_payload("subagentStart_agent_2")["agentId"]
    assert list(running) == [agent] and running[agent]["bg"] is True
    copilot("subagentStop_after_block_2")
    assert _counted(copilot) == 0


def test_two_identical_launches_take_two_slots_and_return_one_at_a_time(copilot):
    copilot.write_config("user", {"version": 1, "mode": "warn"})
    same = "SUBTASK-X: the same words twice"
    copilot(_task("preToolUse_task_main", 1, same), event="preToolUse")
    copilot(_task("preToolUse_task_main", 2, same), event="preToolUse")
    copilot(_start(1), event="subagentStart")
    copilot(_start(2), event="subagentStart")
    assert _counted(copilot) == 2
    copilot(_task("postToolUse_task_main", 1, same), event="postToolUse")
    assert _counted(copilot) == 1
    copilot(_task("postToolUse_task_main", 2, same), event="postToolUse")
    assert _counted(copilot) == 0


def test_a_launch_that_failed_frees_its_slot(copilot):
    copilot.write_config("user", {"version": 1, "mode": "warn"})
    copilot(_task("preToolUse_task_main", 7), event="preToolUse")
    failed = _task("postToolUse_task_main", 7)
    failed["toolResult"] = {"resultType": "failure", "textResultForLlm": "agent crashed"}
    copilot(failed, event="postToolUse")
    assert _counted(copilot) == 0


def test_different_launches_never_settle_each_other(copilot):
    copilot.write_config("user", {"version": 1, "mode": "warn"})
    copilot(_task("preToolUse_task_main", 1), event="preToolUse")
    copilot(_task("postToolUse_task_main", 2), event="postToolUse")  # another launch's return
    assert _counted(copilot) == 1
