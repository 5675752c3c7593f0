"""A set of file changes that is shown, checked, and then applied all or nothing.

install and uninstall first compute every byte they would write; ``--dry-run``
prints that as a diff, a real run checks that every target is writable before
touching any, backs up what it replaces, and undoes the finished writes if a
later one fails.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path

from spawnkit.atomic import atomic_write, backup, backup_path, why_not_writable
from spawnkit.errors import SpawnkitError


@dataclass
class Change:
    path: Path
    before: bytes | None  # None: the file does not exist
    after: bytes | None  # None: delete the file
    label: str  # what the file is, for people: "hook registrations", "standard", …
    backup_stamp: str | None = None  # copy the old content aside first, under this stamp

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
    prune_dirs: list[Path] = field(default_factory=list)  # remove when left empty, deepest first

    @property
    def pending(self) -> list[Change]:
        return [c for c in self.changes if c.action != "unchanged"]

    def diff(self, root: Path) -> str:
        """A unified diff of every pending change, paths relative to ``root`` where possible."""
        out: list[str] = []
        for change in self.pending:
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
    for change in plan.pending:
        reason = why_not_writable(change.path)
        if reason is None and change.backup_path is not None:
            reason = why_not_writable(change.backup_path)
        if reason:
            problems.append(reason)
    if problems:
        raise SpawnkitError(
            f"cannot write: {'; '.join(dict.fromkeys(problems))}. Make it writable (chmod u+w)"
            " or choose another place with --config-dir; nothing was changed"
        )


def check_unchanged(plan: Plan) -> None:
    """Refuse when a file changed since it was read (Claude Code or an editor wrote it meanwhile)."""
    for change in plan.pending:
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
    """Write the plan; return the folders it created. Nothing is written if a check fails."""
    check_writable(plan)
    check_unchanged(plan)
    pending = plan.pending
    done: list[Change] = []
    made_dirs: list[Path] = []
    try:
        for change in pending:
            if change.backup_path is not None:
                backup(change.path, change.backup_stamp)
            if change.after is None:
                change.path.unlink()
            else:
                made_dirs += _make_parents(change.path)
                atomic_write(change.path, change.after)
            done.append(change)
    except OSError as exc:
        _roll_back(done, made_dirs)
        raise SpawnkitError(
            f"writing {exc.filename or 'a file'} failed ({exc.strerror or exc}); every change"
            " already made was undone"
        ) from None
    for folder in plan.prune_dirs:
        try:
            folder.rmdir()
        except OSError:
            pass  # not empty (the user keeps something there) or already gone
    return made_dirs


def display(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def _lines(data: bytes | None) -> list[str]:
    if data is None:
        return []
    return data.decode("utf-8", errors="replace").splitlines(keepends=True)


def _make_parents(path: Path) -> list[Path]:
    missing = []
    folder = Path(os.path.realpath(path)).parent
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for folder in reversed(missing):
        folder.mkdir()
    return list(reversed(missing))


def _roll_back(done: list[Change], made_dirs: list[Path]) -> None:
    for change in reversed(done):
        try:
            if change.before is None:
                change.path.unlink(missing_ok=True)
            else:
                atomic_write(change.path, change.before)
        except OSError:
            pass  # the backup taken before the change still holds the old content
    for folder in reversed(made_dirs):
        try:
            folder.rmdir()
        except OSError:
            pass
