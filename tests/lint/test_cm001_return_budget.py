"""CM001 return-budget."""

from __future__ import annotations

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
