"""SP001 frontmatter-missing."""


def test_skill_and_agent_need_frontmatter_commands_do_not(codes):
    body = "# Notes\n\nTurn a transcript into notes.\n"
    assert codes(body, path="skills/notes/SKILL.md") == ["SP001"]
    assert codes(body, path="agents/notes.md") == ["SP001"]
    assert codes(body, path="commands/notes.md") == []


def test_reported_on_line_one(lint):
    assert [d.line for d in lint("# x\n", path="skills/x/SKILL.md").diagnostics] == [1]
