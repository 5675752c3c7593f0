"""Crash-safe file writes and rotating backups.

Standard library only, so the hook runtime and the template code can share it.
A half-written settings.json is worse than none: Claude Code then drops every
hook in it. So every write goes to a temporary file in the same directory, is
fsynced, and replaces the target with one ``os.replace``.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import BinaryIO

BACKUP_TAG = ".spawnkit-"
BACKUP_SUFFIX = ".bak"
BACKUPS_KEPT = 5
# Temporary files are ``.<name>.spawnkit-tmp-<random>.tmp`` beside their target: created
# with O_EXCL under a random name (a planted symlink is never written through), and
# recognisable, so a later run can remove what a killed one left.
TEMP_TAG = ".spawnkit-tmp-"


@contextmanager
def atomic_writer(
    path: str | os.PathLike[str],
    mode: int | None = None,
    *,
    force_mode: bool = False,
) -> Iterator[BinaryIO]:
    """``with atomic_writer(path) as fh:`` write in pieces; ``path`` is replaced only when the
    block ends without an error (else the temporary file is removed and the target untouched).

    Same guarantees as ``atomic_write``, for output too large to hold in memory at once.
    """
    target = Path(os.path.realpath(path))
    try:
        old = os.stat(target)
    except FileNotFoundError:
        old = None
    if mode is not None and (force_mode or old is None):
        new_mode = mode
    elif old is not None:
        new_mode = stat.S_IMODE(old.st_mode)
    else:
        new_mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}{TEMP_TAG}", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fchmod(fh.fileno(), new_mode)
            if old is not None:
                _keep_owner(fh.fileno(), old)
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(target.parent)


def atomic_write(
    path: str | os.PathLike[str],
    data: bytes | str,
    mode: int | None = None,
    *,
    force_mode: bool = False,
) -> Path:
    """Replace ``path`` with ``data`` all at once; return the file actually written.

    A symlink is written through (its target is replaced, the link stays a link),
    an existing file keeps its permission bits and, where allowed, its owner.
    ``mode`` applies to a new file only (default: 0o666 minus the umask), or to
    any file with ``force_mode`` (a template update may change an executable bit).
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_writer(path, mode, force_mode=force_mode) as fh:
        fh.write(payload)
    return Path(os.path.realpath(path))


def timestamp() -> str:
    """A backup stamp that sorts as text in time order."""
    return datetime.now().strftime("%Y%m%d-%H%M%S-%f")


def backup_path(path: str | os.PathLike[str], stamp: str) -> Path:
    """``<name>.spawnkit-<stamp>.bak`` beside ``path`` (beside the link for a symlink, so a
    dotfiles repository behind the link never collects backups)."""
    source = Path(path)
    return source.with_name(f"{source.name}{BACKUP_TAG}{stamp}{BACKUP_SUFFIX}")


def backup(
    path: str | os.PathLike[str],
    stamp: str | None = None,
    keep: int = BACKUPS_KEPT,
    *,
    data: bytes | None = None,
) -> Path | None:
    """Copy ``path`` aside (see ``backup_path``) and keep only the newest ``keep`` copies.

    ``data``: its content, when the caller already read it. Returns None when there
    is nothing to back up.
    """
    source = Path(path)
    if data is None:
        try:
            data = source.read_bytes()
        except FileNotFoundError:
            return None
    dest = backup_path(source, stamp or timestamp())
    atomic_write(dest, data, mode=0o600)  # may hold secrets
    for old in list_backups(source)[:-keep] if keep > 0 else []:
        old.unlink(missing_ok=True)
    return dest


def list_backups(path: str | os.PathLike[str]) -> list[Path]:
    """Backups of ``path``, oldest first (the timestamp sorts as text)."""
    source = Path(path)
    pattern = f"{source.name}{BACKUP_TAG}*{BACKUP_SUFFIX}"
    return sorted(source.parent.glob(pattern), key=lambda p: p.name)


def why_not_writable(path: str | os.PathLike[str]) -> str | None:
    """Why writing ``path`` (creating it, or replacing it) would fail; None if it would work.

    Mode bits count even for root, who could write anyway: a file or folder the
    user made read-only is a statement of intent spawnkit respects.
    """
    target = Path(os.path.realpath(path))
    if target.exists():
        if target.is_dir():
            return f"{target} is a directory"
        if not _mode_writable(target):
            return f"{target} is read-only"
    folder = target.parent
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is not a directory"
    if not _mode_writable(folder) or not os.access(folder, os.X_OK):
        return f"folder {folder} is read-only"
    return None


def _mode_writable(path: Path) -> bool:
    return os.access(path, os.W_OK) and bool(stat.S_IMODE(os.stat(path).st_mode) & 0o222)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def _keep_owner(fd: int, old: os.stat_result) -> None:
    try:
        os.fchown(fd, old.st_uid, old.st_gid)
    except (PermissionError, AttributeError):
        pass


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
