"""The hook on real Copilot CLI 1.0.102 payloads (``--host copilot --event …``): the same rules,
Copilot's camelCase payloads and flat answers."""

from __future__ import annotations

import json

import pytest

from spawnkit import tokens
from spawnkit.hook import main as hook_main
from spawnkit.standard import protocol

from .conftest import copilot_payload, session_file

BUDGET = protocol.return_budget()
CAP = protocol.max_parallel()
SESSION = copilot_payload("subagentStop_first")["sessionId"]
AGENT = copilot_payload("subagentStop_first")["agentId"]
CONTRACT_HEAD = protocol.load()["return_block"][0]
ENFORCE = {"SPAWNKIT_MODE": "enforce"}


def long_stop(active: bool = False) -> dict:
    """The real first subagentStop with a ~3,000-token answer."""
    data = copilot_payload("subagentStop_first")
    data["response"] = "finding: unused import in module x; fix it. " * 400
    data["stop_hook_active"] = active
    return data


# --- which event: the command names it ---------------------------------------------------------


def test_the_event_comes_from_the_command_not_the_payload(copilot):
    data = long_stop()
    assert "hook_event_name" not in data
    assert copilot(data, ENFORCE, event="subagentStop")["decision"] == "block"
    # The same payload under another event's name is that event's business (silent here).
    assert copilot(long_stop(), ENFORCE, event="postToolUse") is None
    # No event, or one spawnkit does not handle: silence.
    for event in ("", "agentStop", "SubagentStop", "sessionStart"):
        assert copilot(long_stop(), ENFORCE, event=event) is None
    # A hook_event_name in a Copilot payload is ignored: the command decides.
    data["hook_event_name"] = "PreToolUse"
    assert copilot(data, ENFORCE, event="subagentStop")["decision"] == "block"


# --- subagentStop: the return budget -------------------------------------------------------------


def test_enforce_saves_the_whole_answer_then_blocks(copilot):
    data = long_stop()
    size = tokens.estimate(data["response"])
    answer = copilot(data, ENFORCE, event="subagentStop")

    saved = copilot.project / ".spawnkit" / "returns" / SESSION / f"{AGENT}.md"
    assert saved.read_text(encoding="utf-8") == data["response"]
    assert set(answer) == {"decision", "reason"}  # flat, no hookSpecificOutput, no systemMessage
    assert answer["decision"] == "block"
    assert answer["reason"].startswith(
        f"spawnkit return budget (CM001): your reply is ~{size} tokens but a sub-agent may "
        f"return at most {BUDGET} tokens, so it was NOT delivered. It is saved in full at {saved}"
    )
    assert session_file(copilot, SESSION)["retries"] == {AGENT: 1}
    assert not (copilot.home / ".claude").exists() and not (copilot.home / ".codex").exists()


def test_the_real_short_second_answer_goes_through_and_the_count_is_forgotten(copilot):
    copilot(long_stop(), ENFORCE, event="subagentStop")
    assert copilot("subagentStop_after_block", ENFORCE) is None
    assert session_file(copilot, SESSION)["retries"] == {}


def test_a_reply_at_the_budget_passes_and_one_token_over_is_blocked(copilot):
    words = "w " * 10_000
    at = next(n for n in range(len(words), 0, -1) if not tokens.exceeds(words[:n], BUDGET))
    data = copilot_payload("subagentStop_first")
    data["response"] = words[:at]
    assert copilot(data, ENFORCE, event="subagentStop") is None
    data["response"] = words[: at + 2]
    assert tokens.exceeds(data["response"], BUDGET)
    assert copilot(data, ENFORCE, event="subagentStop")["decision"] == "block"


def test_copilot_has_no_repeat_cap_so_ours_ends_the_loop(copilot):
    """Copilot CLI 1.0.102 honoured hundreds of blocks in a row: max_retries is the only cap."""
    blocks = 0
    answer = copilot(long_stop(active=False), ENFORCE, event="subagentStop")
    while answer and answer.get("decision") == "block":
        blocks += 1
        assert blocks < 10, "the hook kept blocking"
        answer = copilot(long_stop(active=True), ENFORCE, event="subagentStop")
    assert blocks == 2 and answer is None  # the default max_retries; no systemMessage to send
    log = (copilot.config_dir / ".spawnkit" / "hook.log").read_text()
    assert "after 2 retries (max_retries; Copilot CLI has no limit of its own)" in log


def test_warn_goes_to_the_hook_log_since_copilot_shows_no_system_message(copilot):
    assert copilot(long_stop(), event="subagentStop") is None
    log = (copilot.config_dir / ".spawnkit" / "hook.log").read_text()
    assert "SubagentStop: spawnkit: the general-purpose sub-agent returned ~" in log
    assert not (copilot.project / ".spawnkit").exists()


