"""WF005 deterministic: what Claude Code makes throw (and refuses inline)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "expr",
    [
        "Date.now()",
        "Math.random()",
        "Math['random']()",
        "new Date()",
        "new Date",
        "Date()",
        "[1, 2].map(Date.now)",
    ],
)
def test_clock_and_randomness_are_found(wf_found, expr):
    found = wf_found(f"const x = {expr}\nreturn {{ x }}\n", "WF005")
    assert len(found) == 1 and found[0][0] == 2


@pytest.mark.parametrize(
    "expr",
    [
        "new Date(args.startedAt)",
        "new Date(0).toISOString()",
        "Date.parse('2026-01-01')",
        "Math.max(1, 2)",
    ],
)
def test_deterministic_uses_pass(wf_found, expr):
    assert wf_found(f"const x = {expr}\nreturn {{ x }}\n", "WF005") == []


def test_a_local_function_named_Date_is_not_the_clock(wf_found):
    text = "function Date() { return 'fixed' }\nconst x = Date()\nreturn { x }\n"
    assert wf_found(text, "WF005") == []
