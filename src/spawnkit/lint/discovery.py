"""Find the files ``spawnkit lint`` checks: SKILL.md, commands/*.md, agents/*.md."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from spawnkit.paths import claude_config_dir, project_claude_dir

# folders never worth walking into
_SKIP_DIRS = {
    ".git",
    "node_modules",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    "dist",
    "build",
    "site-packages",
}


def default_roots(cwd: Path | None = None) -> list[Path]:
    """With no path given: the user's Claude config dir and the project's .claude, if present."""
    roots = []
    for root in (claude_config_dir(), project_claude_dir(cwd)):
        if root.is_dir() and root.resolve() not in [r.resolve() for r in roots]:
            roots.append(root)
    return roots


def is_lintable(path: Path) -> bool:
    """SKILL.md anywhere, or a Markdown file inside a commands/ or agents/ folder."""
    if path.name == "SKILL.md":
        return True
    if path.suffix != ".md":
        return False
    parts = path.parts[:-1]
    return "commands" in parts or "agents" in parts


def discover(paths: Iterable[Path], exclude: Iterable[str] = ()) -> Iterator[Path]:
    """Lintable files under ``paths``; a file named explicitly is always linted (if Markdown)."""
    patterns = list(exclude)
    seen: set[Path] = set()
    for root in paths:
        if root.is_file():
            if root.suffix == ".md" and not _excluded(root, patterns) and root not in seen:
                seen.add(root)
                yield root
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(
                d
                for d in dirnames
                if d not in _SKIP_DIRS
                and not d.endswith("-reports")
                and not (d.startswith(".") and d != ".claude")
            )
            for name in sorted(filenames):
                path = Path(dirpath) / name
                if is_lintable(path) and not _excluded(path, patterns) and path not in seen:
                    seen.add(path)
                    yield path


def _excluded(path: Path, patterns: list[str]) -> bool:
    if not patterns:
        return False
    import fnmatch  # only with exclude patterns in the config

    text = path.as_posix()
    return any(
        fnmatch.fnmatch(text, p) or fnmatch.fnmatch(path.name, p) or fnmatch.fnmatch(text, f"*/{p}")
        for p in patterns
    )
