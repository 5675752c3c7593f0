"""The one place spawnkit calls copier: the same safe settings for new, adopt and update.

Every call runs with git's environment fixed (``gitutil.isolated_env``), ``unsafe=False``
(the template needs no tasks, migrations or extensions, so no ``--trust``), copier's own
warnings silenced and, unless questions are asked on a terminal, its notes on stderr kept
out of the user's terminal. Copier's errors become :class:`CopierFailed` with a one-line
message (at most ``MAX_MESSAGE`` characters: copier's can carry a 10 KB dump of the
answers); each command words it for its own user. Ctrl-C stays ``KeyboardInterrupt``: copier
turns it into ``CopierAnswersInterrupt`` at a question, which is also a ``CopierError``, and
an abort must not read as a refused answer. ``import copier`` costs ~0.6 s, so it
happens here, inside the calls.
"""

from __future__ import annotations

import contextlib
import io
import tempfile
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from spawnkit.files import interrupts
from spawnkit.template.gitutil import isolated_env


class CopierFailed(Exception):
    """Copier refused or failed; ``str()`` is its first line, ``question`` set for a validator."""

    def __init__(self, message: str, question: str | None = None) -> None:
        super().__init__(message)
        self.question = question


_VALIDATION_PREFIX = "Validation error for question '"
MAX_MESSAGE = 300


@contextlib.contextmanager
def _own_temp() -> Iterator[None]:
    """Copier's temporary folders (its clone of the template) inside one folder of ours,
    removed whatever happens: copier leaks its clone when Ctrl-C or SIGTERM lands mid-clone."""
    saved = tempfile.tempdir
    with interrupts.temporary_folder("spawnkit-copier-") as parent:
        tempfile.tempdir = parent
        try:
            yield
        finally:
            tempfile.tempdir = saved


@contextlib.contextmanager
def _quiet(interactive: bool) -> Iterator[None]:
    with _own_temp(), isolated_env(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if interactive:  # the questions need the real streams
            yield
        else:
            with contextlib.redirect_stderr(io.StringIO()):
                yield


def _failed(exc: Exception) -> CopierFailed:
    message = str(exc).strip()
    if message.startswith(_VALIDATION_PREFIX):
        key, _, rest = message[len(_VALIDATION_PREFIX) :].partition("': ")
        return CopierFailed(_short(f"invalid {key}: {rest.strip().splitlines()[0]}"), key)
    return CopierFailed(_short(message.splitlines()[0] if message else type(exc).__name__))


def _short(line: str) -> str:
    return line if len(line) <= MAX_MESSAGE else line[: MAX_MESSAGE - 1] + "…"


def copy(
    src_path: str,
    dest: Path,
    *,
    data: Mapping[str, Any],
    vcs_ref: str | None,
    answers_file: str | None = None,
    interactive: bool = False,
    overwrite: bool = True,
) -> None:
    """Render template ``src_path`` at ``vcs_ref`` into ``dest`` (defaults unless interactive)."""
    import copier
    from copier.errors import CopierError

    options: dict[str, Any] = {}
    if answers_file is not None:
        options["answers_file"] = answers_file
    try:
        with _quiet(interactive):
            copier.run_copy(
                src_path,
                dest,
                data=dict(data),
                vcs_ref=vcs_ref,
                defaults=not interactive,
                overwrite=overwrite,
                quiet=True,
                unsafe=False,
                **options,
            )
    except KeyboardInterrupt:
        raise KeyboardInterrupt from None  # CopierAnswersInterrupt too: aborted, not refused
    except (CopierError, ValueError) as exc:
        raise _failed(exc) from None


def update(work: Path, *, answers_file: str, vcs_ref: str) -> None:
    """``copier update`` of the git-tracked copy ``work`` to ``vcs_ref``, conflicts inline."""
    import copier
    from copier.errors import CopierError

    try:
        with _quiet(interactive=False):
            copier.run_update(
                dst_path=work,
                answers_file=answers_file,
                vcs_ref=vcs_ref,
                overwrite=True,
                defaults=True,
                conflict="inline",
                unsafe=False,
                quiet=True,
            )
    except KeyboardInterrupt:
        raise KeyboardInterrupt from None
    except (CopierError, ValueError) as exc:
        raise _failed(exc) from None
