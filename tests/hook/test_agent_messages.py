"""CM001 on the message channel (issue 35): a sub-agent's SendMessage to the orchestrator.

On the real Claude Code 2.1.330 payloads (tests/fixtures/payloads/capture_messages.py): the
sender's PreToolUse SendMessage (saved and refused in enforce, with a retry bound; warned about
in warn; messages to another agent, and the orchestrator's own, left alone) and the
orchestrator's UserPromptSubmit carrying ``<agent-message>`` blocks (measured, never blocked).
"""

from __future__ import annotations

import json

import pytest

from spawnkit import tokens
from spawnkit.hook import agent_messages, main, message_budget, tasks
from spawnkit.standard import protocol
from tests.sized_text import sized

from .conftest import payload, session_file

BUDGET = protocol.return_budget()
LONG_SEND = payload("PreToolUse_SendMessage_main_long")
SHORT_SEND = payload("PreToolUse_SendMessage_main_short")
PEER_SEND = payload("PreToolUse_SendMessage_teammate_short")
ARRIVED = payload("UserPromptSubmit_agent_messages_long")  # one long and two short, merged
SESSION = LONG_SEND["session_id"]
AGENT = LONG_SEND["agent_id"]
REPORT = LONG_SEND["tool_input"]["message"]
WORDS = ("finding", "src/pkg/module.py:17", "swallows", "OSError", "retry")
ENFORCE = {"SPAWNKIT_MODE": "enforce"}


def send(text: str, to: str = "main", base: dict = LONG_SEND, **extra: object) -> dict:
    """The real PreToolUse SendMessage payload with another message (the client's copies of it,
    ``content``, follow)."""
    tool_input = dict(base["tool_input"], to=to, recipient=to, message=text, content=text)
    return {**base, "tool_input": tool_input, **extra}


def arrived(*bodies: str, sender: str = "mate1") -> dict:
    prompt = "\n".join(f'<agent-message from="{sender}">\n{b}\n</agent-message>' for b in bodies)
    return ARRIVED | {"prompt": prompt}


def deny_reason(size: int, saved: str, to: str = "main") -> str:
    return (
        f'spawnkit return budget (CM001): your message to "{to}" is ~{size} tokens, but what a '
        f"sub-agent sends the orchestrator may be at most {BUDGET} tokens, so it was NOT sent. "
        f"It is saved in full at {saved} - do not send it again. Send a short note instead, at "
        f"most {BUDGET} tokens: what you found in a line or three and that path (or your own "
        f"fuller report file)."
    )


def denied(answer: dict | None) -> str | None:
    if not answer or "hookSpecificOutput" not in answer:
        return None
    out = answer["hookSpecificOutput"]
    return out["permissionDecisionReason"] if out.get("permissionDecision") == "deny" else None


# --- the captured payloads --------------------------------------------------------------------


def test_the_captured_payloads_are_what_the_hook_reads():
    assert LONG_SEND["tool_name"] == agent_messages.TOOL == main.MESSAGE_TOOL
    assert LONG_SEND["agent_id"] and LONG_SEND["tool_input"]["to"] == "main"
    assert len(REPORT) > 21_000
    assert PEER_SEND["tool_input"]["to"] != "main"
    messages, rest = agent_messages.split(ARRIVED["prompt"])
    assert [(m.sender, len(m.body)) for m in messages][0] == ("mate1", len(REPORT))
    assert messages[0].body == REPORT  # what was sent arrives unchanged
    assert [m.body for m in messages[1:]] == [
        "SHORT-1: report written to .audit-reports/retry.md",
        "SHORT-2: 180 findings, see the report.",
    ]
    assert rest.strip() == ""
    busy = payload("UserPromptSubmit_agent_message_long_busy")["prompt"]
    assert [m.body for m in agent_messages.split(busy)[0]] == [REPORT]
    unnamed = payload("UserPromptSubmit_agent_message_short")["prompt"]
    assert agent_messages.split(unnamed)[0][0].sender.startswith("a")  # its agent id


def test_the_marks_main_checks_first_are_the_parsers():
    assert main.MESSAGE_MARK == agent_messages.OPEN + " "
    assert tasks.HEAD == agent_messages.HEAD


# --- who is the lead --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "to",
    [
        "main",
        "Main",
        " MAIN ",
        "main [920fed]",
        "main [abcdef012345]",
        "team-lead",
        "Team-Lead",
        "ｍａｉｎ",
        "ma\u200bin",
    ],
)
def test_names_that_reach_the_orchestrator(to):
    assert agent_messages.to_lead(to)


