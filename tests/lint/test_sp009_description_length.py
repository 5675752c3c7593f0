"""SP009 description-length."""

from spawnkit.standard import protocol


def test_limit_from_the_standard(codes):
    limit = protocol.skill_spec()["description_max_length"]
    ok = "word " * (limit // 5)
    assert (
        codes(f"---\nname: x\ndescription: >-\n  {ok.strip()}\n---\n", path="skills/x/SKILL.md")
        == []
    )
    long = "word " * (limit // 5 + 1) + "end"
    assert codes(f"---\nname: x\ndescription: >-\n  {long}\n---\n", path="skills/x/SKILL.md") == [
        "SP009"
    ]
    # agent descriptions carry examples and have no documented limit
    assert codes(f"---\nname: x\ndescription: {long}\n---\n", path="agents/x.md") == []
