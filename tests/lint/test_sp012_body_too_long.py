"""SP012 body-too-long."""

from spawnkit import tokens
from spawnkit.standard import protocol


def test_line_limit(lint):
    limit = protocol.skill_spec()["body_max_lines"]
    head = "---\nname: x\ndescription: d\n---\n"
    assert lint(head + "row\n" * limit, path="skills/x/SKILL.md").diagnostics == []
    diags = lint(head + "row\n" * (limit + 1), path="skills/x/SKILL.md").diagnostics
    assert [(d.code, d.severity, d.line) for d in diags] == [("SP012", "warning", 5)]


def test_token_limit_uses_the_shared_estimate(lint, monkeypatch):
    head = "---\nname: x\ndescription: d\n---\n"
    body = "A long line of prose that goes on and on. " * 40 + "\n"
    monkeypatch.setattr(tokens, "estimate", lambda text: 10**6)
    monkeypatch.setattr(tokens, "exceeds", lambda text, budget: True)
    diags = lint(head + body, path="skills/x/SKILL.md").diagnostics
    assert [d.code for d in diags] == ["SP012"] and "tokens" in diags[0].message
