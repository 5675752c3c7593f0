"""CM006 no-full-report-reads."""

from __future__ import annotations

import pytest
from samples import GOOD_HOUSEKEEPING, GOOD_PROMPT, HEAD

BASE = HEAD + GOOD_HOUSEKEEPING + "\n" + GOOD_PROMPT + "\n"


@pytest.mark.parametrize(
    "after",
    [
        "Then read `.demo-audit-reports/{package}.md` and summarise it.",
        "Open each report and merge the findings into SUMMARY.md.",
        "```bash\ncat .demo-audit-reports/*.md\n```",
    ],
)
def test_orchestrator_reading_reports_is_reported(codes, after):
    assert "CM006" in codes(BASE + after + "\n")


@pytest.mark.parametrize(
    "after",
    [
        "Do not open the reports; the user reads them.",
        "The user opens the reports themselves.",
        "Finally spawn a sub-agent that reads all reports and writes SUMMARY.md; it replies in at "
        "most 200 tokens.",
        "Read the state file to see what is left.",
        "```bash\ncat .demo-audit-reports/*.md > ALL.md\n```",
        "Read only the first 5 lines of each report.",
    ],
)
def test_allowed_reads_pass(codes, after):
    assert "CM006" not in codes(BASE + after + "\n")


def test_line_points_at_the_instruction(lint):
    result = lint(BASE + "Then read `.demo-audit-reports/x.md`.\n")
    assert [d.line for d in result.diagnostics if d.code == "CM006"] == [15]
