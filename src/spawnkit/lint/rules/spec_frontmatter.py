"""SP001–SP003: the frontmatter block exists and can be read."""

from __future__ import annotations

from collections.abc import Iterator

from spawnkit.lint.document import AGENT, SKILL
from spawnkit.lint.frontmatter import Unsupported
from spawnkit.lint.rules.base import Context, Finding, Rule


class FrontmatterMissing(Rule):
    code = "SP001"
    name = "frontmatter-missing"
    severity = "error"
    client_fails = ("agent",)
    summary = "A skill or agent file starts with a YAML frontmatter block."
    what = """
Checks that SKILL.md and agents/*.md start with a `---` frontmatter block.
Commands (commands/*.md) may omit it: Claude Code takes the name from the file.
"""
    why = """
Without frontmatter there is no name or description: the skill is not listed to
the model (or gets a guessed description) and other clients reject it.
"""
    bad = """
# Meeting notes

Turn a transcript into notes with decisions and action items.
"""
    good = """
---
name: meeting-notes
description: Turn a meeting transcript into notes with decisions and action items.
---
# Meeting notes

Turn a transcript into notes with decisions and action items.
"""
    example_path = "skills/meeting-notes/SKILL.md"
    fix = (
        "Start the file with a frontmatter block: '---', 'name: <folder name>', 'description: "
        "<what and when>', '---'."
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        doc = ctx.doc
        if doc.kind in (SKILL, AGENT) and doc.front is None and doc.front_error is None:
            yield Finding(1, f"this {doc.kind} file has no YAML frontmatter block")


class FrontmatterInvalid(Rule):
    code = "SP002"
    name = "frontmatter-invalid"
    severity = "error"
    client_fails = ()
    summary = "The frontmatter is valid YAML and a mapping of keys to values."
    what = """
Reports frontmatter that is not valid YAML (an unquoted value containing ': ',
an unclosed quote, bad indentation…) or that is not a `key: value` mapping.
"""
    why = """
Claude Code and other clients cannot read a broken frontmatter block: the skill
loses its name and description, or is skipped entirely.
"""
    bad = """
---
name: jira-triage
description: Triage tickets: set component and priority.
---
Triage new tickets.
"""
    good = """
---
name: jira-triage
description: "Triage tickets: set component and priority."
---
Triage new tickets.
"""
    example_path = "skills/jira-triage/SKILL.md"
    fix = "Quote values that contain ': ' or start with a special character; check indentation."

    def check(self, ctx: Context) -> Iterator[Finding]:
        doc = ctx.doc
        err = doc.front_error
        if err is not None and not isinstance(err, Unsupported):
            yield Finding(err.line, f"the frontmatter is not valid YAML: {err.message}")
        elif (
            doc.front is not None
            and doc.front.data is not None
            and not isinstance(doc.front.data, dict)
        ):
            yield Finding(
                doc.front.start, "the frontmatter must be a mapping of 'key: value' lines"
            )
        elif doc.front is not None and doc.front.data is None and doc.kind in (SKILL, AGENT):
            yield Finding(doc.front.start, "the frontmatter block is empty")


class FrontmatterUnsupported(Rule):
    code = "SP003"
    name = "frontmatter-unsupported"
    severity = "warning"
    summary = (
        "The frontmatter uses YAML the lint-on-write hook's reader does not judge; the hook "
        "skips the spec rules (spawnkit lint reads it with PyYAML)."
    )
    what = """
The lint-on-write hook reads frontmatter with a small strict reader (the hook
imports no YAML library). It covers what skills use; for anchors, aliases, tags,
complex keys, timestamps or tab indentation it says so here instead of guessing,
and the other frontmatter rules are skipped for the file. `spawnkit lint` reads
such YAML with PyYAML and checks the file fully, so it never reports this.
"""
    why = """
An honest "not checked" beats a wrong verdict. Such YAML is also fragile across
the clients that load skills.
"""
    bad = """
---
name: hook-guard
description: Block edits to generated files.
hooks:
  PreToolUse: &guard
    - matcher: "Edit|Write"
      hooks: [{type: command, command: ./block.sh}]
  PostToolUse: *guard
---
Guard generated files.
"""
    good = """
---
name: hook-guard
description: Block edits to generated files.
hooks:
  PreToolUse:
    - matcher: "Edit|Write"
      hooks: [{type: command, command: ./block.sh}]
---
Guard generated files.
"""
    example_path = "skills/hook-guard/SKILL.md"
    fix = (
        "Write the value out in plain YAML (no anchors, aliases or tags; quote timestamps; indent "
        "with spaces)."
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        err = ctx.doc.front_error
        if isinstance(err, Unsupported):
            yield Finding(err.line, f"frontmatter not checked: {err.message}")
