"""``spawnkit new``: render the skill template into a new skill folder.

The template is rendered into a temporary folder first and moved into place only when every
answer passed its validator, so a refused command leaves nothing behind. Copier is imported
inside the function that renders (``import copier`` costs ~0.6 s).
"""

from __future__ import annotations

import filecmp
import os
import re
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from spawnkit import hosts, protocol, resources
from spawnkit.atomic import atomic_write
from spawnkit.errors import SpawnkitError
from spawnkit.paths import claude_config_dir, skill_dirs
from spawnkit.template import copier_run
from spawnkit.template.store import provisional_target

SCOPES = ("project", "user")
DEFAULT_SCOPE = "project"  # a new skill lands in the current project unless asked otherwise
NAME_QUESTION = "skill_name"
_BOOL_WORDS = {"true", "false", "yes", "no", "y", "n", "on", "off", "1", "0"}


@dataclass(frozen=True)
class NewSkill:
    path: Path
    backup: Path | None  # where replaced files went (only with --force over an existing skill)
    in_skills_dir: bool  # already where the host looks for skills
    host: hosts.Host  # the host whose skills folder it went into (or was asked for)


def template_source() -> Path:
    """The template content copier renders. The one place that decides it.

    ``_render`` renders it through spawnkit's template store (as the version this content
    gets there), so the answers file records ``_src_path`` (the store, ``~``-relative) and
    ``_commit`` (the version tag): what ``spawnkit update`` needs later.
    """
    return resources.data_root()


def check_name(name: str) -> None:
    """Refuse names the Agent Skills spec rejects; they double as folder names."""
    spec = protocol.skill_spec()
    if not name:
        raise SpawnkitError("the skill name is empty; give one such as my-audit")
    if len(name) > spec["name_max_length"]:
        raise SpawnkitError(
            f"the skill name has {len(name)} characters; at most {spec['name_max_length']} are allowed"
        )
    if not re.fullmatch(spec["name_pattern"], name):
        raise SpawnkitError(
            f"invalid skill name {name!r}: use lowercase letters, digits and single hyphens "
            "(e.g. my-audit)"
        )


def resolve_dest(
    name: str,
    dest: str | os.PathLike[str] | None,
    scope: str | None,
    cwd: Path,
    host: hosts.Host | None = None,
) -> Path:
    """The skill folder: ``--dest`` itself, else the host's skills folder of the scope + NAME.

    Claude Code: ``./.claude/skills`` or ``$CLAUDE_CONFIG_DIR/skills``; Codex:
    ``./.agents/skills`` or ``$CODEX_HOME/skills``."""
    if dest is not None and scope is not None:
        raise SpawnkitError("give either --dest or --scope, not both")
    if dest is not None:
        path = (cwd / Path(dest).expanduser()).resolve()
        if path.name != name:
            raise SpawnkitError(
                f"the folder name {path.name!r} must equal the skill name {name!r} (Agent Skills "
                f"rule): use --dest {path.parent / name}"
            )
        return path
    base = skill_dirs(host or hosts.get(hosts.DEFAULT), cwd)[scope or DEFAULT_SCOPE]
    return (base / name).resolve()


def template_questions() -> dict[str, dict[str, Any]]:
    """The questions a user may answer with ``--data``, read from copier.yml."""

    class _Loader(yaml.SafeLoader):
        """copier.yml's ``!include`` only matters to copier."""

    _Loader.add_constructor("!include", lambda loader, node: None)
    with open(template_source() / "copier.yml", encoding="utf-8") as fh:
        config = yaml.load(fh, Loader=_Loader)  # noqa: S506 - SafeLoader subclass
    return {
        key: spec
        for key, spec in config.items()
        if not key.startswith("_") and isinstance(spec, dict) and spec.get("when") is not False
    }


def parse_data(pairs: Sequence[str]) -> dict[str, str]:
    """``KEY=VALUE`` pairs, checked against the template's questions before copier runs."""
    questions = template_questions()
    data: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep:
            raise SpawnkitError(f"--data {pair!r} is not KEY=VALUE (e.g. --data max_parallel=2)")
        if key == NAME_QUESTION:
            raise SpawnkitError("the skill name is the NAME argument; drop --data skill_name")
        if key not in questions:
            known = ", ".join(k for k in questions if k != NAME_QUESTION)
            raise SpawnkitError(f"unknown --data key {key!r}; the template asks: {known}")
        _check_type(key, value, questions[key])
        data[key] = value
    return data


