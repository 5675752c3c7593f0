"""Where Claude Code keeps its configuration (stand-in until the template branch lands)."""

from __future__ import annotations

import os
from pathlib import Path


def claude_config_dir() -> Path:
    """``$CLAUDE_CONFIG_DIR`` if set, else ``~/.claude``."""
    env = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(env).expanduser() if env else Path.home() / ".claude"


def project_claude_dir(cwd: Path) -> Path:
    return Path(cwd) / ".claude"
