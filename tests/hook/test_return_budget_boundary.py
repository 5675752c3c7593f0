"""The return budget at its edge: a reply of exactly the budget passes, one token more does not.

The other return-budget tests send replies two to ten times the budget, so a check that let
twice the budget through (or compared with ``>=``) passed them all. Here the replies are built
from the real captured reply until spawnkit's own offline estimate (the one the hook uses) says
exactly ``budget - 1``, ``budget`` and ``budget + 1`` tokens.
"""

from __future__ import annotations

import pytest

from spawnkit import tokens
from spawnkit.standard import protocol
from tests.sized_text import sized

from .conftest import codex_payload, payload

BUDGET = protocol.return_budget()


def reply_of(size: int) -> str:
    """A reply the estimate counts at exactly ``size`` tokens, made of the real reply's words."""
    words = payload("SubagentStop_first_blocked")["last_assistant_message"].split(" ")
    return sized(size, words)


@pytest.mark.parametrize("size", [BUDGET - 1, BUDGET, BUDGET + 1])
def test_the_replies_have_the_sizes_they_claim(size):
    text = reply_of(size)
    assert tokens.estimate(text) == size
    assert tokens.exceeds(text, BUDGET) is (size > BUDGET)


def _stop(text: str) -> dict:
    data = payload("SubagentStop_first_blocked")
    data["last_assistant_message"] = text
    data["stop_hook_active"] = False
    return data


@pytest.mark.parametrize("mode", ["warn", "enforce"])
@pytest.mark.parametrize("size", [BUDGET - 1, BUDGET])
def test_a_reply_at_or_under_the_budget_passes_silently(hook, mode, size):
    assert hook(_stop(reply_of(size)), {"SPAWNKIT_MODE": mode}) is None
    assert not (hook.project / ".spawnkit").exists()


def test_one_token_over_the_budget_is_warned_about(hook):
    answer = hook(_stop(reply_of(BUDGET + 1)), {"SPAWNKIT_MODE": "warn"})
    assert answer == {
        "systemMessage": (
            f"spawnkit: the general-purpose sub-agent returned ~{BUDGET + 1} tokens, over the "
            f"{BUDGET}-token return budget (CM001); its whole reply went into the orchestrator's "
            f"context. Set CM001 to enforce to hold such replies back."
        )
    }


def test_one_token_over_the_budget_is_held_back_and_saved(hook):
    text = reply_of(BUDGET + 1)
    answer = hook(_stop(text), {"SPAWNKIT_MODE": "enforce"})
    assert answer["decision"] == "block"
    assert answer["reason"].startswith(
        f"spawnkit return budget (CM001): your reply is ~{BUDGET + 1} tokens but a sub-agent "
        f"may return at most {BUDGET} tokens, so it was NOT delivered."
    )
    saved = list((hook.project / ".spawnkit" / "returns").rglob("*.md"))
    assert [p.read_text(encoding="utf-8") for p in saved] == [text]


@pytest.mark.parametrize("size", [BUDGET, BUDGET + 1])
def test_codex_has_the_same_edge(codex, size):
    data = codex_payload("block__SubagentStop_00")
    data["last_assistant_message"] = reply_of(size)
    data["stop_hook_active"] = False
    answer = codex(data, {"SPAWNKIT_MODE": "enforce"})
    if size <= BUDGET:
        assert answer is None
    else:
        assert answer["decision"] == "block" and f"~{size} tokens" in answer["reason"]
