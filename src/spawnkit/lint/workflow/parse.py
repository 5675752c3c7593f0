"""Parse JavaScript with tree-sitter, within bounds on size and time.

A workflow script in a cloned project is untrusted input: it is parsed, never run. tree-sitter's
parser is iterative (no recursion, so no depth limit of its own); this module bounds the size it
accepts and the time it may take (a progress callback cancels the parse at the deadline). Every
walk over the tree in this package is iterative too, and the evaluator caps its own depth.

tree-sitter and its JavaScript grammar are imported on first use only: ``spawnkit lint`` on
Markdown files never loads them, and the lint-on-write hook (standard library only) lints a
workflow script only where they can be imported.
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple

from spawnkit.errors import SpawnkitError

MAX_BYTES = 16 * 1024 * 1024  # beyond the CLI's default file limit (4 MB) on purpose
DEFAULT_SECONDS = 20.0
_CHUNK = 64 * 1024

_parser: Any = None


class Unavailable(SpawnkitError):
    """tree-sitter or its JavaScript grammar cannot be imported."""


class Parsed(NamedTuple):
    tree: Any | None  # a tree_sitter.Tree, or None when the parse was refused or cut short
    source: bytes
    problem: str | None  # why there is no tree


def parser() -> Any:
    """The one tree-sitter parser for JavaScript (built on first use)."""
    global _parser
    if _parser is None:
        try:
            import tree_sitter
            import tree_sitter_javascript
        except ImportError as exc:  # also a broken binary wheel
            raise Unavailable(
                f"tree-sitter's JavaScript grammar cannot be imported ({exc}); "
                "reinstall spawnkit (it depends on tree-sitter and tree-sitter-javascript)"
            ) from None
        _parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_javascript.language()))
    return _parser


def available() -> bool:
    """Whether JavaScript can be parsed here (the hook asks before linting a script)."""
    try:
        parser()
    except Unavailable:
        return False
    return True


def parse(text: str, seconds: float = DEFAULT_SECONDS, max_bytes: int = MAX_BYTES) -> Parsed:
    """The syntax tree of ``text``; no tree, and the reason, when it is too large or too slow."""
    source = text.encode("utf-8", "surrogatepass")
    if len(source) > max_bytes:
        return Parsed(None, source, f"it has {len(source):,} bytes, over the {max_bytes:,} parsed")
    deadline = time.monotonic() + seconds

    def read(offset: int, _point: object) -> bytes:
        return source[offset : offset + _CHUNK]

    def too_slow(*_state: object) -> bool:
        return time.monotonic() > deadline

    js = parser()
    try:
        tree = js.parse(read, progress_callback=too_slow)
    except ValueError:  # the progress callback cancelled it
        # a cancelled parser resumes the same parse on its next call: start the next file afresh
        js.reset()
        return Parsed(None, source, f"parsing it took longer than {seconds:g} s")
    if tree is None:  # pragma: no cover - only without a language
        return Parsed(None, source, "the parser gave no tree")
    return Parsed(tree, source, None)
