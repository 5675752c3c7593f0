"""Texts of an exact size by spawnkit's offline token estimate, for tests at a token limit.

A limit is only tested when a text of exactly the limit passes and one token more does not;
replies of "about twice the budget" let a check that is off by a factor pass. ``sized`` grows
a text from given words until the estimate nears the target, then closes the gap with small
pieces whose costs differ, so it finds an exact size whatever the estimate's weights.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from spawnkit import tokens

# A short word, a full stop, a digit, a capitalised word, a comma: some sum of their costs
# closes any gap of a few tokens exactly. No newline: a trailing blank line may be dropped.
FILLERS = (" a", ".", " 7", " Ab", ",")


def sized(size: int, words: Sequence[str], per_line: int = 0) -> str:
    """A text the estimate counts at exactly ``size`` tokens, made of ``words`` (cycled),
    with a line break after every ``per_line`` words when that is not 0."""
    text = ""
    for count, word in enumerate(itertools.cycle(words)):
        sep = "" if not text else ("\n" if per_line and count % per_line == 0 else " ")
        longer = text + sep + word
        if tokens.estimate(longer) > size - 4:
            break
        text = longer
    for n in range(1, 5):
        for extra in itertools.product(FILLERS, repeat=n):
            candidate = text + "".join(extra)
            if tokens.estimate(candidate) == size:
                return candidate
    raise AssertionError(f"no text of exactly {size} tokens found; add a filler")
