"""Locate the files spawnkit ships beside its code (standard, template).

Standard library only: the hook path uses it. A wheel carries the data under
``spawnkit/_data``; a source checkout (editable install, or the plugin running
straight from the repo) has it at the repository root.

``pathlib`` is imported inside the functions that return a ``Path``: the hook path
only needs ``protocol_file()`` (a plain string), and importing ``pathlib`` would
cost it several milliseconds on every tool call.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

_PACKAGE_DIR = os.path.dirname(os.path.realpath(__file__))
_data_root: str | None = None


def data_root_str() -> str:
    """Directory holding ``copier.yml``, ``template/`` and ``standards/`` (cached)."""
    global _data_root
    if _data_root is None:
        bundled = os.path.join(_PACKAGE_DIR, "_data")
        checkout = os.path.dirname(os.path.dirname(_PACKAGE_DIR))
        for root in (bundled, checkout):
            if os.path.isfile(os.path.join(root, "standards", "protocol.json")):
                _data_root = root
                break
        else:
            raise FileNotFoundError(
                f"spawnkit data files not found under {bundled} or {checkout}; reinstall spawnkit"
            )
    return _data_root


def data_root() -> Path:
    """Directory holding ``copier.yml``, ``template/`` and ``standards/``."""
    from pathlib import Path

    return Path(data_root_str())


def standards_dir() -> Path:
    return data_root() / "standards"


def protocol_path() -> Path:
    return standards_dir() / "protocol.json"


def protocol_file() -> str:
    """``protocol_path()`` as a string, without importing pathlib (hook path)."""
    return os.path.join(data_root_str(), "standards", "protocol.json")


def standard_doc_path() -> Path:
    return standards_dir() / "CONTEXT_MANAGEMENT.md"


def schemas_dir() -> Path:
    return standards_dir() / "schemas"


def bundled_skills_dir() -> Path:
    """Skills spawnkit ships (the ``spawnkit`` skill ``spawnkit install`` copies into Claude Code)."""
    return data_root() / "skills"
