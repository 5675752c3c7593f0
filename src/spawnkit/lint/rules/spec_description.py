"""SP008–SP010: the ``description`` key."""

from __future__ import annotations

from collections.abc import Iterator

from spawnkit.lint.document import AGENT, SKILL
from spawnkit.lint.rules.base import Context, Finding, Rule


class DescriptionMissing(Rule):
    code = "SP008"
    name = "description-missing"
    severity = "error"
    client_fails = ("agent",)
    summary = "Skills and agents have a non-empty description."
    what = "Checks that SKILL.md and agents/*.md have a non-empty `description` string."
    why = """
The description is all the model sees when it decides whether to use a skill or
which agent to delegate to. Without it the skill is never chosen (or the spec
rejects it).
"""
    bad = """
---
name: researcher
tools: WebSearch, WebFetch
---
Research a question and answer with sources.
"""
    good = """
---
name: researcher
description: Researches a technical question on the web and answers with sources.
tools: WebSearch, WebFetch
---
Research a question and answer with sources.
"""
    example_path = "agents/researcher.md"
    fix = "Add 'description: <what it does>. Use when <trigger>.' to the frontmatter."

    def check(self, ctx: Context) -> Iterator[Finding]:
        doc = ctx.doc
        if (
            doc.kind not in (SKILL, AGENT)
            or doc.front is None
            or not isinstance(doc.front.data, dict)
        ):
            return
        value = doc.data.get("description")
        if value is None or (isinstance(value, str) and not value.strip()):
            yield Finding(doc.key_line("description"), "the frontmatter has no 'description'")
        elif not isinstance(value, str):
            yield Finding(
                doc.key_line("description"),
                f"the description must be a string, not {type(value).__name__}",
            )


class DescriptionLength(Rule):
    code = "SP009"
    name = "description-length"
    severity = "error"
    client_fails = ()
    summary = "The description is at most the spec's maximum length."
    what = (
        "Checks that a skill's or command's `description` is no longer than the standard's "
        "`description_max_length`."
    )
    why = (
        "Longer descriptions are rejected by the spec and truncated in Claude Code's skill listing."
    )
    bad = """
---
name: style-guide
description: >-
  The complete writing style guide ... (1,100 characters of detail about every rule)
---
"""
    good = """
---
name: style-guide
description: Company writing style for user-facing text. Use when writing docs or UI copy.
---
Voice, grammar, naming and formatting rules follow.
"""
    example_path = "skills/style-guide/SKILL.md"
    fix = (
        "Keep the description to what the skill does and when to use it; move the rest into the "
        "body."
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        value = ctx.doc.data.get("description")
        limit = int(ctx.spec["description_max_length"])
        if ctx.doc.kind != AGENT and isinstance(value, str) and len(value) > limit:
            yield Finding(
                ctx.doc.key_line("description"),
                f"the description is {len(value)} characters long; the limit is {limit}",
            )


class DescriptionAngleBrackets(Rule):
    code = "SP010"
    name = "description-angle-brackets"
    severity = "error"
    client_fails = ()
    summary = "A skill's or command's description contains no '<' or '>'."
    what = """
Checks a skill's or command's `description` for the characters the standard
forbids (`<` and `>`). Agent descriptions are exempt: Claude Code's own agent
format puts `<example>` blocks there.
"""
    why = (
        "The description is placed in the system prompt; angle brackets read as markup and are "
        "rejected on upload."
    )
    bad = """
---
name: csv-convert
description: Convert CSV files. Invoke as csv-convert <input.csv> <format>.
---
Convert.
"""
    good = """
---
name: csv-convert
description: Convert CSV files to JSON, Parquet or Excel. Give the input file and the format.
---
Convert.
"""
    example_path = "skills/csv-convert/SKILL.md"
    fix = "Describe arguments in words (or put the usage in 'argument-hint') instead of '<…>'."

    def check(self, ctx: Context) -> Iterator[Finding]:
        value = ctx.doc.data.get("description")
        if ctx.doc.kind == AGENT or not isinstance(value, str):
            return
        bad = [c for c in ctx.spec["description_forbidden_chars"] if c in value]
        if bad:
            yield Finding(
                ctx.doc.key_line("description"),
                "the description contains " + " and ".join(repr(c) for c in bad),
            )
