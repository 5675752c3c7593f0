"""Gemini CLI 0.61.0, for real, offline: spawnkit installed with ``spawnkit install --host gemini``.

Gemini CLI has no sub-agent stop: a sub-agent ends by calling ``complete_task``, and spawnkit's
BeforeTool hook on it is what holds a long answer back (saved whole, denied, answered again).
Nothing in the client caps that loop but the sub-agent's turn limit, so these runs also show
that spawnkit's own limit lets a sub-agent that keeps answering long through, and that one in
its last turn is never denied: the parent always gets an answer.
"""

from __future__ import annotations

import json

from spawnkit import tokens
from spawnkit.standard import protocol
from tests.snapshots import snapshot

from .fake_gemini import complete, complete_text, invoke_agent, say
from .scenarios import gemini_fan_out, long_answer

BUDGET = protocol.return_budget()
CONTRACT_HEAD = protocol.load()["return_block"][0]
# What Gemini CLI writes into ~/.gemini while it runs, and spawnkit's hook while it runs.
GEMINI_OWN = ("installation_id", "projects.json", "history", "tmp", "trustedFolders.json")
HOOK_STATE = (".spawnkit/sessions", ".spawnkit/hook.log")


def _returns(gemini) -> list[str]:
    folder = gemini.project / ".spawnkit" / "returns"
    return sorted(p.read_text(encoding="utf-8") for p in folder.rglob("*.md"))


def test_a_12000_character_answer_reaches_the_parent_short_and_is_saved_whole(gemini, fake_gemini):
    gemini.spawnkit("install", "--host", "gemini", "--mode", "enforce", "--yes")
    fan = gemini_fan_out(fake_gemini, "G1E", agents=1, answer_tokens=7100, with_contract=False)
    (call_id,) = fan.call_ids
    assert len(fan.answer(call_id)) >= 12_000

    run = gemini.run(fan.prompt)

    got = fan.main.request_with_agent_result(call_id).agent_result(call_id)
    assert tokens.estimate(got) <= BUDGET, got
    assert fan.answer(call_id) not in fan.main.last.text
    assert _returns(gemini) == [fan.answer(call_id)]  # whole, on disk, in the project
    sub = fan.subs[0]
    # the launch carried the contract (BeforeTool rewrote the whole input) ...
    assert CONTRACT_HEAD in sub.first.first_user_text
    # ... the sub-agent answered at length once, was denied with the saved copy named, and
    # called complete_task again
    assert [r.turn for r in sub.requests] == [0, 1]
    denied = sub.requests[1].function_responses()[-1].text
    assert "Tool execution blocked" in denied and ".spawnkit/returns" in denied
    assert run.result


def test_a_sub_agent_that_keeps_answering_long_is_let_through_after_the_retry_limit(
    gemini, fake_gemini
):
    gemini.spawnkit("install", "--host", "gemini", "--mode", "enforce", "--yes")
    answer = long_answer("G2", 3000)
    main = fake_gemini.conversation(
        "G2-ORCH", [say("go"), invoke_agent("G2-SUB: audit", call_id="g2call")], "Done."
    )
    sub = fake_gemini.conversation("G2-SUB", name="G2-SUB").when(
        lambda req: True, lambda req: complete(answer)
    )

    run = gemini.run("G2-ORCH: audit")

    got = main.request_with_agent_result("g2call").agent_output("g2call")
    assert (
        "Termination Reason: GOAL" in got and answer.splitlines()[0] in got
    )  # an answer, not MAX_TURNS
    assert len(sub.requests) == 3  # max_retries (2) denies, then let through
    assert len(_returns(gemini)) == 2
    assert "after 2 retries" in run.stderr  # the warning, shown to the user


