"""A set of file changes that is shown, checked, and then applied all or nothing.

install and uninstall first compute every byte they would write; ``--dry-run``
prints that as a diff, a real run checks that every target is writable and
inside its folder before touching any, writes a journal (see ``journal``), backs
up what it replaces, and undoes the finished writes if a later one fails. A run
killed at any point is rolled back by the next one.
"""

from __future__ import annotations

import difflib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from spawnkit.errors import SpawnkitError
from spawnkit.files import reading
from spawnkit.files.atomic import TEMP_TAG, atomic_write, backup, backup_path, why_not_writable
from spawnkit.hosts import paths
from spawnkit.install import journal
from spawnkit.install import manifest as mf


@dataclass
class Change:
    path: Path
    before: bytes | None  # None: the file does not exist
    after: bytes | None  # None: delete the file
    label: str  # what the file is, for people: "hook registrations", "standard", …
    backup_stamp: str | None = None  # copy the old content aside first, under this stamp
    # The backup serves the user only (no record names it): in a project it moves to the
    # user's own folder once the change is done, so the project keeps no stray .bak file.
    personal_backup: bool = False

    @property
    def backup_path(self) -> Path | None:
        if self.backup_stamp is None or self.before is None:
            return None
        return backup_path(self.path, self.backup_stamp)

    @property
    def action(self) -> str:
        if self.before == self.after:
            return "unchanged"
        if self.before is None:
            return "create"
        return "delete" if self.after is None else "update"


@dataclass
class Plan:
    changes: list[Change] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # things the user should know (kept files, …)
    # problems the change cannot fix that keep it from working (a user's hook entry that makes
    # Claude Code ignore the whole settings file): shown as warnings, and exit 1
    warnings: list[str] = field(default_factory=list)
    prune_dirs: list[Path] = field(default_factory=list)  # remove when left empty, deepest first
    # Files in the user's own folder that hold nothing once the plan is done (a project's
    # install backups, kept there, when uninstall gives the project's file back as it was):
    # removed after the journal, so a run killed midway keeps them.
    drop_after: list[Path] = field(default_factory=list)
    # Uninstall: spawnkit's hooks still run here afterwards (entries someone changed, kept; the
    # spawnkit plugin), so the hook's runtime state stays in use.
    hooks_stay: bool = False
    config_dir: Path | None = None  # the folder every change is inside (the journal's)
    install_id: str | None = None  # written into the journal of an untrusted folder
    trusted: bool = True  # the user's own config folder: symlinks in it are the user's
    # Changes in another folder, applied right after these with that folder's own journal
    # (the command holds both folders' locks) (a Codex project's hooks live in the project, their trust in the user's
    # config.toml). A crash between the two leaves hooks Codex skips as untrusted: harmless,
    # and the next run completes it.
    then: Plan | None = None

    @property
    def pending(self) -> list[Change]:
        """This plan's own changes to write (not ``then``'s)."""
        return [c for c in self.changes if c.action != "unchanged"]

    @property
    def all_pending(self) -> list[Change]:
        """Everything the run changes, ``then``'s included: what is shown and checked."""
        return self.pending + (self.then.all_pending if self.then is not None else [])

    def diff(self, root: Path) -> str:
        """A unified diff of every file the plan changes, paths relative to ``root`` where
        possible. Files it creates or removes are not spelled out (a new 14 KB standard as
        400 ``+`` lines hides the few lines that matter): ``summary`` lists them with sizes."""
        out: list[str] = []
        for change in self.all_pending:
            if change.action != "update":
                continue
            name = display(change.path, root)
            old = _lines(change.before)
            new = _lines(change.after)
            out.extend(
                difflib.unified_diff(
                    old,
                    new,
                    fromfile="/dev/null" if change.before is None else f"a/{name}",
                    tofile="/dev/null" if change.after is None else f"b/{name}",
                )
            )
        return "".join(
            line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
            for line in out
        )


def check_writable(plan: Plan) -> None:
    """Refuse, before anything is written, when any target or backup cannot be written."""
    problems = []
    for change in plan.all_pending:
        reason = why_not_writable(change.path)
        if reason is None and change.backup_path is not None:
            reason = why_not_writable(change.backup_path)
        if reason:
            problems.append(reason)
    if problems:
        in_the_way = any(p.endswith(("is not a directory", "is a directory")) for p in problems)
        fix = "Move it out of the way" if in_the_way else "Make it writable (chmod u+w)"
        raise SpawnkitError(
            f"cannot write: {'; '.join(dict.fromkeys(problems))}. {fix}"
            " or choose another place with --config-dir; nothing was changed"
        )


def check_unchanged(plan: Plan) -> None:
    """Refuse when a file changed since it was read (Claude Code or an editor wrote it meanwhile)."""
    for change in plan.all_pending:
        try:
            now: bytes | None = change.path.read_bytes()
        except FileNotFoundError:
            now = None
        if now != change.before:
            raise SpawnkitError(
                f"{change.path} changed while spawnkit was working; nothing was changed."
                " Run the command again"
            )


