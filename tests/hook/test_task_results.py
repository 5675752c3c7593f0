"""CM001 on task notifications: a workflow's result and a background agent's reply are returns.

Measured at UserPromptSubmit (the notification is its prompt); over the budget, warn and
enforce alike tell the model and the user; no mode blocks or changes a notification.
"""

from __future__ import annotations

import pytest

from spawnkit import tokens
from spawnkit.hook import tasks
from spawnkit.standard import protocol

from .conftest import payload

BUDGET = protocol.return_budget()
WORKFLOW = payload("UserPromptSubmit_workflow_notification")
JOURNAL = (
    "/home/user/home/.claude/projects/-home-user-proj/3de28b88-a30c-43cb-a845-766047e89134/"
    "subagents/workflows/wf_96ad5254-9da/journal.jsonl"
)


def sized(target: int) -> str:
    """A JSON-ish result whose estimate is exactly ``target`` tokens."""
    for n in range(1, 20_000):
        text = '{"findings": "' + "finding " * n + '"}'
        if tokens.estimate(text) >= target:
            for cut in range(len(text), 0, -1):
                if tokens.estimate(text[:cut]) == target:
                    return text[:cut]
    raise AssertionError(f"no text of {target} tokens")


def workflow_with(result: str) -> dict:
    note = WORKFLOW["prompt"]
    start, end = note.index("<result>") + 8, note.index("</result>")
    return WORKFLOW | {"prompt": note[:start] + result + note[end:]}


def agent_with(result: str) -> dict:
    data = payload("UserPromptSubmit_task_notification")
    note = data["prompt"]
    start, end = note.index("<result>") + 8, note.index("</result>")
    return data | {"prompt": note[:start] + result + note[end:]}


def workflow_warning(size: int) -> dict:
    return {
        "hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit",
            "additionalContext": (
                f'spawnkit return budget (CM001): the result of the workflow "probe workflow" is '
                f"~{size} tokens, over the {BUDGET}-token return budget; all of it is in your "
                f"context now. Every agent's full result is in {JOURNAL}: read only the lines you "
                "need from it, never the whole file. Next time have the script return counts, "
                "statuses and report paths, and have its agents write their full reports to files."
            ),
        },
        "systemMessage": (
            f'spawnkit: the workflow "probe workflow" returned ~{size} tokens to the '
            f"orchestrator, over the {BUDGET}-token return budget (CM001); per-agent results: "
            f"{JOURNAL}."
        ),
    }


@pytest.mark.parametrize("mode", ["warn", "enforce"])
def test_an_over_budget_workflow_result_is_reported_never_blocked(hook, mode):
    result = sized(BUDGET + 1)
    assert hook(workflow_with(result), {"SPAWNKIT_MODE": mode}) == workflow_warning(BUDGET + 1)


@pytest.mark.parametrize("mode", ["warn", "enforce"])
def test_a_workflow_result_within_the_budget_is_silent(hook, mode):
    assert hook(workflow_with(sized(BUDGET)), {"SPAWNKIT_MODE": mode}) is None
    assert hook(WORKFLOW, {"SPAWNKIT_MODE": mode}) is None  # the real, small result


def test_the_real_schema_workflow_notification_names_its_journal():
    text = (
        "<task-notification>\n<task-id>w1</task-id>\n<status>completed</status>\n"
        '<summary>Dynamic workflow "probe schema workflow" completed</summary>\n'
        '<result>{"got": 1}</result>\n<diagnostics>Per-agent results: /h/wf_1/journal.jsonl — '
        "one line per agent</diagnostics>\n</task-notification>"
    )
    (note,) = tasks.notifications(text)
    assert (note.is_workflow, note.name, note.journal) == (
        True,
        "probe schema workflow",
        "/h/wf_1/journal.jsonl",
    )
    assert (note.ended, note.result) == (True, '{"got": 1}')


