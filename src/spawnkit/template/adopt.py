"""``spawnkit adopt``: put a hand-written skill under management without changing its content.

The current template is rendered into a temporary folder with answers taken from the
skill (its frontmatter ``name`` and ``description``, then ``--data``); only the answers
file is copied into the skill. The next ``spawnkit update`` then merges template changes
into the skill as if it had been generated at the adopted version.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from spawnkit.atomic import atomic_write
from spawnkit.errors import EXIT_FINDINGS, EXIT_OK, SpawnkitError
from spawnkit.template import conflicts, copier_run, fsutil, managed
from spawnkit.template.retrofit import retrofit as add_protocol
from spawnkit.template.store import Target, provisional_target

SKILL_FILE = "SKILL.md"
WORKFLOW_QUESTION = "steps"  # the template question holding the skill's own workflow


@dataclass
class AdoptResult:
    path: str
    version: str
    answers_file: str
    data: dict[str, Any]
    sections_added: list[str] = field(default_factory=list)
    files_added: list[str] = field(default_factory=list)
    lint_left: list[str] = field(default_factory=list)  # "path:line:col: CODE message"
    backup: str | None = None

    @property
    def exit_code(self) -> int:
        return EXIT_FINDINGS if self.lint_left else EXIT_OK

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def parse_data(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs; values are read as YAML (``steps=[...]``, ``max_parallel=2``)."""
    data: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise SpawnkitError(
                f"--data {pair!r} is not KEY=VALUE, e.g. --data purpose='a code review'"
            )
        try:
            data[key.strip()] = yaml.safe_load(value) if value.strip() else ""
        except yaml.YAMLError:
            data[key.strip()] = value
    return data


def template_questions(target: Target) -> set[str]:
    """Question names of the store's template version (top-level keys of copier.yml, minus settings)."""
    from spawnkit.template.gitutil import out

    text = out(["show", f"{target.tag}:copier.yml"], target.store)
    return {m.group(1) for m in re.finditer(r"^([A-Za-z][\w-]*):", text, re.MULTILINE)}


def seed_data(skill_md: str, questions: set[str]) -> dict[str, Any]:
    """Answers the skill already states: its frontmatter name and description."""
    front = conflicts.frontmatter(skill_md) or {}
    seeds: dict[str, Any] = {}
    name = front.get("name")
    if isinstance(name, str):
        for question in ("skill_name", "name"):
            if question in questions:
                seeds[question] = name
                break
    description = front.get("description")
    if isinstance(description, str) and "description" in questions:
        seeds["description"] = description
    return seeds


def contrast_steps(answers_file: Path) -> list[dict[str, str]]:
    """As many steps as the render used, with other names and jobs: sections that change with
    them describe the template's example workflow, the others are protocol."""
    steps = (yaml.safe_load(answers_file.read_text(encoding="utf-8")) or {}).get(
        WORKFLOW_QUESTION
    ) or [None]
    return [
        {"name": f"contrast-{i}", "job": f"Contrast job {i}."} for i in range(1, len(steps) + 1)
    ]


def render_answers(
    target: Target, folder_name: str, data: dict[str, Any], answers_file: str, tmp: Path
) -> Path:
    """Render the target version into ``tmp/<folder_name>`` (the folder name is an answer default)."""
    dest = tmp / folder_name
    try:
        copier_run.copy(
            target.src_path, dest, data=data, vcs_ref=target.tag, answers_file=answers_file
        )
    except copier_run.CopierFailed as exc:
        raise SpawnkitError(
            f"the template rejected the answers: {exc}; fix them with --data KEY=VALUE"
        ) from None
    return dest


def adopt(
    path: Path, pairs: tuple[str, ...], config_dir: Path, *, retrofit: bool = False
) -> AdoptResult:
    path = Path(path).expanduser().resolve()
    skill_md = path / SKILL_FILE
    if not skill_md.is_file():
        raise SpawnkitError(f"{path} has no {SKILL_FILE}; pass the folder of a skill")
    existing = managed.read_skill(path, "path")
    if existing is not None:
        if existing.managed_by(config_dir):
            raise SpawnkitError(
                f"{path} is already managed by spawnkit; update it with `spawnkit update {path}`"
            )
        raise SpawnkitError(
            f"{existing.answers_file} already exists (from {existing.src_path!r}); remove it to adopt the skill"
        )
    text = skill_md.read_text(encoding="utf-8")
    given = parse_data(pairs)
    answers_name = managed.answers_filename()
    # What the store gains is taken back if the template refuses the answers.
    with (
        provisional_target(config_dir) as target,
        tempfile.TemporaryDirectory(prefix="spawnkit-adopt-") as tmp,
    ):
        questions = template_questions(target)
        unknown = sorted(set(given) - questions)
        if unknown:
            raise SpawnkitError(
                f"unknown --data key {unknown[0]!r}; the template asks: {', '.join(sorted(questions))}"
            )
        data = {**seed_data(text, questions), **given}
        rendered = render_answers(target, path.name, data, answers_name, Path(tmp) / "a")
        answers = rendered / answers_name
        result = AdoptResult(str(path), target.tag, str(path / answers_name), data)
        if retrofit:
            other = (
                {**data, WORKFLOW_QUESTION: contrast_steps(answers)}
                if WORKFLOW_QUESTION in questions
                else data
            )
            contrast = render_answers(target, path.name, other, answers_name, Path(tmp) / "b")
            try:
                backup = fsutil.backup(path, Path(config_dir) / ".spawnkit" / "backups", path.name)
            except OSError as exc:
                raise SpawnkitError(
                    f"could not back up {path} ({exc}); nothing was written"
                ) from exc
            result.backup = str(backup)
            done = add_protocol(path, rendered, contrast, answers_name)
            result.sections_added = done.sections_added
            result.files_added = done.files_added
            result.lint_left = done.lint_left
        atomic_write(path / answers_name, answers.read_bytes())
    return result
