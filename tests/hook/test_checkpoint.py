"""CM007: a reminder after every 3 finished sub-agents if the state file stood still."""

from __future__ import annotations

import os

from .conftest import payload, session_file

SESSION = "0946559b-31ae-49c3-a138-45a86a87b82c"
REMINDER = (
    "spawnkit checkpoint (CM007): {n} sub-agents have finished in this session and no state file "
    "(state-YYYYMMDD-HHMMSS.json in a .<skill>-reports/ folder) has changed since the last "
    "checkpoint. Record every completed step in the state file now, before launching more "
    "sub-agents, so the run can resume after a context reset."
)


def finish(hook, *agents: str) -> None:
    for agent in agents:
        data = payload("SubagentStop_matcher_Explore") | {"agent_id": agent}
        assert hook(data) is None


def batch() -> dict:
    return payload("PostToolBatch_parallel_Write_Read") | {"session_id": SESSION}


def reminder(n: int) -> dict:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PostToolBatch",
            "additionalContext": REMINDER.format(n=n),
        }
    }


def test_reminder_once_after_three_then_again_after_six(hook):
    finish(hook, "a1", "a2")
    assert hook(batch()) is None
    finish(hook, "a3")
    assert hook(batch()) == reminder(3)
    assert hook(batch()) is None  # delivered once
    finish(hook, "a4", "a5", "a6")
    hook.now += 60
    assert hook(batch()) == reminder(6)


def test_no_reminder_when_the_state_file_moved(hook):
    finish(hook, "a1", "a2", "a3")
    state = hook.project / ".demo-reports" / "state-20250101-120000.json"
    state.parent.mkdir()
    state.write_text("{}")
    os.utime(state, (hook.now + 5, hook.now + 5))
    hook.now += 10
    assert hook(batch()) is None
    assert session_file(hook, SESSION)["checkpoint_due"] is False


def test_stale_state_file_does_not_count(hook):
    state = hook.project / ".demo-reports" / "run1" / "state-20250101-120000.json"
    state.parent.mkdir(parents=True)
    state.write_text("{}")
    os.utime(state, (hook.now - 3600, hook.now - 3600))
    finish(hook, "a1", "a2", "a3")
    assert hook(batch()) == reminder(3)


def test_delivered_on_the_next_agent_launch_too(hook):
    finish(hook, "a1", "a2", "a3")
    data = payload("PreToolUse_Agent") | {"session_id": SESSION}
    answer = hook(data, {"SPAWNKIT_MODE_CM001": "off"})
    assert answer == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "additionalContext": REMINDER.format(n=3),
        }
    }


def test_a_stop_seen_twice_counts_once(hook):
    finish(hook, "a1", "a1", "a1", "a2")
    assert session_file(hook, SESSION)["completed"] == 2


def test_off(hook):
    finish(hook, "a1", "a2", "a3")
    assert hook(batch(), {"SPAWNKIT_MODE_CM007": "off"}) is None
    assert hook(batch()) is None  # the due reminder was dropped, not postponed


def test_sub_agent_batches_never_deliver(hook):
    finish(hook, "a1", "a2", "a3")
    inside = payload("PostToolBatch_inside_subagent")
    assert hook(inside) is None
    assert hook(batch()) == reminder(3)
