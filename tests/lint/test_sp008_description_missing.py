"""SP008 description-missing."""


def test_missing_empty_or_not_a_string(codes):
    assert codes("---\nname: x\n---\n", path="skills/x/SKILL.md") == ["SP008"]
    assert codes("---\nname: x\ndescription: ''\n---\n", path="skills/x/SKILL.md") == ["SP008"]
    assert codes("---\nname: x\ndescription: [a, b]\n---\n", path="skills/x/SKILL.md") == ["SP008"]
    assert codes("---\nname: x\n---\n", path="agents/x.md") == ["SP008"]
    assert codes("---\nargument-hint: x\n---\n", path="commands/x.md") == []
