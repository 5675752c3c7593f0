"""CM004 resume-check."""

from __future__ import annotations

from samples import GOOD_PROMPT, HEAD


def test_state_without_resume_is_a_warning_on_the_state_line(lint):
    text = (
        HEAD
        + "One sub-agent at a time.\n"
        + "Create `.demo-audit-reports/state-<ts>.json` and update it after every package.\n\n"
        + GOOD_PROMPT
    )
    diags = [d for d in lint(text).diagnostics if d.code == "CM004"]
    assert len(diags) == 1 and diags[0].line == 6 and diags[0].severity == "warning"


def test_resume_phrasings(codes):
    for resume in (
        "If an unfinished state file exists, continue from it.",
        "Resume from the newest state file younger than 2 hours.",
        "Run `find .demo-audit-reports -name 'state-*.json' -mmin -120` and pick up where it "
        "stopped.",
    ):
        text = (
            HEAD
            + "One sub-agent at a time. Create `.demo-audit-reports/state-<ts>.json`, "
            + "update it after every package. "
            + resume
            + "\n\n"
            + GOOD_PROMPT
        )
        assert "CM004" not in codes(text), resume