def test_project_config_is_read_from_dot_github(copilot):
    copilot.write_config("project", {"version": 1, "rules": {"CM001": "enforce"}})
    assert copilot(long_stop(), event="subagentStop")["decision"] == "block"
    claude = copilot.project / ".claude"
    claude.mkdir()
    (claude / "spawnkit.json").write_text('{"mode": "off"}')
    assert copilot(long_stop(active=True), event="subagentStop")["decision"] == "block"


# --- subagentStart: the budget before the first turn ---------------------------------------------


def test_enforce_states_the_budget_at_subagent_start(copilot):
    answer = copilot("subagentStart_agent", ENFORCE)
    assert set(answer) == {"additionalContext"}
    context = answer["additionalContext"]
    assert f"may be at most {BUDGET} tokens" in context
    report = copilot.project / ".spawnkit" / "reports" / SESSION / f"{AGENT}.md"
    assert str(report) in context


@pytest.mark.parametrize("mode", ["warn", "off"])
def test_subagent_start_is_silent_unless_enforcing(copilot, mode):
    assert copilot("subagentStart_agent", {"SPAWNKIT_MODE": mode}) is None


# --- preToolUse task: the return block ----------------------------------------------------------


def test_enforce_rewrites_the_task_through_modified_args(copilot):
    data = copilot_payload("preToolUse_task_main")
    answer = copilot(data, ENFORCE, event="preToolUse")
    assert set(answer) == {"modifiedArgs"}  # no "allow": that would skip Copilot's prompt
    updated = answer["modifiedArgs"]
    original = data["toolArgs"]
    assert {k: v for k, v in updated.items() if k != "prompt"} == {
        k: v for k, v in original.items() if k != "prompt"
    }
    assert updated["prompt"].startswith(original["prompt"] + "\n\n" + CONTRACT_HEAD)
    assert f"at most {BUDGET} tokens" in updated["prompt"]
    report = copilot.project / ".spawnkit" / "reports" / SESSION
    assert f"{report}/audit-the-notes-" in updated["prompt"]


def test_two_launches_with_one_description_get_two_report_files(copilot):
    data = copilot_payload("preToolUse_task_main")
    first = copilot(data, ENFORCE, event="preToolUse")["modifiedArgs"]["prompt"]
    copilot.now += 0.001
    second = copilot(data, ENFORCE, event="preToolUse")["modifiedArgs"]["prompt"]
    assert first != second


def test_a_task_with_a_contract_is_left_alone(copilot):
    data = copilot_payload("preToolUse_task_main")
    data["toolArgs"]["prompt"] += "\n\n" + protocol.return_block()
    assert copilot(data, ENFORCE, event="preToolUse") is None


def test_warn_tells_the_orchestrator_and_changes_nothing(copilot):
    answer = copilot("preToolUse_task_main")
    assert set(answer) == {"additionalContext"}
    assert "CM001" in answer["additionalContext"]


def test_other_tools_and_events_are_ignored(copilot):
    assert copilot("postToolUse_task_main", ENFORCE) is None
    assert copilot("preToolUse_view_subagent", ENFORCE) is None  # a sub-agent may read


# --- the parallel cap ---------------------------------------------------------------------------


def launch(n: int) -> dict:
    data = copilot_payload("preToolUse_task_main")
    data["toolArgs"]["prompt"] += f" #{n}\n\n" + protocol.return_block()
    return data


def started(agent: str) -> dict:
    return copilot_payload("subagentStart_agent") | {"agentId": agent}


def stopped(agent: str) -> dict:
    return copilot_payload("subagentStop_after_block") | {
        "agentId": agent,
        "stop_hook_active": False,
    }


def test_a_third_launch_in_one_message_is_denied_with_what_to_do(copilot):
    """Copilot runs the preToolUse hooks of parallel task calls together, before any sub-agent
    starts, and names no tool call: each launch holds a slot of its own."""
    for n in range(CAP):
        assert copilot(launch(n), ENFORCE, event="preToolUse") is None
        copilot.now += 0.0001
    answer = copilot(launch(CAP), ENFORCE, event="preToolUse")
    assert set(answer) == {"permissionDecision", "permissionDecisionReason"}
    assert answer["permissionDecision"] == "deny"
    reason = answer["permissionDecisionReason"]
    assert f"{CAP} sub-agents are already running" in reason and "(call read_agent)" in reason


def test_launches_at_the_same_instant_from_two_processes_hold_two_slots(copilot, monkeypatch):
    """Without a tool call id, a launch's slot is keyed by its hook process too: two hook
    processes reading the same clock still hold a slot each."""
    from spawnkit.base import lightos

    pids = iter([101, 102, 103])
    monkeypatch.setattr(lightos.native, "getpid", lambda: next(pids))
    for n in range(CAP):
        assert copilot(launch(n), ENFORCE, event="preToolUse") is None  # same copilot.now
    assert len(session_file(copilot, SESSION)["pending"]) == CAP
    assert copilot(launch(CAP), ENFORCE, event="preToolUse")["permissionDecision"] == "deny"


