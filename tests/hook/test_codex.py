"""The hook on real Codex CLI 0.169.0 payloads (``--host codex``): the same rules, Codex's shapes."""

from __future__ import annotations

import json

import pytest

from spawnkit import tokens
from spawnkit.hook import main as hook_main
from spawnkit.standard import protocol

from .conftest import codex_payload, session_file

BUDGET = protocol.return_budget()
CAP = protocol.max_parallel()
SESSION = "01a20aba-3565-7401-9ccd-14ff207cfaa7"  # block__* payloads
AGENT = "01a20aba-3854-7c53-a087-d1f76dd0431b"
CONTRACT_HEAD = protocol.load()["return_block"][0]
ENFORCE = {"SPAWNKIT_MODE": "enforce"}


def long_stop(active: bool = False) -> dict:
    """The real first SubagentStop, its (cut) 12,047-character answer grown back to full size."""
    data = codex_payload("block__SubagentStop_00")
    data["last_assistant_message"] = data["last_assistant_message"] * 40
    data["stop_hook_active"] = active
    return data


# --- SubagentStop: the return budget ---------------------------------------------------------


def test_enforce_saves_the_whole_answer_then_blocks(codex):
    data = long_stop()
    size = tokens.estimate(data["last_assistant_message"])
    answer = codex(data, ENFORCE)

    saved = codex.project / ".spawnkit" / "returns" / SESSION / f"{AGENT}.md"
    assert saved.read_text(encoding="utf-8") == data["last_assistant_message"]
    assert answer["decision"] == "block"
    assert answer["reason"].startswith(
        f"spawnkit return budget (CM001): your reply is ~{size} tokens but a sub-agent may "
        f"return at most {BUDGET} tokens, so it was NOT delivered. It is saved in full at {saved}"
    )
    assert protocol.load()["return_format"][0] in answer["reason"]
    # Codex's state lives under CODEX_HOME, never in a Claude folder.
    assert session_file(codex, SESSION)["retries"] == {AGENT: 1}
    assert not (codex.home / ".claude").exists()


def test_the_short_second_answer_goes_through_and_the_count_is_forgotten(codex):
    codex(long_stop(), ENFORCE)
    assert codex(codex_payload("block__SubagentStop_01"), ENFORCE) is None
    assert session_file(codex, SESSION)["retries"] == {}


def test_codex_has_no_repeat_cap_so_ours_ends_the_loop(codex):
    """A sub-agent that keeps answering at length: Codex would loop for ever (149 blocks in 60 s
    were observed); the hook blocks max_retries times, then lets the stop through."""
    blocks = 0
    answer = codex(long_stop(active=False), ENFORCE)
    while answer and answer.get("decision") == "block":
        blocks += 1
        assert blocks < 10, "the hook kept blocking"
        answer = codex(long_stop(active=True), ENFORCE)
    assert blocks == 2  # the default max_retries
    assert (
        "after 2 retries (max_retries; Codex CLI has no limit of its own)"
        in (answer["systemMessage"])
    )
    saved = (codex.project / ".spawnkit" / "returns" / SESSION).glob("*.md")
    assert {p.name for p in saved} == {f"{AGENT}.md", f"{AGENT}-2.md"}


@pytest.mark.parametrize("retries", [0, 1, 5])
def test_max_retries_from_codex_home_config(codex, retries):
    codex.write_config("user", {"version": 1, "mode": "enforce", "max_retries": retries})
    blocks = 0
    answer = codex(long_stop())
    while answer and answer.get("decision") == "block":
        blocks += 1
        answer = codex(long_stop(active=True))
    assert blocks == retries


def test_warn_tells_the_user_only(codex):
    answer = codex(long_stop())
    assert set(answer) == {"systemMessage"}
    assert "the default sub-agent returned ~" in answer["systemMessage"]
    assert not (codex.project / ".spawnkit").exists()


