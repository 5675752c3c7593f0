"""Locate the files spawnkit ships beside its code (standard, template).

Standard library only: the hook path uses it. A wheel carries the data under
``spawnkit/_data``; a source checkout (editable install, or the plugin running
straight from the repo) has it at the repository root.

The hook path only needs ``protocol_file()`` (a plain string), found without
importing ``os`` or ``pathlib`` (see ``spawnkit.base.lightos``); the ``Path``-returning
functions import ``pathlib`` when called.
"""

from __future__ import annotations

from spawnkit.base import lightos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

_data_root: str | None = None


def _root_beside(package_dir: str) -> str | None:
    for root in (lightos.join(package_dir, "_data"), lightos.dirname(lightos.dirname(package_dir))):
        if lightos.is_file(lightos.join(root, "standards", "protocol.json")):
            return root
    return None


def data_root_str() -> str:
    """Directory holding ``copier.yml``, ``template/`` and ``standards/`` (cached)."""
    global _data_root
    if _data_root is None:
        here = lightos.dirname(lightos.dirname(__file__))  # the spawnkit package folder
        found = _root_beside(here) if lightos.isabs(here) else None
        if found is None:  # a relative or symlinked location: resolve it properly
            import os

            here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
            found = _root_beside(here)
        if found is None:
            raise FileNotFoundError(
                f"spawnkit data files not found under {here}/_data or the checkout above it; "
                f"reinstall spawnkit"
            )
        _data_root = found
    return _data_root


def data_root() -> Path:
    """Directory holding ``copier.yml``, ``template/`` and ``standards/``."""
    from pathlib import Path

    return Path(data_root_str())


def standards_dir() -> Path:
    return data_root() / "standards"


def protocol_file() -> str:
    """Where ``standards/protocol.json`` is, as a string (no pathlib or os: the hook path)."""
    return lightos.join(data_root_str(), "standards", "protocol.json")


def standard_doc_path() -> Path:
    return standards_dir() / "CONTEXT_MANAGEMENT.md"


def bundled_skills_dir() -> Path:
    """Skills spawnkit ships (the ``spawnkit`` skill ``spawnkit install`` copies into Claude Code)."""
    return data_root() / "skills"
