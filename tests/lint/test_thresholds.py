"""Every lint threshold at its limit and one past it: the limit passes, limit + 1 is reported.

A threshold tested only far from its limit (1,019 and 1,028 characters, a reply cap four
times the budget, a token count stubbed to "always over") passes with ``>=`` for ``>`` or a
limit ten times too high. Each row here names a rule, the standard's number it reads, and a
document at exactly that number; the same document one unit over must be reported.
"""

from __future__ import annotations

import pytest
from samples import GOOD_HOUSEKEEPING, GOOD_PROMPT, HEAD

from spawnkit import tokens
from spawnkit.lint.engine import lint_document
from spawnkit.standard import protocol
from tests.sized_text import sized

SPEC = protocol.skill_spec()
PROSE = (
    "Read each module of the package and note every unused import, shadowed name or dead "
    "branch you find, with the file and line where it sits."
).split()


def _codes(text: str, path: str = "skills/x/SKILL.md") -> list[str]:
    # preview on: a limit is the rule's, whichever tier the rule is in (CM007 is preview)
    return sorted({d.code for d in lint_document(text, path, None, preview=True).diagnostics})


def _description(n: int) -> str:
    words = ("word " * (n // 5 + 1))[:n].rstrip() or "w"
    value = words + "x" * (n - len(words))
    assert len(value) == n
    return f"---\nname: x\ndescription: >-\n  {value}\n---\nBody.\n"


def _name(n: int) -> tuple[str, str]:
    name = "a" * n
    return f"---\nname: {name}\ndescription: d\n---\nBody.\n", f"skills/{name}/SKILL.md"


def _compatibility(n: int) -> str:
    return f"---\nname: x\ndescription: d\ncompatibility: {'x' * n}\n---\nBody.\n"


def _body_lines(n: int) -> str:
    return "---\nname: x\ndescription: d\n---\n" + "row\n" * n


def _body_tokens(n: int) -> str:
    body = sized(n, PROSE, per_line=14)
    assert tokens.estimate(body) == n and body.count("\n") < SPEC["body_max_lines"]
    return f"---\nname: x\ndescription: d\n---\n{body}\n"


def _reply_cap(n: int) -> str:
    return (
        HEAD
        + GOOD_HOUSEKEEPING
        + "\nFor each package, spawn a sub-agent with this prompt:\n\n```\n"
        + "Audit {package}. Write every finding to .demo-audit-reports/{package}.md.\n"
        + f"Reply with at most {n} tokens: STATUS, counts, report path.\n```\n"
    )


def _parallel(n: int) -> str:
    return (
        HEAD
        + "Keep `.demo-audit-reports/state-<timestamp>.json`, updated after every package;\n"
        + "resume from an unfinished one at start.\n\n"
        + GOOD_PROMPT.replace(
            "For each package, spawn a sub-agent with this prompt:",
            f"Dispatch up to {n} sub-agents in parallel with this prompt:",
        )
    )


def _checkpoint(n: int) -> str:
    return (
        HEAD
        + "One sub-agent at a time. Resume from an unfinished state file if there is one.\n"
        + f"Create `.demo-audit-reports/state-<ts>.json` and checkpoint it every {n} packages.\n\n"
        + GOOD_PROMPT
    )


def _doc(build, n: int) -> tuple[str, str]:
    made = build(n)
    return made if isinstance(made, tuple) else (made, "skills/demo-audit/SKILL.md")


# rule, the standard's limit, the document at a given number (and its path)
CASES = [
    ("SP006", SPEC["name_max_length"], _name),
    ("SP009", SPEC["description_max_length"], lambda n: (_description(n), "skills/x/SKILL.md")),
    ("SP012", SPEC["body_max_lines"], lambda n: (_body_lines(n), "skills/x/SKILL.md")),
    ("SP012", SPEC["body_max_tokens"], lambda n: (_body_tokens(n), "skills/x/SKILL.md")),
    ("SP013", SPEC["compatibility_max_length"], lambda n: (_compatibility(n), "skills/x/SKILL.md")),
    ("CM001", protocol.return_budget(), _reply_cap),
    ("CM005", protocol.max_parallel(), _parallel),
    ("CM007", protocol.checkpoint_every(), _checkpoint),
]
IDS = [
    "SP006-name",
    "SP009-description",
    "SP012-lines",
    "SP012-tokens",
    "SP013-compatibility",
    "CM001-reply-cap",
    "CM005-parallel",
    "CM007-checkpoint",
]


@pytest.mark.parametrize(("code", "limit", "build"), CASES, ids=IDS)
def test_the_limit_passes_and_one_more_is_reported(code, limit, build):
    text, path = _doc(build, limit)
    assert code not in _codes(text, path), f"{code} reported at its limit {limit}"
    text, path = _doc(build, limit + 1)
    assert code in _codes(text, path), f"{code} silent at {limit + 1}, one past its limit"


@pytest.mark.parametrize(("code", "limit", "build"), CASES, ids=IDS)
def test_one_under_the_limit_passes(code, limit, build):
    text, path = _doc(build, limit - 1)
    assert code not in _codes(text, path)


def test_the_token_finding_names_the_real_estimate():
    """No stub: the message carries the estimate of the body, one over the limit."""
    limit = SPEC["body_max_tokens"]
    text = _body_tokens(limit + 1)
    (diag,) = [
        d for d in lint_document(text, "skills/x/SKILL.md", None).diagnostics if d.code == "SP012"
    ]
    assert diag.message == f"the body is about {limit + 1} tokens; keep it under {limit}"
