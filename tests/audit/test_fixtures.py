"""The audit of transcripts the real clients wrote agrees with what their fake API saw.

Each fixture scenario (tests/fixtures/audit, made by its capture.py) holds the transcripts of a
real Claude Code 2.1.330, Codex 0.169.0, Copilot CLI 1.0.102, Gemini CLI 0.61.0 or Qwen Code
0.24.4 run and ``facts.json``: per
sub-agent, the estimated tokens of the words the orchestrator's requests carried, and the path spawnkit named when it
held a longer answer back. Those come from the fake API's side, not from the transcripts. What
the returns cost by the recorded usage is held to an independent recomputation in
test_recompute.py.
"""

from __future__ import annotations

import json

import pytest

from spawnkit.standard import protocol

from .conftest import FIXTURES, SCENARIOS, audit_json

SKILL = "fan-two"

BUDGET = protocol.return_budget()


def _facts(name: str) -> dict:
    return json.loads((FIXTURES / name / "facts.json").read_text())


def _only_session(name: str) -> dict:
    doc = audit_json(str(FIXTURES / name))
    assert len(doc["sessions"]) == 1
    assert doc["input"]["problems"] == {} and doc["input"]["unknown_records"] == {}
    return doc["sessions"][0]


def test_every_scenario_of_every_client_is_there():
    assert {s.split("/")[0] for s in SCENARIOS} == {"claude", "codex", "copilot", "gemini", "qwen"}
    assert len(SCENARIOS) >= 8


@pytest.mark.parametrize("name", SCENARIOS)
def test_returns_match_what_the_fake_api_received(name):
    facts = _facts(name)
    session = _only_session(name)
    assert session["host"] == facts["host"]
    got = {r["description"]: r for r in session["returns"] if r["kind"] == "agent"}
    expected = {f["description"]: f for f in facts["returns"] if f["tokens"] is not None}
    assert set(got) == set(expected)
    for label, fact in expected.items():
        ret = got[label]
        assert ret["estimated_tokens"] == fact["tokens"], label  # same words, same estimate
        assert ret["tokens_source"] in ("usage", "usage-shared"), label  # the client recorded it
        assert ret["blocked"] is (fact["saved_path"] is not None), label
        assert ret["saved_path"] == fact["saved_path"], label
        if ret["blocked"]:
            assert ret["full_tokens"] > BUDGET >= ret["estimated_tokens"]


@pytest.mark.parametrize("name", SCENARIOS)
def test_peak_parallel_matches_the_script(name):
    assert _only_session(name)["peak_parallel"] == _facts(name)["peak_parallel"]


def test_claude_code_without_spawnkit_breaks_the_budget_and_keeps_no_state():
    session = _only_session("claude/fanout-off")
    codes = [f["code"] for f in session["findings"]]
    assert codes.count("CM001") == 6 and codes.count("CM002") == 6 and codes.count("CM003") == 1
    assert session["context_source"] == "usage"
    # the fake API reports usage as request bytes / 4: six ~2,800-character returns
    assert session["context_growth"] > 6 * 2800 / 4


def test_claude_code_with_enforce_holds_every_long_answer_back():
    session = _only_session("claude/fanout-enforce")
    assert all(r["blocked"] and r["tokens"] <= BUDGET for r in session["returns"])
    assert [f["code"] for f in session["findings"]] == ["CM003"]  # no state file: still true
    off = _only_session("claude/fanout-off")
    assert session["context_growth"] * 2 < off["context_growth"]


def test_background_agents_a_read_back_and_too_many_at_once():
    session = _only_session("claude/mixed-off")
    assert all(r["background"] for r in session["returns"])
    # The fake API records a request's usage as its bytes / 4, which reads the two long
    # answers as 473 tokens each: under the budget by the recorded usage, over it by the
    # estimate the hooks enforce with. The audit judges by the recorded figure and says both.
    assert sorted(f["code"] for f in session["findings"]) == ["CM005", "CM006"]
    long = [r for r in session["returns"] if r["estimated_tokens"] > BUDGET]
    assert len(long) == 2
    assert all(r["tokens"] <= BUDGET and r["estimate_over_budget"] for r in long)
    (read,) = session["report_reads"]
    assert read["path"].endswith(".mix-reports/part-1.md") and not read["denied"]
    assert [w["path"].rsplit("/", 1)[1] for w in session["state_writes"]] == [
        "state-20261124-001600.json"
    ]


def test_enforce_refuses_the_launch_over_the_cap_and_the_read_back():
    session = _only_session("claude/mixed-enforce")
    assert session["denied_launches"] == 1
    assert [r["denied"] for r in session["report_reads"]] == [True]
    assert session["findings"] == []


def test_codex_hands_a_waited_return_over_twice():
    session = _only_session("codex/off")
    first = next(r for r in session["returns"] if r["description"].startswith("CODEX-SUB-1"))
    assert first["deliveries"] == 2 and first["tokens"] > BUDGET
    assert session["context_window"] == 258400  # Codex records its window
    assert session["return_tokens"] >= 2 * first["tokens"]


