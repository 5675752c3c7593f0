"""Where Claude Code keeps its configuration, resolved the way Claude Code itself does.

Standard library only, so every command (and the hook path) can share it.
"""

from __future__ import annotations

import os
from pathlib import Path


def claude_config_dir() -> Path:
    """The user's Claude Code folder: ``$CLAUDE_CONFIG_DIR`` when set, else ``~/.claude``."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR", "").strip()
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".claude"


def project_claude_dir(cwd: str | os.PathLike[str] | None = None) -> Path:
    """The project's ``.claude`` folder under ``cwd`` (default: the current directory)."""
    return Path(cwd if cwd is not None else os.getcwd()) / ".claude"
