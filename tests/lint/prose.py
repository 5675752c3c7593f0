"""Lint one skill body under a fixed frontmatter: the helpers of the prose-wording tests."""

from __future__ import annotations

from spawnkit.lint.engine import lint_document

HEAD = "---\nname: demo-audit\ndescription: Audit the code.\n---\n"
PATH = "skills/demo-audit/SKILL.md"


def result(body: str, front: str | None = None, path: str = PATH, preview: bool = True):
    """``body`` linted as a SKILL.md, under ``front`` (frontmatter lines) or the default head.

    With the preview tier on: these tests check what each reading finds; which readings are
    trusted by default is tested in test_tiers.py and measured on real skills."""
    head = f"---\n{front}---\n" if front is not None else HEAD
    return lint_document(head + body, path, preview=preview)


def codes(body: str, **kw) -> set[str]:
    return {d.code for d in result(body, **kw).diagnostics}


def messages(code: str, body: str, **kw) -> list[str]:
    return [d.message for d in result(body, **kw).diagnostics if d.code == code]
