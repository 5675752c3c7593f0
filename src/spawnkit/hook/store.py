"""Per-session state shared by concurrent hook processes.

Claude Code runs the hooks of one event in parallel, and the PreToolUse calls of
parallel Agent launches arrive together, so every read-modify-write of the session
state happens under an exclusive ``flock`` on ``<sid>.lock``, with an explicit
timeout (the caller fails open when it expires). The data file is replaced
atomically (temp file + rename) so a crashed hook never leaves half a file. It is
not fsynced: it only holds short-lived counters that expire on their own, and an
fsync per tool call would cost more than the rest of the hook.

Layout: ``<config dir>/.spawnkit/sessions/<sid>.json`` and ``<sid>.lock``. Files
of sessions untouched for ``KEEP_SECONDS`` are swept when a new session starts.
"""

from __future__ import annotations

import os
import time

from spawnkit import fastjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no parallel cap, no retry count
    fcntl = None  # type: ignore[assignment]

SESSIONS_DIR = "sessions"
LOCK_TIMEOUT = 2.0
KEEP_SECONDS = 2 * 24 * 3600
_POLL = 0.005
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


class LockUnavailable(Exception):
    """The session lock could not be taken in time (or locking is unsupported)."""


def safe_name(raw: object) -> str:
    """A file-name-safe, collision-resistant form of an id taken from a payload."""
    text = raw if isinstance(raw, str) else ""
    clean = "".join(c if c in _SAFE else "_" for c in text)[:96].strip(".")
    if clean and clean == text:
        return clean
    import zlib

    crc = zlib.crc32(text.encode("utf-8", "surrogatepass"))
    return f"{clean or 'unknown'}-{crc:08x}"


class SessionState:
    """``with SessionState(dir, sid, now) as data:`` — edit ``data``; saved on a clean exit."""

    def __init__(self, state_dir: str, session: str, now: float, timeout: float | None = None):
        self._dir = os.path.join(state_dir, SESSIONS_DIR)
        self._path = os.path.join(self._dir, session + ".json")
        self._lock_path = os.path.join(self._dir, session + ".lock")
        self._now = now
        self._timeout = LOCK_TIMEOUT if timeout is None else timeout
        self._fd = -1
        self._before = ""
        self.data: dict[str, Any] = {}

    def __enter__(self) -> dict[str, Any]:
        if fcntl is None:
            raise LockUnavailable("file locking is not available on this platform")
        os.makedirs(self._dir, exist_ok=True)
        self._fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + self._timeout
        while True:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError as exc:
                if time.monotonic() >= deadline:
                    os.close(self._fd)
                    self._fd = -1
                    raise LockUnavailable(
                        f"{self._lock_path} stayed locked for {self._timeout} s"
                    ) from exc
                time.sleep(_POLL)
        self.data = self._read()
        self._before = fastjson.dumps(self.data)
        return self.data

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            if exc_type is None and fastjson.dumps(self.data) != self._before:
                self._write()
        finally:
            os.close(self._fd)  # closing releases the flock
            self._fd = -1

    def _read(self) -> dict[str, Any]:
        try:
            data = fastjson.load_file(self._path)
        except FileNotFoundError:
            self._sweep()
            return {"version": 1, "created": self._now}
        except (OSError, fastjson.JSONError):
            return {"version": 1, "created": self._now}  # unreadable counters: start over
        return data if isinstance(data, dict) else {"version": 1, "created": self._now}

    def _write(self) -> None:
        tmp = f"{self._path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="ascii") as fh:
            fh.write(fastjson.dumps(self.data))
        os.replace(tmp, self._path)

    def _sweep(self) -> None:
        """Drop the files of sessions idle for longer than KEEP_SECONDS."""
        cutoff = self._now - KEEP_SECONDS
        try:
            entries = list(os.scandir(self._dir))
        except OSError:
            return
        for entry in entries:
            try:
                if entry.is_file() and entry.stat().st_mtime < cutoff:
                    os.unlink(entry.path)
            except OSError:
                pass
