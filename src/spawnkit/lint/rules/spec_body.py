"""SP012 body-too-long."""

from __future__ import annotations

from collections.abc import Iterator

from spawnkit import tokens
from spawnkit.lint.rules.base import Context, Finding, Rule


class BodyTooLong(Rule):
    code = "SP012"
    name = "body-too-long"
    severity = "warning"
    summary = "The body stays under the spec's line and token guidance."
    what = """
Warns when the Markdown body (after the frontmatter) has more lines than the
standard's `body_max_lines` or more tokens than `body_max_tokens` by spawnkit's
token estimate.
"""
    why = """
The whole body enters the context every time the skill runs. Long reference
material belongs in files beside SKILL.md that the skill reads only when needed.
"""
    bad = """
---
name: api-reference
description: Every endpoint of the API.
---
| Method | Path | ... 600 rows ... |
"""
    good = """
---
name: api-reference
description: Every endpoint of the API. Use when writing code that calls the API.
---
Find the endpoint's area below, then read only that file:
- Users and teams: [users.md](users.md)
- Orders and invoices: [orders.md](orders.md)
"""
    example_path = "skills/api-reference/SKILL.md"
    fix = (
        "Move reference material into files beside SKILL.md and link them; keep the body to the "
        "procedure."
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        body = ctx.doc.body_lines
        while body and not body[-1].strip():
            body = body[:-1]
        max_lines = int(ctx.spec["body_max_lines"])
        max_tokens = int(ctx.spec["body_max_tokens"])
        line = ctx.doc.body_start + 1
        if len(body) > max_lines:
            yield Finding(line, f"the body has {len(body)} lines; keep it under {max_lines}")
            return
        text = "\n".join(body)
        if tokens.exceeds(text, max_tokens):
            yield Finding(
                line,
                f"the body is about {tokens.estimate(text)} tokens; keep it under {max_tokens}",
            )
