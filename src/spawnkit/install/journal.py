"""Crash safety for install and uninstall: a journal written before the first change.

Before ``changes.apply`` touches a file it writes the journal: for every file it
will change, the bytes it holds now and the hash of what will replace them, plus
the folders it will create. Only after the last change is the journal deleted.
Whoever runs install or uninstall next (under the config folder's lock, so never
while the first one still works) finds a journal only when a run died midway,
and rolls it back: each file that holds what the dead run wrote gets its old
bytes back, created folders and backups go, stale temporary files go. A file
someone changed since is left alone and named. Then the new command starts from
the state before the interrupted run, byte for byte.

The journal sits in the innermost folder the run neither creates nor removes:
``<config>/.spawnkit/journal.json``, else ``<config>/.spawnkit-journal.json``,
else ``<parent>/.<config name>.spawnkit-journal.json`` (only when the run creates
or removes the config folder itself). In a folder that is not the user's own
config folder the journal carries this machine's install id, and a journal
without it is refused: a cloned repository cannot make spawnkit restore or
delete anything.

The crash tests prove all of the above by killing a run after each of its writes in
turn (``spawnkit.files.killswitch``).
"""

from __future__ import annotations

import base64
import hmac
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from spawnkit.errors import SpawnkitError
from spawnkit.files.atomic import TEMP_TAG, atomic_write
from spawnkit.install import guard
from spawnkit.install import manifest as mf

FORMAT = 1
MAX_JOURNAL_BYTES = 3 * guard.MAX_FILE_BYTES


def candidates(config_dir: Path) -> list[Path]:
    """Where a journal of ``config_dir`` may be, innermost first."""
    return [
        config_dir / ".spawnkit" / "journal.json",
        config_dir / ".spawnkit-journal.json",
        config_dir.parent / f".{config_dir.name}.spawnkit-journal.json",
    ]


def find(config_dir: Path) -> Path | None:
    for path in candidates(config_dir):
        if os.path.lexists(path):
            return path
    return None


def home_for(config_dir: Path, created: set[Path], removed: set[Path]) -> Path:
    """The journal path for a run that creates ``created`` and removes ``removed`` folders."""
    state, config, parent = candidates(config_dir)
    untouched = lambda folder: folder not in created and folder not in removed  # noqa: E731
    if state.parent.is_dir() and not state.parent.is_symlink() and untouched(state.parent):
        return state
    if config_dir.is_dir() and untouched(config_dir):
        return config
    return parent


@dataclass
class Entry:
    rel: str  # the file, relative to the config folder
    before_sha: str | None  # sha256 of what it holds now; None: it does not exist
    after: str | None  # sha256 of what the run writes; None: the run removes it
    before: bytes | None = None  # what it holds now, unless its backup holds it
    mode: int | None = None  # permission bits before (to recreate a removed file exactly)
    backup: str | None = None  # a backup the run makes (relative), removed on roll back


@dataclass
class Journal:
    config_dir: Path
    entries: list[Entry] = field(default_factory=list)
    dirs: list[str] = field(default_factory=list)  # folders the run creates, outermost first
    install_id: str | None = None
    trusted: bool = True  # not written: whether paths may lead through the user's symlinks

    def to_bytes(self) -> bytes:
        data = {
            "format": FORMAT,
            "install_id": self.install_id,
            "entries": [
                {
                    "path": e.rel,
                    "before_sha": e.before_sha,
                    "before": None if e.before is None else base64.b64encode(e.before).decode(),
                    "after": e.after,
                    "mode": e.mode,
                    "backup": e.backup,
                }
                for e in self.entries
            ],
            "dirs": self.dirs,
        }
        return json.dumps(data).encode("ascii")


def write(journal: Journal, path: Path) -> None:
    atomic_write(path, journal.to_bytes(), mode=0o600)


def rel_to(config_dir: Path, path: Path) -> str:
    return path.relative_to(config_dir).as_posix()


def recover(config_dir: Path, trusted: bool) -> list[str]:
    """Roll back a run that died midway; clean what dead runs left. Notes for the user."""
    notes: list[str] = []
    path = find(config_dir)
    touched: set[Path] = set()
    if path is not None:
        journal = _read(path, config_dir, trusted)
        notes.append(
            f"an earlier spawnkit run on {config_dir} was interrupted; its changes were rolled"
            " back first"
        )
        notes += roll_back(journal, with_dirs=False)
        touched = {config_dir / e.rel for e in journal.entries}
        _sweep(config_dir, touched)  # before the folders: a temp file keeps one from going
        remove_dirs(journal)
        path.unlink(missing_ok=True)
    _sweep(config_dir, touched)
    return notes


