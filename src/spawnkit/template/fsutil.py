"""File operations that lose nothing: snapshots, backups, syncing a folder back."""

from __future__ import annotations

import os
import shutil
import stat
from datetime import datetime
from pathlib import Path

from spawnkit import reading
from spawnkit.atomic import atomic_write

Snapshot = dict[str, tuple[int, bytes]]  # posix relpath -> (permission bits, content)


def _skipped(rel: Path) -> bool:
    return ".git" in rel.parts


def snapshot(root: Path) -> Snapshot:
    """Every regular file under ``root`` except git metadata (symlinks, pipes and other special
    files are left alone: reading a pipe would block)."""
    snap: Snapshot = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in filenames:
            path = Path(dirpath) / name
            rel = path.relative_to(root)
            info = path.lstat()
            if _skipped(rel) or not stat.S_ISREG(info.st_mode):
                continue
            snap[rel.as_posix()] = (stat.S_IMODE(info.st_mode), reading.read_bytes(path))
    return snap


def _not_copied(folder: str, names: list[str]) -> set[str]:
    """``.git`` and special files (a pipe would block the copy)."""
    skipped = {".git"}
    for name in names:
        mode = os.lstat(os.path.join(folder, name)).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
            skipped.add(name)
    return skipped


def copy_tree(src: Path, dst: Path) -> None:
    """Copy a skill folder without any ``.git`` or special file inside it."""
    shutil.copytree(src, dst, symlinks=True, ignore=_not_copied)


def apply_snapshot(root: Path, before: Snapshot, after: Snapshot) -> None:
    """Make ``root`` (which holds ``before``) hold ``after``: write changes, remove what went."""
    for rel, (mode, data) in sorted(after.items()):
        if before.get(rel) != (mode, data):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            atomic_write(root / rel, data, mode, force_mode=True)
    for rel in sorted(set(before) - set(after)):
        path = root / rel
        path.unlink(missing_ok=True)
        parent = path.parent
        while parent != root and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent


def changes(before: Snapshot, after: Snapshot) -> tuple[list[str], list[str], list[str]]:
    """(modified, added, removed) relative paths."""
    modified = sorted(r for r in after if r in before and before[r] != after[r])
    added = sorted(r for r in after if r not in before)
    removed = sorted(r for r in before if r not in after)
    return modified, added, removed


def backup(src: Path, backups_dir: Path, name: str) -> Path:
    """Copy ``src`` (minus ``.git``, which spawnkit never touches) to ``<backups_dir>/<name>-<timestamp>[-n]/``."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    backups_dir.mkdir(parents=True, exist_ok=True)
    for n in range(1000):
        dest = backups_dir / (f"{name}-{stamp}" + (f"-{n}" if n else ""))
        if dest.exists():
            continue
        shutil.copytree(src, dest, symlinks=True, ignore=_not_copied)
        return dest
    raise FileExistsError(f"too many backups named {name}-{stamp} in {backups_dir}")
