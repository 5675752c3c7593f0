"""Per-session state shared by concurrent hook processes.

Claude Code runs the hooks of one event in parallel, and the PreToolUse calls of
parallel Agent launches arrive together, so every read-modify-write of the session
state happens under an exclusive ``flock`` on the state file itself, with an
explicit timeout (the caller fails open when it expires). The file is rewritten in
place while the lock is held, so no reader ever sees it half-written. It only holds
short-lived counters; if a crash ever leaves it unreadable, the session simply
starts counting afresh. (A temp-file-and-rename per tool call would cost more than
the rest of the hook.)

Layout: ``<config dir>/.spawnkit/sessions/<sid>.json`` (a user-scope uninstall removes them).
Files of sessions untouched for ``KEEP_SECONDS`` are swept when a new session starts. A
sub-agent can write there too, so the folders are opened without following symlinks and the
file must be a plain file with one link: a planted symlink or hard link fails the check
(fail open), it is never written through.
"""

from __future__ import annotations

import time

from spawnkit.base import fastjson, lightos
from spawnkit.base.lightos import native
from spawnkit.hook.call import SESSIONS_DIR, session_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from spawnkit.hook.call import Call

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no parallel cap, no retry count
    fcntl = None  # type: ignore[assignment]

LOCK_TIMEOUT = 2.0
# The project a session works in, noted when its state starts: the replies and reports the hook
# has saved there (``.spawnkit/returns``, ``.spawnkit/reports``) are the user's, and uninstall
# names those folders as what it keeps.
PROJECT_KEY = "project"
KEEP_SECONDS = 2 * 24 * 3600
_POLL = 0.005


class LockUnavailable(Exception):
    """The session lock could not be taken in time (or locking is unsupported)."""


class SessionState:
    """``with SessionState(dir, sid, now) as data:`` — edit ``data``; saved on a clean exit."""

    def __init__(
        self,
        state_dir: str,
        session: str,
        now: float,
        timeout: float | None = None,
        project: str | None = None,
    ):
        self._root, _, self._state_name = state_dir.rstrip(lightos.SEP).rpartition(lightos.SEP)
        self._root = self._root or lightos.SEP
        self._dir = lightos.join(state_dir, SESSIONS_DIR)
        self._name = session + ".json"
        self._path = session_path(state_dir, session)
        self._now = now
        self._project = project  # noted in a new session's state: uninstall names its folders
        self._timeout = LOCK_TIMEOUT if timeout is None else timeout
        self._fd = -1
        self._before = b""
        self.data: dict[str, Any] = {}

    def __enter__(self) -> dict[str, Any]:
        if fcntl is None:
            raise LockUnavailable("file locking is not available on this platform")
        try:
            folder = lightos.open_folder(self._root, [self._state_name, SESSIONS_DIR])
            try:
                self._fd = lightos.open_plain(folder, self._name, native.O_RDWR | native.O_CREAT)
            finally:
                native.close(folder)
        except OSError as exc:
            raise LockUnavailable(f"{self._path} cannot be used safely ({exc.strerror})") from exc
        deadline = time.monotonic() + self._timeout
        while True:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError as exc:
                if time.monotonic() >= deadline:
                    native.close(self._fd)
                    self._fd = -1
                    raise LockUnavailable(
                        f"{self._path} stayed locked for {self._timeout} s"
                    ) from exc
                time.sleep(_POLL)
        self._before = self._read_all()
        self.data = self._parse(self._before)
        return self.data

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            if exc_type is None:
                after = fastjson.dumps(self.data).encode("ascii")
                if after != self._before:
                    native.lseek(self._fd, 0, 0)
                    view = memoryview(after)
                    while view:
                        view = view[native.write(self._fd, view) :]
                    native.ftruncate(self._fd, len(after))
        finally:
            native.close(self._fd)  # closing releases the flock
            self._fd = -1

    def _read_all(self) -> bytes:
        chunks = []
        while chunk := native.read(self._fd, 1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)

    def _parse(self, raw: bytes) -> dict[str, Any]:
        fresh: dict[str, Any] = {"version": 1, "created": self._now}
        if self._project:
            fresh[PROJECT_KEY] = self._project
        if not raw:
            self._sweep()
            return fresh
        try:
            data = fastjson.loads(raw.decode("ascii", "replace"))
        except fastjson.JSONError:
            return fresh  # unreadable counters: start over
        return data if isinstance(data, dict) else fresh

    def _sweep(self) -> None:
        """Drop the files of sessions idle for longer than KEEP_SECONDS."""
        cutoff = self._now - KEEP_SECONDS
        try:
            entries = list(native.scandir(self._dir))
        except OSError:
            return
        for entry in entries:
            try:
                if entry.path != self._path and entry.stat().st_mtime < cutoff:
                    native.unlink(entry.path)
            except OSError:
                pass


class LockedState:
    """``with LockedState(call) as data:`` the call's locked session state, or None when the
    lock times out (logged): every check that needs the state fails open through here."""

    def __init__(self, call: Call) -> None:
        self._call = call
        self._state: SessionState | None = SessionState(
            call.state_dir, call.session, call.now, project=call.project
        )

    def __enter__(self) -> dict[str, Any] | None:
        try:
            return self._state.__enter__()  # type: ignore[union-attr]
        except LockUnavailable as exc:
            from spawnkit.hook.log import append

            where = " ".join(part for part in (self._call.event, self._call.tool_name) if part)
            append(self._call.state_dir, f"{where}: {exc}; check skipped")
            self._state = None
            return None

    def __exit__(self, *exc: object) -> None:
        if self._state is not None:
            self._state.__exit__(*exc)