def apply(plan: Plan) -> list[Path]:
    """Write the plan; return the folders it created. Nothing is written if a check fails.

    Order: journal, folders, then each change (its backup first), the move of a
    project's backups to the user's folder, pruned folders, and last the journal's
    removal: a run killed anywhere before that is rolled back by the next one, so no
    backup is left in a project. The crash tests stop after every write on the way.
    """
    check_writable(plan)
    check_unchanged(plan)
    assert plan.config_dir is not None, "a plan names its config folder"
    if plan.install_id is not None and mf.ensure_install_id(plan.install_id) != plan.install_id:
        raise SpawnkitError("this machine's install id appeared meanwhile; run the command again")
    root = plan.config_dir
    pending = plan.pending
    made = _missing_parents([c.path for c in pending if c.after is not None])
    record = journal.Journal(root, install_id=plan.install_id, trusted=plan.trusted)
    for change in pending:
        record.entries.append(
            journal.entry_for(
                root,
                change.path,
                change.before,
                change.after,
                change.backup_path,
                inline=change.personal_backup,  # its backup leaves the folder before the journal
            )
        )
    record.dirs = [journal.rel_to(root, d) if d != root else "." for d in made]
    where = journal.home_for(root, set(made), set(plan.prune_dirs))
    journal.require_writable_home(where)
    journal.write(record, where)
    try:
        for folder in made:
            folder.mkdir()
        for change in pending:
            if change.backup_path is not None:
                backup(change.path, change.backup_stamp, data=change.before)
            if change.after is None:
                change.path.unlink()
            else:
                atomic_write(change.path, change.after)
        move_personal_backups(plan, root)
    except OSError as exc:
        journal.roll_back(record)
        where.unlink(missing_ok=True)
        raise SpawnkitError(
            f"writing {exc.filename or 'a file'} failed ({exc.strerror or exc}); every change"
            " already made was undone"
        ) from None
    prune_empty(plan.prune_dirs)
    where.unlink()
    drop_redundant(plan.drop_after)
    if plan.then is not None and plan.then.pending:
        made += apply(plan.then)  # its folder locked and recovered by the command
    return made


def prune_empty(folders: list[Path], after_each: Callable[[], None] = lambda: None) -> None:
    """Remove each of ``folders`` (deepest first) that is empty; keep the others."""
    for folder in folders:
        try:
            folder.rmdir()
            after_each()
        except OSError:
            pass  # not empty (the user keeps something there) or already gone


def drop_redundant(files: list[Path]) -> None:
    """Remove ``files`` (plain files only, never through a link), then their folders and the
    ``backups`` folder above them where that leaves them empty."""
    folders: list[Path] = []
    for path in files:
        try:
            if stat.S_ISREG(os.lstat(path).st_mode):
                path.unlink()
        except OSError:
            continue  # gone already, or not ours to remove
        folders += [f for f in (path.parent, path.parent.parent) if f not in folders]
    prune_empty(folders)


def personal_backups_dir(config_dir: Path) -> Path:
    """Where backups of a project's files go: the user's folder, one subfolder per project
    (named like Claude Code names its project folders: the path with ``-`` for ``/``)."""
    project = os.path.realpath(config_dir)
    return paths.claude_config_dir() / ".spawnkit" / "backups" / project.replace(os.sep, "-")


def drop_personal_temps(config_dir: Path) -> None:
    """Remove the temporary files a run killed while copying a backup out of the project left
    in the user's folder (under the project's lock: no live spawnkit is writing there)."""
    try:
        entries = list(os.scandir(personal_backups_dir(config_dir)))
    except OSError:
        return
    for item in entries:
        if item.name.startswith(".") and TEMP_TAG in item.name and item.name.endswith(".tmp"):
            try:
                os.unlink(item.path)
            except OSError:
                pass


def personal_backup_path(change: Change, config_dir: Path) -> Path | None:
    """Where the backup of ``change`` ends up once ``move_personal_backups`` ran."""
    if change.backup_path is None:
        return None
    if not change.personal_backup:
        return change.backup_path
    return personal_backups_dir(config_dir) / change.backup_path.name


def move_personal_backups(plan: Plan, config_dir: Path) -> None:
    """Move the plan's personal backups out of a project folder (``apply`` does, while its
    journal still covers them: a run killed midway leaves no backup in the project)."""
    for change in plan.pending:
        saved = change.backup_path
        if not change.personal_backup or saved is None or not os.path.lexists(saved):
            continue
        data = reading.read_bytes(saved, follow=False)
        dest_folder = personal_backups_dir(config_dir)
        dest_folder.mkdir(parents=True, exist_ok=True)
        backup(dest_folder / change.path.name, change.backup_stamp, data=data)
        saved.unlink()


def display(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def _lines(data: bytes | None) -> list[str]:
    if data is None:
        return []
    return data.decode("utf-8", errors="replace").splitlines(keepends=True)


def _missing_parents(paths: list[Path]) -> list[Path]:
    """Folders that must be created for ``paths``, outermost first, each once."""
    missing: list[Path] = []
    for path in paths:
        chain = []
        folder = path.parent
        while not folder.exists() and not folder.is_symlink():
            chain.append(folder)
            folder = folder.parent
        missing += [f for f in reversed(chain) if f not in missing]
    return missing
