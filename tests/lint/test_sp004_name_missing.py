"""SP004 name-missing."""


def test_agents_always_need_a_name(codes):
    assert codes("---\ndescription: d\n---\nBody\n", path="agents/a.md") == ["SP004"]


def test_skills_need_one_only_when_portable(codes):
    text = "---\ndescription: Does things.\n---\nBody\n"
    assert codes(text, path="skills/x/SKILL.md") == []
    assert codes(text, path="skills/x/SKILL.md", profile="portable") == ["SP004"]