def _check_type(key: str, value: str, question: dict[str, Any]) -> None:
    kind = question.get("type", "str")
    if kind == "int" and not re.fullmatch(r"-?[0-9]+", value.strip()):
        raise SpawnkitError(f"--data {key}={value!r}: expected a whole number")
    if kind == "bool" and value.strip().lower() not in _BOOL_WORDS:
        raise SpawnkitError(f"--data {key}={value!r}: expected true or false")
    if kind == "yaml":
        try:
            yaml.safe_load(value)
        except yaml.YAMLError as exc:
            first = str(exc).splitlines()[0]
            raise SpawnkitError(f"--data {key}: not valid YAML ({first})") from None
    choices = question.get("choices")
    if isinstance(choices, dict) and value not in choices.values():
        raise SpawnkitError(
            f"--data {key}={value!r}: choose one of {', '.join(map(str, choices.values()))}"
        )


def new_skill(
    name: str,
    *,
    dest: str | os.PathLike[str] | None = None,
    scope: str | None = None,
    data: Sequence[str] = (),
    defaults: bool = False,
    force: bool = False,
    cwd: str | os.PathLike[str] | None = None,
    host: str | None = None,
) -> NewSkill:
    """Create the skill NAME; asks the template's questions only on a terminal without --defaults.

    ``host`` (default Claude Code) picks the skills folder ``scope`` means; the skill itself
    is the same for every host."""
    check_name(name)
    if host is not None and dest is not None:
        raise SpawnkitError("give either --dest or --host, not both (--host picks the folder)")
    chosen = hosts.get(host or hosts.DEFAULT)
    base = Path(cwd) if cwd is not None else Path.cwd()
    target = resolve_dest(name, dest, scope, base, chosen)
    _check_target(target, force)
    answers = parse_data(data)
    interactive = not defaults and sys.stdin.isatty() and sys.stdout.isatty()
    with tempfile.TemporaryDirectory(prefix="spawnkit-new-") as tmp:
        staging = Path(tmp) / name
        _render(staging, {NAME_QUESTION: name, **answers}, interactive)
        backup = _place(staging, target)
    home = host_of_skills_dir(target.parent)
    return NewSkill(path=target, backup=backup, in_skills_dir=home is not None, host=home or chosen)


def host_of_skills_dir(folder: Path) -> hosts.Host | None:
    """The host that reads skills from ``folder``: a user skills folder of it, or a folder
    ending in one of its project skills folders (``.claude/skills``, ``.agents/skills``…)."""
    for host in hosts.all_hosts():
        if any(folder == Path(d).resolve() for d in host.user_skill_dirs_in(os.environ)):
            return host
        if any(folder.parts[-2:] == Path(r).parts for r in host.project_skill_dirs):
            return host
    return None


def _check_target(target: Path, force: bool) -> None:
    if target.exists() and not target.is_dir():
        raise SpawnkitError(f"{target} exists and is not a folder; choose another --dest")
    if target.is_dir() and any(target.iterdir()) and not force:
        raise SpawnkitError(
            f"{target} already exists and is not empty; pass --force to write the skill over it "
            "(replaced files are backed up)"
        )


def _render(staging: Path, data: dict[str, str], interactive: bool) -> None:
    # Rendered through the template store, so the answers file records _src_path and _commit;
    # what that adds to the store is taken back if copier refuses the answers.
    with provisional_target(claude_config_dir(), template_source()) as source:
        try:
            copier_run.copy(
                source.src_path,
                staging,
                data=data,
                vcs_ref=source.tag,
                interactive=interactive,
                overwrite=False,
            )
        except copier_run.CopierFailed as exc:
            raise SpawnkitError(f"{exc}; nothing was written") from None


def _place(staging: Path, target: Path) -> Path | None:
    """Move the rendered skill into ``target``; over an existing one, back up what is replaced."""
    if not target.exists() or not any(target.iterdir()):
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists():
            target.rmdir()
        shutil.move(str(staging), str(target))
        return None
    files = sorted(p for p in staging.rglob("*") if p.is_file())
    clash = next(
        (
            target / p.relative_to(staging)
            for p in files
            if (target / p.relative_to(staging)).is_dir()
        ),
        None,
    )
    if clash is not None:
        raise SpawnkitError(f"{clash} is a folder where the template writes a file; move it away")
    backup: Path | None = None
    for src in files:
        rel = src.relative_to(staging)
        dst = target / rel
        if dst.exists():
            if filecmp.cmp(src, dst, shallow=False):
                continue
            if backup is None:
                stamp = time.strftime("%Y%m%d-%H%M%S")
                backup = target.parent / ".spawnkit-backups" / f"{target.name}-{stamp}"
            (backup / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(dst, backup / rel)
        dst.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(dst, src.read_bytes(), stat.S_IMODE(src.stat().st_mode), force_mode=True)
    return backup
