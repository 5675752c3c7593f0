"""The linter's regular expressions, and what keeps them cheap.

The linter holds dozens of large case-insensitive patterns. :class:`Lazy` compiles
each on first use: compiling them all at import would cost a short-lived
``spawnkit lint FILE`` process (and the hook) time on every start, even for files
that never reach most rules. :class:`Gated` tries a pattern only when the lowered
text holds a word it needs, and :class:`Folded` runs a case-insensitive pattern
case-sensitively on the lowered text, which the regex engine does faster.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from spawnkit.lint import regexcache

_METHODS = ("search", "match", "finditer", "findall", "split", "sub")


class Lazy:
    """A pattern compiled on first use.

    The first call of a method compiles the pattern and stores the compiled
    pattern's own bound methods in the slots, so every later call goes straight
    to the regex engine without a Python-level wrapper.
    """

    __slots__ = ("source", "flags", *_METHODS)

    search: Callable[..., re.Match[str] | None]
    match: Callable[..., re.Match[str] | None]
    finditer: Callable[..., Iterator[re.Match[str]]]
    findall: Callable[..., list[Any]]
    split: Callable[..., list[str]]
    sub: Callable[..., str]

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = flags

    def __getattr__(self, name: str) -> Any:
        # reached only while a method slot is still empty, i.e. before the first use
        if name not in _METHODS:
            raise AttributeError(name)
        compiled = regexcache.compile(self.source, self.flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def lazy(source: str, flags: int = 0) -> Lazy:
    return Lazy(source, flags)


class Keywords:
    """Words looked up in lowered text: a fast pre-check for costly patterns.

    A loop of substring tests costs half what a regex alternation does and compiles nothing.
    ``wide`` words (Japanese, Chinese, Korean) are looked for only in text that is not all
    ASCII: most text is, and each extra word would cost every block and sentence a scan.
    """

    __slots__ = ("items", "wide")

    def __init__(self, *items: str, wide: tuple[str, ...] = ()) -> None:
        self.items = items
        self.wide = wide

    @property
    def keys(self) -> tuple[str, ...]:
        """Words one of which a lowered text that passes holds."""
        return self.items + self.wide

    def any_in(self, lower: str) -> bool:
        for item in self.items:
            if item in lower:
                return True
        if self.wide and not lower.isascii():
            for item in self.wide:
                if item in lower:
                    return True
        return False


def _has_case_oddity(lower: str) -> bool:
    return "ı" in lower or "\u0307" in lower or "ſ" in lower


class Folded:
    """A case-insensitive pattern, matched case-sensitively against the lowered text.

    The regex engine matches case-insensitively by lowering each character it compares,
    which makes it two to three times slower, while every sentence and block carries its
    lowered text already. Both ways find the same matches at the same offsets, except in
    text holding "İ", "ı" or "ſ" (``tests/lint/test_patterns.py`` checks every code point),
    where the case-insensitive pattern runs instead. The pattern must spell its letters in
    lower case, and match groups hold lowered text: slice the original by span where case
    matters.
    """

    __slots__ = ("original", "lowered")

    def __init__(self, pattern: Lazy) -> None:
        self.original = pattern
        self.lowered = Lazy(pattern.source, pattern.flags & ~re.IGNORECASE)

    def search(self, text: str, lower: str | None = None) -> re.Match[str] | None:
        """``lower`` is ``text.lower()`` when the caller has it already."""
        if lower is None:
            lower = text.lower()
        if lower.isascii() or not _has_case_oddity(lower):
            return self.lowered.search(lower)
        return self.original.search(text)

    def finditer(self, text: str, lower: str | None = None) -> Iterator[re.Match[str]]:
        if lower is None:
            lower = text.lower()
        if lower.isascii() or not _has_case_oddity(lower):
            return self.lowered.finditer(lower)
        return self.original.finditer(text)


def folded(source: str, flags: int = 0) -> Folded:
    """A case-insensitive pattern (``flags`` besides ``re.IGNORECASE``) run as :class:`Folded`."""
    return Folded(Lazy(source, flags | re.IGNORECASE))


class Gated:
    """A regex tried only when the text holds one of its key words.

    Case-insensitive alternations cannot use the regex engine's literal
    prefilter; a substring test on the lowered text is far cheaper and most
    sentences fail it. With ``exact`` the keys are words the pattern cannot
    match without (one of ``keys`` and, if given, one of ``also``), so the gate
    saves time, and compiling patterns a file never needs, without changing any
    verdict; ``tests/lint/test_patterns.py`` holds every exact gate to that.
    A case-insensitive pattern runs as :class:`Folded`.
    """

    __slots__ = ("pattern", "groups", "exact")

    def __init__(
        self, pattern: Lazy, *keys: str, also: tuple[str, ...] = (), exact: bool = False
    ) -> None:
        self.pattern: Lazy | Folded = Folded(pattern) if pattern.flags & re.IGNORECASE else pattern
        self.groups = (keys, also) if also else (keys,)
        self.exact = exact

    def hit(self, text: str, lower: str | None = None) -> bool:
        """``lower`` is ``text.lower()`` when the caller has it already."""
        if lower is None:
            lower = text.lower()
        for keys in self.groups:
            for key in keys:
                if key in lower:
                    break
            else:  # no key of this group
                # under re.IGNORECASE "ı" and "İ" match "i" and "ſ" matches "s", which
                # str.lower() leaves alone (or turns into "i" plus U+0307): an exact gate
                # lets such text through
                if not (self.exact and not lower.isascii() and _has_case_oddity(lower)):
                    return False
        return True

    @property
    def keys(self) -> tuple[str, ...]:
        """Words one of which a lowered text that passes holds (unless it has a case oddity)."""
        return self.groups[0]

    def search(self, text: str, lower: str | None = None) -> re.Match[str] | None:
        if lower is None:
            lower = text.lower()
        if not self.hit(text, lower):
            return None
        if type(self.pattern) is Folded:
            return self.pattern.search(text, lower)
        return self.pattern.search(text)

    def finditer(self, text: str, lower: str | None = None) -> Iterator[re.Match[str]]:
        if lower is None:
            lower = text.lower()
        if not self.hit(text, lower):
            return iter(())
        if type(self.pattern) is Folded:
            return self.pattern.finditer(text, lower)
        return self.pattern.finditer(text)


class AnyOf:
    """Several gated patterns read as one: a match of any of them, each behind its own gate
    (one pattern's common key words need not open the gate of another's costly alternative)."""

    __slots__ = ("parts",)

    def __init__(self, *parts: Gated) -> None:
        self.parts = parts

    @property
    def keys(self) -> tuple[str, ...]:
        """Words one of which a lowered text that passes holds (unless it has a case oddity)."""
        return tuple(key for part in self.parts for key in part.keys)

    def hit(self, text: str, lower: str | None = None) -> bool:
        if lower is None:
            lower = text.lower()
        return any(part.hit(text, lower) for part in self.parts)

    def search(self, text: str, lower: str | None = None) -> re.Match[str] | None:
        if lower is None:
            lower = text.lower()
        for part in self.parts:
            m = part.search(text, lower)
            if m is not None:
                return m
        return None
