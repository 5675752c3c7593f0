"""SP006 name-length."""

from spawnkit.standard import protocol


def test_limit_from_the_standard(codes):
    limit = protocol.skill_spec()["name_max_length"]
    ok = "a" * limit
    long = "a" * (limit + 1)
    assert codes(f"---\nname: {ok}\ndescription: d\n---\n", path=f"skills/{ok}/SKILL.md") == []
    assert codes(f"---\nname: {long}\ndescription: d\n---\n", path=f"skills/{long}/SKILL.md") == [
        "SP006"
    ]
