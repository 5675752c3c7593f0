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
