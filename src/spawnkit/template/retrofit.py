"""``adopt --retrofit``: add the template's protocol sections a hand-written SKILL.md lacks.

A template section is "protocol" when it does not depend on the skill's own steps:
the template is rendered twice with different steps, and sections that come out
identical (rules, resume check, checkpoint, finish) are protocol; sections that change
(the step table, the sub-agent prompts) describe the template's example workflow and
are never pasted into a skill that has its own. The files the added sections call
(e.g. ``scripts/state.py``) are added too. Then the linter runs, and what it still
reports is returned — typically prompts of the user's own that lack a return contract.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from spawnkit.atomic import atomic_write
from spawnkit.lint.engine import lint_text
from spawnkit.lint.frontmatter import split
from spawnkit.template import fsutil

SKILL_FILE = "SKILL.md"
_HEADING = re.compile(r"^##\s+(.*?)\s*#*\s*$")
_NUMBERING = re.compile(r"^(\d+[.)]\s*)+")


@dataclass
class Retrofitted:
    """What a retrofit changed, and what the linter still reports (``path:line:col: CODE msg``)."""

    sections_added: list[str] = field(default_factory=list)
    files_added: list[str] = field(default_factory=list)
    lint_left: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Section:
    key: str  # normalised heading: "1. Startup: resume check" -> "startup: resume check"
    heading: str
    text: str  # heading line and body, up to the next "## " heading


def heading_key(title: str) -> str:
    return _NUMBERING.sub("", title.strip().lower()).strip()


def _body_start(lines: list[str]) -> int:
    """Index of the first line after the frontmatter."""
    fence = split(lines, strict=False)
    return 0 if fence is None else fence[1] + 1


def split_sections(text: str) -> tuple[str, list[Section]]:
    """(everything before the first ``## `` heading, the ``## `` sections in order); fences respected."""
    lines = text.splitlines(keepends=True)
    starts = []
    fence = False
    for i in range(_body_start(lines), len(lines)):
        if lines[i].lstrip().startswith(("```", "~~~")):
            fence = not fence
        elif not fence and _HEADING.match(lines[i]):
            starts.append(i)
    if not starts:
        return text, []
    sections = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        title = _HEADING.match(lines[start]).group(1)
        sections.append(Section(heading_key(title), title, "".join(lines[start:end])))
    return "".join(lines[: starts[0]]), sections


def _joined(head: str, sections: list[Section]) -> str:
    parts = [head if head.endswith("\n") or not head else head + "\n"]
    for section in sections:
        text = section.text if section.text.endswith("\n") else section.text + "\n"
        parts.append(text if text.endswith("\n\n") else text + "\n")
    return "".join(parts).rstrip("\n") + "\n"


def protocol_sections(render_a: str, render_b: str) -> tuple[list[Section], int]:
    """Sections of ``render_a`` identical in ``render_b`` (rendered with other steps), and the
    index of the first step-dependent section (``len`` if none)."""
    _, a = split_sections(render_a)
    _, b = split_sections(render_b)
    same = {s.key: s.text for s in b}
    protocol = [s for s in a if same.get(s.key) == s.text]
    first_specific = next((i for i, s in enumerate(a) if same.get(s.key) != s.text), len(a))
    return protocol, sum(1 for s in a[:first_specific] if same.get(s.key) == s.text)


def place(
    user: list[Section], missing: list[Section], template_order: list[Section], leading: set[str]
) -> list[Section]:
    """Sections that precede the template's workflow go after their nearest template predecessor
    present (else on top); the others go at the end, in template order."""
    result = list(user)
    tail = []
    for section in missing:
        if section.key not in leading:
            tail.append(section)
            continue
        index = [s.key for s in template_order].index(section.key)
        keys = [s.key for s in result]
        anchor = next(
            (keys.index(p.key) for p in reversed(template_order[:index]) if p.key in keys), None
        )
        result.insert(0 if anchor is None else anchor + 1, section)
    return result + tail


def retrofit(path: Path, render_a: Path, render_b: Path, answers_name: str) -> Retrofitted:
    """Add the missing protocol sections (and the files they call) to the skill at ``path``."""
    result = Retrofitted()
    skill_md = path / SKILL_FILE
    text = skill_md.read_text(encoding="utf-8")
    head, user = split_sections(text)
    protocol, leading_count = protocol_sections(
        (render_a / SKILL_FILE).read_text(encoding="utf-8"),
        (render_b / SKILL_FILE).read_text(encoding="utf-8"),
    )
    have = {s.key for s in user}
    missing = [s for s in protocol if s.key not in have]
    leading = {s.key for s in protocol[:leading_count]}
    new_text = _joined(head, place(user, missing, protocol, leading)) if missing else text
    added_text = "".join(s.text for s in missing)
    for rel in sorted(fsutil.snapshot(render_a)):
        if (
            rel in (SKILL_FILE, answers_name)
            or (path / rel).exists()
            or Path(rel).name not in added_text
        ):
            continue
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(render_a / rel, path / rel)
        result.files_added.append(rel)
    if new_text != text:
        atomic_write(skill_md, new_text.encode("utf-8"))
    result.sections_added = [s.heading for s in missing]
    result.lint_left = [
        f"{d.path}:{d.line}:{d.col}: {d.code} {d.message}"
        for d in lint_text(new_text, str(skill_md), reader="pyyaml")
    ]
    return result
