"""The shell command Claude Code runs for spawnkit's hooks.

Claude Code runs a hook ``command`` through a shell, so every path is shell-quoted.
``-I -S`` keeps the start fast and immune to the user's ``PYTHONPATH`` and
``site``; the script finds the package next to itself (see ``__main__.py``).

The events, matchers and timeout to register it with are data of the standard:
``protocol.load()["hooks"]`` (``standards/protocol.json``).

Plugin form (no pip install; ``hooks/hooks.json`` of the repo)::

    python3 -I -S "${CLAUDE_PLUGIN_ROOT}/src/spawnkit/hook/__main__.py"
"""

from __future__ import annotations

import os
import shlex
import sys

PLUGIN_COMMAND = 'python3 -I -S "${CLAUDE_PLUGIN_ROOT}/src/spawnkit/hook/__main__.py"'


def script_path() -> str:
    """Absolute path of the hook script of this installation."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "__main__.py")


def argv_for(python: str, script: str) -> list[str]:
    """``[python, -I, -S, script]``: how a hook script runs (the one place its flags are written)."""
    return [python, "-I", "-S", script]


def hook_argv(python: str | None = None) -> list[str]:
    """``[<python>, -I, -S, <…>/spawnkit/hook/__main__.py]``: what the hook command runs.

    ``python`` defaults to the interpreter running spawnkit now (absolute), the one
    that has this package installed.
    """
    return argv_for(os.path.abspath(python or sys.executable), script_path())


def hook_command(python: str | None = None) -> str:
    """``'<python>' -I -S '<…>/spawnkit/hook/__main__.py'`` for settings.json, safely quoted."""
    return shlex.join(hook_argv(python))
