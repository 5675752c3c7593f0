"""Token counting: the offline estimate (stdlib, on the hook path), the exact API count, the CLI report.

Only the estimator is imported here, so ``from spawnkit import tokens`` stays cheap on the hook path;
``spawnkit.tokens.count_api`` (urllib) and ``spawnkit.tokens.report`` are imported where used.
"""

from spawnkit.tokens.estimate import (
    CALIBRATED_MODEL,
    FEATURES,
    WEIGHTS,
    describe,
    estimate,
    exceeds,
    features,
)

__all__ = ["CALIBRATED_MODEL", "FEATURES", "WEIGHTS", "describe", "estimate", "exceeds", "features"]