def test_an_over_budget_background_agent_reply_is_reported(hook):
    result = sized(BUDGET + 1)
    answer = hook(agent_with(result))
    assert answer == {
        "hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit",
            "additionalContext": (
                f'spawnkit return budget (CM001): the background agent "probe sub" returned '
                f"~{BUDGET + 1} tokens, over the {BUDGET}-token return budget; its whole reply is "
                "in your context now. End every sub-agent prompt with a return contract: the full "
                f"output written to a report file, a reply of at most {BUDGET} tokens."
            ),
        },
        "systemMessage": (
            f'spawnkit: the background agent "probe sub" returned ~{BUDGET + 1} tokens, over the '
            f"{BUDGET}-token return budget (CM001); its whole reply went into the orchestrator's "
            "context. Set CM001 to enforce to hold such replies back."
        ),
    }
    assert "decision" not in hook(agent_with(result), {"SPAWNKIT_MODE": "enforce"})


def test_off_and_scope_silence_it(hook):
    over = workflow_with(sized(BUDGET + 50))
    assert hook(over, {"SPAWNKIT_MODE_CM001": "off"}) is None
    hook.write_config("project", {"agents": {"Workflow": "off"}})
    assert hook(over) is None
    # a background agent's reply is scoped by its type, when the table knows it
    hook.write_config("project", {"agents": {"Explore": "off"}})
    data = agent_with(sized(BUDGET + 50))
    note = tasks.notifications(data["prompt"])[0]
    hook(
        payload("SubagentStart")
        | {"session_id": data["session_id"], "agent_id": note.task_id, "agent_type": "Explore"}
    )
    assert hook(data) is None
    assert hook(agent_with(sized(BUDGET + 50))) is not None  # unknown id: the default scope


def test_a_notification_for_an_unknown_id_is_still_measured(hook):
    data = agent_with(sized(BUDGET + 1))
    data["prompt"] = data["prompt"].replace("a61883b1fe310d732", "never-seen")
    assert hook(data)["systemMessage"].startswith('spawnkit: the background agent "probe sub"')


def test_a_killed_agent_without_result_is_silent(hook):
    assert (
        hook(payload("UserPromptSubmit_task_notification_killed"), {"SPAWNKIT_MODE": "enforce"})
        is None
    )


def test_a_persons_long_prompt_is_not_a_return(hook):
    data = payload("UserPromptSubmit") | {"prompt": "please " * 3000}
    assert hook(data, {"SPAWNKIT_MODE": "enforce"}) is None
    assert not hook.state_dir.exists()


def test_notifications_are_bounded():
    one = "<task-notification><task-id>t</task-id><status>completed</status></task-notification>"
    assert len(tasks.notifications(one * (tasks.MAX_NOTIFICATIONS + 10))) == tasks.MAX_NOTIFICATIONS
    assert tasks.notifications("x" * 5000 + one) == []  # a notification prompt starts with one
    (cut,) = tasks.notifications("<task-notification><task-id>t</task-id><result>half")
    assert (cut.task_id, cut.result, cut.ended) == ("t", "half", False)


def test_the_script_answers_like_the_in_process_hook(hook):
    proc = hook.script(workflow_with(sized(BUDGET + 1)), {"SPAWNKIT_MODE": "enforce"})
    assert proc.returncode == 0 and proc.stderr == ""
    import json

    assert json.loads(proc.stdout) == workflow_warning(BUDGET + 1)


def test_the_dispatch_looks_for_the_same_mark_as_the_parser():
    from spawnkit.hook import main

    assert main.NOTIFICATION_MARK == tasks.OPEN


def test_a_reply_that_quotes_its_own_closing_tag_is_measured_whole(hook):
    """Issue 30: a background reply of ~35,000 tokens that quotes ``</result>`` near its start
    got no warning when the result was cut at its first closing tag. It runs to the last one,
    in the hook and in the audit (both read it with ``tasks.Notification``)."""
    result = "The tool answered <result>ok</result> as expected.\n" + "finding " * 40_000
    size = tokens.estimate(result)
    assert size > 35_000 and tokens.estimate(result[: result.index("</result>")]) < BUDGET
    answer = hook(agent_with(result))
    assert answer is not None, "a 35,000-token reply went by without a word"
    assert f"returned ~{size} tokens" in answer["systemMessage"]
    note = agent_with(result)["prompt"]
    parsed = tasks.Notification(note[note.index(tasks.OPEN) + len(tasks.OPEN) :])
    assert parsed.result == result
