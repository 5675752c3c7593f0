"""SP010 description-angle-brackets."""


def test_skills_and_commands_but_not_agents(codes):
    text = "---\nname: x\ndescription: Use as x <file>.\n---\n"
    assert codes(text, path="skills/x/SKILL.md") == ["SP010"]
    assert codes(text, path="commands/x.md") == ["SP010"]
    assert codes(text, path="agents/x.md") == []
