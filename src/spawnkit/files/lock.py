"""One spawnkit at a time per config folder: install, uninstall and update take this lock.

Without it, parallel installs on a fresh folder raced on ``mkdir`` and one's
rollback rewrote the others' work (four of them could all report success and
leave no hook). The lock is an ``flock`` on the folder that holds the config
folder (``~`` for ``~/.claude``, the project for ``./.claude``): nothing is
created for it, so uninstall leaves no lock file behind, and it covers the moment
the config folder itself is created. The kernel drops it when the process dies,
so a killed spawnkit never leaves the folder locked.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from spawnkit.errors import SpawnkitError

TIMEOUT_SECONDS = 30.0
_POLL = 0.02


def lock_folder(config_dir: Path) -> Path:
    """The folder whose lock guards ``config_dir`` (created when missing)."""
    return Path(os.path.realpath(config_dir)).parent


@contextmanager
def locked(config_dir: Path, timeout: float = TIMEOUT_SECONDS) -> Iterator[None]:
    """Hold the lock of ``config_dir`` for the block; one-line error when it stays taken."""
    folder = lock_folder(config_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise SpawnkitError(
            f"cannot use {folder} ({exc.strerror or exc}); choose another place with --config-dir"
        ) from None
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise SpawnkitError(
                        f"another spawnkit install, uninstall or update has been working on"
                        f" {config_dir} for over {timeout:.0f} s; let it finish, then run the"
                        " command again"
                    ) from None
                time.sleep(_POLL)
            except OSError:
                break  # a file system without locks (some network mounts): go on unlocked
        yield
    finally:
        os.close(fd)  # closing releases the lock
