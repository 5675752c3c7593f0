"""Issue 31 on Codex CLI 0.169.0: ``spawnkit audit --by skill`` on the rollouts the real client
wrote.

Codex has no skill tool and writes no tag on launches. What its rollout shows: a user who names
a skill (``$fan-two``) gets it put into the conversation as a ``<skill>`` message holding its
name and the path of its SKILL.md; a model that picks a skill itself opens that SKILL.md with a
shell command. Either starts the skill's span, which the next prompt of the user ends.
"""

from __future__ import annotations

import shlex

import pytest

from .audit_checks import audit_by_skill, check_skill
from .fake_responses import FakeResponses, Request, exec_command, say, spawn_agent, wait_agent
from .scenarios import SKILL, hand_written_skill, long_answer, not_returned


def _sub(api: FakeResponses, name: str) -> dict:
    api.conversation(name, long_answer(name, 3000), name=name)
    return spawn_agent(f"{name}: review your part of the code.")


@pytest.mark.parametrize("how", ["mention", "read"])
def test_codex_gives_the_skill_its_returns_and_the_ad_hoc_one_to_no_skill(
    codex, fake_responses, how
):
    skill_md = hand_written_skill(codex.project / ".agents" / "skills")
    calls = [_sub(fake_responses, f"CX-SUB-{i}") for i in (1, 2)]
    ad_hoc = _sub(fake_responses, "CX-LOOK")
    read = exec_command(f"cat {shlex.quote(str(skill_md))}")
    second = "CX-ADHOC: one more look at the README."

    def move(req: Request):
        if any(second in text for text in req.messages_of("user")):
            batch = [ad_hoc]
        else:
            if how == "read" and req.tool_result(read["call_id"]) is None:
                return [say("Opening the skill."), read]
            batch = calls
        if any(req.tool_result(c["call_id"]) is None for c in batch):
            return [say("Launching."), *batch]
        waiting = not_returned(req, batch)
        return [wait_agent(waiting)] if waiting else "Done."

    first = "CX-ORCH: review the code" + (f" with ${SKILL}" if how == "mention" else "")
    fake_responses.conversation("CX-ORCH", name="main").when(lambda req: True, move)
    codex.run(first)
    codex.run(second, extra_args=("resume", "--last"))

    doc = audit_by_skill(codex, str(codex.codex_home / "sessions"))
    (session,) = doc["sessions"]
    check_skill(doc, SKILL, skill_md, returns=2, outside=1)
    assert session["skills"] == [
        {"name": SKILL, "runs": 1, "path": str(skill_md), "base_dir": None}
    ]
    returns = session["returns"]
    assert {r["tool_use_id"] for r in returns if r["skill"] == SKILL} == {
        c["call_id"] for c in calls
    }
    assert [r["tool_use_id"] for r in returns if r["skill"] is None] == [ad_hoc["call_id"]]
