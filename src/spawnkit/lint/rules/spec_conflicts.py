"""SP014 conflict-markers: no merge-conflict markers left in the file."""

from __future__ import annotations

from collections.abc import Iterator

from spawnkit.lint.rules.base import Context, Finding, Rule

_START, _MIDDLE, _END = "<<<<<<<", "=======", ">>>>>>>"


def conflict_lines(lines: list[str]) -> list[int]:
    """1-based lines that open a conflict: a ``<<<<<<<`` line with ``=======`` and ``>>>>>>>``
    lines after it, all at the start of a line. A lone ``=======`` is a Markdown heading
    underline, not a conflict."""
    found: list[int] = []
    k = 0
    n = len(lines)
    while k < n:
        if lines[k].startswith(_START):
            middle = next((j for j in range(k + 1, n) if lines[j].startswith(_MIDDLE)), None)
            if middle is None:
                break
            end = next((j for j in range(middle + 1, n) if lines[j].startswith(_END)), None)
            if end is None:
                break
            found.append(k + 1)
            k = end + 1
            continue
        k += 1
    return found


class ConflictMarkers(Rule):
    code = "SP014"
    name = "conflict-markers"
    severity = "error"
    summary = "No merge-conflict markers are left in the file."
    what = """
Finds conflict markers at the start of lines — a `<<<<<<<` line, then `=======`,
then `>>>>>>>` — such as `spawnkit update` (or git) leaves where your edits and the
template's changed the same lines. Checked even when the markers break the
frontmatter.
"""
    why = """
Claude Code loads the file as it is: the model reads both sides of the conflict
as instructions, and markers inside the frontmatter can change or hide keys.
"""
    bad = """
---
name: notes
description: Turn a transcript into notes.
---
<<<<<<< before updating
Summarise the meeting in five bullets.
=======
Summarise the meeting in three bullets.
>>>>>>> after updating
"""
    good = """
---
name: notes
description: Turn a transcript into notes.
---
Summarise the meeting in three bullets.
"""
    example_path = "skills/notes/SKILL.md"
    fix = (
        "Keep the side you want, delete the marker lines, then run 'spawnkit update' again (it "
        "refuses to update a skill while markers remain; its backup is under "
        "<config>/.spawnkit/backups/)."
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        if _START not in ctx.doc.text:
            return  # no line can start with it: one substring search instead of a test per line
        lines = ctx.doc.lines
        if not any(line.startswith(_START) for line in lines):
            return
        for line in conflict_lines(lines):
            yield Finding(line, "an unresolved merge conflict (<<<<<<< … ======= … >>>>>>>)")
