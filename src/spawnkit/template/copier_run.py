"""How spawnkit calls copier: isolated git, quiet, and copier's errors as one line each.

Every ``run_copy``/``run_update`` of spawnkit goes through ``copier_errors``: a refused
answer becomes ``invalid KEY: why``, any other copier error its first line (copier's
messages can carry a 10 KB dump of the answers), and Ctrl-C stays Ctrl-C. copier turns
Ctrl-C at a question into ``CopierAnswersInterrupt``, which is also a ``CopierError``.
"""

from __future__ import annotations

import contextlib
import io
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

from spawnkit.errors import SpawnkitError
from spawnkit.template.gitutil import isolated_env

_VALIDATION = re.compile(r"^Validation error for question '(?P<key>[^']+)': (?P<msg>.*)$", re.S)
_MAX_MESSAGE = 300


def describe(exc: BaseException) -> str:
    """A copier error in one short line."""
    message = str(exc).strip()
    match = _VALIDATION.match(message)
    if match:
        message = f"invalid {match['key']}: {match['msg'].strip()}"
    first = (message.splitlines() or [exc.__class__.__name__])[0]
    return first if len(first) <= _MAX_MESSAGE else first[: _MAX_MESSAGE - 1] + "…"


@contextmanager
def copier_errors(
    prefix: str = "", suffix: str = "", *, interactive: bool = False
) -> Iterator[None]:
    """Run copier inside: errors as ``SpawnkitError(prefix + one line + suffix)``.

    Not ``interactive``: copier's notes on stderr (e.g. "No git tags found") are dropped;
    on a terminal its questions need the real streams.
    """
    from copier.errors import CopierError

    chatter = contextlib.nullcontext() if interactive else contextlib.redirect_stderr(io.StringIO())
    try:
        with isolated_env(), warnings.catch_warnings(), chatter:
            warnings.simplefilter("ignore")
            yield
    except KeyboardInterrupt:
        raise KeyboardInterrupt from None  # CopierAnswersInterrupt included: aborted, not refused
    except (CopierError, ValueError) as exc:
        raise SpawnkitError(f"{prefix}{describe(exc)}{suffix}") from None
