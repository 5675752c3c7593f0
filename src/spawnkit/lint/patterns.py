"""Regular expressions compiled on first use.

The linter holds dozens of large case-insensitive patterns; compiling them all
at import would cost a short-lived ``spawnkit lint FILE`` process (and the hook)
time on every start, even for files that never reach most rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterator


class Lazy:
    __slots__ = ("source", "flags", "_compiled")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.source, self.flags)
        return self._compiled

    def search(self, text: str, *args: int) -> re.Match[str] | None:
        return (self._compiled or self.compiled).search(text, *args)

    def match(self, text: str, *args: int) -> re.Match[str] | None:
        return (self._compiled or self.compiled).match(text, *args)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return (self._compiled or self.compiled).finditer(text)

    def findall(self, text: str) -> list[str]:
        return (self._compiled or self.compiled).findall(text)

    def sub(self, repl, text: str) -> str:  # type: ignore[no-untyped-def]
        return (self._compiled or self.compiled).sub(repl, text)


def lazy(source: str, flags: int = 0) -> Lazy:
    return Lazy(source, flags)


def words(*items: str) -> Lazy:
    """A pattern finding any of ``items`` in lowered text: a fast pre-check for costly patterns."""
    return Lazy("|".join(re.escape(item) for item in items))
