"""Read a file the user named or owns, refusing in one line what cannot be read.

Regular files only: a FIFO would block ``open`` until someone writes to it, a device
could stream forever, so the file is opened non-blocking and checked with ``fstat``
before a byte is read (``base.lightos.read_regular``, shared with the hook). Sizes are
bounded. Each refusal is a ``SpawnkitError`` naming the file, the problem and the fix, so
every verb words these the same way.

Standard library only.
"""

from __future__ import annotations

import errno
import os

from spawnkit.base.lightos import FileTooLarge, NotRegularFile, read_regular
from spawnkit.errors import SpawnkitError
from spawnkit.files import contain

MAX_BYTES = 16 * 1024 * 1024  # far above any skill, config or answers file


class NotRegular(SpawnkitError):
    """A pipe, socket, device or folder where a file was expected."""


class TooLarge(SpawnkitError):
    """Over the size limit; ``size`` is the file's."""

    def __init__(self, message: str, size: int) -> None:
        super().__init__(message)
        self.size = size


class Missing(SpawnkitError):
    """Nothing at that path (or a link to nothing)."""


class NotUtf8(SpawnkitError):
    """Bytes that are not UTF-8 text."""


NOT_REGULAR = "is not a regular file (a FIFO, socket or device)"  # never opened: it could block


def read_bytes(
    path: str | os.PathLike[str],
    *,
    what: str = "",
    limit: int = MAX_BYTES,
    fix: str = "pass a file",
    follow: bool = True,
    root: str | os.PathLike[str] | None = None,
) -> bytes:
    """The bytes of the regular file ``path`` (read by ``lightos.read_regular``, the hook's own
    non-blocking reader), or one ``SpawnkitError`` saying why not.

    ``what`` names it in messages ("the answers file"); ``fix`` is the advice when something
    other than a regular file stands there ("pass a file" for a path the user gave);
    ``follow=False`` refuses a symlink; ``root``: the folder ``path`` belongs to (a
    project), out of which it must not resolve (``contain.Outside``, never opened).
    """
    label = f"{what} {path}" if what else str(path)
    contain.check_read(path, root, label)
    try:
        return read_regular(os.fspath(path), limit, follow=follow)
    except (NotRegularFile, IsADirectoryError):
        if os.path.isdir(path):
            raise NotRegular(f"{label} is a folder, not a file; {fix}") from None
        raise NotRegular(f"{label} {NOT_REGULAR}; {fix}") from None
    except FileTooLarge:
        try:
            size = os.stat(path).st_size
        except OSError:
            size = limit + 1
        raise TooLarge(
            f"{label} has {size:,} bytes, more than the {limit:,} spawnkit reads; "
            "check it, or pass a smaller file",
            size,
        ) from None
    except FileNotFoundError as exc:
        raise Missing(open_error(label, exc)) from None
    except OSError as exc:
        raise SpawnkitError(open_error(label, exc)) from None


def read_text(
    path: str | os.PathLike[str],
    *,
    what: str = "",
    limit: int = MAX_BYTES,
    fix: str = "pass a file",
    root: str | os.PathLike[str] | None = None,
) -> str:
    """``read_bytes`` decoded as UTF-8; invalid bytes are refused with their position."""
    data = read_bytes(path, what=what, limit=limit, fix=fix, root=root)
    return decode(data, f"{what} {path}" if what else str(path))


def decode(data: bytes, label: str) -> str:
    """``data`` (the bytes of ``label``) as UTF-8 text, or ``NotUtf8`` naming the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise NotUtf8(
            f"{label} is not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line}); "
            "save it as UTF-8, then run the command again"
        ) from None


def check_named(path: str | os.PathLike[str], fix: str) -> None:
    """A path the user named must be a folder or a regular file it can read; else one line.

    Checked before any work starts, so a FIFO (which would block a reader), a device or a
    file the user cannot read is refused with nothing written. ``fix`` says what to pass.
    """
    import stat

    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise Missing(f"{path} does not exist; {fix}") from None
    except OSError as exc:
        raise SpawnkitError(open_error(str(path), exc)) from None
    if stat.S_ISDIR(info.st_mode):
        if not os.access(path, os.R_OK | os.X_OK):
            raise SpawnkitError(
                f"cannot read folder {path}: permission denied; check its permissions"
            )
    elif not stat.S_ISREG(info.st_mode):
        raise NotRegular(f"{path} {NOT_REGULAR}; {fix}")
    elif not os.access(path, os.R_OK):
        raise SpawnkitError(f"cannot read {path}: permission denied; check its permissions")


def open_error(label: str, exc: OSError) -> str:
    """Why ``label`` could not be opened or read, and what to do."""
    code = exc.errno
    if code == errno.ENOENT:
        return f"{label} does not exist; check the path"
    if code in (errno.EACCES, errno.EPERM):
        return f"cannot read {label}: permission denied; check its permissions"
    if code == errno.EISDIR:
        return f"{label} is a folder, not a file; pass a file"
    if code == errno.ENOTDIR:
        return f"{label}: a file stands where a folder is expected in the path; check the path"
    if code == errno.ELOOP:
        return f"{label} is a symlink loop; fix or remove the link"
    return f"cannot read {label}: {exc.strerror or exc}"
