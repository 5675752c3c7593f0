"""The one place spawnkit calls copier: the same safe settings for new, adopt and update.

Every call runs with git's environment fixed (``gitutil.isolated_env``), ``unsafe=False``
(the template needs no tasks, migrations or extensions, so no ``--trust``), copier's own
warnings silenced and, unless questions are asked on a terminal, its notes on stderr kept
out of the user's terminal. Copier's errors become :class:`CopierFailed` with a one-line
message; each command words it for its own user. ``import copier`` costs ~0.6 s, so it
happens here, inside the calls.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from spawnkit.template.gitutil import isolated_env


class CopierFailed(Exception):
    """Copier refused or failed; ``str()`` is its first line, ``question`` set for a validator."""

    def __init__(self, message: str, question: str | None = None) -> None:
        super().__init__(message)
        self.question = question


_VALIDATION_PREFIX = "Validation error for question '"


@contextlib.contextmanager
def _quiet(interactive: bool) -> Iterator[None]:
    with isolated_env(), warnings.catch_warnings():
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
        return CopierFailed(f"invalid {key}: {rest.strip().splitlines()[0]}", question=key)
    return CopierFailed(message.splitlines()[0] if message else type(exc).__name__)


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
    except (CopierError, ValueError) as exc:
        raise _failed(exc) from None
