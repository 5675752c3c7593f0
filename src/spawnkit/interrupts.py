"""Ctrl-C and SIGTERM end a command cleanly: temp folders removed, writes whole, one line said.

SIGTERM is turned into ``KeyboardInterrupt``, so every ``with`` block and ``finally``
on the way out runs (temporary folders go, a provisional template-store version is
taken back) exactly as for Ctrl-C. Code that writes the user's files wraps the write
in ``writing()``: a signal that arrives meanwhile waits until the write is complete,
so no file is left half-replaced, and the CLI can then say what was written.

Standard library only.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

EXIT_INTERRUPTED = 130  # 128 + SIGINT, what shells report for Ctrl-C

_state = {"depth": 0, "pending": None, "wrote": False}


def _raise(signum: int, _frame: object) -> None:
    if _state["depth"]:
        _state["pending"] = signum  # finish the write first; raised when it is complete
        return
    raise KeyboardInterrupt


@contextmanager
def handled() -> Iterator[None]:
    """Route SIGINT and SIGTERM through ``_raise`` for the duration of one command."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    _state.update(depth=0, pending=None, wrote=False)
    for sig in previous:
        signal.signal(sig, _raise)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


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


def wrote_anything() -> bool:
    """Whether a ``writing()`` block ran in this command (so "nothing written" would be untrue)."""
    return bool(_state["wrote"])


def aborted_message() -> str:
    if wrote_anything():
        return (
            "aborted; the writes already started were completed, nothing after them was done "
            "(run the command again to finish)"
        )
    return "aborted, nothing written"
