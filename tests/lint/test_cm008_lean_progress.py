"""CM008 lean-progress."""

from __future__ import annotations

import pytest
from samples import GOOD_HOUSEKEEPING, GOOD_PROMPT, HEAD

BASE = HEAD + GOOD_HOUSEKEEPING + "\n" + GOOD_PROMPT + "\n"


@pytest.mark.parametrize(
    "progress",
    [
        "After each sub-agent, show the user its complete reply.",
        "Paste each reply into the chat verbatim.",
        "Print every finding in full for the user.",
        "Write a paragraph to the user about each finding.",
    ],
)
def test_relaying_output_is_reported(codes, progress):
    assert "CM008" in codes(BASE + progress + "\n")


@pytest.mark.parametrize(
    "progress",
    [
        "Print one line per package: `[n/total] {package}: counts — report path`.",
        "Do not paste the reply into the chat; print one line.",
        "The user can open the full report for every detail.",
    ],
)
def test_one_line_progress_passes(codes, progress):
    assert "CM008" not in codes(BASE + progress + "\n")
