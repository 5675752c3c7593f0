"""CM001 return-budget."""

from __future__ import annotations

import pytest
from samples import GOOD_HOUSEKEEPING, HEAD

from spawnkit.standard import protocol


def _skill(prompt_body: str, extra: str = "") -> str:
    return (
        HEAD
        + GOOD_HOUSEKEEPING
        + extra
        + "\nFor each package, spawn a sub-agent with this prompt:\n\n```\n"
        + "Audit {package}. Write every finding to .demo-audit-reports/{package}.md.\n"
        + prompt_body
        + "\n```\n"
    )


def test_cap_at_or_under_the_budget_passes(codes):
    assert "CM001" not in codes(_skill(f"Reply in {protocol.return_budget()} tokens or fewer."))
    assert "CM001" not in codes(_skill("Your reply must stay under 250 tokens."))


def test_cap_over_the_budget_is_reported_on_its_line(lint):
    result = lint(
        _skill(f"Return a summary of no more than {protocol.return_budget() * 4} tokens.")
    )
    diag = [d for d in result.diagnostics if d.code == "CM001"]
    assert diag and str(protocol.return_budget() * 4) in diag[0].message
    assert result.diagnostics[0].line == 12  # the line stating the cap, inside the fence


def test_vague_or_non_token_limits_are_not_caps(lint):
    vague = [
        d
        for d in lint(_skill("Keep your answer brief and concise.")).diagnostics
        if d.code == "CM001"
    ]
    assert vague and "'brief' or 'concise' is not a cap" in vague[0].message
    words = [d for d in lint(_skill("Answer in under 200 words.")).diagnostics if d.code == "CM001"]
    assert words and "words or lines" in words[0].message


def test_a_cap_stated_once_for_every_sub_agent_covers_all_prompts(codes):
    rules = "\n## Rules\n- Every sub-agent replies with at most 300 tokens.\n\n"
    assert "CM001" not in codes(_skill("List what you found.", extra=rules))


def test_each_prompt_is_checked_separately(lint):
    text = _skill("Reply with at most 300 tokens.") + (
        "\nThen spawn a summary sub-agent with this prompt:\n\n```\n"
        "Merge the reports in .demo-audit-reports/ into SUMMARY.md.\n```\n"
    )
    diags = [d for d in lint(text).diagnostics if d.code == "CM001"]
    assert len(diags) == 1 and diags[0].line > 14


def test_forked_skill_body_is_the_prompt(codes):
    fork = (
        "---\nname: demo-audit\ndescription: Audit in a fork.\ncontext: fork\n---\n"
        "Audit the repo and write the findings to .demo-audit-reports/findings.md.\n"
    )
    assert "CM001" in codes(fork)
    assert "CM001" not in codes(fork + "Reply with at most 200 tokens.\n")


def test_budget_comes_from_the_standard(codes, monkeypatch):
    monkeypatch.setattr(protocol, "return_budget", lambda: 100)
    assert "CM001" in codes(_skill("Reply with at most 200 tokens."))


def test_a_sibling_brief_is_the_prompt(tmp_path):
    from spawnkit.lint.engine import lint_text

    skill = tmp_path / "skills" / "demo-audit"
    skill.mkdir(parents=True)
    (skill / "worker-brief.md").write_text(
        "Audit {package}; write the findings to .demo-audit-reports/{package}.md.\n"
        "Your final message stays under 150 tokens.\n"
    )
    text = (
        HEAD
        + GOOD_HOUSEKEEPING
        + "Every worker gets [the worker brief](worker-brief.md) verbatim.\n"
        + "For each package, spawn a worker sub-agent.\n"
    )
    path = skill / "SKILL.md"
    path.write_text(text)
    assert lint_text(text, str(path)) == []
    (skill / "worker-brief.md").write_text(
        "Audit {package}; write the findings to .x-reports/a.md.\n"
    )
    assert {d.code for d in lint_text(text, str(path))} == {"CM001"}


# --- issue 35: findings messaged to the orchestrator ------------------------------------------

CAPPED = "Reply with at most 300 tokens: STATUS and the report path.\n"


def _messaged(lint, text: str, preview: bool = True) -> list:
    return [
        d
        for d in lint(text, preview=preview).diagnostics
        if d.code == "CM001" and "message its findings" in d.message
    ]


@pytest.mark.parametrize(
    "said",
    [
        "Report findings via SendMessage to team-lead.",  # seen in a public skill
        "Send all your findings to main with SendMessage as soon as you have them.",
        "Message the lead with your full analysis before you reply.",
        "When done, use SendMessage to main with your whole report.",
        "Then send everything you found to the orchestrator.",
    ],
)
def test_a_prompt_that_messages_its_findings_to_the_lead_is_read_as_the_whole_report(lint, said):
    found = _messaged(lint, _skill(CAPPED + said))
    assert len(found) == 1, said
    assert found[0].message.startswith("this sub-agent prompt tells a sub-agent to message")
    assert found[0].severity == "warning" and found[0].tier == "preview"
    assert said[:20] in found[0].evidence[0].note


@pytest.mark.parametrize(
    "said",
    [
        'Notify completion: SendMessage to team-lead "review complete".',  # a status
        "Signal READY via SendMessage to team-lead with a content summary.",
        "Send the report's path to main with SendMessage.",
        "Never send your findings to main; they belong in the report.",
        "Your messages to main with SendMessage stay under 200 tokens, findings included.",
        "Send your findings to the database with the CLI.",  # not the lead
        "Message the lead if you are blocked.",  # nothing sent but a question
    ],
)
def test_a_note_a_cap_or_another_recipient_is_not(lint, said):
    assert _messaged(lint, _skill(CAPPED + said)) == [], said


def test_the_standards_own_contract_is_not(lint):
    block = protocol.return_block(report=".demo-audit-reports/{package}.md")
    assert "SendMessage" in block
    assert _messaged(lint, _skill(block)) == []


def test_a_rule_for_every_sub_agent_counts_the_orchestrators_own_messages_do_not(lint):
    rule = "\n## Rules\n- Each sub-agent reports its findings via SendMessage to team-lead.\n\n"
    (found,) = _messaged(lint, _skill(CAPPED, extra=rule))
    assert found.message.startswith("the skill tells a sub-agent")
    own = "\nWhen all are done, send the findings to the lead of the review team.\n\n"
    assert _messaged(lint, _skill(CAPPED, extra=own)) == []


def test_the_reading_is_preview(lint):
    text = _skill(CAPPED + "Report findings via SendMessage to team-lead.")
    assert _messaged(lint, text, preview=False) == []
