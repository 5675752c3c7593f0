"""The hook on Qwen Code 0.24.4's payloads (tests/fixtures/qwen-payloads, captured from the real
client). Qwen Code follows Claude Code's events and answers, with differences the host
description carries: it ignores ``updatedInput`` and a PreToolUse's ``additionalContext``, lists
the session's sub-agents (foreground ones too, without a ``type``) in ``background_tasks``, and
hands a background sub-agent's answer to the orchestrator in a notification no hook sees.
"""

from __future__ import annotations

import copy

from .conftest import QwenHook, qwen_payload, session_file

LONG = "finding: src/module.py:12 raises KeyError under load; " * 240
SESSION = qwen_payload("PreToolUse_agent")["session_id"]


def _enforce(qwen: QwenHook, **extra) -> None:
    qwen.write_config("user", {"version": 1, "mode": "enforce", **extra})


def _stop(name: str, answer: str) -> dict:
    data = copy.deepcopy(qwen_payload(name))
    data["last_assistant_message"] = answer
    return data


def _launch(call_id: str, background: bool = False) -> dict:
    data = copy.deepcopy(qwen_payload("PreToolUse_agent"))
    data["tool_call_id"] = call_id
    data["tool_input"] = {**data["tool_input"], "run_in_background": background}
    data["tool_input"]["prompt"] = f"SUBTASK-{call_id}: go"
    return data


def test_a_launch_is_never_rewritten_since_qwen_ignores_it(qwen):
    _enforce(qwen)
    out = qwen("PreToolUse_agent")
    # no updatedInput (ignored by Qwen Code), no additionalContext (reaches no request):
    # the user is told what a skill's own prompts must carry
    assert "hookSpecificOutput" not in out
    assert "has no return contract" in out["systemMessage"]
    assert "Qwen Code does not let a hook add one" in out["systemMessage"]


def test_nothing_is_said_at_a_start_since_it_reaches_no_sub_agent(qwen):
    """Qwen Code 0.24.4 passed SubagentStart's additionalContext to no request (the e2e test
    of a background agent shows it): spawnkit says nothing there."""
    _enforce(qwen)
    assert qwen("SubagentStart_b") is None


def test_a_long_answer_is_saved_and_blocked_then_let_through_after_the_retry_limit(qwen):
    _enforce(qwen)
    qwen("PreToolUse_agent")
    qwen("SubagentStart_a")
    out = qwen(_stop("SubagentStop_a_first", LONG))
    assert out["decision"] == "block" and "(CM001)" in out["reason"]
    saved = list((qwen.project / ".spawnkit" / "returns" / SESSION).glob("*.md"))
    assert [p.read_text(encoding="utf-8") for p in saved] == [LONG]
    assert saved[0].name == "general-purpose-call_a.md"
    assert qwen(_stop("SubagentStop_a_after_block", LONG))["decision"] == "block"
    out = qwen(_stop("SubagentStop_a_after_block", LONG))
    assert "decision" not in out and "after 2 retries" in out["systemMessage"]
    # spawnkit lets it through long before Qwen Code's own cap of 8
    assert "has no limit of its own" not in out["systemMessage"]


def test_a_short_answer_frees_the_slot(qwen):
    _enforce(qwen)
    qwen("PreToolUse_agent")
    qwen("SubagentStart_a")
    assert qwen("SubagentStop_a_after_block") is None
    assert session_file(qwen, SESSION).get("running") == {}


def test_a_background_sub_agents_long_answer_is_held_back_too(qwen):
    _enforce(qwen)
    qwen("PreToolUse_agent_background")
    qwen("SubagentStart_b")
    qwen("PostToolUse_agent_background")
    assert session_file(qwen, SESSION)["running"]["general-purpose-call_b"]["bg"] is True
    out = qwen(_stop("SubagentStop_b_first", LONG))
    assert out["decision"] == "block"


def test_warn_tells_the_user_of_a_long_background_answer_at_its_stop(qwen):
    """Claude Code's notification reaches a hook, so there the warning waits for it; Qwen
    Code's does not, so the stop is the only place to say it."""
    qwen.write_config("user", {"version": 1, "mode": "warn"})
    qwen("PreToolUse_agent_background")
    qwen("SubagentStart_b")
    out = qwen(_stop("SubagentStop_b_first", LONG))
    assert "decision" not in out and "over the 500-token return budget" in out["systemMessage"]


def test_three_launches_with_a_cap_of_two_one_is_denied(qwen):
    _enforce(qwen)
    assert "hookSpecificOutput" not in qwen(_launch("call_1"))
    assert "hookSpecificOutput" not in qwen(_launch("call_2", background=True))
    out = qwen(_launch("call_3"))
    specific = out["hookSpecificOutput"]
    assert (
        specific["permissionDecision"] == "deny"
        and "the limit is 2" in (specific["permissionDecisionReason"])
    )


def test_slots_settle_through_the_listing_of_what_still_runs(qwen):
    _enforce(qwen)
    qwen("PreToolUse_agent")
    qwen("SubagentStart_a")
    qwen("SubagentStop_a_after_block")
    qwen("PostToolUse_agent")
    qwen("PreToolUse_agent_background")
    qwen("SubagentStart_b")
    qwen("PostToolUse_agent_background")
    assert list(session_file(qwen, SESSION)["running"]) == ["general-purpose-call_b"]
    qwen("Stop_turn")  # lists b as running: kept
    assert list(session_file(qwen, SESSION)["running"]) == ["general-purpose-call_b"]
    qwen.now += 5
    qwen("Stop_turn_2")  # lists b as completed: gone even without its stop
    assert session_file(qwen, SESSION)["running"] == {}


def test_the_orchestrator_may_not_read_a_report_but_a_sub_agent_may(qwen):
    _enforce(qwen)
    report = qwen.project / ".spawnkit" / "returns" / SESSION / "x.md"
    for name, denied in (
        ("PreToolUse_read_file_main", True),
        ("PreToolUse_read_file_subagent", False),
    ):
        data = copy.deepcopy(qwen_payload(name))
        data["tool_input"] = {"file_path": str(report)}
        out = qwen(data)
        assert (out is not None and out["hookSpecificOutput"]["permissionDecision"] == "deny") == (
            denied
        )


def test_writing_a_skill_is_linted(qwen):
    qwen.write_config("user", {"version": 1, "mode": "warn"})
    skill = qwen.project / ".qwen" / "skills" / "demo" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: demo\ndescription: x\nauthor: me\n---\nDo it.\n")
    data = copy.deepcopy(qwen_payload("PostToolUse_write_file_main"))
    data["tool_input"]["file_path"] = str(skill)
    out = qwen(data)
    assert "SP011" in out["hookSpecificOutput"]["additionalContext"]
    assert "(profile qwen)" in out["hookSpecificOutput"]["additionalContext"]
