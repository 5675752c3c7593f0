"""What a folder holds, for tests that assert a command wrote (or removed) nothing."""

from __future__ import annotations

from pathlib import Path


def snapshot(root: Path) -> dict[str, bytes | str]:
    """Every file (bytes), link (target) and folder under ``root``.

    Two snapshots compare equal only when nothing was written, created or removed.
    """
    found: dict[str, bytes | str] = {}
    if not root.exists():
        return found
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            found[rel] = f"-> {path.readlink()}"
        elif path.is_dir():
            found[rel] = "<dir>"
        else:
            found[rel] = path.read_bytes()
    return found


def tree(root: Path) -> dict[str, tuple[int, bytes | str]]:
    """``snapshot`` with each entry's permission bits: names, bytes and modes, links unfollowed.

    Equal only when nothing under ``root`` was written, created, removed or chmodded."""
    found: dict[str, tuple[int, bytes | str]] = {}
    for rel, content in snapshot(root).items():
        found[rel] = ((root / rel).lstat().st_mode, content)
    return found


def differences(before: dict, after: dict, besides: tuple[str, ...] = ()) -> list[str]:
    """Paths added, removed or changed between two snapshots (or trees), leaving out those
    matching or under a pattern of ``besides`` (``fnmatch``: what a real client writes for
    itself while it runs, such as ``sessions`` or ``*.sqlite-wal``)."""
    import fnmatch

    def ours(key: str) -> bool:
        parts = key.split("/")
        heads = ["/".join(parts[: n + 1]) for n in range(len(parts))]
        return not any(fnmatch.fnmatchcase(h, p) for p in besides for h in heads)

    keys = {k for k in set(before) | set(after) if ours(k)}
    return sorted(k for k in keys if before.get(k) != after.get(k))
