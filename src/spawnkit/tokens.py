"""Conservative Claude token estimate (placeholder until calibrated; see issue 3).

Standard library only: runs on the hook path.
"""

from __future__ import annotations

import math


def estimate(text: str) -> int:
    """Upper-bound token count for ``text`` (placeholder: chars / 2.5)."""
    return math.ceil(len(text) / 2.5)


def exceeds(text: str, budget: int) -> bool:
    """True when ``text`` is over ``budget`` tokens."""
    return estimate(text) > budget
