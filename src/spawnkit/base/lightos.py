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
_S_IFMT, _S_IFREG, _S_IFDIR, _S_IFLNK = 0o170000, 0o100000, 0o040000, 0o120000
_NOFOLLOW = getattr(native, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(native, "O_NONBLOCK", 0)
_CLOEXEC = getattr(native, "O_CLOEXEC", 0)
_DIRECTORY = getattr(native, "O_DIRECTORY", 0)


class NotRegularFile(OSError):
    """A FIFO, device, socket or folder where a plain file was expected (reading it could hang)."""


class FileTooLarge(OSError):
    """A file over the size limit of the reader."""


def open_regular(path: str, *, follow: bool = True) -> tuple[int, int]:
    """A read-only descriptor of the plain file ``path`` and its size, without ever blocking.

    Opened non-blocking (the descriptor stays so), so a FIFO planted where a file should be
    is refused at once instead of hanging; devices, sockets and folders are refused too
    (``NotRegularFile``). ``follow=False`` also refuses a symlink (``OSError`` ELOOP).
    Other failures are the usual ``OSError``s (``FileNotFoundError``, ``PermissionError`` …).
    """
    flags = native.O_RDONLY | _NONBLOCK | _CLOEXEC | (0 if follow else _NOFOLLOW)
    fd = native.open(path, flags)
    try:
        info = native.fstat(fd)
        if info.st_mode & _S_IFMT != _S_IFREG:
            raise NotRegularFile(22, "not a regular file", path)
    except BaseException:
        native.close(fd)
        raise
    return fd, info.st_size


def read_regular(path: str, limit: int, *, follow: bool = True) -> bytes:
    """The bytes of the plain file ``path``, at most ``limit`` of them, without ever blocking.

    Opened by ``open_regular`` (its refusals apply); a file over ``limit`` bytes is refused
    too (``FileTooLarge``).
    """
    fd, size = open_regular(path, follow=follow)
    try:
        if size > limit:
            raise FileTooLarge(27, f"larger than {limit} bytes", path)
        chunks = []
        total = 0
        while True:
            chunk = native.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                return b"".join(chunks)
            total += len(chunk)
            if total > limit:  # it grew while being read
                raise FileTooLarge(27, f"larger than {limit} bytes", path)
            chunks.append(chunk)
    finally:
        native.close(fd)


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


def inside(path: str, root: str) -> bool:
    """True when ``path`` resolves (symlinks followed) to ``root`` or below it: the one
    containment test of every read and write spawnkit makes in a folder (``files.contain``).

    Compared with the separator: ``/a/proj-evil`` is not inside ``/a/proj``. Both are
    absolute. When ``path`` is spelled below ``root`` and no component below ``root`` is a
    symlink (or ``.``/``..``), it is inside whatever ``root`` resolves to: a ``lstat`` per
    component, no ``os`` import (the hook checks its project's config files this way).
    Anything else is decided on both real paths.
    """
    base = root.rstrip(SEP)
    if path == root or path.startswith(base + SEP):
        current = base
        for part in path[len(base) + 1 :].split(SEP) if path != root else ():
            if part in ("", ".", ".."):
                break
            current += SEP + part
            try:
                mode = native.lstat(current).st_mode
            except (OSError, ValueError):
                return True  # nothing there: opening it reaches nothing, inside or out
            if mode & _S_IFMT == _S_IFLNK:
                break
        else:
            return True
    import os.path

    real, base = os.path.realpath(path), os.path.realpath(root).rstrip(SEP)
    return real == base or real.startswith(base + SEP)


def is_file(path: str) -> bool:
    try:
        return native.stat(path).st_mode & _S_IFMT == _S_IFREG
    except (OSError, ValueError):
        return False


def open_folder(root: str, parts: list[str], mode: int = 0o777) -> int:
    """A descriptor of ``root/parts…``, creating missing folders, never through a symlink.

    ``root`` itself is taken as given (the project or config folder the user chose,
    symlinked or not; created when missing); below it every folder is created or opened relative to its
    parent's descriptor with ``O_NOFOLLOW``, so a symlink planted on the way (by a
    sub-agent, or in a cloned repository) makes this fail (``OSError``) instead of
    leading the write elsewhere. The caller closes the descriptor.
    """
    try:
        fd = native.open(root, native.O_RDONLY | _DIRECTORY | _CLOEXEC)
    except FileNotFoundError:  # the config or project folder itself: made as the user asked
        _makedirs(root)
        fd = native.open(root, native.O_RDONLY | _DIRECTORY | _CLOEXEC)
    try:
        for part in parts:
            if not part or part in (".", "..") or SEP in part:
                raise OSError(22, "not a plain folder name", part)
            try:
                native.mkdir(part, mode, dir_fd=fd)
            except FileExistsError:
                pass
            child = native.open(
                part, native.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=fd
            )
            native.close(fd)
            fd = child
    except BaseException:
        native.close(fd)
        raise
    return fd


def _makedirs(path: str) -> None:
    """``os.makedirs(path, exist_ok=True)`` without ``os``."""
    try:
        native.mkdir(path, 0o777)
    except FileExistsError:
        return
    except FileNotFoundError:
        parent = dirname(path)
        if not parent or parent == path:
            raise
        _makedirs(parent)
        try:
            native.mkdir(path, 0o777)
        except FileExistsError:
            return


def open_plain(folder_fd: int, name: str, flags: int, mode: int = 0o600) -> int:
    """Open ``name`` in a folder descriptor as a plain file: no symlink, no hard link, no FIFO.

    ``flags`` are the access flags (``O_WRONLY | O_CREAT`` …); ``O_NOFOLLOW`` and
    ``O_NONBLOCK`` are added. A file with more than one link is refused, so a hard
    link planted to a file elsewhere is never written through either.
    """
    fd = native.open(name, flags | _NOFOLLOW | _NONBLOCK | _CLOEXEC, mode, dir_fd=folder_fd)
    try:
        info = native.fstat(fd)
        if info.st_mode & _S_IFMT != _S_IFREG:
            raise NotRegularFile(22, "not a regular file", name)
        if info.st_nlink > 1:
            raise OSError(31, "has more than one hard link", name)
    except BaseException:
        native.close(fd)
        raise
    return fd


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[native.write(fd, view) :]
