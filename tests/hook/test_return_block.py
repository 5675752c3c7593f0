"""PreToolUse Agent: a prompt without a return contract, warned about or fixed."""

from __future__ import annotations

import pytest

from spawnkit.hook.return_block import contract_problem, stated_caps
from spawnkit.standard import protocol

from .conftest import payload

SESSION = "12b7445c-960b-42b8-a9f4-c3f9c33f404e"
BUDGET = protocol.return_budget()


def block_for(hook) -> str:
    report = hook.project / ".spawnkit" / "reports" / SESSION / "probe-sub-2ab80d.md"
    return protocol.return_block(budget=BUDGET, report=str(report))


def test_warn_tells_the_orchestrator_with_the_block_to_use(hook):
    assert hook(payload("PreToolUse_Agent"), {"SPAWNKIT_MODE_CM005": "off"}) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "additionalContext": (
                'spawnkit return budget (CM001): the prompt of the sub-agent "probe sub" has no '
                "return contract, so its whole reply will land in your context. End every "
                f"sub-agent prompt with a return contract like this:\n{block_for(hook)}"
            ),
        }
    }


def test_enforce_appends_the_block_and_keeps_every_field(hook):
    data = payload("PreToolUse_Agent_matcherTask")
    data["tool_input"] |= {"run_in_background": True, "model": "haiku", "isolation": "worktree"}
    answer = hook(data, {"SPAWNKIT_MODE": "enforce"})
    assert answer == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "updatedInput": {
                "description": "probe sub",
                "prompt": f"SUBTASK: do the thing\n\n{block_for(hook)}",
                "subagent_type": "general-purpose",
                "run_in_background": True,
                "model": "haiku",
                "isolation": "worktree",
            },
        }
    }


@pytest.mark.parametrize("mode", ["warn", "enforce"])
def test_prompt_with_the_standard_block_passes(hook, mode):
    data = payload("PreToolUse_Agent")
    data["tool_input"]["prompt"] += "\n\n" + protocol.return_block(report=".audit-reports/a.md")
    assert hook(data, {"SPAWNKIT_MODE": mode, "SPAWNKIT_MODE_CM005": "off"}) is None


def test_contract_above_the_budget_is_named(hook):
    data = payload("PreToolUse_Agent")
    data["tool_input"]["prompt"] += "\nRETURN CONTRACT: reply in at most 2,000 tokens."
    answer = hook(data, {"SPAWNKIT_MODE_CM005": "off"})
    assert (
        f"caps the reply at 2000 tokens, above the {BUDGET}-token budget"
        in (answer["hookSpecificOutput"]["additionalContext"])
    )


def test_off_and_inputs_without_a_prompt_are_silent(hook):
    env = {"SPAWNKIT_MODE_CM005": "off", "SPAWNKIT_MODE_CM007": "off"}
    assert hook(payload("PreToolUse_Agent"), env | {"SPAWNKIT_MODE_CM001": "off"}) is None
    data = payload("PreToolUse_Agent")
    del data["tool_input"]["prompt"]
    assert hook(data, env | {"SPAWNKIT_MODE": "enforce"}) is None


@pytest.mark.parametrize(
    ("text", "caps"),
    [
        ("Reply with at most 500 tokens.", [500]),
        ("a 300-token summary", [300]),
        ("under 2k tokens", [2000]),
        ("no more than 1,200 tokens; the file has 90 tokens", [1200, 90]),
        ("tokens are counted", []),
        ("v2 tokens", []),
    ],
)
def test_stated_caps(text, caps):
    assert stated_caps(text) == caps


@pytest.mark.parametrize(
    ("prompt", "problem"),
    [
        ("Do the audit.", "has no return contract"),
        ("Reply in 200 tokens.", "has no return contract"),
        (
            "RETURN CONTRACT: be brief, mind the tokens.",
            "has a return contract without a token cap",
        ),
        ("return contract: at most 400 tokens", None),
    ],
)
def test_contract_problem(prompt, problem):
    assert contract_problem(prompt, 500) == problem
