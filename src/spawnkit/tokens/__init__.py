"""Conservative Claude token estimate, calibrated to claude-opus-4-7 (standard library only).

The package is the estimator itself (one module on the hook path); ``count_api`` asks
Anthropic's API for exact counts and ``report`` is what ``spawnkit tokens`` prints.

Why not characters / 4: Opus 4.7's tokenizer spends about two tokens per English word, splits
identifiers at every capital and charges nearly one token per punctuation mark, so chars/4
under-counts sub-agent output (paths, JSON, tables, traces) by a third to a half. This estimate
counts those things instead, with weights fitted by ``benchmarks/tokens_fit.py`` to the 4.7 counts
in ``benchmarks/data/token-calibration/`` and then raised by a safety margin, so it errs high.

How it stays fast (it runs on the hook path, on every sub-agent return): the text is encoded to
UTF-8 once and mapped with one ``bytes.translate`` to a string of class letters, one per
character; every feature is then a ``bytes.count`` over that string. A regular expression runs
only when five punctuation marks or seventeen blanks stand in a row (to find runs of one
character), or when ``exceeds`` cuts a long text into chunks.
"""

__all__ = [
    "CALIBRATED_MODEL",
    "FEATURES",
    "WEIGHTS",
    "describe",
    "estimate",
    "exceeds",
    "features",
]

#: The model whose token counts the weights were fitted to (its tokenizer counts the most).
CALIBRATED_MODEL = "claude-opus-4-7"

# --- character classes -------------------------------------------------------------------------
# One class letter per character: lowercase ASCII "l", uppercase "U", digit "d", ASCII punctuation
# and control characters "p", newline "n", other blanks " ", Cyrillic "c", any other two-byte
# character "b" (accented Latin, Greek, Hebrew, Arabic, combining marks …), U+2000..U+2FFF "s"
# (typographic punctuation, arrows, box drawing, dingbats like ✅ ❌ ⚠), other three-byte "h"
# (CJK, Hangul, Thai, lone surrogates from surrogateescape …) and four-byte "e" (emoji and other
# astral characters). UTF-8 continuation bytes are deleted, so the class string has exactly one
# letter per character.


def _class_table() -> bytes:
    table = bytearray(b"p" * 256)  # ASCII punctuation, controls, and bytes UTF-8 never emits
    table[ord("a") : ord("z") + 1] = b"l" * 26
    table[ord("A") : ord("Z") + 1] = b"U" * 26
    table[ord("0") : ord("9") + 1] = b"d" * 10
    for blank in b" \t\r\v\f":
        table[blank] = ord(" ")
    table[ord("\n")] = ord("n")
    table[0xC2:0xE0] = b"b" * 30  # lead bytes of two-byte characters ...
    table[0xD0:0xD4] = b"c" * 4  # ... of which U+0400..U+04FF are Cyrillic
    table[0xE0:0xF0] = b"h" * 16
    table[0xE2] = ord("s")  # lead byte of U+2000..U+2FFF
    table[0xF0:0xF5] = b"e" * 5
    return bytes(table)


_CLASSES = _class_table()
_CONTINUATION = bytes(range(0x80, 0xC0))
# Second-level maps over the class string: letter runs ("a" after a non-letter) and so on.
_LETTERS = bytes.maketrans(b"lUdpn bcshe", b"aa         ")
_DIGITS = bytes.maketrans(b"lUdpn bcshe", b"  a        ")
_CYRILLIC = bytes.maketrans(b"lUdpn bcshe", b"       a   ")
_LONG = b"l" * 6
_OVERLONG = (b"l" * 24, b"U" * 24)
# What a long run of one punctuation character, or of blanks, leaves in the class string.
_RUN_HINTS = (b"ppppp", b" " * 17)
# Three regular expressions, compiled on first need so that importing this module stays cheap
# (``re`` itself is not imported until then): long runs of one punctuation character, long runs
# of blanks (the two ``_RUN_HINTS``, in order), and safe cut points. The two kinds of run are
# looked for apart, each only when its hint occurs: one pattern with both alternatives was tried
# at every character of the text, a third of a second for 10 MB.
_PATTERNS = (r"([!-/:-@\[-`{-~])\1{4,}", r"[ \t]{17,}", r"\n|(?<=\S) (?=\S)")
_compiled: tuple = ()

#: Names of the counts ``features()`` returns, in order; ``WEIGHTS`` follows the same order.
FEATURES = (
    "words",  # ASCII letter runs, split at camelCase humps (getTokenText -> get, Token, Text)
    "capitalized",  # an uppercase letter followed by a lowercase one
    "long_chunks",  # each 6 consecutive lowercase letters (long words split into more pieces)
    "digit_runs",  # runs of ASCII digits
    "digits",  # ASCII digits (4.7 splits numbers into groups of up to three)
    "punctuation",  # ASCII punctuation and control characters, outside long repeated runs
    "newlines",
    "cyrillic",  # Cyrillic characters
    "cyrillic_words",  # runs of Cyrillic characters
    "other_2byte",  # other characters of two UTF-8 bytes
    "bmp_3byte",  # other characters of three UTF-8 bytes (CJK, Hangul, Thai …)
    "astral",  # characters of four UTF-8 bytes (emoji)
    "symbols",  # U+2000..U+2FFF (’ — • → ─ ✅ ❌ ⚠): too few in the samples to fit; a prior, 2 each
    "repeat_runs",  # runs of 5+ identical punctuation marks or 17+ blanks: 1 + ceil(length / 16)
    "overlong",  # each 24 letters of one case with no break (junk like "aaaa…"): a prior, 6 each
)

