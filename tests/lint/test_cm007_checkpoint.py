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


# --- issue 25: progress recorded per task, on events or on a timer --------------------------


@pytest.mark.parametrize(
    "state",
    [
        "Keep `.demo-audit-reports/state.json`. For each package run "
        "`tracker set-status --id {package} --status done`.",
        "Keep `.demo-audit-reports/state.json`; each agent writes its progress to it.",
        "Keep `.demo-audit-reports/state.json` and rewrite it every 5 minutes.",
        "Keep `.demo-audit-reports/state.json` and update it on each completion.",
    ],
)
def test_progress_per_task_on_events_or_on_a_timer_counts(codes, state):
    assert "CM007" not in codes(_skill(state)), state


def test_a_timer_is_not_an_interval_of_steps(lint):
    text = _skill("Create `.demo-audit-reports/state-<ts>.json` and save it every 10 minutes.")
    assert not [d for d in lint(text).diagnostics if d.code == "CM007"]
    steps = _skill("Create `.demo-audit-reports/state-<ts>.json` and save it every 10 packages.")
    assert [d.family for d in lint(steps).diagnostics if d.code == "CM007"] == [
        "interval-over-limit"
    ]


def test_checkpoint_is_a_preview_rule(lint):
    text = _skill("The state file is `.demo-audit-reports/state-<ts>.json`.")
    assert "CM007" not in {d.code for d in lint(text, preview=False).diagnostics}
    (d,) = [d for d in lint(text).diagnostics if d.code == "CM007"]
    assert (d.tier, d.severity, d.family) == ("preview", "warning", "never-updated")
    assert [e.line for e in d.evidence] == [5, 6] and "state-<ts>.json" in d.evidence[1].note
