"""Qwen Code 0.24.4, for real, offline: spawnkit installed with ``spawnkit install --host qwen``.

Qwen Code follows Claude Code's SubagentStop block; it runs sub-agents in the background by
default and hands their answer to the orchestrator as a ``<task-notification>`` user message, so
a background sub-agent's long answer must be held back at its stop too.
"""

from __future__ import annotations

import json
import re

from spawnkit import tokens
from spawnkit.standard import protocol
from tests.snapshots import snapshot

from .fake_chat import say
from .scenarios import long_answer, qwen_agent, qwen_fan_out

BUDGET = protocol.return_budget()
# What Qwen Code writes into ~/.qwen while it runs, and spawnkit's hook while it runs.
QWEN_OWN = (
    "installation_id",
    "output-language.md",
    "usage_record.jsonl",
    "usage",
    "projects",
    "tmp",
    "extension-store",
    "extensions",
    ".openai-logs-cleanup-",
)
HOOK_STATE = (".spawnkit/sessions", ".spawnkit/hook.log")


def _returns(qwen) -> list[str]:
    folder = qwen.project / ".spawnkit" / "returns"
    return sorted(p.read_text(encoding="utf-8") for p in folder.rglob("*.md"))


def notification(req, task_id: str) -> str | None:
    """The ``<result>`` of the task notification for ``task_id`` the orchestrator received."""
    for text in req.texts_of("user"):
        for block in re.findall(r"<task-notification>(.*?)</task-notification>", text, re.S):
            if f"<task-id>{task_id}</task-id>" in block:
                found = re.search(r"<result>(.*)</result>", block, re.S)
                return found.group(1) if found else ""
    return None


def test_a_12000_character_answer_reaches_the_parent_short_and_is_saved_whole(qwen, fake_chat):
    qwen.spawnkit("install", "--host", "qwen", "--mode", "enforce", "--yes")
    fan = qwen_fan_out(fake_chat, "Q1E", agents=1, answer_tokens=7100, with_contract=False)
    (call_id,) = fan.call_ids
    assert len(fan.answer(call_id)) >= 12_000

    qwen.run(fan.prompt)

    got = fan.main.request_with_agent_result(call_id).agent_result(call_id)
    assert tokens.estimate(got) <= BUDGET, got
    assert fan.answer(call_id) not in fan.main.last.text
    assert _returns(qwen) == [fan.answer(call_id)]
    sub = fan.subs[0]
    assert [r.turn for r in sub.requests] == [0, 1]
    assert ".spawnkit/returns" in sub.requests[1].last_user_text


def test_a_sub_agent_that_keeps_answering_long_is_let_through_after_the_retry_limit(
    qwen, fake_chat
):
    qwen.spawnkit("install", "--host", "qwen", "--mode", "enforce", "--yes")
    answer = long_answer("Q2", 3000)
    main = fake_chat.conversation(
        "Q2-ORCH", [say("go"), qwen_agent("Q2-SUB: audit", "audit", background=False)], "Done."
    )
    call_id = main.steps[0][1]["id"]
    sub = fake_chat.conversation("Q2-SUB", name="Q2-SUB").when(lambda req: True, answer)

    qwen.run("Q2-ORCH: audit")

    got = main.request_with_agent_result(call_id).agent_result(call_id)
    assert answer.splitlines()[0] in got  # the answer, let through
    assert "overriding" not in got  # by spawnkit, long before Qwen Code's own cap of 8
    assert len(sub.requests) == 3  # max_retries (2) blocks
    assert len(_returns(qwen)) == 2


def test_three_launches_with_a_cap_of_two_one_is_denied(qwen, fake_chat):
    qwen.spawnkit("install", "--host", "qwen", "--mode", "enforce", "--yes")
    fan = qwen_fan_out(fake_chat, "Q3", agents=3, per_message=3, answer_tokens=50, background=True)

    qwen.run(fan.prompt)

    results = {c: fan.main.requests[1].tool_result(c).text for c in fan.call_ids}
    refused = [c for c, text in results.items() if "the limit is 2" in text]
    assert len(refused) == 1
    assert sum(bool(s.requests) for s in fan.subs) == 2


def test_a_background_sub_agents_long_answer_is_held_back_too(qwen, fake_chat):
    qwen.spawnkit("install", "--host", "qwen", "--mode", "enforce", "--yes")
    fan = qwen_fan_out(
        fake_chat, "Q4", agents=1, answer_tokens=3000, with_contract=False, background=True
    )
    (call_id,) = fan.call_ids

    qwen.run(fan.prompt)

    task_id = f"general-purpose-{call_id}"
    notified = next(
        (got for req in fan.main.requests if (got := notification(req, task_id)) is not None),
        None,
    )
    assert notified is not None, "no task notification reached the orchestrator"
    assert tokens.estimate(notified) <= BUDGET
    assert fan.answer(call_id) not in fan.main.last.text
    assert _returns(qwen) == [fan.answer(call_id)]
    # its launch could not carry the contract: blocked once, answered again
    assert [r.turn for r in fan.subs[0].requests] == [0, 1]


def _user_settings(qwen) -> bytes:
    text = (
        '{\n  "$version": 4,\n  "ui": {"theme": "Qwen Dark"},\n  "hooks": {\n    "SubagentStop":'
        f' [{{"hooks": [{{"type": "command", "command": {json.dumps(qwen.recorder("user"))},'
        ' "timeout": 10}]}]\n  }\n}\n'
    )
    return qwen.write_settings(text).read_bytes()


def _delegate(qwen, fake_chat, tag: str):
    fake_chat.conversation(
        f"{tag}-ORCH", [qwen_agent(f"{tag}-SUB: check", "check", background=False)], "Ok."
    )
    sub = fake_chat.conversation(f"{tag}-SUB", "AGENT: check\nSTATUS: COMPLETE")
    qwen.run(f"{tag}-ORCH: delegate")
    return sub


def test_install_then_uninstall_leaves_the_settings_and_folder_byte_identical(qwen, fake_chat):
    original = _user_settings(qwen)
    _delegate(qwen, fake_chat, "Q5A")  # the client writes its own files first
    assert qwen.settings_path.read_bytes() == original  # "$version" 4: left alone
    before = snapshot(qwen.qwen_home)

    qwen.spawnkit("install", "--host", "qwen", "--mode", "enforce", "--yes")
    _delegate(qwen, fake_chat, "Q5B")
    assert len(qwen.recorded("user", "SubagentStop")) == 2  # the user's hook ran beside ours
    assert (qwen.qwen_home / ".spawnkit" / "sessions").is_dir()  # and spawnkit's did
    qwen.spawnkit("uninstall", "--host", "qwen", "--yes")

    assert qwen.settings_path.read_bytes() == original
    after = snapshot(qwen.qwen_home)
    kept = {k: v for k, v in before.items() if not k.startswith(QWEN_OWN)}
    assert {k: after.get(k) for k in kept} == kept
    left = {
        k
        for k in set(after) - set(before)
        if not k.startswith(QWEN_OWN + HOOK_STATE) and ".spawnkit-" not in k
    }
    assert left <= {".spawnkit"}
    _delegate(qwen, fake_chat, "Q5C")
    assert len(qwen.recorded("user", "SubagentStop")) == 3  # the user's hook still runs
