"""Where spawnkit may write, and what it may read: the one containment rule of every command.

A project arrives with ``git clone`` and a sub-agent with a shell can plant links in it,
so a path inside a project is resolved one component at a time from the folder the
command writes into (its *root*): a symlink on the way must lead to a place inside that
root, and must lead somewhere (a dangling link would make a write create its target,
wherever it points; a loop cannot be resolved). Anything else refuses the command in one
line naming the link, before a byte is written. ``new``, ``update``, ``adopt`` (and its
retrofit) and ``install``/``uninstall`` all check their targets here.

In the user's own config folder (a *trusted* root) links are the user's (a dotfiles
repository): they may lead anywhere, but a dangling or looping one is still refused.

Reads follow the same rule (issue 30): a file lint, ``workflow check``, ``doctor``,
``update --check`` or ``audit`` opens in a project must resolve inside the folder it belongs
to (``check_read``, ``root_for``); a link out of it is reported in one line and never
opened, so no byte of what it points to reaches any output. Folders are walked by
``files.walk``, which follows no link out of its root and stops at its bounds.

Standard library only.
"""

from __future__ import annotations

import os
from pathlib import Path

from spawnkit.base import lightos
from spawnkit.errors import SpawnkitError


class LinkRefused(SpawnkitError):
    """A symlink on the way to a target leads out of its root, nowhere, or in a circle."""


def inside(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    """True when ``path`` resolves (symlinks followed) to ``root`` or below it
    (``lightos.inside``, the one test: with the separator, so ``proj-evil`` is not in
    ``proj``). Relative paths are taken from the working folder, never normalised first:
    ``link/..`` means what the system makes of it."""
    return lightos.inside(_absolute(path), _absolute(root))


def _absolute(path: str | os.PathLike[str]) -> str:
    text = os.fspath(path)
    return text if os.path.isabs(text) else os.path.join(os.getcwd(), text)


class Outside(SpawnkitError):
    """A file to read that resolves out of the folder it belongs to: never opened."""


def outside(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> Outside:
    """The one-line refusal of a read of ``path``, which leads out of ``root`` (its target
    is not named: what lies outside is none of the project's business)."""
    return Outside(
        f"{path}: skipped: a link out of {root}, never opened (to check what it leads to,"
        " name that file itself)"
    )


def check_read(
    path: str | os.PathLike[str], root: str | os.PathLike[str] | None, label: str = ""
) -> None:
    """Refuse (``Outside``) a read of ``path`` that resolves out of ``root``; None: a trusted
    root (the user's own folder or a file the user named outside any project). ``label``
    names the file in the message (``config file …``), the path by default."""
    if root is not None and not inside(path, root):
        raise outside(label or path, root)


def lexically_inside(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    """True when the absolute spelling of ``path`` lies in ``root``'s (no link resolved)."""
    real, base = os.path.abspath(path), os.path.abspath(root)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def problem(
    path: str | os.PathLike[str],
    root: str | os.PathLike[str],
    *,
    trusted: bool = False,
    final_link: bool = True,
) -> str | None:
    """Why writing (or removing) ``path`` would go through a link it must not, as one
    sentence naming the link and the fix; None if it would not. ``path`` is spelled below
    ``root``.

    Every component from ``root`` down to ``path`` that is a symlink must resolve, and,
    unless ``trusted``, resolve inside ``root``. ``final_link=False`` also refuses
    ``path`` itself being a link in an untrusted root (an install record names files).
    """
    refused = "refused, nothing was written"
    base = Path(os.path.abspath(root))
    target = Path(os.path.abspath(path))
    try:
        parts = target.relative_to(base).parts
    except ValueError:
        return f"{target} is not inside {base}: {refused}"
    current = base
    for index, part in enumerate(parts):
        current = current / part
        if not os.path.islink(current):
            if not os.path.lexists(current):
                return None  # the rest does not exist yet: it is created as plain folders
            continue
        if index == len(parts) - 1 and not final_link and not trusted:
            return (
                f"{current} is a symlink (to {os.readlink(current)}): {refused} (spawnkit"
                " writes and removes plain files here, never links); remove the link, then"
                " run the command again"
            )
        try:
            real = os.path.realpath(current, strict=True)
        except FileNotFoundError:
            fix = "create it or remove the link" if trusted else "remove the link"
            return (
                f"{current} is a symlink to {os.readlink(current)}, which does not exist:"
                f" {refused} (writing through it would create that); {fix}, then run the"
                " command again"
            )
        except OSError:
            return (
                f"{current} is a symlink loop: {refused}; fix or remove the link, then run the"
                " command again"
            )
        if not trusted and not inside(real, base):
            return (
                f"{current} is a symlink to {real}, outside {base}: {refused} (a link in a"
                " project must not send spawnkit's writes elsewhere); remove the link, then"
                " run the command again"
            )
    return None


def check(
    path: str | os.PathLike[str],
    root: str | os.PathLike[str],
    *,
    trusted: bool = False,
    final_link: bool = True,
) -> None:
    """Refuse, in one line naming the link, a write to ``path`` that ``problem`` objects to."""
    why = problem(path, root, trusted=trusted, final_link=final_link)
    if why is not None:
        raise LinkRefused(why)


def check_all(
    paths: list[Path] | tuple[Path, ...],
    root: str | os.PathLike[str],
    *,
    trusted: bool = False,
    final_link: bool = True,
) -> None:
    """``check`` for each of ``paths`` (the first problem found is the one reported)."""
    for path in paths:
        check(path, root, trusted=trusted, final_link=final_link)


def root_for(
    path: str | os.PathLike[str],
    cwd: str | os.PathLike[str],
    own: list[Path] | tuple[Path, ...] = (),
) -> tuple[Path, bool]:
    """(root, trusted) for a skill folder named on the command line.

    Inside one of the user's ``own`` folders (a host's config folder, spelled as the path
    spells it): that folder, trusted. Else the project (the working folder) when the path is
    spelled inside it, so a planted ``.claude`` link is caught too. Else the named folder
    itself, as typed (the user chose it; what is inside it is still checked)."""
    for folder in own:
        if lexically_inside(path, folder):
            return Path(os.path.abspath(folder)), True
    if lexically_inside(path, cwd):
        return Path(os.path.abspath(cwd)), False
    return Path(os.path.abspath(path)), False
