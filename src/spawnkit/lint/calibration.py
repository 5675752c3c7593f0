"""One calibrated probability that a file starts sub-agents, and one for each protocol finding.

The readings in :mod:`spawnkit.lint.analysis` say where a file may start sub-agents: a spawn
verb with an agent as its object, a call in a code sketch, a heading, a remark under a guide-like
heading. No single reading decides. Their counts, where they sit (a table, text the file writes
into another file, a type definition, an example), the file's kind, its frontmatter (the spawn
tool granted or left out, ``context: fork``) and its mood (a persona, a self-negation) are
weighed together by a logistic model into one probability, and each protocol finding gets its
own from that probability and the reading that produced it.

The weights and the thresholds are data (``calibration.json`` beside this module), fitted by
``benchmarks/lint_calibrate.py`` on the labelled real-skill corpus; each threshold is the lowest
probability at which the decision's precision, cross-validated with every file's repository
left out of the fit, is at least the target (0.95). The default tier asserts "spawns
sub-agents", and with it a protocol finding, only at or above its threshold; below it the
finding is offered with ``--preview``. ``docs/lint-accuracy.md`` has the curves.

Standard library only (the lint-on-write hook imports this), and inference is a dot product:
the model file is read once, on the first file whose readings make it a candidate.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from spawnkit.base import fastjson

MODEL_FILE = Path(__file__).with_name("calibration.json")
BIAS = "bias"
CALIBRATED_RULES = ("CM001", "CM002", "CM003", "CM005")

_model: dict[str, Any] | None = None


def model() -> dict[str, Any]:
    """The shipped weights and thresholds (read once). A missing or unreadable file gives an
    empty model: every probability is then 0.5 and no threshold is set, so nothing is
    asserted by default and every finding is offered as preview."""
    global _model
    if _model is None:
        try:
            loaded = fastjson.loads(MODEL_FILE.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            loaded = {}
        _model = loaded if isinstance(loaded, dict) else {}
    return _model


def part(what: str) -> dict[str, Any]:
    """One entry of the model (``detection`` or a rule code); {} when absent or malformed."""
    value = model().get(what)
    return value if isinstance(value, dict) else {}


def use(data: dict[str, Any] | None) -> None:
    """Replace the model in this process (benchmarks fit one per fold; None reloads the file)."""
    global _model
    _model = data


def logistic(weights: dict[str, float], x: dict[str, float]) -> float:
    """sigmoid(bias + sum of weight * feature), features the weights do not name weighing 0."""
    z = weights.get(BIAS, 0.0)
    for name, value in x.items():
        if value:
            z += weights.get(name, 0.0) * value
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


# --- the file: does it start sub-agents? ------------------------------------------------
# (what the readings found, as numbers, is spawnkit.lint.analysis.spawn_features)


def detection_probability(x: dict[str, float]) -> float:
    """The calibrated probability that a file whose readings give features ``x`` starts
    sub-agents."""
    return logistic(part("detection").get("weights", {}), x)


def detection_asserted(p: float, structural: bool) -> bool:
    """Whether the default tier asserts that the file starts sub-agents: its probability is
    at or above the threshold, or, in the fallback the fit chooses when no threshold gives
    useful recall at the target precision (``"mode": "structural"``), a structural reading."""
    if part("detection").get("mode") == "structural":
        return structural
    return asserted("detection", p)


def threshold(what: str) -> float | None:
    """The probability from which ``what`` (``detection`` or a rule code) is asserted by
    default; None when no threshold reached the target precision (all preview)."""
    value = part(what).get("threshold")
    return float(value) if isinstance(value, (int, float)) else None


def asserted(what: str, p: float) -> bool:
    t = threshold(what)
    return t is not None and p >= t


# --- a protocol finding: is it right? ------------------------------------------------------


def rule_features(family: str, p_spawn: float, kind: str, findings: int) -> dict[str, float]:
    """A finding's numbers: how sure detection is, the reading that made it, the file's kind,
    and how many findings of the rule the file has."""
    return {
        "spawn-logit": logit(p_spawn),
        f"reading:{family}": 1.0,
        f"kind:{kind}": 1.0,
        "findings": math.log1p(findings),
    }


def rule_probability(
    code: str, family: str, p_spawn: float, kind: str, findings: int = 1
) -> float | None:
    """The calibrated probability that a finding of rule ``code`` is right (the file breaks
    the rule); None for a rule, or a reading, the model was not fitted on."""
    fitted = part(code)
    if family not in fitted.get("readings", ()):
        return None
    return logistic(fitted.get("weights", {}), rule_features(family, p_spawn, kind, findings))


def rule_can_assert(code: str, p_spawn: float, kind: str) -> bool:
    """Whether any finding of rule ``code`` could be asserted in a file of ``kind`` with
    spawn probability ``p_spawn``: the engine skips the rule's reading (by default) when none
    could. Exact where more findings cannot raise the probability (a "findings" weight of 0 or
    less: one finding gives the most); otherwise, True."""
    fitted = part(code)
    t = threshold(code)
    if t is None:
        return False
    if fitted.get("weights", {}).get("findings", 0.0) > 0:
        return True
    return any(
        (rule_probability(code, family, p_spawn, kind, 1) or 0.0) >= t
        for family in fitted.get("readings", ())
    )


def reading_precision(what: str, family: str) -> float | None:
    """The precision, on the labelled files, of the files where reading ``family`` fires (for
    ``spawnkit rule``), as the fit measured it; None when not measured."""
    value = part(what).get("reading_precision", {}).get(family)
    return float(value) if isinstance(value, (int, float)) else None
