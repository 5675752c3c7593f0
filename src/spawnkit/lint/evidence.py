"""What a finding rests on, and how sure the linter is of it: evidence and tiers.

Where rules read prose they can be wrong, so every protocol finding shows its grounds: the
places it found (a spawn step, a state file, a prompt, with their lines) and what it looked
for and did not find. A user sees at a glance why the linter thinks so, and can silence a
misreading with a reason (``<!-- spawnkit: ignore CM007 -- progress is kept by bd -->``).

Every finding sits in a tier, as ruff's preview rules do. ``default`` findings are on for
everyone; ``preview`` findings are offered, not asserted: they show with ``--preview``
(``preview = true`` in the config) or when the rule is selected by its exact code or name, and
are never errors. Whether a file starts sub-agents, and the findings of the protocol rules
whose readings are ``calibrated`` (CM001, CM002, CM003, CM005), get their tier from a
probability (:mod:`spawnkit.lint.calibration`): default only above the threshold whose
precision, cross-validated on real skills with each file's repository left out, is 0.95
(``docs/lint-accuracy.md``). Other rules and readings keep a fixed tier, ``default`` or
``preview``, set from their measured precision.

Standard library only: the lint-on-write hook imports this.
"""

from __future__ import annotations

import re
from typing import NamedTuple

DEFAULT = "default"
PREVIEW = "preview"
OBSERVED = "observed"  # seen at run time in the transcripts (``spawnkit lint --observed``)
TIERS = (DEFAULT, PREVIEW)  # the tiers a finding read from a file can have
# a rule or reading whose findings take their tier from their calibrated probability
CALIBRATED = "calibrated"


class Evidence(NamedTuple):
    """One place a verdict rests on: shown under a finding, a related location in SARIF."""

    line: int
    note: str  # what is there, e.g. 'spawns sub-agents: "Launch three reviewers in parallel"'


class Family(NamedTuple):
    """A way of reading inside a rule (or inside orchestrator detection), with its tier."""

    name: str
    tier: str
    what: str  # one line for the docs: what this reading looks for


def tier_of(families: tuple[Family, ...], name: str, default: str = DEFAULT) -> str:
    """The tier of family ``name``; ``default`` for a name the tuple does not list."""
    for family in families:
        if family.name == name:
            return family.tier
    return default


_QUOTE_LIMIT = 90
_SPACE_BEFORE_STOP = re.compile(r" ([,;:.!?)])(?=\s|$)")


def quote(text: str, limit: int = _QUOTE_LIMIT) -> str:
    """``text`` as a short quotation for evidence: whitespace folded, Markdown marks dropped,
    cut at a word with an ellipsis when longer than ``limit`` characters."""
    # only the start can be shown: a 2,000-character sentence need not be folded whole
    words = " ".join(text[: limit * 3].replace("`", " ").replace("*", " ").split())
    words = _SPACE_BEFORE_STOP.sub(r"\1", words).rstrip(" ,;:")
    if len(words) > limit:
        cut = words.rfind(" ", 0, limit)
        words = words[: cut if cut > limit // 2 else limit].rstrip(" ,;:") + " …"
    return f"“{words}”"
