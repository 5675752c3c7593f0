"""Walk a folder for files to read, never out of the folder it belongs to, within bounds.

A project arrives with ``git clone``: ``ln -s / .claude/skills/root`` made lint walk the
whole disk (``/proc`` included), and a link to ``~/.netrc`` named like a skill file made
lint quote it (issue 30). So a walk here has a *boundary* (``files.contain.root_for``: the
project, the folder named on the command line, or None for the user's own folder, whose
links are the user's): a symlink, to a folder or to a file, is followed only when it
resolves inside the boundary (``contain.inside``); any other is listed in
``Walk.outside``, never opened, never descended into. Each real folder is walked once (a
link cycle ends there, and a link to a folder holding the start, ``/`` for one, is not
followed even where links are the user's). And every walk is bounded: at most ``depth`` folders below its
start, ``entries`` names looked at, ``files`` files kept and ``size`` bytes in them; the
first bound reached stops the walk and leaves one line in ``Walk.stopped`` (folders deeper
than ``depth`` are left out, the rest goes on, and the same line says so).

Standard library only.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from spawnkit.files import contain

MAX_DEPTH = 32  # folders below the start (a skill file sits 3 below a .claude folder)
MAX_ENTRIES = 200_000  # names looked at, files and folders, in one command's walks
MAX_FILES = 20_000  # files kept (skills, commands, agents, scripts) in one command's walks
MAX_SIZE = 512 * 1024 * 1024  # bytes in the files kept


class Bounds:
    """How far one command's walks go (plain class: ``dataclasses`` would cost a one-file
    ``spawnkit lint`` about 8 ms of imports)."""

    def __init__(
        self,
        depth: int = MAX_DEPTH,
        entries: int = MAX_ENTRIES,
        files: int = MAX_FILES,
        size: int = MAX_SIZE,
    ) -> None:
        self.depth, self.entries, self.files, self.size = depth, entries, files, size


class Walk:
    """What walks found besides files; one ``Walk`` is shared by every walk of one command,
    so the bounds hold for the command, not for each folder it names."""

    def __init__(self, bounds: Bounds | None = None) -> None:
        self.bounds = bounds or Bounds()
        self.unreadable: list[tuple[Path, str]] = []  # folders
        self.cycles: list[Path] = []  # links back to a folder already walked, or above it
        self.outside: list[tuple[Path, Path]] = []  # (link, its boundary): never opened
        self.stopped: str | None = None  # why a walk stopped (or left folders out), one line
        self.halted = False  # a bound on the whole command was reached: no more walking
        self.entries = self.files = self.size = 0
        self._seen: set[tuple[int, int]] = set()

    def stop(self, why: str, halt: bool = True) -> None:
        if self.stopped is None:
            self.stopped = f"{why}; the rest was not checked (name a smaller folder)"
        self.halted = self.halted or halt


def files(
    start: Path,
    boundary: Path | None,
    walk: Walk,
    keep: Callable[[Path], bool],
    skip_folder: Callable[[str], bool] = lambda name: False,
) -> Iterator[Path]:
    """The files under the folder ``start`` that ``keep`` accepts, each folder's own files
    (sorted by name) before its subfolders (sorted), as ``os.walk`` lists them.

    ``boundary``: where every symlink on the way must resolve (None: anywhere, the user's own
    folder). ``skip_folder(name)``: folders never entered (``.git``, ``node_modules`` …). A
    dangling link is kept when ``keep`` accepts its name, so its reader says it is broken.
    """
    bounds = walk.bounds
    if walk.halted:
        return
    if boundary is not None and not contain.inside(start, boundary):
        walk.outside.append((start, boundary))
        return
    top = os.path.realpath(start)
    stack: list[tuple[Path, int]] = [(start, 0)]
    while stack:
        folder, level = stack.pop()
        try:
            info = os.stat(folder)
        except OSError as exc:
            walk.unreadable.append((folder, exc.strerror or str(exc)))
            continue
        key = (info.st_dev, info.st_ino)
        if key in walk._seen:
            walk.cycles.append(folder)
            continue
        walk._seen.add(key)
        entries: list[os.DirEntry[str]] = []
        try:
            with os.scandir(folder) as scan:
                for entry in scan:
                    walk.entries += 1
                    if walk.entries > bounds.entries:
                        walk.stop(f"stopped looking after {bounds.entries:,} files and folders")
                        return
                    entries.append(entry)
        except OSError as exc:
            walk.unreadable.append((folder, exc.strerror or str(exc)))
            continue
        entries.sort(key=lambda e: e.name)
        subfolders = []
        for entry in entries:
            path = folder / entry.name
            try:
                linked = entry.is_symlink()
                is_dir = entry.is_dir()  # a link's target is looked at (stat), never opened
            except OSError:
                continue
            if is_dir and skip_folder(entry.name) or not is_dir and not keep(path):
                continue  # never walked or read anyway: not worth a word
            if linked and boundary is not None and not contain.inside(path, boundary):
                walk.outside.append((path, boundary))
                continue
            if is_dir:
                if linked and _above(path, top):  # a link to / or to a folder above the start
                    walk.cycles.append(path)
                else:
                    subfolders.append(path)
                continue
            walk.files += 1
            walk.size += _size(entry)
            if walk.files > bounds.files:
                walk.stop(f"stopped looking after {bounds.files:,} files to check")
                return
            if walk.size > bounds.size:
                walk.stop(f"stopped looking after {bounds.size // (1024 * 1024):,} MB of files")
                return
            yield path
        if subfolders and level >= bounds.depth:
            walk.stop(f"did not look more than {bounds.depth} folders deep", halt=False)
            continue
        stack.extend((sub, level + 1) for sub in reversed(subfolders))


def _above(link: Path, top: str) -> bool:
    """Whether the folder ``link`` leads to holds the walk's start (``/`` holds every one):
    walking it would walk the start again, and all beside it."""
    real = os.path.realpath(link)
    return top == real or top.startswith(real.rstrip(os.sep) + os.sep)


def _size(entry: os.DirEntry[str]) -> int:
    try:
        return entry.stat().st_size
    except OSError:
        return 0  # dangling: its reader says so


def named(path: Path, boundary: Path | None, walk: Walk) -> bool:
    """Whether the file ``path`` named on the command line may be read: it resolves inside
    ``boundary`` (listed in ``walk.outside`` when not)."""
    if boundary is not None and not contain.inside(path, boundary):
        walk.outside.append((path, boundary))
        return False
    return True


def boundaries(
    paths: Iterable[Path], cwd: Path, own: Sequence[Path]
) -> list[tuple[Path, Path | None]]:
    """Each path with the boundary its reads keep to (``contain.root_for``): None inside the
    user's ``own`` folders (``hosts.paths.user_roots()``: their links are the user's), else
    the project (``cwd``) when the path is spelled inside it, else the path itself as named."""
    found = []
    for path in paths:
        root, trusted = contain.root_for(path, cwd, own)
        found.append((path, None if trusted else root))
    return found
