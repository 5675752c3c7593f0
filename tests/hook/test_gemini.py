"""The hook on Gemini CLI 0.61.0's payloads (tests/fixtures/gemini-payloads, captured from the real
client): its own event names, answers in its ``decision`` shape, and the return budget held on
``complete_task``, the tool a sub-agent finishes with, since Gemini CLI has no sub-agent stop.

Its hooks inside a sub-agent carry the parent's session and no agent id, so the retry limit is
counted on the launches running (each deny against every launch it may belong to), and a
sub-agent in its grace turn is never denied: either would leave the parent with no answer.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

from spawnkit.hook import return_budget
from spawnkit.standard import protocol

from .conftest import GeminiHook, gemini_payload, session_file

CONTRACT_HEAD = protocol.load()["return_block"][0]
LONG = "finding: src/module.py:12 raises KeyError under load; " * 240  # ~12,000 characters
SESSION = gemini_payload("BeforeTool_invoke_agent")["session_id"]


def _launch(prompt: str = "SUBTASK-A: audit the notes", agent: str = "generalist") -> dict:
    data = copy.deepcopy(gemini_payload("BeforeTool_invoke_agent"))
    data["tool_input"] = {"agent_name": agent, "prompt": prompt}
    return data


def _returned(launch: dict, answer: str = "A short answer.") -> dict:
    data = copy.deepcopy(gemini_payload("AfterTool_invoke_agent"))
    data["tool_input"] = launch["tool_input"]
    data["tool_response"]["llmContent"][0]["text"] = (
        f"Subagent 'generalist' finished.\nTermination Reason: GOAL\nResult:\n{answer}"
    )
    return data


def _finish(answer: str) -> dict:
    data = copy.deepcopy(gemini_payload("BeforeTool_complete_task_long"))
    data["tool_input"] = {"result": {"response": answer}}
    return data


def _enforce(gemini: GeminiHook, **extra) -> None:
    gemini.write_config("user", {"version": 1, "mode": "enforce", **extra})


def _running(gemini: GeminiHook) -> dict:
    return session_file(gemini, SESSION).get("running", {})


def test_events_come_in_gemini_words_and_answers_go_out_in_them(gemini):
    _enforce(gemini)
    out = gemini("BeforeTool_invoke_agent")
    new_input = out["hookSpecificOutput"]["tool_input"]
    assert out["hookSpecificOutput"]["hookEventName"] == "BeforeTool"
    # the WHOLE input (Gemini CLI replaces it): the agent's name kept, the contract appended
    assert new_input["agent_name"] == "generalist"
    assert new_input["prompt"].startswith("SUBTASK-A: audit the notes\n\n" + CONTRACT_HEAD)
    assert "permissionDecision" not in json.dumps(out)


def test_a_long_answer_is_saved_whole_and_denied_with_the_re_answer_instruction(gemini):
    _enforce(gemini)
    launch = _launch()
    gemini(launch)
    out = gemini(_finish(LONG))
    assert out["decision"] == "deny"
    saved = list((gemini.project / ".spawnkit" / "returns" / SESSION).glob("*.md"))
    assert [p.read_text(encoding="utf-8") for p in saved] == [LONG]  # whole, byte for byte
    assert saved[0].name == "generalist.md"
    assert str(saved[0]) in out["reason"] and "Call complete_task again" in out["reason"]
    assert "at most 500 tokens" in out["reason"]
    assert gemini(_finish("STATUS: COMPLETE\nREPORT: x.md")) is None  # a short one goes through
    assert _running(gemini)[next(iter(_running(gemini)))]["denies"] == 1


def test_after_the_retry_limit_a_long_answer_goes_through_with_a_warning(gemini):
    _enforce(gemini)
    gemini(_launch())
    assert gemini(_finish(LONG))["decision"] == "deny"
    assert gemini(_finish(LONG + "again"))["decision"] == "deny"
    out = gemini(_finish(LONG + "and again"))  # max_retries is 2
    assert "decision" not in out
    assert "after 2 retries" in out["systemMessage"]
    assert "no limit of its own" in out["systemMessage"]
    saved = sorted((gemini.project / ".spawnkit" / "returns" / SESSION).glob("*.md"))
    assert len(saved) == 2


def test_a_limit_of_one_allows_one_deny(gemini):
    _enforce(gemini, max_retries=1)
    gemini(_launch())
    assert gemini(_finish(LONG))["decision"] == "deny"
    assert "decision" not in gemini(_finish(LONG))


def test_the_count_is_per_launch_and_a_returned_launch_takes_its_count_with_it(gemini):
    _enforce(gemini)
    first = _launch("SUBTASK-A: one")
    gemini(first)
    gemini(_finish(LONG))
    gemini(_finish(LONG))
    gemini(_returned(first))
    assert _running(gemini) == {}
    gemini(_launch("SUBTASK-B: two"))
    assert gemini(_finish(LONG))["decision"] == "deny"  # a fresh launch, a fresh count


def test_with_two_launches_running_each_deny_counts_against_both(gemini):
    """The payload cannot say which of two running sub-agents answers, so no sub-agent can
    get more than max_retries denies, whichever it is."""
    _enforce(gemini)
    gemini(_launch("SUBTASK-A: one"))
    gemini(_launch("SUBTASK-B: two"))
    assert gemini(_finish(LONG))["decision"] == "deny"
    assert gemini(_finish(LONG))["decision"] == "deny"
    assert {e["denies"] for e in _running(gemini).values()} == {2}
    assert "decision" not in gemini(_finish(LONG))
    saved = list((gemini.project / ".spawnkit" / "returns" / SESSION).glob("*.md"))
    assert sorted(p.name for p in saved) == ["generalist-2.md", "generalist.md"]


def test_a_sub_agent_in_its_grace_turn_is_never_denied(gemini):
    _enforce(gemini)
    gemini(_launch())
    data = gemini.prepare(_finish(LONG))
    chats = Path(data["transcript_path"]).parent / SESSION
    chats.mkdir(parents=True)
    agent = chats / "a1b2.jsonl"
    agent.write_text(
        json.dumps({"type": "user", "content": [{"text": "SUBTASK-A: audit"}]})
        + "\n"
        + json.dumps({"type": "gemini", "content": ""})
        + "\n",
        encoding="utf-8",
    )
    os.utime(agent, (gemini.now, gemini.now))
    assert gemini(_finish(LONG))["decision"] == "deny"  # a regular turn
    with agent.open("a", encoding="utf-8") as fh:
        text = (
            "You have exceeded the maximum number of turns. You have one final chance to "
            "complete the task with a short grace period. You MUST call `complete_task`"
        )
        fh.write(json.dumps({"type": "user", "content": [{"text": text}]}) + "\n")
    os.utime(agent, (gemini.now, gemini.now))
    out = gemini(_finish(LONG))
    assert "decision" not in out and "in its last turn" in out["systemMessage"]


def test_a_transcript_path_outside_the_gemini_folder_is_not_followed(gemini, tmp_path):
    _enforce(gemini)
    gemini(_launch())
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / SESSION).mkdir(parents=True)
    planted = elsewhere / SESSION / "x.jsonl"
    planted.write_text(
        json.dumps({"type": "user", "content": [{"text": return_budget.GRACE_MARK}]}) + "\n"
    )
    os.utime(planted, (gemini.now, gemini.now))
    data = gemini.prepare(_finish(LONG))
    data["transcript_path"] = str(elsewhere / "session.jsonl")
    out = gemini.raw(json.dumps(data).encode())
    assert json.loads(out)["decision"] == "deny"


def test_a_sibling_folder_named_like_the_gemini_folder_is_not_inside_it(gemini):
    """``~/.gemini-evil`` starts with ``~/.gemini`` but is not in it: a grace mark planted there
    must not let a long answer through (containment with the separator, lightos.inside)."""
    _enforce(gemini)
    gemini(_launch())
    data = gemini.prepare(_finish(LONG))
    config = gemini.config_dir
    sibling = config.with_name(config.name + "-evil") / "chats"
    (sibling / SESSION).mkdir(parents=True)
    planted = sibling / SESSION / "x.jsonl"
    planted.write_text(
        json.dumps({"type": "user", "content": [{"text": return_budget.GRACE_MARK}]}) + "\n"
    )
    os.utime(planted, (gemini.now, gemini.now))
    data["transcript_path"] = str(sibling / "session.jsonl")
    assert json.loads(gemini.raw(json.dumps(data).encode()))["decision"] == "deny"


def test_warn_only_tells_the_user(gemini):
    gemini.write_config("user", {"version": 1, "mode": "warn"})
    gemini(_launch())
    out = gemini(_finish(LONG))
    assert "decision" not in out and "over the 500-token return budget" in out["systemMessage"]
    assert not (gemini.project / ".spawnkit" / "returns").exists()


def test_the_scope_of_the_launched_agent_type_applies(gemini):
    _enforce(gemini, agents={"codebase_investigator": "warn"})
    gemini(_launch(agent="codebase_investigator"))
    out = gemini(_finish(LONG))
    assert "decision" not in out and '"codebase_investigator": "enforce"' in out["systemMessage"]


def test_the_retry_count_is_kept_even_with_the_parallel_cap_off(gemini):
    _enforce(gemini, rules={"CM005": "off"})
    gemini(_launch())
    assert gemini(_finish(LONG))["decision"] == "deny"
    assert gemini(_finish(LONG))["decision"] == "deny"
    assert "decision" not in gemini(_finish(LONG))


def test_three_launches_with_a_cap_of_two_one_is_denied(gemini):
    _enforce(gemini)
    assert protocol.max_parallel() == 2
    first, second, third = (_launch(f"SUBTASK-{c}: go") for c in "ABC")
    assert "decision" not in (gemini(first) or {})
    assert "decision" not in (gemini(second) or {})
    out = gemini(third)
    assert out["decision"] == "deny" and "the limit is 2" in out["reason"]
    assert "hookSpecificOutput" not in out  # denied, not rewritten
    gemini(_returned(first))
    assert "decision" not in (gemini(third) or {})


def test_a_launch_with_no_start_event_does_not_expire_like_an_unconfirmed_one(gemini):
    _enforce(gemini)
    gemini(_launch("SUBTASK-A: slow"))
    gemini(_launch("SUBTASK-B: slow"))
    gemini.now += 20 * 60  # a sub-agent running for 20 minutes still runs
    assert gemini(_launch("SUBTASK-C: go"))["decision"] == "deny"


def test_identical_launches_are_counted_apart_and_settled_oldest_first(gemini):
    _enforce(gemini)
    same = _launch("SUBTASK-A: same words")
    gemini(same)
    gemini.now += 1
    gemini(same)
    keys = sorted(_running(gemini))
    assert len(keys) == 2 and keys[1] == keys[0] + "#2"
    gemini(_returned(same))
    assert list(_running(gemini)) == [keys[1]]
    gemini(_returned(same))
    assert _running(gemini) == {}


def test_the_rewritten_prompt_settles_the_launch_it_came_from(gemini):
    """AfterTool carries the input as the hook rewrote it: its fingerprint leaves out the
    contract spawnkit appended."""
    _enforce(gemini)
    launch = _launch()
    out = gemini(launch)
    rewritten = {**launch, "tool_input": out["hookSpecificOutput"]["tool_input"]}
    gemini(_returned(rewritten))
    assert _running(gemini) == {}


def test_warn_mode_caps_with_a_message_for_the_user(gemini):
    gemini.write_config("user", {"version": 1, "mode": "warn"})
    for c in "AB":
        gemini(_launch(f"SUBTASK-{c}: go"))
    out = gemini(_launch("SUBTASK-C: go"))
    # BeforeTool passes no additionalContext to the model: the user is told instead
    assert "decision" not in out and "hookSpecificOutput" not in out
    assert "makes 3 sub-agents run at once" in out["systemMessage"]


def test_the_end_of_the_turn_frees_every_slot(gemini):
    _enforce(gemini)
    gemini(_launch("SUBTASK-A: lost"))
    gemini(_launch("SUBTASK-B: lost"))
    gemini.now += 5
    assert gemini("AfterAgent_turn") is None
    assert _running(gemini) == {}


def test_the_orchestrator_may_not_read_a_report_but_a_sub_agent_may(gemini):
    _enforce(gemini)
    report = gemini.project / ".spawnkit" / "reports" / SESSION / "audit.md"
    report.parent.mkdir(parents=True)
    report.write_text("the full report")
    read = copy.deepcopy(gemini_payload("BeforeTool_read_file_main"))
    read["tool_input"] = {"file_path": str(report)}
    out = gemini(read)
    assert out["decision"] == "deny" and "(CM006)" in out["reason"]
    # while a sub-agent runs, a read may be its own (the payload does not say): let it be
    launch = _launch()
    gemini(launch)
    assert gemini(read) is None
    gemini(_returned(launch))
    assert gemini(read)["decision"] == "deny"


def test_writing_a_skill_is_linted_after_the_tool(gemini):
    gemini.write_config("user", {"version": 1, "mode": "warn"})
    skill = gemini.project / ".gemini" / "skills" / "demo" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: Demo!\ndescription: x\n---\nSpawn a sub-agent for each file.\n")
    data = copy.deepcopy(gemini_payload("AfterTool_write_file"))
    data["tool_input"]["file_path"] = str(skill)
    out = gemini(data)
    assert out["hookSpecificOutput"]["hookEventName"] == "AfterTool"
    assert "spawnkit lint" in out["hookSpecificOutput"]["additionalContext"]


def test_the_script_answers_the_captured_payloads_quietly_by_default(gemini):
    for name in ("BeforeTool_invoke_agent", "BeforeTool_complete_task_short", "AfterAgent_turn"):
        done = gemini.script(gemini.prepare(gemini_payload(name)))
        assert done.returncode == 0 and done.stderr == ""