def _read(path: Path, config_dir: Path, trusted: bool) -> Journal:
    refuse = (
        f"{path} is not a journal this machine's spawnkit wrote; nothing was changed. If no"
        " spawnkit run was interrupted here, delete it, then run the command again"
    )
    raw = guard.read_file(path, MAX_JOURNAL_BYTES)
    try:
        data = json.loads((raw or b"").decode("ascii"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("format")
        ident = data.get("install_id")
        local = mf.install_id()
        if not trusted and not (
            isinstance(ident, str) and local and hmac.compare_digest(ident, local)
        ):
            raise SpawnkitError(refuse)
        entries = []
        for item in data["entries"]:
            rel, backup = item["path"], item.get("backup")
            if not guard.relative_inside(rel) or (
                backup is not None and not guard.relative_inside(backup)
            ):
                raise SpawnkitError(refuse)
            before = item["before"]
            mode = item.get("mode")
            entries.append(
                Entry(
                    rel,
                    item["before_sha"],
                    item["after"],
                    None if before is None else base64.b64decode(before, validate=True),
                    mode if isinstance(mode, int) else None,
                    backup,
                )
            )
        dirs = data.get("dirs", [])
        if not all(d == "." or guard.relative_inside(d) for d in dirs):
            raise SpawnkitError(refuse)
    except SpawnkitError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        raise SpawnkitError(refuse) from None
    return Journal(config_dir, entries, list(dirs), ident, trusted)


def roll_back(journal: Journal, with_dirs: bool = True) -> list[str]:
    """Give every file the run changed its old bytes back (and drop its folders); notes."""
    notes = []
    root = journal.config_dir
    for entry in reversed(journal.entries):
        path = root / entry.rel
        if not journal.trusted and not guard.inside(path.parent, root):
            notes.append(f"left {path}: it is not inside {root} any more")
            continue
        try:
            current = guard.read_file(path)
        except SpawnkitError as exc:
            notes.append(f"left {path} as it is: {exc}")
            continue
        now = None if current is None else mf.sha256(current)
        saved = root / entry.backup if entry.backup is not None else None
        if now == entry.before_sha:
            pass  # the run never got to it
        elif now == entry.after:  # what the run wrote (or removed): undo it
            if entry.before_sha is None:
                path.unlink()
            else:
                data = entry.before
                if data is None and saved is not None and saved.is_file():
                    data = guard.read_file(saved)
                if data is None or mf.sha256(data) != entry.before_sha:
                    notes.append(f"left {path} as it is: the copy of its old content is gone")
                    continue
                path.parent.mkdir(parents=True, exist_ok=True)
                atomic_write(path, data, entry.mode)
        else:
            notes.append(f"left {path} as it is: it changed since the interrupted run")
            continue
        if saved is not None and saved.is_file():
            data = guard.read_file(saved)
            if data is not None and mf.sha256(data) == entry.before_sha:
                saved.unlink()  # the original is back in place: its backup is redundant
    if with_dirs:
        remove_dirs(journal)
    return notes


def remove_dirs(journal: Journal) -> None:
    """Remove the folders the run created, innermost first, where they are empty."""
    for rel in reversed(journal.dirs):
        try:
            (journal.config_dir / rel).rmdir()
        except OSError:
            pass  # not empty (something of the user's is there) or already gone


def _sweep(config_dir: Path, touched: set[Path]) -> None:
    """Remove temporary files dead runs left beside the files spawnkit writes, and an empty
    ``.spawnkit`` folder a run died right after creating. Runs under the lock: no live
    spawnkit is writing those files now."""
    names: dict[Path, set[str]] = {}
    targets = set(touched) | {config_dir / "settings.json", config_dir / "settings.local.json"}
    targets |= set(candidates(config_dir))
    for local in (False, True):  # the shared record and the local scope's own
        try:
            record = mf.read(config_dir, local)
        except SpawnkitError:
            record = None
        if record is not None:
            targets |= {config_dir / rel for rel in record.files}
        targets.add(mf.path_in(config_dir, local))
    if mf.install_id_path().parent == config_dir / ".spawnkit":  # the id this lock covers
        targets.add(mf.install_id_path())
    for target in targets:
        names.setdefault(target.parent, set()).add(target.name)
    for folder, wanted in names.items():
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for item in entries:
            name = item.name
            if not (name.startswith(".") and TEMP_TAG in name and name.endswith(".tmp")):
                continue
            base = name[1 : name.rfind(TEMP_TAG)]  # the file it was to become
            if base in wanted or base.split(".spawnkit-", 1)[0] in wanted:  # or its backup
                try:
                    os.unlink(item.path)
                except OSError:
                    pass
    state = config_dir / ".spawnkit"
    if state.is_dir() and not state.is_symlink():
        try:
            state.rmdir()  # only succeeds when empty: a leftover of a run that died at once
        except OSError:
            pass


INLINE_LIMIT = 64 * 1024  # larger old contents are kept by their backup, not in the journal


def entry_for(
    config_dir: Path,
    path: Path,
    before: bytes | None,
    after: bytes | None,
    backup: Path | None = None,
    *,
    inline: bool = False,
) -> Entry:
    """The journal entry of one change; a big file with a backup is restored from it, unless
    ``inline`` (the backup moves away before the journal is removed)."""
    mode = None
    if before is not None:
        try:
            mode = os.stat(path).st_mode & 0o7777
        except OSError:
            mode = None
    inline = before is not None and (inline or backup is None or len(before) <= INLINE_LIMIT)
    return Entry(
        rel_to(config_dir, path),
        None if before is None else mf.sha256(before),
        None if after is None else mf.sha256(after),
        before if inline else None,
        mode,
        None if backup is None else rel_to(config_dir, backup),
    )


def require_writable_home(path: Path) -> None:
    reason = None
    folder = path.parent
    if not os.access(folder, os.W_OK | os.X_OK):
        reason = f"folder {folder} is read-only"
    if reason:
        raise SpawnkitError(
            f"cannot write: {reason} (spawnkit keeps its crash journal there while it works)."
            " Make it writable or choose another place with --config-dir; nothing was changed"
        )
