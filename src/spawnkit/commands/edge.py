"""The CLI's outer edge: every way a command can end becomes an exit code and at most one line.

``spawnkit: error: …`` on stderr for every refusal, whether click (a missing argument, a bad
choice), spawnkit or the operating system (a read-only folder, a file where a folder is
expected) refused; ``aborted, nothing written`` and exit 130 on Ctrl-C or SIGTERM; never a
traceback. An unexpected exception is one line too, with the traceback in the log file
``<config>/.spawnkit/spawnkit.log`` (or on stderr with ``SPAWNKIT_DEBUG=1``).

click is never imported here: the plain ``spawnkit lint PATH`` runs without it
(``spawnkit.__main__``); its exceptions are recognised only when click is already loaded.
"""

from __future__ import annotations

import errno
import gc
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import click

from spawnkit.base.shown import shown, shown_lines
from spawnkit.errors import ERROR_PREFIX, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, SpawnkitError
from spawnkit.files import interrupts
from spawnkit.hosts import paths

LOG_NAME = "spawnkit.log"
_LOG_LIMIT = 256 * 1024


class _PastClick(BaseException):
    """Carries Ctrl-C or a closed stdout past click, which would print a blank line and exit 1."""

    def __init__(self, original: BaseException) -> None:
        super().__init__(original)
        self.original = original


@contextmanager
def past_click() -> Iterator[None]:
    """Wrap a command's invocation so ``run`` sees its Ctrl-C and broken pipe, not click."""
    try:
        yield
    except (KeyboardInterrupt, BrokenPipeError) as exc:
        raise _PastClick(exc) from None


def say(message: str) -> None:
    """One line on stderr, whatever the message holds (through the output gate: a path or a
    value from a project cannot write an escape sequence to the terminal)."""
    line = shown(" ".join(str(message).split())) or "unknown error"
    try:
        sys.stderr.write(ERROR_PREFIX + line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


_process = {"own": False}


def own_process() -> None:
    """This process is the ``spawnkit`` command (not a test calling the CLI): it ends when the
    command does, so it may ignore late signals and leave with ``os._exit`` after Ctrl-C."""
    _process["own"] = True


def run(call: Callable[[], object], standalone: bool) -> int:
    """Run ``call`` (click's main in non-standalone mode) and turn how it ended into an exit code."""
    owned = standalone and _process["own"]
    code = _outcome(call, owned)
    if standalone:
        if owned and code == EXIT_INTERRUPTED:
            _exit_now(code)
        sys.exit(code)
    return code


def _exit_now(code: int) -> None:
    """End an interrupted process with exactly ``code``.

    Every ``with`` block has unwound by now (temporary folders gone, writes whole); what is
    left is the interpreter's own shutdown, where CPython turns an interrupt it saw into a
    death by SIGINT (exit -2 instead of 130) in some timings. So flush and leave at once.
    """
    gc.collect()  # a temporary folder object dropped mid-way removes its folder when collected
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _outcome(call: Callable[[], object], exiting: bool) -> int:
    try:
        with interrupts.handled(exiting):
            try:
                value = call()
            except _PastClick as exc:
                raise exc.original from None
    except SystemExit as exc:
        return _code(exc.code)
    except KeyboardInterrupt:
        return _interrupted()
    except Exception as exc:
        return _refused(exc)
    return _code(value)


def _interrupted() -> int:
    _fresh_line()
    say(interrupts.aborted_message())
    return EXIT_INTERRUPTED


def _refused(exc: Exception) -> int:
    """The exit code for ``exc``, after saying it in one line."""
    click = sys.modules.get("click")
    if click is not None:
        if isinstance(exc, click.exceptions.Exit):
            return exc.exit_code
        if isinstance(exc, click.exceptions.Abort):
            return _interrupted()
        if isinstance(exc, click.UsageError):
            say(usage_message(exc))
            return EXIT_USAGE
        if isinstance(exc, click.ClickException):
            say(_sentence(exc.format_message()))
            return exc.exit_code if exc.exit_code else EXIT_USAGE
    if isinstance(exc, SpawnkitError):
        say(str(exc))
        return exc.exit_code
    if isinstance(exc, BrokenPipeError):
        _silence_stdout()
        return EXIT_USAGE
    if isinstance(exc, OSError):
        say(os_message(exc))
        return EXIT_USAGE
    if isinstance(exc, UnicodeError):
        reason = getattr(exc, "reason", exc.__class__.__name__)
        say(f"{reason} in input that must be UTF-8 text; convert the file to UTF-8")
        return EXIT_USAGE
    # the last resort: a bug, said in one line, detailed in the log
    where = _log_traceback()
    say(
        f"internal error ({exc.__class__.__name__}: {exc}); "
        + (f"the traceback is in {where}; " if where else "")
        + "please report it"
    )
    return EXIT_USAGE


def _code(value: object) -> int:
    if value is None:
        return EXIT_OK
    if isinstance(value, int):
        return value
    say(str(value))
    return EXIT_USAGE


def usage_message(exc: click.UsageError) -> str:
    """Click's usage errors, in spawnkit's style: the problem, then where the help is."""
    command = exc.ctx.command_path if exc.ctx is not None else "spawnkit"
    return f"{_sentence(exc.format_message())}; see '{command} --help'"


def _sentence(text: str) -> str:
    text = " ".join(text.split()).rstrip(".")
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def os_message(exc: OSError) -> str:
    """An operating-system refusal that reached the edge: what failed, on which path, the fix."""
    name = exc.filename if exc.filename is not None else ""
    reason = exc.strerror or exc.__class__.__name__
    hint = {
        errno.EACCES: "check its permissions",
        errno.EPERM: "check its permissions",
        errno.EROFS: "the file system is read-only",
        errno.ENOENT: "check the path",
        errno.ENOTDIR: "a file stands where a folder is needed",
        errno.EISDIR: "a folder stands where a file is needed",
        errno.EEXIST: "something already exists there; move it away",
        errno.ENOSPC: "free some disk space",
    }.get(exc.errno or 0, "")
    where = f"{name}: " if name else ""
    if exc.filename2:
        where = f"{name} -> {exc.filename2}: "
    return f"{where}{reason}" + (f"; {hint}" if hint else "")


def _fresh_line() -> None:
    """After ^C on a terminal the cursor sits behind the echoed ``^C``: start a fresh line."""
    try:
        if sys.stderr.isatty():
            sys.stderr.write("\n")
    except (OSError, ValueError):
        pass


def _silence_stdout() -> None:
    """The reader went away (``spawnkit rule --all | head``): no second error at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _log_traceback() -> Path | None:
    """Write the current traceback where a bug report can pick it up; None if that fails too."""
    import traceback  # only on the way out of a bug: importing it cost every command ~10 ms

    text = shown_lines(traceback.format_exc())  # its messages may quote a project's values
    if os.environ.get("SPAWNKIT_DEBUG"):
        sys.stderr.write(text)
    log = paths.claude_config_dir() / ".spawnkit" / LOG_NAME
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        if log.exists() and log.stat().st_size > _LOG_LIMIT:
            os.replace(log, log.with_name(LOG_NAME + ".1"))
        with open(log, "a", encoding="utf-8", errors="replace") as fh:
            fh.write(text)
    except OSError:
        return None
    return log