def test_codex_with_spawnkit_hook_blocks_the_long_answer():
    session = _only_session("codex/enforce")
    first = next(r for r in session["returns"] if r["description"].startswith("CODEX-SUB-1"))
    assert first["blocked"] and first["full_tokens"] > 3000 and first["tokens"] < 100
    assert session["findings"] == []


def test_copilot_without_spawnkit_breaks_every_rule_the_run_can_show():
    session = _only_session("copilot/off")
    assert session["client_version"] == "1.0.102" and session["context_window"] == 64000
    assert session["project"] == "/home/user/project"
    assert all(not r["background"] and r["deliveries"] == 1 for r in session["returns"])
    assert sorted(f["code"] for f in session["findings"]) == [
        "CM001", "CM001", "CM001", "CM002", "CM002", "CM002", "CM005", "CM006",
    ]  # fmt: skip
    (read,) = session["report_reads"]
    assert read["path"] == "/home/user/project/.pilot-reports/part-1.md" and not read["denied"]
    assert [w["path"] for w in session["state_writes"]] == [
        "/home/user/project/.pilot-reports/state-20261124-001600.json"
    ]


def test_copilot_with_enforce_blocks_refuses_and_finds_nothing():
    session = _only_session("copilot/enforce")
    assert session["denied_launches"] == 1 and len(session["returns"]) == 2
    assert all(r["blocked"] and r["blocks"] == 1 for r in session["returns"])
    assert all(r["full_tokens"] > 1500 for r in session["returns"])
    assert [r["denied"] for r in session["report_reads"]] == [True]
    assert session["findings"] == []
    off = _only_session("copilot/off")
    assert session["return_tokens"] * 8 < off["return_tokens"]


@pytest.mark.parametrize(("host", "reports"), [("gemini", ".gem-reports"), ("qwen", ".qw-reports")])
def test_gemini_and_qwen_without_spawnkit_break_every_rule_the_run_can_show(host, reports):
    session = _only_session(f"{host}/off")
    assert session["project"] == "/home/user/project"
    assert session["context_window"] is None  # neither client records its window
    assert all(not r["background"] and r["deliveries"] == 1 for r in session["returns"])
    assert sorted(f["code"] for f in session["findings"]) == [
        "CM001", "CM001", "CM001", "CM002", "CM002", "CM002", "CM005", "CM006",
    ]  # fmt: skip
    (read,) = session["report_reads"]
    assert read["path"] == f"/home/user/project/{reports}/part-1.md" and not read["denied"]
    assert [w["path"] for w in session["state_writes"]] == [
        f"/home/user/project/{reports}/state-20261124-001600.json"
    ]
    assert all(r["finished"] is not None for r in session["returns"])  # their own files read


@pytest.mark.parametrize("host", ["gemini", "qwen"])
def test_gemini_and_qwen_with_enforce_block_refuse_and_find_nothing(host):
    session = _only_session(f"{host}/enforce")
    assert session["denied_launches"] == 1 and len(session["returns"]) == 2
    assert all(r["blocked"] and r["blocks"] == 1 for r in session["returns"])
    assert all(r["full_tokens"] > 1500 for r in session["returns"])
    assert [r["denied"] for r in session["report_reads"]] == [True]
    assert session["findings"] == []
    off = _only_session(f"{host}/off")
    assert session["return_tokens"] * 8 < off["return_tokens"]
    if host == "qwen":
        assert session["client_version"] == "0.24.4"


def test_the_summary_adds_up_across_sessions():
    doc = audit_json(str(FIXTURES))
    summary = doc["summary"]
    returns = [r for s in doc["sessions"] for r in s["returns"]]
    assert summary["sessions"] == len(doc["sessions"]) == len(SCENARIOS)
    assert summary["returns"] == len(returns)
    assert summary["blocked"] == sum(r["blocked"] for r in returns)
    assert summary["blocked_full_tokens"] == sum(r["full_tokens"] or 0 for r in returns)
    assert summary["over_budget"] == sum(r["tokens"] > BUDGET for r in returns)
    worst = summary["worst_returns"][0]
    assert worst["tokens"] == max(r["tokens"] for r in returns)
    assert summary["findings_by_code"]["CM001"] == sum(
        f["code"] == "CM001" for s in doc["sessions"] for f in s["findings"]
    )
    closest = summary["closest_to_limit"]
    assert [c["share"] for c in closest] == sorted((c["share"] for c in closest), reverse=True)


@pytest.mark.parametrize("name", ["claude/workflow-fanout", "claude/workflow-lean"])
def test_a_workflow_run_its_agents_and_its_result(name):
    facts = _facts(name)["workflow"]
    session = _only_session(name)
    (run,) = session["workflows"]
    assert {a["label"]: a["answer_tokens"] for a in run["agents"]} == facts["agents"]
    assert run["agent_count"] == run["reported_agent_count"] == len(facts["agents"])
    assert run["peak_parallel"] == facts["peak_parallel"] and run["status"] == "completed"
    (result,) = session["returns"]  # the script's value is the run's one return
    assert result["kind"] == "workflow" and result["agent_id"] == run["run_id"]
    assert result["estimated_tokens"] == facts["result_tokens"]
    assert run["result_tokens"] == result["tokens"] and result["tokens_source"] != "estimate"
    assert session["peak_parallel"] == 0  # no Agent sub-agents: the run's are counted apart