def test_project_config_is_read_from_dot_codex(codex):
    codex.write_config("project", {"version": 1, "rules": {"CM001": "enforce"}})
    assert codex(long_stop())["decision"] == "block"
    # A Claude project file means nothing to Codex.
    claude = codex.project / ".claude"
    claude.mkdir()
    (claude / "spawnkit.json").write_text('{"mode": "off"}')
    assert codex(long_stop(active=True))["decision"] == "block"


# --- SubagentStart: the budget before the first turn -----------------------------------------


def test_enforce_states_the_budget_at_subagent_start(codex):
    answer = codex(codex_payload("block__SubagentStart_00"), ENFORCE)
    specific = answer["hookSpecificOutput"]
    assert specific["hookEventName"] == "SubagentStart"
    context = specific["additionalContext"]
    assert f"may be at most {BUDGET} tokens" in context
    report = codex.project / ".spawnkit" / "reports" / SESSION / f"{AGENT}.md"
    assert str(report) in context
    assert context.endswith("\n".join(protocol.load()["return_format"]))
    assert set(answer) == {"hookSpecificOutput"}


@pytest.mark.parametrize("mode", ["warn", "off"])
def test_subagent_start_is_silent_unless_enforcing(codex, mode):
    assert codex(codex_payload("block__SubagentStart_00"), {"SPAWNKIT_MODE": mode}) is None


def test_claude_code_never_gets_subagent_start_context(hook):
    from .conftest import payload

    assert hook(payload("SubagentStart"), ENFORCE) is None


# --- PreToolUse spawn_agent: the return block -------------------------------------------------


def test_enforce_rewrites_a_v1_spawn_with_allow(codex):
    data = codex_payload("pretool_rewrite__PreToolUse_00")
    answer = codex(data, ENFORCE)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "allow"  # Codex ignores updatedInput without it
    updated = answer["updatedInput"]
    original = data["tool_input"]
    assert updated["fork_context"] is original["fork_context"]
    assert updated["message"].startswith(original["message"] + "\n\n" + CONTRACT_HEAD)
    assert f"at most {BUDGET} tokens" in updated["message"]
    report = codex.project / ".spawnkit" / "reports" / "01a20aba-63e5-7660-be95-7824be628a19"
    assert f"{report}/subagent-ll0010.md" in updated["message"]  # tool_use_id call_001_0


def test_enforce_rewrites_a_v2_spawn_and_names_the_report_after_the_task(codex):
    data = codex_payload("v2block__PreToolUse_00")
    assert data["tool_name"] == "collaborationspawn_agent"
    updated = codex(data, ENFORCE)["hookSpecificOutput"]["updatedInput"]
    assert updated["task_name"] == "longreport"
    assert CONTRACT_HEAD in updated["message"] and "longreport-ll0010.md" in updated["message"]


def test_a_spawn_given_as_items_gets_the_block_as_one_more_text_item(codex):
    data = codex_payload("run1__PreToolUse_00")
    data["tool_input"] = {"items": [{"type": "text", "text": "SUB: scan"}, {"type": "skill"}]}
    updated = codex(data, ENFORCE)["hookSpecificOutput"]["updatedInput"]
    assert updated["items"][:2] == data["tool_input"]["items"]
    assert updated["items"][2]["type"] == "text" and CONTRACT_HEAD in updated["items"][2]["text"]
    assert "message" not in updated


def test_a_spawn_with_a_contract_is_left_alone(codex):
    data = codex_payload("run1__PreToolUse_00")
    data["tool_input"]["message"] += "\n\n" + protocol.return_block()
    answer = codex(data, ENFORCE)
    assert answer is None or "updatedInput" not in answer.get("hookSpecificOutput", {})


def test_warn_tells_the_orchestrator_and_changes_nothing(codex):
    answer = codex(codex_payload("run1__PreToolUse_00"))["hookSpecificOutput"]
    assert "updatedInput" not in answer and "permissionDecision" not in answer
    assert "CM001" in answer["additionalContext"]