@pytest.mark.parametrize(
    "to",
    [
        "mate1",
        "main2",
        "lead",
        "user",
        "system",
        "main [92fed]",
        "main [ABCDEF]",
        "[920fed]",
        "main-agent",
        "",
        None,
        7,
        ["main"],
        "main" + " " * 300,
    ],
)
def test_names_that_do_not(to):
    assert not agent_messages.to_lead(to)


# --- PreToolUse: the sender ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["warn", "enforce"])
def test_a_message_within_the_budget_is_silent(hook, mode):
    text = sized(BUDGET, WORDS)
    assert tokens.estimate(text) == BUDGET
    assert hook(send(text), {"SPAWNKIT_MODE": mode}) is None
    assert hook(SHORT_SEND, {"SPAWNKIT_MODE": mode}) is None
    assert not (hook.project / ".spawnkit").exists()


def test_one_token_over_is_saved_and_refused(hook):
    text = sized(BUDGET + 1, WORDS)
    saved = hook.project / ".spawnkit" / "returns" / SESSION / f"{AGENT}-message.md"
    answer = hook(send(text), ENFORCE)
    assert answer == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": deny_reason(BUDGET + 1, str(saved)),
        }
    }
    assert saved.read_text(encoding="utf-8") == text
    assert session_file(hook, SESSION)[message_budget.RETRIES] == {AGENT: 1}


def test_the_real_long_message_is_saved_whole(hook):
    reason = denied(hook(LONG_SEND, ENFORCE))
    saved = hook.project / ".spawnkit" / "returns" / SESSION / f"{AGENT}-message.md"
    assert reason == deny_reason(tokens.estimate(REPORT), str(saved))
    assert saved.read_text(encoding="utf-8") == REPORT


@pytest.mark.parametrize("to", ["Main", "main [920fed]", "team-lead"])
def test_every_name_of_the_lead_is_held(hook, to):
    assert denied(hook(send(REPORT, to=to), ENFORCE)).startswith(
        f'spawnkit return budget (CM001): your message to "{to}"'
    )


@pytest.mark.parametrize("mode", ["warn", "enforce"])
def test_a_message_to_another_agent_is_left_alone(hook, mode):
    assert hook(send(REPORT, to="mate2", base=PEER_SEND), {"SPAWNKIT_MODE": mode}) is None
    assert not (hook.project / ".spawnkit").exists()
    assert not hook.state_dir.exists()


def test_the_orchestrators_own_message_is_left_alone(hook):
    data = send(REPORT)
    del data["agent_id"], data["agent_type"]
    assert hook(data, ENFORCE) is None


@pytest.mark.parametrize(
    "message", [{"type": "shutdown_response", "request_id": "r1", "approve": True}, None, 7]
)
def test_a_legacy_object_message_is_left_alone(hook, message):
    data = send(REPORT)
    data["tool_input"]["message"] = message
    assert hook(data, ENFORCE) is None


def test_warn_tells_the_sender_and_the_user(hook):
    size = tokens.estimate(REPORT)
    answer = hook(LONG_SEND, {"SPAWNKIT_MODE": "warn"})
    assert answer == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "additionalContext": (
                f'spawnkit return budget (CM001): your message to "main" is ~{size} tokens, over '
                f"the {BUDGET}-token return budget, and goes into the orchestrator's context "
                "whole. Next time write the details to a report file and send only its path and "
                "a short summary."
            ),
        },
        "systemMessage": (
            f"spawnkit: the general-purpose sub-agent {AGENT} sent the orchestrator ~{size} tokens "
            f'(SendMessage to "main"), over the {BUDGET}-token return budget (CM001); all of it '
            "went into the orchestrator's context. Set CM001 to enforce to hold such messages back."
        ),
    }
    assert not (hook.project / ".spawnkit").exists()


def test_refusals_in_a_row_then_let_through_with_a_warning(hook):
    folder = hook.project / ".spawnkit" / "returns" / SESSION
    texts = [REPORT, "x" * 4000, "y" * 5000]
    assert denied(hook(send(texts[0]), ENFORCE))
    assert denied(hook(send(texts[1]), ENFORCE)) == deny_reason(
        tokens.estimate(texts[1]), str(folder / f"{AGENT}-message-2.md")
    )
    size = tokens.estimate(texts[2])
    assert hook(send(texts[2]), ENFORCE) == {
        "systemMessage": (
            f"spawnkit: the general-purpose sub-agent {AGENT} still sent ~{size} tokens to the "
            f'orchestrator (SendMessage to "main"; budget {BUDGET}, CM001) after 2 refusals; let '
            f"it through so the agent is not stuck. Its earlier full messages are in {folder}."
        )
    }
    assert (folder / f"{AGENT}-message.md").read_text() == REPORT  # nothing lost
    assert (folder / f"{AGENT}-message-2.md").read_text() == texts[1]
    assert not (folder / f"{AGENT}-message-3.md").exists()
    # the row is over: the next long message starts a new one
    assert session_file(hook, SESSION)[message_budget.RETRIES] == {}
    assert denied(hook(send(REPORT), ENFORCE))


