"""The hook's own log: ``<config dir>/.spawnkit/hook.log``, capped in size.

A hook must never fail loudly inside Claude Code, so internal errors land here
(with the traceback) and the user only sees a one-line ``systemMessage`` naming
this file. When the log passes ``MAX_BYTES`` it is moved to ``hook.log.1``
(replacing the previous one), so the two files never exceed twice that. The log
is opened without following symlinks: one planted in its place is never written
through (the entry is dropped).
"""

from __future__ import annotations

import os
import time

from spawnkit.base import lightos

MAX_BYTES = 256 * 1024
LOG_NAME = "hook.log"


def log_path(state_dir: str) -> str:
    return os.path.join(state_dir, LOG_NAME)


def append(state_dir: str, message: str) -> None:
    """Append one timestamped entry; never raises (logging must not break the hook)."""
    try:
        root, _, name = state_dir.rstrip("/").rpartition("/")
        folder = lightos.open_folder(root or "/", [name])
        try:
            try:
                if os.stat(LOG_NAME, dir_fd=folder, follow_symlinks=False).st_size > MAX_BYTES:
                    os.replace(LOG_NAME, LOG_NAME + ".1", src_dir_fd=folder, dst_dir_fd=folder)
            except FileNotFoundError:
                pass
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S%z")
            entry = f"{stamp} pid={os.getpid()} {message.rstrip()}\n"
            fd = lightos.open_plain(folder, LOG_NAME, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
            try:
                os.write(fd, entry.encode("utf-8", "replace")[: MAX_BYTES // 4])
            finally:
                os.close(fd)
        finally:
            os.close(folder)
    except Exception:  # noqa: BLE001 - the log is best effort by design
        pass
