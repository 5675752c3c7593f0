"""``spawnkit new``: render the skill template into a new skill folder.

The template is rendered into a temporary folder first and moved into place only when every
answer passed its validator, so a refused command leaves nothing behind. Copier is imported
inside the function that renders (``import copier`` costs ~0.6 s).
"""

from __future__ import annotations

import filecmp
import os
import shutil
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from spawnkit import hosts
from spawnkit.errors import SpawnkitError
from spawnkit.files import contain, interrupts
from spawnkit.files.atomic import atomic_write, why_not_writable
from spawnkit.hosts.paths import claude_config_dir, skill_dirs, user_roots
from spawnkit.standard import resources
from spawnkit.template import answers, copier_run, fsutil
from spawnkit.template.managed import answers_filename, backups_dir
from spawnkit.template.store import Target, provisional_target

SCOPES = ("project", "user")
DEFAULT_SCOPE = "project"  # a new skill lands in the current project unless asked otherwise


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
        # spelled out, links not followed: ``new_skill`` checks each link on the way
        path = Path(os.path.abspath(cwd / Path(dest).expanduser()))
        if path.name != name:
            raise SpawnkitError(
                f"the folder name {path.name!r} must equal the skill name {name!r} (Agent Skills "
                f"rule): use --dest {path.parent / name}"
            )
        return path
    base = skill_dirs(host or hosts.get(hosts.DEFAULT), cwd)[scope or DEFAULT_SCOPE]
    return Path(os.path.abspath(base / name))


def write_root(target: Path, dest: object, scope: str | None, cwd: Path) -> tuple[Path, bool]:
    """(the folder ``target``'s writes must stay in, whether links there are the user's own).

    The project scope: the project (a planted ``.claude`` or ``skills`` link is refused);
    the user scope: the user's config folder, whose links are the user's; ``--dest``: see
    ``contain.root_for``."""
    if dest is not None:
        return contain.root_for(target, cwd, user_roots())
    if (scope or DEFAULT_SCOPE) == "user":
        return target.parent.parent, True  # <config>/skills/NAME
    return Path(os.path.abspath(cwd)), False


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
    answers.check_name(name)
    if host is not None and dest is not None:
        raise SpawnkitError("give either --dest or --host, not both (--host picks the folder)")
    chosen = hosts.get(host or hosts.DEFAULT)
    base = Path(cwd) if cwd is not None else Path.cwd()
    target = resolve_dest(name, dest, scope, base, chosen)
    root, trusted = write_root(target, dest, scope, base)
    contain.check(target, root, trusted=trusted)
    _check_target(target, force)
    given = answers.parse(data)
    interactive = not defaults and sys.stdin.isatty() and sys.stdout.isatty()
    # Rendered through the template store, so the answers file records _src_path and _commit;
    # what that adds to the store is taken back if the command is refused or fails.
    with (
        provisional_target(claude_config_dir(), template_source()) as source,
        interrupts.temporary_folder("spawnkit-new-") as tmp,
    ):
        staging = Path(tmp) / name
        _render(source, staging, {answers.NAME_QUESTION: name, **given}, interactive)
        answers.check_applied(given, answers.recorded(staging / answers_filename()))
        contain.check_all(
            [target / p.relative_to(staging) for p in sorted(staging.rglob("*"))],
            root,
            trusted=trusted,
        )
        with interrupts.writing():
            backup = _place(staging, target, backups_dir(claude_config_dir()))
    home = host_of_skills_dir(target.parent.resolve())
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
    """Refuse, before anything is rendered or written, what would fail or lose something."""
    if os.path.lexists(target) and not target.is_dir():
        raise SpawnkitError(f"{target} exists and is not a folder; choose another --dest")
    if target.is_dir():
        try:
            occupied = any(target.iterdir())
        except OSError as exc:
            raise SpawnkitError(
                f"cannot read the folder {target} ({exc.strerror}); check its permissions"
            ) from None
        if occupied and not force:
            raise SpawnkitError(
                f"{target} already exists and is not empty; pass --force to write the skill over "
                "it (replaced files are backed up)"
            )
    problem = why_not_writable(target / "SKILL.md")
    if problem:
        raise SpawnkitError(
            f"cannot create the skill in {target}: {problem}; choose another --dest or --scope"
        )


def _render(source: Target, staging: Path, data: dict[str, str], interactive: bool) -> None:
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


def _place(staging: Path, target: Path, backups: Path) -> Path | None:
    """Move the rendered skill into ``target``; over an existing one, back up what is replaced
    to a new ``<backups>/NAME-<time>/`` (the user's folder: a project keeps no backups).

    An existing empty folder is filled, never replaced: it may be the shell's working folder
    (``spawnkit new NAME --dest .``), which must not vanish from under it.
    """
    if not target.exists() or not any(target.iterdir()):
        target.mkdir(parents=True, exist_ok=True)
        for child in sorted(staging.iterdir()):
            shutil.move(str(child), str(target / child.name))
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
                backup = fsutil.new_backup_dir(backups, target.name)
            (backup / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(dst, backup / rel)
        dst.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(dst, src.read_bytes(), stat.S_IMODE(src.stat().st_mode), force_mode=True)
    return backup
