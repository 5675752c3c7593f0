"""What install, uninstall and doctor may read, and where they may write.

A project folder arrives with ``git clone``, and a sub-agent can write into it, so
nothing in it is trusted (see docs/security.md): every file is read as a plain
file within a size limit (a FIFO, device or socket in its place is refused at
once, never waited on), every path read from an install record must be a plain
relative path inside its folder, and in an untrusted folder every write or
removal must resolve inside it, whatever symlinks were planted on the way.
"""

from __future__ import annotations

import os
from pathlib import Path

from spawnkit.files import contain, reading

MIB = 1024 * 1024
MAX_FILE_BYTES = 32 * MIB  # settings files, the standard, the skill: far above any real one
MAX_RECORD_BYTES = 1 * MIB  # install records and journals of spawnkit's own


def read_file(path: Path, limit: int = MAX_FILE_BYTES, root: Path | None = None) -> bytes | None:
    """The bytes of a plain file; None when it does not exist; one-line errors otherwise.

    ``root``: the project the file belongs to; a file resolving out of it is refused
    (``contain.Outside``) and never opened. None: the user's own folder."""
    if not os.path.lexists(path):
        return None
    return reading.read_bytes(
        path,
        limit=limit,
        fix="spawnkit reads only plain files: move it aside, then run the command again",
        root=root,
    )


def check_link(path: Path) -> None:
    """Refuse a dangling or looping symlink where a file will be written or removed.

    Writing through a dangling link would create its target (and folders) wherever
    it points; removing the file would remove the user's link instead. (The rule for
    whole paths, links on the way included, is ``spawnkit.files.contain``.)
    """
    contain.check(path, path.parent, trusted=True)


def plain_name(name: object) -> bool:
    """A single file name: no folder part, nothing special."""
    return (
        isinstance(name, str)
        and 0 < len(name) <= 255
        and name not in (".", "..")
        and not any(c in name for c in "/\\\0")
    )


def relative_inside(rel: object) -> bool:
    """A relative POSIX path that cannot leave its folder (no ``..``, no absolute path)."""
    if not isinstance(rel, str) or not 0 < len(rel) <= 1024 or rel.startswith("/"):
        return False
    return all(plain_name(part) for part in rel.split("/"))


inside = contain.inside  # True when a path resolves to its root or below
