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


class Keywords:
    """Words looked up in lowered text: a fast pre-check for costly patterns.

    A loop of substring tests costs half what a regex alternation does and compiles nothing.
    """

    __slots__ = ("items",)

    def __init__(self, *items: str) -> None:
        self.items = items

    def any_in(self, lower: str) -> bool:
        for item in self.items:
            if item in lower:
                return True
        return False

    def may_match(self, lower: str) -> bool:
        """False only when a case-insensitive pattern that needs one of the words cannot match.

        Under ``re.IGNORECASE`` "ı" and "İ" match "i" and "ſ" matches "s", which ``str.lower()``
        leaves alone (or turns into "i" plus U+0307); text holding them always passes.
        """
        return self.any_in(lower) or (not lower.isascii() and _has_case_oddity(lower))


def _has_case_oddity(lower: str) -> bool:
    return "ı" in lower or "\u0307" in lower or "ſ" in lower
