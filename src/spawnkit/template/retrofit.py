"""``adopt --retrofit``: add the template's protocol sections a hand-written SKILL.md lacks.

A template section is "protocol" when it does not depend on the skill's own steps:
the template is rendered twice with different steps, and sections that come out
identical (rules, resume check, checkpoint, finish) are protocol; sections that change
(the step table, the sub-agent prompts) describe the template's example workflow and
are never pasted into a skill that has its own. The files the added sections call
(e.g. ``scripts/state.py``) are added too. Then the linter runs, and what it still
reports is returned — typically prompts of the user's own that lack a return contract.

A retrofit only adds text, so it can fix only what was missing: the state file, the
resume check, the checkpoints. A finding about what the skill's own text says (a prompt
that asks for the full report, "spawn 5 agents in parallel") is not fixed by a template
rule saying the opposite; such a rule would only hide it from the linter. So every added
line that makes such a finding disappear is left out and reported as withheld, and the
finding stays for the user to fix.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from spawnkit.files.atomic import atomic_write
from spawnkit.lint.engine import lint_text
from spawnkit.lint.frontmatter import split
from spawnkit.template import fsutil

SKILL_FILE = "SKILL.md"
# What adding the template's sections can really fix: things the skill did not have at all.
FIXED_BY_ADDING = frozenset({"CM003", "CM004", "CM007"})
_HEADING = re.compile(r"^##\s+(.*?)\s*#*\s*$")
_NUMBERING = re.compile(r"^(\d+[.)]\s*)+")


@dataclass
class Retrofitted:
    """What a retrofit changed, and what the linter still reports (``path:line:col: CODE msg``)."""

    sections_added: list[str] = field(default_factory=list)
    files_added: list[str] = field(default_factory=list)
    withheld: list[str] = field(default_factory=list)  # template lines that would hide a finding
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
    parts = [head.rstrip("\n") + "\n\n" if head.strip() else head]
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


@dataclass
class Plan:
    """What a retrofit will write: SKILL.md's new text and the files to copy from the render."""

    path: Path
    render: Path
    text: str  # SKILL.md as it is
    new_text: str
    adding: list[str]  # relative paths, copied from ``render``
    result: Retrofitted

    @property
    def targets(self) -> list[Path]:
        """Every file the retrofit writes (checked before the first write, see ``adopt``)."""
        changed = [self.path / SKILL_FILE] if self.new_text != self.text else []
        return changed + [self.path / rel for rel in self.adding]


def plan(path: Path, render_a: Path, render_b: Path, answers_name: str) -> Plan:
    """The missing protocol sections (and the files they call) for the skill at ``path``;
    nothing is written (``apply`` does that)."""
    result = Retrofitted()
    skill_md = path / SKILL_FILE
    text = skill_md.read_text(encoding="utf-8")
    head, user = split_sections(text)
    protocol, leading_count = protocol_sections(
        (render_a / SKILL_FILE).read_text(encoding="utf-8"),
        (render_b / SKILL_FILE).read_text(encoding="utf-8"),
    )
    have = {s.key for s in user}
    leading = {s.key for s in protocol[:leading_count]}

    def compose(added: list[Section]) -> str:
        return _joined(head, place(user, added, protocol, leading)) if added else text

    missing, result.withheld = without_hiding(
        [s for s in protocol if s.key not in have], compose, _findings(text, skill_md), skill_md
    )
    new_text = compose(missing)
    added_text = "".join(s.text for s in missing)
    adding = [
        rel
        for rel in sorted(fsutil.snapshot(render_a))
        if rel not in (SKILL_FILE, answers_name)
        and not (path / rel).exists()  # a dangling link stays in: the caller's check refuses it
        and Path(rel).name in added_text
    ]
    result.sections_added = [s.heading for s in missing]
    result.lint_left = [
        f"{d.path}:{d.line}:{d.col}: {d.code} {d.message}"
        for d in lint_text(new_text, str(skill_md), reader="pyyaml")
    ]
    return Plan(path, render_a, text, new_text, adding, result)


def apply(planned: Plan) -> Retrofitted:
    """Write what ``plan`` found: the files first, SKILL.md last."""
    path, result = planned.path, planned.result
    for rel in planned.adding:
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(planned.render / rel, path / rel)
        result.files_added.append(rel)
    if planned.new_text != planned.text:
        atomic_write(path / SKILL_FILE, planned.new_text.encode("utf-8"))
    return result


def _findings(text: str, skill_md: Path) -> Counter[tuple[str, str]]:
    # every tier: a preview finding hidden by an added line is hidden all the same
    return Counter((d.code, d.message) for d in lint_text(text, str(skill_md), preview=True))


def without_hiding(
    sections: list[Section],
    compose: Callable[[list[Section]], str],
    before: Counter[tuple[str, str]],
    skill_md: Path,
) -> tuple[list[Section], list[str]]:
    """``sections`` minus every line whose addition would make a finding disappear that
    adding cannot fix (see ``FIXED_BY_ADDING``); returns (what to add, the lines left out)."""

    def hidden(candidate: list[Section]) -> int:
        after = _findings(compose(candidate), skill_md)
        return sum(
            max(0, count - after[key])
            for key, count in before.items()
            if key[0] not in FIXED_BY_ADDING
        )

    current = list(sections)
    left_out: list[str] = []
    score = hidden(current)
    for index in range(len(current)):
        if not score:
            break
        lines = current[index].text.splitlines(keepends=True)
        body = 1  # the heading line stays while the section keeps any line
        while body < len(lines) and score:
            if not lines[body].strip():
                body += 1
                continue
            trial_lines = lines[:body] + lines[body + 1 :]
            trial = _with_text(current, index, "".join(trial_lines))
            trial_score = hidden(trial)
            if trial_score < score:
                left_out.append(lines[body].strip())
                lines, current, score = trial_lines, trial, trial_score
            else:
                body += 1
    kept = [s for s in current if any(line.strip() for line in s.text.splitlines()[1:])]
    return kept, left_out


def _with_text(sections: list[Section], index: int, text: str) -> list[Section]:
    changed = list(sections)
    changed[index] = replace(sections[index], text=text)
    return changed
