"""``adopt --retrofit``: add the template's protocol sections a hand-written SKILL.md lacks.

Which sections count as "protocol" is decided by the linter, not by a list: every
template section whose heading the skill lacks is added, then each one is taken out
again if the lint result does not get worse without it. What stays is what the
protocol needs; what the linter still reports is returned, never hidden.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from spawnkit import fsutil
from spawnkit.lint.engine import lint_text

if TYPE_CHECKING:
    from spawnkit.adopt import AdoptResult

SKILL_FILE = "SKILL.md"
_HEADING = re.compile(r"^(#{2})\s+(.*?)\s*#*\s*$")
_NUMBERING = re.compile(r"^(\d+[.)]\s*)+")


@dataclass(frozen=True)
class Section:
    key: str  # normalised heading: "1. Startup: resume check" -> "startup: resume check"
    heading: str
    text: str  # heading line and body, up to the next "## " heading


def heading_key(title: str) -> str:
    return _NUMBERING.sub("", title.strip().lower()).strip()


def _body_start(lines: list[str]) -> int:
    """Index of the first line after the frontmatter."""
    if lines and lines[0].rstrip() == "---":
        for i in range(1, len(lines)):
            if lines[i].rstrip() == "---":
                return i + 1
    return 0


def split_sections(text: str) -> tuple[str, list[Section]]:
    """(everything before the first ``## `` heading, the ``## `` sections in order)."""
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
        title = _HEADING.match(lines[start]).group(2)
        sections.append(Section(heading_key(title), title, "".join(lines[start:end])))
    return "".join(lines[: starts[0]]), sections


def _join(head: str, sections: list[Section]) -> str:
    parts = [head] + [s.text if s.text.endswith("\n") else s.text + "\n" for s in sections]
    return "".join(parts)


def _merge(user: list[Section], template: list[Section], chosen: set[str]) -> list[Section]:
    """The user's sections with the chosen template sections inserted after their template predecessor."""
    result = list(user)
    for index, section in enumerate(template):
        if section.key not in chosen:
            continue
        after = None
        for previous in reversed(template[:index]):
            keys = [s.key for s in result]
            if previous.key in keys:
                after = keys.index(previous.key)
                break
        result.insert(0 if after is None else after + 1, section)
    return result


def _score(text: str, path: str) -> tuple[int, int]:
    found = lint_text(text, path)
    return sum(d.severity == "error" for d in found), len(found)


def retrofit(path: Path, rendered: Path, answers_name: str, result: AdoptResult) -> None:
    """Add the missing protocol sections (and the files they call) to the skill at ``path``."""
    skill_md = path / SKILL_FILE
    text = skill_md.read_text(encoding="utf-8")
    head, user = split_sections(text)
    _, template = split_sections((rendered / SKILL_FILE).read_text(encoding="utf-8"))
    have = {s.key for s in user}
    chosen = {s.key for s in template if s.key not in have}
    lint_path = str(skill_md)
    best = _score(_join(head, _merge(user, template, chosen)), lint_path)
    for section in reversed(template):
        if section.key not in chosen:
            continue
        trial = chosen - {section.key}
        score = _score(_join(head, _merge(user, template, trial)), lint_path)
        if score <= best:
            chosen, best = trial, score
    new_text = _join(head, _merge(user, template, chosen))
    added_text = "".join(s.text for s in template if s.key in chosen)
    for rel, _ in sorted(fsutil.snapshot(rendered).items()):
        if rel in (SKILL_FILE, answers_name) or (path / rel).exists() or rel not in added_text:
            continue
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(rendered / rel, path / rel)
        result.files_added.append(rel)
    if new_text != text:
        fsutil.atomic_write(skill_md, new_text.encode("utf-8"))
    result.sections_added = [s.heading for s in template if s.key in chosen]
    result.lint_left = [
        f"{d.path}:{d.line}:{d.col}: {d.code} {d.message}" for d in lint_text(new_text, lint_path)
    ]