def test_a_workflow_returning_its_agents_answers_breaks_the_budget_and_the_cap():
    session = _only_session("claude/workflow-fanout")
    assert sorted(f["code"] for f in session["findings"]) == ["CM001", "CM005"]
    (run,) = session["workflows"]
    assert run["result_over_budget"] and run["answer_tokens"] > 3 * BUDGET


def test_a_lean_workflow_keeps_to_the_standard():
    session = _only_session("claude/workflow-lean")
    assert session["findings"] == []
    (run,) = session["workflows"]
    wrote = {a["label"]: a["wrote_files"] for a in run["agents"]}
    assert wrote == {"modules": True, "findings": False}
    assert [a["phase"] for a in run["agents"]] == ["modules", "findings"]


@pytest.mark.parametrize("name", SCENARIOS)
def test_messages_match_what_the_fake_api_received(name):
    """Issue 35: what sub-agents sent the orchestrator with SendMessage, counted apart."""
    expected = [(f["from"], f["tokens"]) for f in _facts(name).get("messages", [])]
    session = _only_session(name)
    assert [(m["sender"], m["estimated_tokens"]) for m in session["messages"]] == expected
    assert all(m["tokens_source"] in ("usage", "usage-shared") for m in session["messages"])
    assert session["message_tokens"] == sum(m["tokens"] for m in session["messages"])


def test_a_long_message_without_spawnkit_is_counted_and_breaks_the_budget():
    """The orchestrator was busy in a Bash call: the message came as a queued command."""
    session = _only_session("claude/messages-off")
    (message,) = session["messages"]
    assert message["sender"] == "msg-mate" and message["description"] == "audit retry loops"
    assert message["agent_id"] and message["agent_type"] == "general-purpose"
    assert message["chars"] > 21_000 and message["over_budget"]
    assert session["return_tokens"] < BUDGET < session["message_tokens"]  # the message cost it
    (finding,) = session["findings"]
    assert finding["code"] == "CM001" and finding["agent_id"] == message["agent_id"]
    assert finding["message"].startswith(
        "'msg-mate' (audit retry loops) sent the orchestrator a message of "
    )
    doc = audit_json(str(FIXTURES / "claude/messages-off"))
    assert doc["summary"]["messages"] == doc["summary"]["messages_over_budget"] == 1
    assert doc["summary"]["message_tokens"] == message["tokens"]
    assert doc["summary"]["returns"] == 1  # a message is no return


def test_a_long_message_under_enforce_is_held_back():
    session = _only_session("claude/messages-enforce")
    assert session["messages_held"] == 1
    (message,) = session["messages"]  # the short note sent instead
    assert not message["over_budget"] and ".spawnkit/returns/" in _facts_note()
    assert session["findings"] == []


def _facts_note() -> str:
    """The note the enforce scenario's agent sent: it names the copy spawnkit saved."""
    path = next((FIXTURES / "claude/messages-enforce/projects").rglob("*.jsonl"))
    return next(line for line in path.read_text().splitlines() if "MSG note:" in line)


def test_text_and_html_show_answers_and_messages_apart():
    from .conftest import run_cli

    text = run_cli("audit", str(FIXTURES / "claude/messages-off")).stdout
    assert "sub-agent text received: answers 6 tokens · messages 5,711 tokens" in text
    assert "message from" in text and "msg-mate" in text
    assert "1 message from sub-agents (SendMessage), 1 over budget, 5,711 tokens" in text
    held = run_cli("audit", str(FIXTURES / "claude/messages-enforce")).stdout
    assert "1 message(s) to the orchestrator refused by spawnkit" in held
    page = run_cli("audit", str(FIXTURES / "claude/messages-off"), "--format", "html").stdout
    assert '<table class="messages">' in page and 'data-sender="msg-mate"' in page
    assert "messages brought 5,711" in page


def test_the_skill_the_client_tagged_owns_its_launches_the_ad_hoc_one_none():
    """Issue 31: Claude Code 2.1.330 tagged the skill's two launches (attributionSkill); the
    launch after the next prompt (``--continue``) is untagged and no skill's."""
    facts = _facts("claude/skill")
    session = _only_session("claude/skill")
    by_skill = {r["description"]: r["skill"] for r in session["returns"]}
    for name, skill in facts["skills"].items():
        assert {d: by_skill[d] for d in skill["returns"]} == dict.fromkeys(skill["returns"], name)
        (run,) = [k for k in session["skills"] if k["name"] == name]
        assert run["runs"] == skill["runs"] and run["base_dir"] == skill["base_dir"]
        assert run["path"] is None  # /home/user/project is not on this machine
    assert [by_skill[d] for d in facts["outside"]] == [None]
    codes = {(f["code"], f["skill"]) for f in session["findings"]}
    assert ("CM001", SKILL) in codes and ("CM001", None) in codes
