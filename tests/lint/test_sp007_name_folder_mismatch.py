"""SP007 name-folder-mismatch."""


def test_only_skills_compare_with_their_folder(codes):
    text = "---\nname: pdf-toolkit\ndescription: d\n---\n"
    assert codes(text, path="skills/pdf-tools/SKILL.md") == ["SP007"]
    assert codes(text, path="skills/pdf-toolkit/SKILL.md") == []
    assert codes(text, path="agents/pdf-tools.md") == []
