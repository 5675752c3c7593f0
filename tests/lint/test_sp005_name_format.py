"""SP005 name-format."""

import pytest


@pytest.mark.parametrize("name", ["Git_Helper", "git--helper", "-git", "git-", "git helper", "GIT"])
def test_bad_names(codes, name):
    assert "SP005" in codes(
        f"---\nname: '{name}'\ndescription: d\n---\n", path=f"skills/{name}/SKILL.md"
    )


@pytest.mark.parametrize("name", ["git-helper", "a", "pdf2txt", "x-1-y"])
def test_good_names(codes, name):
    assert codes(f"---\nname: {name}\ndescription: d\n---\n", path=f"skills/{name}/SKILL.md") == []


def test_non_string_name(lint):
    result = lint("---\nname: 123\ndescription: d\n---\n", path="commands/x.md")
    assert [d.code for d in result.diagnostics] == ["SP005"] and "string" in result.diagnostics[
        0
    ].message
