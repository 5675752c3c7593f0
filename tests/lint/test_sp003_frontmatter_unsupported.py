"""SP003 frontmatter-unsupported: the reader says so instead of guessing."""


def test_anchor_is_a_warning_not_a_crash(lint):
    text = "---\nname: x\ndescription: d\nhooks:\n  A: &h [1]\n  B: *h\n---\nBody\n"
    result = lint(text, path="skills/x/SKILL.md")
    assert [(d.code, d.severity, d.line) for d in result.diagnostics] == [("SP003", "warning", 5)]


def test_timestamp_and_tabs(codes):
    assert codes(
        "---\nname: x\ndescription: d\nmetadata:\n  at: 2024-01-01 10:00:00\n---\n",
        path="skills/x/SKILL.md",
    ) == ["SP003"]
