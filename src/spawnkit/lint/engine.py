"""Lint engine (placeholder until issue 4 lands).

Standard library only: the lint-on-write hook calls ``lint_text``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Diagnostic:
    path: str
    line: int
    col: int
    code: str
    name: str
    severity: str  # "error" | "warning"
    message: str
    fix: str


def lint_text(text: str, path: str, profile: str | None = None) -> list[Diagnostic]:
    """Diagnostics for one file's text; ``path`` decides the file kind and folder-name checks."""
    return []
