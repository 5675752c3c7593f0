"""CM002 results-on-disk."""

from __future__ import annotations

from samples import GOOD_HOUSEKEEPING, HEAD


def _skill(prompt_body: str, extra: str = "") -> str:
    return (
        HEAD
        + GOOD_HOUSEKEEPING
        + extra
        + "\nFor each package, spawn a sub-agent with this prompt:\n\n> "
        + prompt_body.replace("\n", "\n> ")
        + "\n"
    )


def test_prompt_writing_a_report_passes(codes):
    assert "CM002" not in codes(
        _skill(
            "Audit {package}. Save the findings to .demo-audit-reports/{package}.md.\n"
            "Reply with at most 300 tokens."
        )
    )
    assert "CM002" not in codes(
        _skill(
            "Audit {package}. Write docs/audit/{package}.md for the team.\n"
            "Reply with at most 300 tokens."
        )
    )


def test_prompt_returning_everything_is_reported(lint):
    result = lint(_skill("Audit {package} and reply with every finding, at most 300 tokens."))
    diags = [d for d in result.diagnostics if d.code == "CM002"]
    # a preview rule since the test half was seen (docs/lint-accuracy.md): offered as a warning
    assert diags and diags[0].line == 10 and diags[0].severity == "warning"


def test_rule_for_every_sub_agent_covers_prompts(codes):
    rules = (
        "\nSub-agents write their full results to the reports folder and reply in at most 300 "
        "tokens.\n"
    )
    assert "CM002" not in codes(_skill("Audit {package}; list the findings.", extra=rules))


def test_writing_the_state_file_is_not_writing_results(codes):
    assert "CM002" in codes(
        _skill("Audit {package}. Update state.json when done. Reply in at most 300 tokens.")
    )


def test_note_in_a_path_is_a_disk_write(codes):
    prompt = (
        "Explore {package}. Note the key files in .demo-audit-reports/{package}.md. "
        "Reply in 200 tokens."
    )
    assert "CM002" not in codes(_skill(prompt))


# --- issue 25: results on disk, in more of the ways skills say it --------------------------

import pytest  # noqa: E402

_CAPPED = "\nReply with at most 300 tokens."


@pytest.mark.parametrize(
    "prompt",
    [
        "Research {topic} and write your notes to task-*.md." + _CAPPED,
        "Verify {feature}; write the report to .specs/features/[feature]/validation.md." + _CAPPED,
        "Edit the image and save it to {source}_edited.png." + _CAPPED,
        "Survey the code and write to artifact_path." + _CAPPED,
        "Survey the code. (3) writes `.specs/survey.md` with every finding." + _CAPPED,
        "Edit the image.\nOutput path: {source}_edited.png" + _CAPPED,
        "Write your markdown file to the session directory." + _CAPPED,
        "Review the diff and post each finding as a PR comment." + _CAPPED,
    ],
)
def test_more_ways_of_writing_results_to_disk(codes, prompt):
    assert "CM002" not in codes(_skill(prompt)), prompt


def test_a_code_comment_about_the_agents_counts(codes):
    text = _skill(
        "Audit {package} and reply in 300 tokens.",
        extra="\n```bash\n# Each agent writes to its own tmp/ subdirectory\nls tmp/\n```\n",
    )
    assert "CM002" not in codes(text)


@pytest.mark.parametrize(
    "prompt",
    [
        "Work in the project directory and reply with every finding." + _CAPPED,
        "Read logs/output.log and reply with what failed." + _CAPPED,
    ],
)
def test_look_alikes_of_a_disk_write_are_reported(codes, prompt):
    assert "CM002" in codes(_skill(prompt)), prompt


def test_the_finding_shows_the_prompt_and_what_was_looked_for(lint):
    text = _skill("Audit {package} and reply with every finding." + _CAPPED)
    (d,) = [d for d in lint(text).diagnostics if d.code == "CM002"]
    assert d.tier == "preview" and d.family == "prompt-without-file"
    assert d.evidence[0].note.startswith("sub-agent prompt: “Audit {package}")
    assert "write the full results to a file" in d.looked_for
