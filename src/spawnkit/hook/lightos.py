"""The few operating-system calls the hook path makes, without ``import os``.

``import os`` costs about 2 ms (it loads ``_collections_abc``): a third of what a
hook may spend beyond a bare interpreter start. The built-in ``posix`` module is
already loaded when Python starts and offers the same calls, so the hook path
uses it through these helpers; ``os`` is the fallback on other platforms. Paths
are handled POSIX-style. Code off the hook path uses ``os`` and ``pathlib``.
"""

from __future__ import annotations

try:
    import posix as native
except ImportError:  # pragma: no cover - not a POSIX system
    import os as native  # type: ignore[no-redef]

SEP = "/"
_S_IFMT, _S_IFREG = 0o170000, 0o100000


def environ() -> dict[str, str]:
    """The process environment as text (``posix.environ`` holds bytes)."""
    env = native.environ
    return {
        (k.decode("utf-8", "surrogateescape") if isinstance(k, bytes) else k): (
            v.decode("utf-8", "surrogateescape") if isinstance(v, bytes) else v
        )
        for k, v in env.items()
    }


def getcwd() -> str:
    return native.getcwd()


def isabs(path: str) -> bool:
    return path.startswith(SEP)


def join(path: str, *parts: str) -> str:
    """``os.path.join`` for POSIX paths."""
    for part in parts:
        if part.startswith(SEP):
            path = part
        elif not path or path.endswith(SEP):
            path += part
        else:
            path += SEP + part
    return path


def dirname(path: str) -> str:
    """``os.path.dirname`` for POSIX paths."""
    head = path[: path.rfind(SEP) + 1]
    stripped = head.rstrip(SEP)
    return stripped or head


def absolute(path: str, base: str) -> str:
    """``os.path.abspath`` with ``base`` as the working directory, and ``~`` expanded.

    Clean paths (the usual case) are handled here; others go through ``os.path``.
    """
    if not path.startswith("~"):
        joined = join(base, path)
        parts = joined.split(SEP)
        if isabs(joined) and "." not in parts and ".." not in parts and "" not in parts[1:-1]:
            return joined.rstrip(SEP) or SEP
    import os

    return os.path.normpath(os.path.join(base, os.path.expanduser(path)))


def is_file(path: str) -> bool:
    try:
        return native.stat(path).st_mode & _S_IFMT == _S_IFREG
    except (OSError, ValueError):
        return False


def makedirs(path: str) -> None:
    """``os.makedirs(path, exist_ok=True)``."""
    try:
        native.mkdir(path, 0o777)
    except FileExistsError:
        return
    except FileNotFoundError:
        parent = dirname(path)
        if not parent or parent == path:
            raise
        makedirs(parent)
        try:
            native.mkdir(path, 0o777)
        except FileExistsError:
            return
