"""``spawnkit rule``: print one rule's documentation, every rule's, or the list of rules."""

from __future__ import annotations

import sys
from typing import TextIO

from spawnkit.errors import EXIT_OK, SpawnkitError
from spawnkit.lint import calibration
from spawnkit.lint.evidence import CALIBRATED, PREVIEW
from spawnkit.lint.rules import ALL, Rule, get


def run(code: str | None, show_all: bool = False, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    if show_all and code is not None:
        raise SpawnkitError(
            f"give a rule or --all, not both: `spawnkit rule {code}` or `spawnkit rule --all`"
        )
    if show_all:
        out.write("\n\n".join(rule.doc() for rule in ALL))
        return EXIT_OK
    if code is None:
        width = max(len(r.name) for r in ALL)
        for rule in ALL:
            out.write(
                f"{rule.code}  {rule.name:<{width}}  {_severity(rule):<7}  {rule.tier:<10}  "
                f"{rule.summary}\n"
            )
        return EXIT_OK
    rule = get(code)
    if rule is None:
        raise SpawnkitError(
            f"unknown rule {code!r}; give a code or a name such as CM005 or max-parallel "
            "(`spawnkit rule` lists them)"
        )
    out.write(rule.doc())
    return EXIT_OK


def _severity(rule: Rule) -> str:
    """What a finding of ``rule`` shows as today: a preview rule's findings are warnings, and so
    are a calibrated rule's when no threshold reached the target precision."""
    if rule.tier == CALIBRATED and calibration.threshold(rule.code) is None:
        return "warning"
    return "warning" if rule.tier == PREVIEW else rule.severity
