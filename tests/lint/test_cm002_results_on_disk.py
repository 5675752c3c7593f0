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
    assert diags and diags[0].line == 10 and diags[0].severity == "error"


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
