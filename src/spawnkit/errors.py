"""Errors that the CLI turns into one line and an exit code, never a traceback."""

from __future__ import annotations

# Exit codes scripts can rely on (documented in the README).
EXIT_OK = 0
EXIT_FINDINGS = 1  # violations, conflicts, broken items: the command ran and found problems
EXIT_USAGE = 2  # bad arguments, refused command, unreadable input
EXIT_INTERRUPTED = 130  # Ctrl-C, SIGTERM or "no" at a prompt: 128 + SIGINT, as shells report it

ERROR_PREFIX = "spawnkit: error: "  # how every refusal and failure line starts


class SpawnkitError(Exception):
    """A problem the user can fix; the message names the problem and the fix."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.exit_code = exit_code
