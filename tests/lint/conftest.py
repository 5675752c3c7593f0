"""Helpers shared by the lint tests."""

from __future__ import annotations

import textwrap

import pytest

from spawnkit.lint.engine import lint_document


def _lint(
    text: str,
    path: str = "skills/demo-audit/SKILL.md",
    profile: str | None = None,
    preview: bool = True,
):
    """The rule tests check what each rule finds, so the preview tier is on (test_tiers.py
    tests which findings show without it)."""
    return lint_document(textwrap.dedent(text).lstrip("\n"), path, profile, preview=preview)


@pytest.fixture
def lint():
    """lint(text, path=..., profile=...) -> FileResult, with the text dedented."""
    return _lint


@pytest.fixture
def codes():
    """codes(text, ...) -> sorted codes found."""
    return lambda *a, **k: sorted({d.code for d in _lint(*a, **k).diagnostics})


WORKFLOW_PATH = ".claude/workflows/demo.js"
META = "export const meta = { name: 'demo', description: 'A demo workflow' }\n"


def _wf(text: str, path: str = WORKFLOW_PATH, meta: bool = True):
    body = textwrap.dedent(text).lstrip("\n")
    return lint_document((META if meta else "") + body, path)


@pytest.fixture
def wf():
    """wf(js, path=..., meta=True) -> FileResult of a workflow script (meta line prepended)."""
    return _wf


@pytest.fixture
def wf_found():
    """wf_found(js, code, **kw) -> [(line, message)] of that code's findings."""
    return lambda text, code, **k: [
        (d.line, d.message) for d in _wf(text, **k).diagnostics if d.code == code
    ]
