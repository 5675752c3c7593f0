"""File operations that lose nothing: snapshots, backups, syncing a folder back."""

from __future__ import annotations

import os
import shutil
import stat
from datetime import datetime
from pathlib import Path

from spawnkit.base.lightos import NotRegularFile, read_regular
from spawnkit.files.atomic import atomic_write

Snapshot = dict[str, tuple[int, bytes]]  # posix relpath -> (permission bits, content)


def _skipped(rel: Path) -> bool:
    return ".git" in rel.parts


MAX_FILE_BYTES = 16 * 1024 * 1024  # no file of a skill is anywhere near this


def snapshot(root: Path, *, links: bool = False) -> Snapshot:
    """Every regular file under ``root`` except git metadata.

    Symlinks are left out, or with ``links`` included with the content and mode of
    the plain file they point to. FIFOs, devices and sockets are always left out
    (reading one could hang), and so are symlinked folders.
    """
    snap: Snapshot = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in filenames:
            path = Path(dirpath) / name
            rel = path.relative_to(root)
            if _skipped(rel) or (path.is_symlink() and not links):
                continue
            try:
                data = read_regular(str(path), MAX_FILE_BYTES)
            except (NotRegularFile, FileNotFoundError):
                continue  # a FIFO or device, or a dangling link: not a file of the skill
            snap[rel.as_posix()] = (stat.S_IMODE(path.stat().st_mode), data)
    return snap


def symlinks(root: Path) -> set[str]:
    """Files under ``root`` that are symlinks (relative POSIX paths)."""
    found = set()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in filenames:
            path = Path(dirpath) / name
            if path.is_symlink():
                found.add(path.relative_to(root).as_posix())
    return found


def linked_folders(root: Path) -> set[str]:
    """Folders under ``root`` that are symlinks (relative POSIX paths; not followed, so a
    folder below one is not listed)."""
    found = set()
    for dirpath, dirnames, _filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in dirnames:
            path = Path(dirpath) / name
            if path.is_symlink():
                found.add(path.relative_to(root).as_posix())
    return found


def _plain_only(folder: str, names: list[str]) -> set[str]:
    """For ``copytree``: leave out git metadata, symlinked folders and special files."""
    left_out = {".git"}
    for name in names:
        path = os.path.join(folder, name)
        if os.path.islink(path) and os.path.isdir(path):
            left_out.add(name)
        elif not os.path.isdir(path) and not os.path.isfile(path):
            left_out.add(name)  # FIFO, device, socket, dangling link
    return left_out


def copy_tree(src: Path, dst: Path, *, materialize: bool = False) -> None:
    """Copy a skill folder without any ``.git`` inside it.

    ``materialize`` copies a symlinked file as a plain file holding what it points
    to, so a tool working on the copy can never write through the link.
    """
    if materialize:
        shutil.copytree(src, dst, symlinks=False, ignore=_plain_only)
    else:
        shutil.copytree(src, dst, symlinks=True, ignore=shutil.ignore_patterns(".git"))


def make_writable(root: Path) -> None:
    """Give the owner write permission on every file under ``root`` (a private copy)."""
    for dirpath, _dirnames, filenames in os.walk(root):
        for name in filenames:
            path = Path(dirpath) / name
            path.chmod(stat.S_IMODE(path.stat().st_mode) | stat.S_IWUSR)


def apply_snapshot(root: Path, before: Snapshot, after: Snapshot, last: str | None = None) -> None:
    """Make ``root`` (which holds ``before``) hold ``after``: write changes, remove what went.

    ``last`` is written after everything else (the answers file: its ``_commit``
    must not move before every other file is in place).
    """

    def write(rel: str, mode: int, data: bytes) -> None:
        if before.get(rel) != (mode, data):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            atomic_write(root / rel, data, mode, force_mode=True)

    for rel, (mode, data) in sorted(after.items()):
        if rel != last:
            write(rel, mode, data)
    for rel in sorted(set(before) - set(after)):
        path = root / rel
        path.unlink(missing_ok=True)
        parent = path.parent
        while parent != root and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent
    if last is not None and last in after:
        write(last, *after[last])


def changes(before: Snapshot, after: Snapshot) -> tuple[list[str], list[str], list[str]]:
    """(modified, added, removed) relative paths."""
    modified = sorted(r for r in after if r in before and before[r] != after[r])
    added = sorted(r for r in after if r not in before)
    removed = sorted(r for r in before if r not in after)
    return modified, added, removed


def new_backup_dir(backups_dir: Path, name: str) -> Path:
    """A new, empty ``<backups_dir>/<name>-<timestamp>[-n]/`` (created here)."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    backups_dir.mkdir(parents=True, exist_ok=True)
    for n in range(1000):
        dest = backups_dir / (f"{name}-{stamp}" + (f"-{n}" if n else ""))
        try:
            dest.mkdir()
        except FileExistsError:
            continue
        return dest
    raise FileExistsError(f"too many backups named {name}-{stamp} in {backups_dir}")


def backup(src: Path, backups_dir: Path, name: str) -> Path:
    """Copy ``src`` (minus ``.git``, which spawnkit never touches) to ``<backups_dir>/<name>-<timestamp>[-n]/``."""
    dest = new_backup_dir(backups_dir, name)
    shutil.copytree(
        src, dest, symlinks=True, ignore=shutil.ignore_patterns(".git"), dirs_exist_ok=True
    )
    return dest
