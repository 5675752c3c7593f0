"""Issue 31 on Copilot CLI 1.0.102: ``spawnkit audit --by skill`` on what the real client wrote.

Copilot CLI records a skill's invocation as a ``skill.invoked`` event (its name and the path of
its SKILL.md) when the model calls its ``skill`` tool; its launches carry no tag, so a launch
belongs to the last skill invoked in the same user turn. A ``/name`` given to ``copilot -p``
is not expanded: it reaches the model as the text it is, and nothing is recorded as invoked.
"""

from __future__ import annotations

import pytest

from .audit_checks import audit_by_skill, check_skill
from .fake_chat import FakeChat, Request, say, task, tool_call
from .scenarios import SKILL, hand_written_skill, long_answer


def _sub(api: FakeChat, name: str, i: int) -> dict:
    api.conversation(name, long_answer(name, 3000), name=name)
    return task(f"{name}: review part {i}.", f"part-{i}", description=f"review part {i}")


@pytest.mark.parametrize("how", ["tool", "slash"])
def test_copilot_gives_the_skill_its_returns_and_the_ad_hoc_one_to_no_skill(
    copilot, fake_chat, how
):
    skill_md = hand_written_skill(copilot.project / ".github" / "skills")
    calls = [_sub(fake_chat, f"PX-SUB-{i}", i) for i in (1, 2)]
    ad_hoc = _sub(fake_chat, "PX-LOOK", 3)
    invoke = tool_call("skill", {"skill": SKILL})
    second = "PX-ADHOC: one more look at the README."

    def move(req: Request):
        if second in req.last_user_text:
            if req.tool_result(ad_hoc["id"]) is None:
                return [say("Looking."), ad_hoc]
            return "Looked."
        if how == "tool" and req.tool_result(invoke["id"]) is None:
            return [invoke]
        if any(req.tool_result(c["id"]) is None for c in calls):
            return [say("Two reviewers."), *calls]
        return "Both reviews are in."

    first = "PX-ORCH: review the code with the fan-two skill" if how == "tool" else f"/{SKILL}"
    fake_chat.conversation(first).when(lambda r: True, move)
    copilot.run(first)
    copilot.run(second, extra_args=("--continue",))

    doc = audit_by_skill(copilot, str(copilot.copilot_home / "session-state"))
    (session,) = doc["sessions"]
    if how == "slash":  # what -p does with it: the model got "/fan-two" as text, no skill ran
        assert fake_chat.requests[0].first_user_text.endswith(f"/{SKILL}")
        assert doc["skills"] == [] and session["skills"] == []
        assert doc["unattributed"]["returns"] == 3
        return
    check_skill(doc, SKILL, skill_md, returns=2, outside=1)
    mine = {r["tool_use_id"] for r in session["returns"] if r["skill"] == SKILL}
    assert mine == {c["id"] for c in calls}
    assert [r["tool_use_id"] for r in session["returns"] if r["skill"] is None] == [ad_hoc["id"]]
    assert session["skills"][0]["runs"] == 1
