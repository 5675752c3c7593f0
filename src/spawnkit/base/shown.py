"""The one gate between a string someone else controls and a terminal or a log line.

A skill file, a project's ``spawnkit.json``, a transcript or a file name can hold control
characters: ESC starts a terminal escape sequence (retitle the window, move the cursor,
hide text, write to the clipboard), CR and a bare LF forge a line of spawnkit's own output
(a fake ``all good`` under ``doctor``), BEL rings, and the bidirectional overrides make a
line read differently from what it holds. So every line of text output (``lint`` text and
GitHub annotations, ``doctor``, ``audit`` text, ``workflow check``, ``update``, the error
line at the CLI's edge and the log) passes ``shown`` once its values are in it: each such
character is written visibly as an escape (``\\x1b``, ``\\x0a``, ``\\u202e``), so what reaches
the screen is what the file holds, inert. JSON, SARIF and HTML are encoded by their own
rules instead (``json.dumps`` escapes C0; ``html.escape``).

Standard library only (no import at all): the hook may use it too.
"""

from __future__ import annotations

# C0 (tab, LF and CR included: a value never carries a line break of spawnkit's), DEL, C1,
# the bidirectional marks and overrides (Trojan Source, CVE-2021-42574) and the Unicode line
# and paragraph separators.
_BAD = frozenset(
    [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), 0x061C, 0x200E, 0x200F]
    + [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029]
)
_TABLE = {code: f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" for code in _BAD}


def shown(text: str) -> str:
    """``text`` with every control character (C0, DEL, C1, bidirectional controls, line and
    paragraph separators) written as a visible escape; anything else unchanged. One line in,
    one line out."""
    if text.isprintable() and text.isascii():
        return text
    return text.translate(_TABLE)


def shown_lines(text: str) -> str:
    """``shown`` for each line of a text spawnkit laid out itself (its own line breaks kept,
    any other control character escaped): a traceback written to the log."""
    return "\n".join(shown(line) for line in text.split("\n"))