def test_wait_agent_and_other_tools_are_ignored(codex):
    assert codex(codex_payload("block__PreToolUse_01"), ENFORCE) is None  # multi_agent_v1wait_agent
    assert codex(codex_payload("block__Stop_00"), ENFORCE) is None
    assert codex(codex_payload("block__SessionStart_00"), ENFORCE) is None


# --- the parallel cap ---------------------------------------------------------------------------


def spawn(n: int) -> dict:
    data = codex_payload("run1__PreToolUse_00")
    data["tool_use_id"] = f"call_{n:03d}_0"
    data["tool_input"]["message"] += "\n\n" + protocol.return_block()
    return data


def launched(n: int, agent: str | None) -> dict:
    data = codex_payload("run1__PostToolUse_00")
    data["tool_use_id"] = f"call_{n:03d}_0"
    data["tool_response"] = json.dumps({"agent_id": agent, "nickname": "X"}) if agent else "err"
    return data


def started(agent: str) -> dict:
    return codex_payload("run1__SubagentStart_00") | {"agent_id": agent}


def stopped(agent: str) -> dict:
    return codex_payload("block__SubagentStop_01") | {
        "agent_id": agent,
        "session_id": codex_payload("run1__SubagentStart_00")["session_id"],
        "stop_hook_active": False,
    }


def test_a_spawn_over_the_cap_is_denied_with_what_to_do(codex):
    for n in range(CAP):  # PreToolUse, then (Codex's order) PostToolUse, then SubagentStart
        assert codex(spawn(n), ENFORCE) is None
        assert codex(launched(n, f"agent-{n}"), ENFORCE) is None
        assert codex(started(f"agent-{n}"), ENFORCE)["hookSpecificOutput"]  # budget context
    answer = codex(spawn(CAP), ENFORCE)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
    reason = answer["permissionDecisionReason"]
    assert f"{CAP} sub-agents are already running" in reason and "(call wait_agent)" in reason
    assert "updatedInput" not in answer
    # One returns: the next spawn goes ahead.
    codex(stopped("agent-0"), ENFORCE)
    assert codex(spawn(CAP + 1), ENFORCE) is None


def test_launches_in_one_response_count_before_they_start(codex):
    """Parallel spawn_agent calls: each PreToolUse comes before any of the agents starts."""
    for n in range(CAP):
        assert codex(spawn(n), ENFORCE) is None
    assert codex(spawn(CAP), ENFORCE)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_failed_launch_frees_its_slot(codex):
    for n in range(CAP):
        codex(spawn(n), ENFORCE)
    codex(launched(0, None), ENFORCE)  # spawn_agent answered an error: no agent
    assert codex(spawn(CAP), ENFORCE) is None


def test_a_v1_launch_counts_once_when_its_start_follows(codex):
    codex(spawn(0), ENFORCE)
    codex(launched(0, "agent-0"), ENFORCE)
    codex(started("agent-0"), ENFORCE)
    state = session_file(codex, codex_payload("run1__SubagentStart_00")["session_id"])
    assert list(state["running"]) == ["agent-0"] and state["pending"] == {}


def test_a_v2_launch_keeps_its_slot_until_the_agent_starts(codex):
    data = codex_payload("v2block__PreToolUse_00")
    codex(data, ENFORCE)
    codex(codex_payload("v2block__PostToolUse_00"), ENFORCE)  # {"task_name": "/root/longreport"}
    state = session_file(codex, data["session_id"])
    assert list(state["pending"]) == ["call_001_0"] and state["running"] == {}
    codex(codex_payload("v2block__SubagentStart_00"), ENFORCE)
    state = session_file(codex, data["session_id"])
    assert state["pending"] == {} and len(state["running"]) == 1


# --- lint on apply_patch ------------------------------------------------------------------------

