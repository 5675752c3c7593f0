"""SP004–SP007: the ``name`` key."""

from __future__ import annotations

import re
from collections.abc import Iterator

from spawnkit.lint.document import AGENT, SKILL, folder_and_name
from spawnkit.lint.rules.base import Context, Finding, Rule

_DEMO_BAD_NAME = """
---
name: Git_Helper
description: Everyday git chores - rebasing, squashing, cleaning up branches.
---
Help with git.
"""


def _name(ctx: Context) -> object:
    return ctx.doc.data.get("name")


class NameMissing(Rule):
    code = "SP004"
    name = "name-missing"
    severity = "error"
    client_fails = ("agent",)
    summary = "Agents, and skills under the portable profile, have a name."
    what = """
Checks that the frontmatter has a `name`. Agents always need one (the Agent tool
addresses them by it). Skills need one under the `portable` profile (the Agent
Skills spec requires it); Claude Code falls back to the folder name, so the
`claude-code` profile does not require it.
"""
    why = "Without a name the skill or agent cannot be invoked, uploaded or listed reliably."
    bad = """
---
description: Summarise yesterday's work as three standup bullets.
---
Look at git log.
"""
    good = """
---
name: standup
description: Summarise yesterday's work as three standup bullets.
---
Look at git log.
"""
    example_path = "agents/standup.md"
    fix = (
        "Add 'name: <lowercase-with-hyphens>' to the frontmatter (for a skill: its folder's name)."
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        doc = ctx.doc
        if doc.front is None or not isinstance(doc.front.data, dict):
            return
        required = doc.kind == AGENT or (doc.kind == SKILL and ctx.profile == "portable")
        if required and not str(doc.data.get("name") or "").strip():
            yield Finding(
                doc.front.start,
                f"the frontmatter has no 'name' (required for {doc.kind}s"
                + (" under the portable profile)" if doc.kind == SKILL else ")"),
            )


class NameFormat(Rule):
    code = "SP005"
    name = "name-format"
    severity = "error"
    client_fails = ()
    summary = "The name uses lowercase letters, digits and single hyphens only."
    what = (
        "Checks the `name` against the standard's pattern: lowercase letters and digits, words "
        "joined by single hyphens."
    )
    why = "Other names are rejected by the Agent Skills spec and make awkward slash commands."
    bad = _DEMO_BAD_NAME
    good = """
---
name: git-helper
description: Everyday git chores - rebasing, squashing, cleaning up branches.
---
Help with git.
"""
    example_path = "skills/git-helper/SKILL.md"
    fix = (
        "Rename to lowercase words joined by hyphens, e.g. 'git-helper' (and rename the folder to "
        "match)."
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        value = _name(ctx)
        if value is None or value == "":
            return
        line = ctx.doc.key_line("name")
        if not isinstance(value, str):
            yield Finding(
                line, f"the name must be a string, not {type(value).__name__} {value!r}; quote it"
            )
        elif not re.match(ctx.spec["name_pattern"], value):
            yield Finding(
                line,
                f"the name {value!r} must be lowercase letters and digits joined by single hyphens",
            )


class NameLength(Rule):
    code = "SP006"
    name = "name-length"
    severity = "error"
    client_fails = ()
    summary = "The name is at most the spec's maximum length."
    what = "Checks that the `name` is no longer than the standard's `name_max_length` characters."
    why = "Longer names are rejected by the Agent Skills spec and truncated in listings."
    bad = """
---
name: audit-every-dependency-of-every-workspace-package-for-licenses-and-cves
description: Audit dependencies.
---
Audit.
"""
    good = """
---
name: dep-audit
description: Audit dependencies of every workspace package for licenses and CVEs.
---
Audit.
"""
    example_path = "skills/dep-audit/SKILL.md"

    @property
    def fix(self) -> str:  # type: ignore[override]
        return "Shorten the name; move detail into the description."

    def check(self, ctx: Context) -> Iterator[Finding]:
        value = _name(ctx)
        limit = int(ctx.spec["name_max_length"])
        if isinstance(value, str) and len(value) > limit:
            yield Finding(
                ctx.doc.key_line("name"),
                f"the name is {len(value)} characters long; the limit is {limit}",
            )


class NameFolderMismatch(Rule):
    code = "SP007"
    name = "name-folder-mismatch"
    severity = "error"
    client_fails = ()
    summary = "A skill's name equals the name of the folder that holds its SKILL.md."
    what = "Checks that `name` in SKILL.md equals the skill folder's name."
    why = (
        "The spec requires it; when they differ, the skill is listed under one name and installed "
        "under another."
    )
    bad = """
---
name: pdf-toolkit
description: Extract text and tables from PDF files.
---
Use pdftotext.
"""
    good = """
---
name: pdf-tools
description: Extract text and tables from PDF files.
---
Use pdftotext.
"""
    example_path = "skills/pdf-tools/SKILL.md"
    fix = "Make the name and the folder name the same (rename one of them)."

    def check(self, ctx: Context) -> Iterator[Finding]:
        value = _name(ctx)
        if ctx.doc.kind != SKILL or not isinstance(value, str) or not value:
            return
        folder, _ = folder_and_name(ctx.doc.path)
        if folder and folder != value:
            yield Finding(
                ctx.doc.key_line("name"),
                f"the name {value!r} differs from the folder name {folder!r}",
            )
