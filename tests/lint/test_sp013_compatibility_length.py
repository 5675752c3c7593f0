"""SP013 compatibility-length."""

from spawnkit.standard import protocol


def test_limit_from_the_standard(codes):
    limit = protocol.skill_spec()["compatibility_max_length"]
    ok = "x" * limit
    assert (
        codes(f"---\nname: x\ndescription: d\ncompatibility: {ok}\n---\n", path="skills/x/SKILL.md")
        == []
    )
    assert codes(
        f"---\nname: x\ndescription: d\ncompatibility: {ok}y\n---\n", path="skills/x/SKILL.md"
    ) == ["SP013"]
    assert codes(
        "---\nname: x\ndescription: d\ncompatibility: 12\n---\n", path="skills/x/SKILL.md"
    ) == ["SP013"]
