"""SP002 frontmatter-invalid."""


def test_unquoted_colon_is_invalid_and_other_spec_rules_are_skipped(lint):
    result = lint(
        "---\nname: Bad_Name\ndescription: Triage tickets: set priority\n---\nBody\n",
        path="skills/x/SKILL.md",
    )
    assert [(d.code, d.line) for d in result.diagnostics] == [("SP002", 3)]
    assert "quote the value" in result.diagnostics[0].message


def test_unclosed_frontmatter_and_non_mapping(codes):
    assert codes("---\nname: x\n\nBody\n", path="skills/x/SKILL.md") == ["SP002"]
    assert codes("---\n- a\n- b\n---\nBody\n", path="skills/x/SKILL.md") == ["SP002"]
    assert codes("---\n---\nBody\n", path="skills/x/SKILL.md") == ["SP002"]
