"""Locate the files spawnkit ships beside its code (standard, template).

Standard library only: the hook path uses it. A wheel carries the data under
``spawnkit/_data``; a source checkout (editable install, or the plugin running
straight from the repo) has it at the repository root.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def data_root() -> Path:
    """Directory holding ``copier.yml``, ``template/`` and ``standards/``."""
    bundled = _PACKAGE_DIR / "_data"
    if (bundled / "standards" / "protocol.json").is_file():
        return bundled
    checkout = _PACKAGE_DIR.parent.parent
    if (checkout / "standards" / "protocol.json").is_file():
        return checkout
    raise FileNotFoundError(
        f"spawnkit data files not found under {bundled} or {checkout}; reinstall spawnkit"
    )


def standards_dir() -> Path:
    return data_root() / "standards"


def protocol_path() -> Path:
    return standards_dir() / "protocol.json"


def standard_doc_path() -> Path:
    return standards_dir() / "CONTEXT_MANAGEMENT.md"


def schemas_dir() -> Path:
    return standards_dir() / "schemas"


def bundled_skills_dir() -> Path:
    """Skills spawnkit ships (the ``spawnkit`` skill ``spawnkit install`` copies into Claude Code)."""
    return data_root() / "skills"