#: Tokens per unit of each feature, in ``FEATURES`` order: the output of
#: ``python benchmarks/tokens_fit.py`` (fitted to the 4.7 counts, then margined; do not hand-edit).
WEIGHTS = (
    1.743,  # words
    2.175,  # capitalized
    0.443,  # long_chunks
    2.043,  # digit_runs
    0.463,  # digits
    1.328,  # punctuation
    0.628,  # newlines
    0.194,  # cyrillic
    2.386,  # cyrillic_words
    1.15,  # other_2byte
    1.404,  # bmp_3byte
    3.535,  # astral
    2.0,  # symbols
    1.0,  # repeat_runs
    6.0,  # overlong
)


#: The same weights in thousandths of a token: integer sums add up exactly, chunk by chunk.
_MILLI = tuple(round(weight * 1000) for weight in WEIGHTS)


def features(text: str) -> tuple[int, ...]:
    """Counts of ``FEATURES`` in ``text``; the estimate is their dot product with ``WEIGHTS``.

    Additive over pieces split after a newline or after a single space between two non-blank
    characters, which is what lets ``exceeds`` stop early.
    """
    classes = text.encode("utf-8", "surrogatepass").translate(_CLASSES, _CONTINUATION)
    letters = classes.translate(_LETTERS)
    lower = classes.count(b"l")
    upper = classes.count(b"U")
    words = 0
    capitalized = 0
    if lower or upper:
        words = letters.count(b" a") + letters.startswith(b"a")
        if upper:
            capitalized = classes.count(b"Ul")
            words += classes.count(b"lU") + classes.count(b"UUl")
    digits = classes.count(b"d")
    digit_runs = 0
    if digits:
        runs = classes.translate(_DIGITS)
        digit_runs = runs.count(b" a") + runs.startswith(b"a")
    cyrillic = classes.count(b"c")
    cyrillic_words = 0
    if cyrillic:
        runs = classes.translate(_CYRILLIC)
        cyrillic_words = runs.count(b" a") + runs.startswith(b"a")
    punctuation = classes.count(b"p")
    repeat = 0
    for index, hint in enumerate(_RUN_HINTS):
        if hint in classes:
            in_runs, cost = _repeat_runs(text, index)
            punctuation -= in_runs
            repeat += cost
    return (
        words,
        capitalized,
        classes.count(_LONG) if lower else 0,
        digit_runs,
        digits,
        punctuation,
        classes.count(b"n"),
        cyrillic,
        cyrillic_words,
        classes.count(b"b"),
        classes.count(b"h"),
        classes.count(b"e"),
        classes.count(b"s"),
        repeat,
        sum(classes.count(run) for run in _OVERLONG) if lower + upper >= 24 else 0,
    )


def _repeat_runs(text: str, index: int) -> tuple[int, int]:
    """Long runs of one character (``-----``, ``=====``: ``index`` 0; wide blank gaps: 1) merge
    into few tokens: the punctuation in them, and their cost."""
    lengths = [match.end() - match.start() for match in _regex(index).finditer(text)]
    cost = sum(1 + -(-length // 16) for length in lengths)
    return (sum(lengths) if index == 0 else 0), cost


def _regex(index: int):
    global _compiled
    if not _compiled:
        import re

        _compiled = tuple(re.compile(pattern) for pattern in _PATTERNS)  # one atomic store
    return _compiled[index]


def _milli(text: str) -> int:
    """The estimate in thousandths of a token, before rounding up."""
    return sum(w * c for w, c in zip(_MILLI, features(text), strict=True))


def estimate(text: str) -> int:
    """Tokens ``text`` costs a current Claude model, rounded up and meant to err high.

    Calibrated to claude-opus-4-7, whose tokenizer counts more than earlier models', so it
    bounds those too. Accepts any ``str``, including lone surrogates from ``surrogateescape``.
    """
    if not isinstance(text, str):
        raise TypeError(f"estimate() needs a str, not {type(text).__name__}")
    if not text:
        return 0
    return max(1, -(-_milli(text) // 1000))


#: Characters estimated per chunk by ``exceeds`` before it checks whether it can stop.
_CHUNK = 16_384


def exceeds(text: str, budget: int) -> bool:
    """``estimate(text) > budget``, but stops reading a long text once the budget is passed."""
    if not isinstance(text, str):
        raise TypeError(f"exceeds() needs a str, not {type(text).__name__}")
    if not text:
        return budget < 0
    if budget < 1:
        return True  # any non-empty text counts at least one token
    if len(text) <= _CHUNK:
        return _milli(text) > budget * 1000
    limit = budget * 1000
    total = 0
    start = 0
    while start < len(text):
        end = _split_point(text, start + _CHUNK)
        total += _milli(text[start:end])
        if total > limit:
            return True
        start = end
    return False


def _split_point(text: str, near: int) -> int:
    """First index at or after ``near`` where the features add up exactly across the cut.

    That is just after a newline, or just after a single space between two non-blank
    characters; with neither in the rest of the text, the end of the text.
    """
    match = _regex(2).search(text, near)
    return len(text) if match is None else match.end()


def describe(tokens: int, budget: int | None = None) -> str:
    """A short human phrase for a size, e.g. ``~612 tokens (112 over the 500-token budget)``."""
    size = f"~{tokens:,} token{'s' if tokens != 1 else ''}"
    if budget is None:
        return size
    if tokens > budget:
        return f"{size} ({tokens - budget:,} over the {budget:,}-token budget)"
    return f"{size} (within the {budget:,}-token budget)"
