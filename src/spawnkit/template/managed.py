"""Find the skills spawnkit manages: those whose answers file points at spawnkit's template store."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from spawnkit.errors import SpawnkitError
from spawnkit.files import bounded, contain, reading
from spawnkit.hosts.paths import all_skill_dirs, project_claude_dir, user_roots
from spawnkit.standard import resources
from spawnkit.template.store import same_path, store_dir

DEFAULT_ANSWERS_FILE = ".copier-answers.yml"
MAX_ANSWERS_BYTES = 256 * 1024  # a few answers; anything bigger is not an answers file


BACKUPS_REL = Path(".spawnkit") / "backups"


def backups_dir(config_dir: Path) -> Path:
    """Where ``new --force``, ``update`` and ``adopt`` back skills up: the user's own folder
    (``<config>/.spawnkit/backups``), never the project the skill is in."""
    return Path(config_dir) / BACKUPS_REL


def answers_filename() -> str:
    """The answers file name the running template writes (``_answers_file`` in copier.yml)."""
    text = (resources.data_root() / "copier.yml").read_text(encoding="utf-8")
    match = re.search(r"^_answers_file:\s*['\"]?([^'\"\s#]+)", text, re.MULTILINE)
    return match.group(1) if match else DEFAULT_ANSWERS_FILE


@dataclass(frozen=True)
class Skill:
    """A skill folder that has a copier answers file."""

    path: Path
    scope: str  # "user", "project" or "path" (named on the command line)
    answers_file: Path
    answers: dict[str, Any]

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def commit(self) -> str | None:
        value = self.answers.get("_commit")
        return str(value) if value is not None else None

    @property
    def src_path(self) -> str | None:
        value = self.answers.get("_src_path")
        return str(value) if value is not None else None

    def managed_by(self, config_dir: Path) -> bool:
        return bool(self.src_path) and same_path(self.src_path, store_dir(config_dir))

    def user_data(self) -> dict[str, Any]:
        """The answers to the template's questions (what a re-render needs)."""
        return {k: v for k, v in self.answers.items() if not k.startswith("_")}


def read_skill(path: Path, scope: str, root: Path | None = None) -> Skill | None:
    """The skill at ``path`` if it has an answers file; None if it has none.

    ``root``: the project the skill is in; an answers file resolving out of it is refused
    (``contain.Outside``) and never opened. None: the user's own folder, or a skill named
    outside any project."""
    for name in dict.fromkeys((answers_filename(), DEFAULT_ANSWERS_FILE)):
        answers_file = path / name
        if os.path.lexists(answers_file):
            # a plain file of sane size (a project's skills arrive with git clone)
            text = reading.read_text(
                answers_file,
                what="the answers file",
                limit=MAX_ANSWERS_BYTES,
                fix="move it aside and run the command again",
                root=root,
            )
            try:
                data = bounded.yaml_loads(text, f"the answers file {answers_file}") or {}
            except yaml.YAMLError as exc:
                first = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
                raise SpawnkitError(
                    f"the answers file {answers_file} is not valid YAML ({first}); fix or remove it"
                ) from None
            if not isinstance(data, dict):
                raise SpawnkitError(
                    f"{answers_file} is not a YAML mapping; fix or remove that file"
                )
            return Skill(path, scope, answers_file, data)
    return None


def write_root(skill: Skill, cwd: Path) -> tuple[Path, bool]:
    """(root, trusted) for writes into ``skill`` (see ``spawnkit.files.contain``): a project
    skill stays inside the project, a user skill's links are the user's, a skill named by
    its path is judged by where that path is spelled."""
    if skill.scope == "project":
        return Path(os.path.abspath(cwd)), False
    return contain.root_for(skill.path, cwd, user_roots())


