"""Ctrl-C and SIGTERM end a command cleanly: temp folders removed, writes whole, one line said.

SIGTERM is turned into ``KeyboardInterrupt``, so every ``with`` block and ``finally``
on the way out runs (temporary folders go, a provisional template-store version is
taken back) exactly as for Ctrl-C. Code that writes the user's files wraps the write
in ``writing()``: a signal that arrives meanwhile waits until the write is complete,
so no file is left half-replaced, and the CLI can then say what was written.

Standard library only.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from spawnkit.errors import ERROR_PREFIX, EXIT_INTERRUPTED

NOTHING_WRITTEN = "aborted, nothing written"

_state: dict = {"depth": 0, "pending": None, "wrote": False, "last": None, "in_hook": 0}


def _raise(signum: int, _frame: object) -> None:
    _state["last"] = signum
    if _state["in_hook"]:
        return  # inside the hook below, which delivers it again once it has returned
    if _state["depth"]:
        _state["pending"] = signum  # finish the write first; raised when it is complete
        return
    raise KeyboardInterrupt


def _unraisable(hook):  # type: ignore[no-untyped-def]
    """An interrupt that lands inside a finalizer or weakref callback is swallowed by Python
    (with a traceback on stderr): say nothing and deliver the signal again, so it takes
    effect at the next ordinary line.

    The signal is raised again from another thread once this hook has returned: raised here,
    the handler would run at once, inside the hook, and Python would swallow it a second
    time ("Exception ignored in sys.unraisablehook").
    """

    def handle(info) -> None:  # type: ignore[no-untyped-def]
        if not issubclass(info.exc_type, KeyboardInterrupt) or _state["last"] is None:
            hook(info)
            return
        _state["in_hook"] += 1
        try:
            threading.Thread(
                target=_deliver_after_hook, args=(_state["last"],), daemon=True
            ).start()
        finally:
            _state["in_hook"] -= 1

    return handle


def _deliver_after_hook(signum: int) -> None:
    while _state["in_hook"]:
        time.sleep(0.001)
    signal.raise_signal(signum)  # the main thread runs the handler at its next line


def until_started() -> None:
    """Before the command starts nothing is written: a signal then just says so and exits."""
    if threading.current_thread() is not threading.main_thread():
        return

    def leave(_signum: int, _frame: object) -> None:
        os.write(2, f"{ERROR_PREFIX}{NOTHING_WRITTEN}\n".encode())
        os._exit(EXIT_INTERRUPTED)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, leave)


@contextmanager
def handled(exiting: bool = False) -> Iterator[None]:
    """Route SIGINT and SIGTERM through ``_raise`` for the duration of one command.

    ``exiting``: the process ends right after (the ``spawnkit`` command): a signal that comes
    once the command is over is ignored rather than killing the exit half-way, so the exit
    code and the last line stay those of the finished command.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    hook = sys.unraisablehook
    _state.update(depth=0, pending=None, wrote=False, last=None, in_hook=0)
    sys.unraisablehook = _unraisable(hook)
    for sig in previous:
        signal.signal(sig, _raise)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, signal.SIG_IGN if exiting else handler)
        sys.unraisablehook = hook


@contextmanager
def shielded() -> Iterator[None]:
    """Let the block finish before a Ctrl-C or SIGTERM takes effect (e.g. undoing a change)."""
    _state["depth"] += 1
    try:
        yield
    finally:
        _state["depth"] -= 1
        if not _state["depth"] and _state["pending"] is not None:
            _state["pending"] = None
            raise KeyboardInterrupt


@contextmanager
def writing() -> Iterator[None]:
    """Like ``shielded``, for writes to the user's files: afterwards "nothing written" is untrue."""
    _state["wrote"] = True
    with shielded():
        yield


@contextmanager
def temporary_folder(prefix: str) -> Iterator[str]:
    """A temporary folder that is gone afterwards, even when Ctrl-C or SIGTERM lands while it is
    being made or removed (``tempfile.TemporaryDirectory`` can leave it half-deleted then)."""
    import shutil  # here, not at the top: a one-file lint never needs a temporary folder
    import tempfile

    folder = None
    try:
        with shielded():
            folder = tempfile.mkdtemp(prefix=prefix)
        yield folder
    finally:
        if folder is not None:
            with shielded():
                shutil.rmtree(folder, ignore_errors=True)
                if os.path.exists(folder):  # read-only leftovers (git makes some): once more
                    for root, dirs, _files in os.walk(folder):
                        for name in dirs:
                            os.chmod(os.path.join(root, name), 0o700)
                    shutil.rmtree(folder, ignore_errors=True)


def wrote_anything() -> bool:
    """Whether a ``writing()`` block ran in this command (so "nothing written" would be untrue)."""
    return bool(_state["wrote"])


def aborted_message() -> str:
    if wrote_anything():
        return (
            "aborted; the writes already started were completed, nothing after them was done "
            "(run the command again to finish)"
        )
    return NOTHING_WRITTEN
