"""SP011 unknown-key: per profile and file kind."""

import pytest

CC_ONLY = (
    "---\nname: x\ndescription: d\nwhen_to_use: when asked\ncontext: fork\nagent: Explore\n"
    "disable-model-invocation: true\n---\nAudit the repo; write findings to .x-reports/f.md; reply "
    "in 200 tokens.\n"
)


def test_claude_code_keys_pass_only_under_the_claude_code_profile(lint):
    assert [d.code for d in lint(CC_ONLY, path="skills/x/SKILL.md").diagnostics] == []
    portable = lint(CC_ONLY, path="skills/x/SKILL.md", profile="portable").diagnostics
    assert [(d.code, d.line) for d in portable] == [
        ("SP011", 4),
        ("SP011", 5),
        ("SP011", 6),
        ("SP011", 7),
    ]
    assert "Claude Code extension" in portable[0].fix


@pytest.mark.parametrize("key", ["author", "version", "allowed_tools", "arguments"])
def test_undocumented_keys_are_reported_under_both_profiles(codes, key):
    text = f"---\nname: x\ndescription: d\n{key}: v\n---\n"
    assert codes(text, path="skills/x/SKILL.md") == ["SP011"]
    assert codes(text, path="skills/x/SKILL.md", profile="portable") == ["SP011"]


def test_typo_gets_a_suggestion(lint):
    diag = lint(
        "---\nname: x\ndescription: d\nallowed_tools: Read\n---\n", path="skills/x/SKILL.md"
    ).diagnostics[0]
    assert "allowed-tools" in diag.fix


def test_commands_and_agents_use_their_own_key_sets(codes):
    assert codes("---\ndescription: d\ntools: Bash\n---\n", path="commands/x.md") == ["SP011"]
    assert (
        codes("---\nname: x\ndescription: d\ntools: Bash\nmaxTurns: 5\n---\n", path="agents/x.md")
        == []
    )
    assert codes(
        "---\nname: x\ndescription: d\nallowed-tools: Bash\n---\n", path="agents/x.md"
    ) == ["SP011"]


def test_suppression_comment_in_the_frontmatter(codes):
    assert (
        codes(
            "---\nname: x\ndescription: d\nauthor: me  # spawnkit: ignore SP011\n---\n",
            path="skills/x/SKILL.md",
        )
        == []
    )