def test_a_slot_moves_from_launch_to_agent_and_frees_on_the_stop(copilot):
    for n in range(CAP):
        copilot(launch(n), ENFORCE, event="preToolUse")
        copilot.now += 0.0001
    for n in range(CAP):
        copilot(started(f"agent-{n}"), ENFORCE, event="subagentStart")
    state = session_file(copilot, SESSION)
    assert state["pending"] == {} and sorted(state["running"]) == ["agent-0", "agent-1"]
    assert copilot(launch(9), ENFORCE, event="preToolUse")["permissionDecision"] == "deny"
    copilot(stopped("agent-0"), ENFORCE, event="subagentStop")
    assert copilot(launch(10), ENFORCE, event="preToolUse") is None


# --- report reads on view -------------------------------------------------------------------------


def test_viewing_a_full_report_is_denied_in_enforce(copilot):
    data = copilot_payload("preToolUse_view_main")
    report = copilot.project / ".audit-reports" / "scan.md"
    data["toolArgs"]["path"] = str(report)
    answer = copilot(data, ENFORCE, event="preToolUse")
    assert (
        answer["permissionDecision"] == "deny" and "(CM006)" in answer["permissionDecisionReason"]
    )
    warned = copilot(data, event="preToolUse")
    assert set(warned) == {"additionalContext"} and "(CM006)" in warned["additionalContext"]
    assert copilot("preToolUse_view_main", ENFORCE) is None  # an ordinary file


# --- lint on create/edit ------------------------------------------------------------------------

BAD = "---\nname: demo\ndescription: Audits.\n---\nLaunch one agent per file, all in parallel.\n"


def written(copilot, event_file: str, relative: str, content: str = BAD) -> dict:
    target = copilot.project / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content, encoding="utf-8")
    data = copilot_payload(event_file)
    data["toolArgs"]["path"] = str(target)
    return data


@pytest.mark.parametrize("event_file", ["postToolUse_create_main", "postToolUse_edit_main"])
def test_a_written_github_skill_is_linted_with_the_copilot_profile(copilot, event_file):
    seen = []

    def fake(text, path, profile=None):
        seen.append((path, profile))
        return []

    copilot(
        written(copilot, event_file, ".github/skills/demo/SKILL.md"), event="postToolUse", lint=fake
    )
    assert seen == [(str(copilot.project / ".github/skills/demo/SKILL.md"), "copilot")]


@pytest.mark.usefixtures("sure")  # the hook's plumbing, not the shipped model's tiers
def test_lint_findings_reach_the_model_as_context_or_replace_the_result(copilot):
    data = written(copilot, "postToolUse_create_main", ".github/skills/demo/SKILL.md")
    answer = copilot(data, event="postToolUse")
    assert set(answer) == {"additionalContext"}
    assert answer["additionalContext"].startswith("spawnkit lint: .github/skills/demo/SKILL.md")
    assert "CM005" in answer["additionalContext"]
    blocked = copilot(data, ENFORCE, event="postToolUse")
    assert set(blocked) == {"modifiedResult"}
    result = blocked["modifiedResult"]
    assert result["resultType"] == "success" and "CM005" in result["textResultForLlm"]
    log = (copilot.config_dir / ".spawnkit" / "hook.log").read_text()
    assert "lint issue(s) in .github/skills/demo/SKILL.md" in log


def test_a_file_outside_a_skill_root_is_silent(copilot):
    data = written(copilot, "postToolUse_create_main", "docs/skills/demo/SKILL.md")
    assert copilot(data, ENFORCE, event="postToolUse") is None


# --- the script, and failing open ----------------------------------------------------------------


def test_the_script_runs_with_host_and_event(copilot):
    proc = copilot.script(long_stop(), ENFORCE, event="subagentStop")
    assert proc.returncode == 0 and proc.stderr == ""
    assert json.loads(proc.stdout)["decision"] == "block"
    assert (copilot.config_dir / ".spawnkit" / "sessions").is_dir()


def test_an_internal_error_fails_open_and_logs_under_copilot_home(copilot, monkeypatch):
    """A preToolUse hook that fails makes Copilot deny the call: the hook must answer, exit 0."""
    from spawnkit.hook import return_block

    def boom(call, answer):
        raise RuntimeError("kaput")

    monkeypatch.setattr(return_block, "before_launch", boom)
    answer = copilot("preToolUse_task_main", ENFORCE)
    assert "permissionDecision" not in answer and "modifiedArgs" not in answer
    log = copilot.config_dir / ".spawnkit" / "hook.log"
    assert "kaput" in log.read_text()


def test_garbage_and_a_missing_event_exit_zero_from_the_script(copilot):
    for stdin, event in ((b"not json", "preToolUse"), (b"{}", ""), (b"", "preToolUse")):
        proc = copilot.script(stdin, event=event)
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_garbage_is_logged_under_copilot_home(copilot):
    assert hook_main.run(b"not json", copilot.env, copilot.now, host=copilot.host) == ""
    assert "not one JSON object" in (copilot.config_dir / ".spawnkit" / "hook.log").read_text()