def scope_dirs(config_dir: Path, cwd: Path) -> list[tuple[str, Path]]:
    """``(scope, skills folder)`` for the user and the current project, without duplicates:
    Claude Code's (``config_dir`` is its folder), then every other host's (Codex:
    ``$CODEX_HOME/skills``, ``~/.agents/skills``, ``./.agents/skills``, ``./.codex/skills``)."""
    claude = [
        ("user", Path(config_dir) / "skills"),
        ("project", project_claude_dir(cwd) / "skills"),
    ]
    return all_skill_dirs(cwd, first=claude)


def read_root(path: Path, cwd: Path) -> Path | None:
    """The folder reads of the skill (or script) ``path`` keep to (``contain.root_for``):
    None in the user's own folders, else the project when ``path`` is spelled in it, else
    the folder ``path`` as named (None for a file named outside any project: the user's
    choice, like everything beside it)."""
    root, trusted = contain.root_for(path, cwd, user_roots())
    if trusted or (root == Path(os.path.abspath(path)) and not os.path.isdir(path)):
        return None
    return root


def discover(
    config_dir: Path, cwd: Path, outside: list[tuple[Path, Path]] | None = None
) -> list[Skill]:
    """Every skill with an answers file in the user and project scopes.

    A project's skill folder (or its answers file) that resolves out of the project is not
    read: it goes to ``outside`` as ``(path, project)``, and is left out."""
    found = []
    for scope, folder in scope_dirs(config_dir, cwd):
        root = read_root(folder, cwd)
        if not folder.is_dir():
            continue
        if root is not None and not contain.inside(folder, root):
            if outside is not None:
                outside.append((folder, root))
            continue
        for child in sorted(folder.iterdir()):
            if root is not None and not contain.inside(child, root):
                if outside is not None and child.is_dir():
                    outside.append((child, root))
                continue
            try:
                skill = read_skill(child, scope, root) if child.is_dir() else None
            except contain.Outside:
                skill = None
                if outside is not None:
                    outside.append((child, root))  # type: ignore[arg-type]  # root is set
            if skill is not None:
                found.append(skill)
    return found


def select(
    names: tuple[str, ...],
    config_dir: Path,
    cwd: Path,
    outside: list[tuple[Path, Path]] | None = None,
) -> list[Skill]:
    """Managed skills named on the command line (a folder path, or a skill name in a scope).

    With no names: every managed skill. A name that is missing or not managed is an error.
    Skills linked out of their project are left out and listed in ``outside`` (``discover``).
    """
    if not names:
        return [s for s in discover(config_dir, cwd, outside) if s.managed_by(config_dir)]
    chosen: list[Skill] = []
    by_name: dict[str, list[Skill]] = {}
    for skill in discover(config_dir, cwd, outside):
        by_name.setdefault(skill.name, []).append(skill)
    for name in names:
        path = Path(name).expanduser()
        if "/" in name or name in (".", "..") or (path.is_dir() and name not in by_name):
            if not path.is_dir():
                what = "is a file" if os.path.lexists(path) else "does not exist"
                raise SpawnkitError(f"{name} {what}; pass a skill folder or a skill name")
            folder = Path(os.path.abspath(path))
            skill = read_skill(folder, "path", read_root(folder, cwd))  # writes: checked later
            if skill is None:
                raise SpawnkitError(
                    f"{name} has no {answers_filename()}; put it under management with `spawnkit adopt {name}`"
                )
            matches = [skill]
        else:
            matches = by_name.get(name, [])
            if not matches:
                where = ", ".join(str(d) for _, d in scope_dirs(config_dir, cwd))
                raise SpawnkitError(
                    f"no skill named {name!r} with an answers file in {where}; "
                    "pass its folder path, or `spawnkit adopt` it first"
                )
        for skill in matches:
            if not skill.managed_by(config_dir):
                raise SpawnkitError(
                    f"{skill.path} was made with plain copier from {skill.src_path!r}; run "
                    f"`spawnkit adopt {skill.path}` so spawnkit updates it (your answers are "
                    "kept), or keep updating it with `copier update`"
                )
            if all(s.path.resolve() != skill.path.resolve() for s in chosen):
                chosen.append(skill)
    return chosen
