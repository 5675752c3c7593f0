"""CM007 checkpoint."""

from __future__ import annotations

import pytest
from samples import GOOD_PROMPT, HEAD

from spawnkit.standard import protocol


def _skill(state: str) -> str:
    return (
        HEAD
        + "One sub-agent at a time. Resume from an unfinished state file if there is one.\n"
        + state
        + "\n\n"
        + GOOD_PROMPT
    )


@pytest.mark.parametrize(
    "state",
    [
        "Create `.demo-audit-reports/state-<ts>.json`; once every package has been audited, write "
        "the results to it.",
        "Create `.demo-audit-reports/state-<ts>.json` and checkpoint it every 5 packages.",
        "Write the state file `.demo-audit-reports/state-<ts>.json` at the end.",
        "The state file is `.demo-audit-reports/state-<ts>.json`.",
    ],
)
def test_sparse_or_missing_updates_are_reported(codes, state):
    assert "CM007" in codes(_skill(state))


@pytest.mark.parametrize(
    "state",
    [
        "Create `.demo-audit-reports/state-<ts>.json` and update it after each package.",
        "Keep the state file current: mark each package done as its sub-agent returns.",
        "Create `.demo-audit-reports/state-<ts>.json`. Rewrite it every 2 packages.",
    ],
)
def test_frequent_updates_pass(codes, state):
    assert "CM007" not in codes(_skill(state))


def test_interval_comes_from_the_standard(codes, monkeypatch):
    monkeypatch.setattr(protocol, "checkpoint_every", lambda: 5)
    assert "CM007" not in codes(
        _skill("Create `.demo-audit-reports/state-<ts>.json`, checkpoint every 5 packages.")
    )
