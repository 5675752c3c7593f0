"""``spawnkit adopt``: put a hand-written skill under management without changing its content.

The current template is rendered into a temporary folder with answers taken from the
skill (the folder's name, the answers of an answers file already there, the frontmatter
``description``, then ``--data``); only the answers file is copied into the skill. An
answers file from plain copier, or from a template version the store lacks, is replaced
(the skill is backed up first) with its answers kept: ``update`` points here for those.
The next ``spawnkit update`` then merges template changes into the skill as if it had
been generated at the adopted version.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from spawnkit.errors import EXIT_FINDINGS, EXIT_OK, SpawnkitError
from spawnkit.files import contain, interrupts, reading
from spawnkit.files.atomic import atomic_write, why_not_writable
from spawnkit.hosts.paths import user_roots
from spawnkit.template import answers, conflicts, copier_run, fsutil, managed
from spawnkit.template import retrofit as retrofitting
from spawnkit.template.store import Store, Target, bundle_refs, provisional_target, store_dir

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
    replaced: str | None = None  # the _src_path of an answers file adopt replaced
    withheld: list[str] = field(default_factory=list)  # template lines left out (see retrofit)

    @property
    def exit_code(self) -> int:
        return EXIT_FINDINGS if self.lint_left else EXIT_OK

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def seeds(
    skill_md: str, previous: managed.Skill | None, label: str = "SKILL.md's frontmatter"
) -> dict[str, Any]:
    """Answers the skill already states: an earlier answers file's, then its frontmatter
    description. The skill name is always the folder's name (the Agent Skills rule)."""
    known = answers.answerable()
    found: dict[str, Any] = {}
    if previous is not None:
        found.update({k: v for k, v in previous.user_data().items() if k in known})
    front = conflicts.frontmatter(skill_md, label) or {}
    description = front.get("description")
    if isinstance(description, str) and "description" in known:
        found["description"] = description
    return found


def _check_name(path: Path, skill_md: str) -> None:
    name = (conflicts.frontmatter(skill_md, f"{path / SKILL_FILE}'s frontmatter") or {}).get("name")
    if isinstance(name, str) and name != path.name:
        raise SpawnkitError(
            f"{path / SKILL_FILE} names the skill {name!r} but its folder is {path.name!r}; "
            "the Agent Skills spec wants them equal: rename the folder or fix the name, then adopt"
        )


def _previous(path: Path, config_dir: Path) -> managed.Skill | None:
    """An answers file already there: refused if ``spawnkit update`` handles the skill, else
    returned so its answers are kept (plain copier, an unknown version, no ``_commit``)."""
    existing = managed.read_skill(path, "path")
    if existing is None:
        return None
    if existing.managed_by(config_dir) and existing.commit in known_versions(config_dir):
        raise SpawnkitError(
            f"{path} is already managed by spawnkit; update it with `spawnkit update {path}`"
        )
    foreign = sorted(set(existing.user_data()) - set(answers.questions()) - {"protocol"})
    if foreign:
        raise SpawnkitError(
            f"{existing.answers_file} holds answers of another template ({', '.join(foreign)}; "
            f"from {existing.src_path!r}); update that skill with `copier update` instead"
        )
    return existing


def known_versions(config_dir: Path) -> set[str]:
    """Template versions ``spawnkit update`` can start from: in the store or shipped."""
    return set(Store(store_dir(config_dir)).tags()) | set(bundle_refs())


def contrast_steps(answers_file: Path) -> list[dict[str, str]]:
    """As many steps as the render used, with other names and jobs: sections that change with
    them describe the template's example workflow, the others are protocol."""
    steps = answers.recorded(answers_file).get(WORKFLOW_QUESTION) or [None]
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
    path: Path,
    pairs: tuple[str, ...],
    config_dir: Path,
    *,
    retrofit: bool = False,
    cwd: Path | None = None,
) -> AdoptResult:
    # spelled out, links not followed: every link on the way to what adopt writes is checked
    path = Path(os.path.abspath(Path(path).expanduser()))
    root, trusted = contain.root_for(path, cwd or Path.cwd(), user_roots())

    def check(target: Path) -> None:
        contain.check(target, root, trusted=trusted)

    check(path)
    if not path.is_dir():
        what = "is a file" if os.path.lexists(path) else "does not exist"
        raise SpawnkitError(f"{path} {what}; pass the folder of a skill (it holds {SKILL_FILE})")
    skill_md = path / SKILL_FILE
    if not os.path.lexists(skill_md):
        raise SpawnkitError(f"{path} has no {SKILL_FILE}; pass the folder of a skill")
    text = reading.read_text(skill_md, fix=f"a skill's {SKILL_FILE} must be a regular file")
    answers.check_name(path.name, f"the folder name of {path}")
    _check_name(path, text)
    previous = _previous(path, config_dir)
    given = answers.parse(pairs, name_source=f"the folder's name ({path.name})")
    answers_name = managed.answers_filename()
    for target_file in (path / answers_name, *([skill_md] if retrofit else [])):
        check(target_file)
        problem = why_not_writable(target_file)
        if problem:
            raise SpawnkitError(f"cannot adopt {path}: {problem}; nothing was written")
    # What the store gains is taken back if the template refuses the answers.
    with (
        provisional_target(config_dir) as target,
        interrupts.temporary_folder("spawnkit-adopt-") as tmp,
    ):
        data = {**seeds(text, previous, f"{skill_md}'s frontmatter"), **given}
        rendered = render_answers(target, path.name, data, answers_name, Path(tmp) / "a")
        answers_file = rendered / answers_name
        answers.check_applied(given, answers.recorded(answers_file))
        result = AdoptResult(str(path), target.tag, str(path / answers_name), data)
        if previous is not None:
            result.replaced = previous.src_path or "(no _src_path)"
        if retrofit:
            other = {**data, WORKFLOW_QUESTION: contrast_steps(answers_file)}
            contrast = render_answers(target, path.name, other, answers_name, Path(tmp) / "b")
            planned = retrofitting.plan(path, rendered, contrast, answers_name)
            for target_file in planned.targets:
                check(target_file)
        if retrofit or previous is not None:
            try:
                backup = fsutil.backup(path, managed.backups_dir(config_dir), path.name)
            except OSError as exc:
                raise SpawnkitError(
                    f"could not back up {path} ({exc.strerror or exc}); nothing was written"
                ) from None
            result.backup = str(backup)
        with interrupts.writing():
            if retrofit:
                done = retrofitting.apply(planned)
                result.sections_added = done.sections_added
                result.files_added = done.files_added
                result.withheld = done.withheld
                result.lint_left = done.lint_left
            atomic_write(path / answers_name, answers_file.read_bytes())
    return result
