"""The hook's own log: ``<config dir>/.spawnkit/hook.log``, capped in size.

A hook must never fail loudly inside Claude Code, so internal errors land here
(with the traceback) and the user only sees a one-line ``systemMessage`` naming
this file. When the log passes ``MAX_BYTES`` it is moved to ``hook.log.1``
(replacing the previous one), so the two files never exceed twice that.
"""

from __future__ import annotations

import os
import time

MAX_BYTES = 256 * 1024
LOG_NAME = "hook.log"


def log_path(state_dir: str) -> str:
    return os.path.join(state_dir, LOG_NAME)


def append(state_dir: str, message: str) -> None:
    """Append one timestamped entry; never raises (logging must not break the hook)."""
    try:
        os.makedirs(state_dir, exist_ok=True)
        path = log_path(state_dir)
        try:
            if os.path.getsize(path) > MAX_BYTES:
                os.replace(path, path + ".1")
        except FileNotFoundError:
            pass
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        entry = f"{stamp} pid={os.getpid()} {message.rstrip()}\n"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, entry.encode("utf-8", "replace")[: MAX_BYTES // 4])
        finally:
            os.close(fd)
    except Exception:  # noqa: BLE001 - the log is best effort by design
        pass
