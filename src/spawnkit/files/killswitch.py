"""The crash tests' kill switch: ``SPAWNKIT_TEST_ABORT_AFTER_WRITES=N`` (set only by tests)
kills the process with SIGKILL right after its N-th write to the file system.

Writes are counted from the outside, by an audit hook (PEP 578) that sees every call that
changes the file system, whatever code makes it: a file opened for writing, a rename or
replace, a removal, a folder made or removed, a link, a change of permissions, and every
program started (git writes the template store). Nothing is marked by hand, so no write can
be missed: the crash tests stop after each one in turn, including the writes made after the
install journal is gone. The hook runs just before each call, so "after the N-th write" is
the moment the next one comes, or the end of the process.

A call that will plainly do nothing (making a folder that exists, removing a file that does
not) is not a write; nor are Python's own bytecode caches.
"""

from __future__ import annotations

import os
import sys

ABORT_ENV = "SPAWNKIT_TEST_ABORT_AFTER_WRITES"
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_ALWAYS = {"os.rename", "os.link", "os.symlink", "os.truncate", "subprocess.Popen"}
_BY_PATH = {"os.chmod", "os.chown", "os.mkfifo", "os.mknod"}


def arm(environ: dict[str, str] | os._Environ[str] = os.environ) -> None:
    """Install the switch when the tests ask for it; otherwise do nothing."""
    raw = environ.get(ABORT_ENV, "")
    if not raw.isdigit() or int(raw) < 1:
        return
    limit = int(raw)
    done = [0]

    def hook(event: str, args: tuple) -> None:
        if is_write(event, args):
            if done[0] == limit:
                _die()
            done[0] += 1

    sys.addaudithook(hook)
    import atexit

    atexit.register(lambda: done[0] == limit and _die())


def is_write(event: str, args: tuple) -> bool:
    """Whether the audited call ``event(args)`` is about to change the file system."""
    if event == "open":
        path, _mode, flags = args
        return isinstance(flags, int) and bool(flags & _WRITE_FLAGS) and _real_path(path)
    if event in _ALWAYS:
        return True
    if event in _BY_PATH:
        return _real_path(args[0])
    if event == "os.mkdir":
        return _real_path(args[0]) and not _exists(args[0], args[2])
    if event in ("os.remove", "os.rmdir"):
        return _real_path(args[0]) and _exists(args[0], args[1])
    return False


def _real_path(path: object) -> bool:
    """A path (not a descriptor) outside /dev and Python's bytecode caches."""
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not isinstance(path, str):
        return False  # a descriptor: a file already opened (and counted) by this process
    return not path.startswith("/dev/") and "__pycache__" not in path


def _exists(path: str, dir_fd: object) -> bool:
    try:
        os.lstat(path, dir_fd=dir_fd if isinstance(dir_fd, int) and dir_fd >= 0 else None)
    except (OSError, ValueError):
        return False
    return True


def _die() -> None:
    import signal

    os.kill(os.getpid(), signal.SIGKILL)