def test_a_short_message_ends_the_row(hook):
    env = {**ENFORCE, "SPAWNKIT_MAX_RETRIES": "1"}
    assert denied(hook(send(REPORT), env))
    assert hook(send("a note: see the saved copy"), env) is None
    assert session_file(hook, SESSION)[message_budget.RETRIES] == {}
    assert denied(hook(send(REPORT), env))  # refused again, not let through


def test_another_agents_count_is_its_own(hook):
    env = {**ENFORCE, "SPAWNKIT_MAX_RETRIES": "1"}
    assert denied(hook(send(REPORT), env))
    assert denied(hook(send(REPORT, agent_id="a0000000000000001"), env))
    assert session_file(hook, SESSION)[message_budget.RETRIES] == {
        AGENT: 1,
        "a0000000000000001": 1,
    }


def test_max_retries_from_config(hook):
    hook.write_config("user", {"version": 1, "mode": "enforce", "max_retries": 0})
    answer = hook(LONG_SEND)
    assert denied(answer) is None
    assert "after 0 refusals; let it through" in answer["systemMessage"]


def test_the_scope_applies_per_agent_type(hook):
    hook.write_config("project", {"version": 1, "mode": "enforce", "agents": {"Explore": "warn"}})
    answer = hook(send(REPORT, agent_type="Explore"))
    assert denied(answer) is None
    assert 'Add "Explore": "enforce" to "agents"' in answer["systemMessage"]
    hook.write_config("project", {"version": 1, "mode": "enforce", "agents": {"Explore": "off"}})
    assert hook(send(REPORT, agent_type="Explore")) is None
    assert denied(hook(send(REPORT)))  # general-purpose stays bound


def test_off_does_nothing(hook):
    assert hook(LONG_SEND, {"SPAWNKIT_MODE_CM001": "off"}) is None
    assert not hook.state_dir.exists()


def test_an_unsaveable_message_is_let_through(hook):
    (hook.project / ".spawnkit").write_text("a file where the returns folder should be")
    answer = hook(LONG_SEND, ENFORCE)
    folder = hook.project / ".spawnkit" / "returns" / SESSION
    assert denied(answer) is None
    assert answer["systemMessage"].endswith(
        f"the message was let through because it could not be saved in {folder} (Not a directory)."
    )