BAD = "---\nname: demo\ndescription: Audits.\n---\nLaunch one agent per file, all in parallel.\n"


def patched(codex, relative: str, content: str = BAD, event: str = "PostToolUse") -> dict:
    target = codex.project / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content, encoding="utf-8")
    data = codex_payload(f"apply_patch__{event}_00")
    data["tool_input"]["command"] = data["tool_input"]["command"].replace(
        "skills/demo/SKILL.md", relative
    )
    return data


@pytest.mark.parametrize("root", [".agents", ".codex"])
def test_a_patched_codex_skill_is_linted_with_the_portable_profile(codex, root):
    seen = []

    def fake(text, path, profile=None):
        seen.append((path, profile))
        return []

    codex(patched(codex, f"{root}/skills/demo/SKILL.md"), lint=fake)
    assert seen == [(str(codex.project / root / "skills" / "demo" / "SKILL.md"), "portable")]


@pytest.mark.usefixtures("sure")  # the hook's plumbing, not the shipped model's tiers
def test_lint_findings_on_apply_patch_reach_the_model(codex):
    answer = codex(patched(codex, ".agents/skills/demo/SKILL.md"))
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("spawnkit lint: .agents/skills/demo/SKILL.md breaks")
    assert "CM005" in context
    assert answer["systemMessage"].startswith("spawnkit: ")
    blocked = codex(patched(codex, ".agents/skills/demo/SKILL.md"), ENFORCE)
    assert blocked["decision"] == "block" and "CM005" in blocked["reason"]


def test_every_file_of_a_patch_is_linted(codex):
    data = patched(codex, ".agents/skills/one/SKILL.md")
    patched(codex, ".agents/skills/two/SKILL.md")
    data["tool_input"]["command"] = (
        "*** Begin Patch\n*** Add File: .agents/skills/one/SKILL.md\n+x\n"
        "*** Update File: notes/readme.md\n@@\n-a\n+b\n"
        "*** Update File: .agents/skills/old/SKILL.md\n*** Move to: .agents/skills/two/SKILL.md\n"
        "@@\n-a\n+b\n*** Delete File: .agents/skills/gone/SKILL.md\n*** End Patch\n"
    )
    seen = []
    codex(data, lint=lambda text, path, profile=None: seen.append(path) or [])
    assert seen == [
        str(codex.project / ".agents/skills/one/SKILL.md"),
        str(codex.project / ".agents/skills/two/SKILL.md"),
    ]


def test_the_real_payload_outside_a_skill_root_is_silent(codex):
    # The captured patch wrote <project>/skills/demo/SKILL.md: Codex finds no skill there.
    assert codex(patched(codex, "skills/demo/SKILL.md"), ENFORCE) is None


# --- the script, and failing open ----------------------------------------------------------------


def test_the_script_runs_as_codex_with_host_codex(codex):
    proc = codex.script(long_stop(), ENFORCE)
    assert proc.returncode == 0 and proc.stderr == ""
    assert json.loads(proc.stdout)["decision"] == "block"
    assert (codex.config_dir / ".spawnkit" / "sessions").is_dir()


def test_an_internal_error_fails_open_and_logs_under_codex_home(codex, monkeypatch):
    from spawnkit.hook import return_budget

    def boom(call, answer):
        raise RuntimeError("kaput")

    monkeypatch.setattr(return_budget, "on_stop", boom)
    answer = codex(long_stop(), ENFORCE)
    assert set(answer) == {"systemMessage"}
    assert "internal error on SubagentStop (RuntimeError)" in answer["systemMessage"]
    log = codex.config_dir / ".spawnkit" / "hook.log"
    assert "kaput" in log.read_text()


def test_garbage_is_logged_under_codex_home(codex):
    assert hook_main.run(b"not json", codex.env, codex.now, host=codex.host) == ""
    assert "not one JSON object" in (codex.config_dir / ".spawnkit" / "hook.log").read_text()