def test_a_sub_agent_in_its_grace_turn_gets_through(gemini, fake_gemini):
    """A custom agent with one turn: its long answer is denied, Gemini CLI gives it its grace
    turn, and there spawnkit lets the long answer through (a deny would end the sub-agent with
    no answer at all)."""
    agents = gemini.gemini_home / "agents"
    agents.mkdir(parents=True)
    (agents / "quick.md").write_text(
        "---\nname: quick\ndescription: Answers at once.\nmax_turns: 1\n---\nAnswer at once.\n",
        encoding="utf-8",
    )
    gemini.spawnkit("install", "--host", "gemini", "--mode", "enforce", "--yes")
    answer = long_answer("G3", 3000)
    main = fake_gemini.conversation(
        "G3-ORCH", [invoke_agent("G3-SUB: audit", "quick", call_id="g3call")], "Done."
    )
    sub = fake_gemini.conversation("G3-SUB", name="G3-SUB").when(
        lambda req: True, lambda req: complete_text(answer)
    )

    run = gemini.run("G3-ORCH: audit")

    got = main.request_with_agent_result("g3call").agent_output("g3call")
    assert "MAX_TURNS" not in got and answer.splitlines()[0] in got, got
    assert len(sub.requests) == 2  # denied once, then its grace turn
    assert "one final chance" in sub.requests[1].last_user_text
    assert "in its last turn" in run.stderr


def test_three_launches_with_a_cap_of_two_one_is_denied(gemini, fake_gemini):
    gemini.spawnkit("install", "--host", "gemini", "--mode", "enforce", "--yes")
    fan = gemini_fan_out(fake_gemini, "G4", agents=3, per_message=3, answer_tokens=50)

    gemini.run(fan.prompt)

    last = fan.main.last
    refused = [c for c in fan.call_ids if last.launch_refused(c)]
    assert len(refused) == 1
    assert "the limit is 2" in last.tool_result(refused[0]).text
    assert sum(bool(s.requests) for s in fan.subs) == 2


def _user_settings(gemini) -> bytes:
    """An API-key user's settings with a hook and a key of the user's own."""
    text = (
        '{\n  "security": {"auth": {"selectedType": "gemini-api-key"}},\n'
        '  "ui": {"theme": "GitHub"},\n  "hooks": {\n    "BeforeTool": [\n'
        f'      {{"matcher": "^invoke_agent$", "hooks": [{{"name": "mine", "type": "command",'
        f' "command": {json.dumps(gemini.recorder("user"))}, "timeout": 10000}}]}}\n'
        "    ]\n  }\n}\n"
    )
    return gemini.write_settings(text).read_bytes()


def test_install_then_uninstall_leaves_the_settings_and_folder_byte_identical(gemini, fake_gemini):
    original = _user_settings(gemini)
    fake_gemini.conversation("G5A-ORCH", [invoke_agent("G5A-SUB: hi")], "Ok.")
    fake_gemini.conversation("G5A-SUB", complete("hello"))
    gemini.run("G5A-ORCH: go")  # the client writes its own files first
    before = snapshot(gemini.gemini_home)

    gemini.spawnkit("install", "--host", "gemini", "--mode", "enforce", "--yes")
    fake_gemini.conversation("G5B-ORCH", [invoke_agent("G5B-SUB: hi")], "Ok.")
    sub = fake_gemini.conversation("G5B-SUB", complete("hello"))
    gemini.run("G5B-ORCH: go")
    assert CONTRACT_HEAD in sub.first.first_user_text  # spawnkit's hook ran ...
    assert len(gemini.recorded("user", "BeforeTool")) == 2  # ... and so did the user's
    gemini.spawnkit("uninstall", "--host", "gemini", "--yes")

    assert gemini.settings_path.read_bytes() == original
    after = snapshot(gemini.gemini_home)
    kept = {k: v for k, v in before.items() if not k.startswith(GEMINI_OWN)}
    assert {k: after.get(k) for k in kept} == kept  # every byte the user had, as it was
    left = {
        k
        for k in set(after) - set(before)
        if not k.startswith(GEMINI_OWN + HOOK_STATE) and ".spawnkit-" not in k
    }
    assert left <= {".spawnkit"}  # the hook's runtime state only
    fake_gemini.conversation("G5C-ORCH", [invoke_agent("G5C-SUB: hi")], "Ok.")
    sub = fake_gemini.conversation("G5C-SUB", complete("hello"))
    gemini.run("G5C-ORCH: go")
    assert CONTRACT_HEAD not in sub.first.first_user_text  # spawnkit is gone ...
    assert len(gemini.recorded("user", "BeforeTool")) == 3  # ... the user's hook is not