def test_a_locked_state_fails_open(hook, monkeypatch):
    monkeypatch.setattr("spawnkit.hook.store.LOCK_TIMEOUT", 0.05)
    import fcntl
    import os

    sessions = hook.state_dir / "sessions"
    sessions.mkdir(parents=True)
    fd = os.open(sessions / f"{SESSION}.json", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        answer = hook(LONG_SEND, ENFORCE)
    finally:
        os.close(fd)
    assert denied(answer) is None  # not refused: the count of refusals cannot be kept
    assert "its count of refused messages could not be read" in answer["systemMessage"]
    assert "stayed locked" in (hook.state_dir / "hook.log").read_text()


def test_the_script_refuses_the_real_payload(hook):
    proc = hook.script(LONG_SEND, ENFORCE)
    assert proc.returncode == 0 and proc.stderr == ""
    assert denied(json.loads(proc.stdout))


# --- UserPromptSubmit: the orchestrator ---------------------------------------------------------


def arrival_context(size: int, sender: str = "mate1") -> str:
    return (
        f'spawnkit return budget (CM001): the message from "{sender}" is ~{size} tokens, over the '
        f"{BUDGET}-token return budget; all of it is in your context now. Tell sub-agents to "
        "write their findings to a report file and to message you only its path and a short "
        "note, as their final answer does."
    )


@pytest.mark.parametrize("mode", ["warn", "enforce"])
def test_an_arriving_message_within_the_budget_is_silent(hook, mode):
    text = sized(BUDGET, WORDS)
    assert hook(arrived(text, "a note"), {"SPAWNKIT_MODE": mode}) is None
    assert hook(payload("UserPromptSubmit_agent_message_short"), {"SPAWNKIT_MODE": mode}) is None


@pytest.mark.parametrize("mode", ["warn", "enforce"])
def test_an_arriving_message_over_it_is_reported_never_blocked(hook, mode):
    text = sized(BUDGET + 1, WORDS)
    answer = hook(arrived("a note", text), {"SPAWNKIT_MODE": mode})
    assert "decision" not in answer
    assert answer["hookSpecificOutput"] == {
        "hookEventName": "UserPromptSubmit",
        "additionalContext": arrival_context(BUDGET + 1),
    }
    hint = " Set CM001 to enforce to hold such messages back." if mode == "warn" else ""
    assert answer["systemMessage"] == (
        f'spawnkit: the agent "mate1" sent the orchestrator a message of ~{BUDGET + 1} tokens, '
        f"over the {BUDGET}-token return budget (CM001); all of it went into the orchestrator's "
        f"context.{hint}"
    )


def test_the_real_merged_delivery_reports_the_long_one(hook):
    answer = hook(ARRIVED, ENFORCE)
    assert answer["hookSpecificOutput"]["additionalContext"] == arrival_context(
        tokens.estimate(REPORT)
    )


def test_the_user_is_told_once_per_message(hook):
    """Warned about when sent (warn mode): on arrival only the orchestrator is told."""
    env = {"SPAWNKIT_MODE": "warn"}
    assert "systemMessage" in hook(LONG_SEND, env)
    answer = hook(ARRIVED, env)
    assert "systemMessage" not in answer
    assert answer["hookSpecificOutput"]["additionalContext"]
    assert session_file(hook, SESSION)[message_budget.SENT] == []  # recalled once
    assert "systemMessage" in hook(ARRIVED, env)  # the same text again: a new message


def test_a_let_through_message_is_not_reported_to_the_user_again(hook):
    env = {**ENFORCE, "SPAWNKIT_MAX_RETRIES": "0"}
    assert "let it through" in hook(LONG_SEND, env)["systemMessage"]
    assert "systemMessage" not in hook(ARRIVED, env)


def test_an_arrival_keeps_the_senders_scope(hook):
    """The orchestrator's payload names no sender type: the sender's side recorded it."""
    hook.write_config("project", {"version": 1, "mode": "warn", "agents": {"Explore": "off"}})
    assert hook(send(REPORT, agent_type="Explore")) is None
    assert hook(ARRIVED) is None  # as silent as its sending
    assert "systemMessage" in hook(ARRIVED)  # an unknown sender: the default scope applies


def test_an_arrival_of_an_excluded_type_stays_silent(hook):
    hook.write_config("project", {"version": 1, "agents": {"*": "off"}})
    assert hook(ARRIVED) is None


def long_notification() -> str:
    note = payload("UserPromptSubmit_task_notification")["prompt"]
    return note.replace("SUBAGENT-FINAL-ANSWER: ", "SUBAGENT-FINAL-ANSWER: " + "x " * 3000)


def test_a_notification_after_a_long_message_is_still_read(hook):
    """Merged after a 21,000-character message, the notification starts far past the first
    4,096 characters, where a delivered prompt's first item is looked for."""
    prompt = arrived(REPORT)["prompt"] + "\n" + long_notification()
    assert prompt.index("<task-notification>") > tasks.HEAD
    answer = hook(ARRIVED | {"prompt": prompt})
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert arrival_context(tokens.estimate(REPORT)) in context
    assert 'the background agent "probe sub" returned ~' in context


def test_a_notification_quoted_in_a_message_is_not_one(hook):
    answer = hook(arrived("here is what I saw:\n" + long_notification() + "\n" + "z " * 3000))
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert 'the message from "mate1"' in context
    assert "background agent" not in context and "background agent" not in answer["systemMessage"]


def test_a_persons_prompt_mentioning_the_tag_is_left_alone(hook):
    text = "x " * 3000 + '<agent-message from="me">\n' + "y " * 3000 + "\n</agent-message>"
    assert hook(ARRIVED | {"prompt": text}) is None


def test_a_sub_agents_own_prompt_is_left_alone(hook):
    assert hook(ARRIVED | {"agent_id": AGENT}) is None


def test_the_parser_is_bounded():
    prompt = "\n".join(
        f'<agent-message from="{"n" * 500}">\nm\n</agent-message>' for _ in range(100)
    )
    messages, _ = agent_messages.split(prompt)
    assert len(messages) == agent_messages.MAX_MESSAGES
    assert all(len(m.sender) == agent_messages.MAX_SENDER for m in messages)
    unclosed, _ = agent_messages.split('<agent-message from="x">\nno end')
    assert [(m.sender, m.body) for m in unclosed] == [("x", "no end")]
    assert agent_messages.split('<agent-message from="x"')[0] == []


def test_a_hostile_sender_name_reaches_the_user_inert(hook):
    """The ``from`` of an agent message is the agent's: an escape sequence or a carriage return
    in it is shown escaped (the one output gate), never written raw to the user's terminal."""
    out = hook(arrived(REPORT, sender="x\x1b]0;owned\x07\rall good"))
    text = out["systemMessage"] + out["hookSpecificOutput"]["additionalContext"]
    assert "\x1b" not in text and "\x07" not in text and "\r" not in text
    assert "\\x1b]0;owned\\x07\\x0dall good" in out["systemMessage"]
