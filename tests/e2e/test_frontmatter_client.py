"""SP severities against the real client: an error only where Claude Code 2.1.330 fails.

Each case is a skill, command or agent with one frontmatter problem, written into a project's
``.claude/``. One real ``claude -p`` run lists what it loaded to the model (skills and commands
in the Skill tool's list, agents in the Agent tool's), so the test sees, per case, whether the
client loaded the file. Lint must then give an error exactly for the files the client did not
load, and only warnings (or nothing) for the ones it did.
"""

from __future__ import annotations

import json

import pytest

from spawnkit.lint.engine import lint_document

pytestmark = pytest.mark.e2e

# name -> (kind, frontmatter or None for none, the SP code lint reports)
CASES = {
    "colonskill": ("skill", "name: colonskill\ndescription: COLONSKILL-D has: a colon\n", "SP002"),
    "hintskill": (
        "skill",
        "name: hintskill\ndescription: HINTSKILL-D\nargument-hint: [a] [b]\n",
        "SP002",
    ),
    "extraskill": (
        "skill",
        "name: extraskill\ndescription: EXTRASKILL-D\ncategory: tools\n",
        "SP011",
    ),
    "nsskill": ("skill", "name: ns:thing\ndescription: NSSKILL-D\n", "SP005"),
    "otherskill": ("skill", "name: renamed\ndescription: OTHERSKILL-D\n", "SP007"),
    "longskill": ("skill", "name: " + "a" * 70 + "\ndescription: LONGSKILL-D\n", "SP006"),
    "angleskill": ("skill", "name: angleskill\ndescription: ANGLESKILL-D <b>x</b>\n", "SP010"),
    "bigskill": ("skill", "name: bigskill\ndescription: BIGSKILL-D " + "x" * 1100 + "\n", "SP009"),
    "compatskill": (
        "skill",
        "name: compatskill\ndescription: COMPATSKILL-D\ncompatibility: " + "y" * 600 + "\n",
        "SP013",
    ),
    "bareskill": ("skill", None, "SP001"),
    "extracmd": ("command", "description: EXTRACMD-D\ncategory: utils\norigin: x\n", "SP011"),
    "nscmd": ("command", "name: gsd:map-codebase\ndescription: NSCMD-D\n", "SP005"),
    "slashcmd": ("command", "name: /doublecheck\ndescription: SLASHCMD-D\n", "SP005"),
    "extraagent": ("agent", "name: extraagent\ndescription: EXTRAAGENT-D\nlevel: 2\n", "SP011"),
    "upperagent": ("agent", "name: Upper_Agent\ndescription: UPPERAGENT-D\n", "SP005"),
    "namelessagent": ("agent", "description: NAMELESSAGENT-D\n", "SP004"),
    "blankagent": ("agent", "name: blankagent\n", "SP008"),
    "bareagent": ("agent", None, "SP001"),
}


def _marker(name: str, front: str | None) -> str:
    """What the client shows when it loads the file: the description, else the body line."""
    return f"{name.upper()}-D" if front and "description:" in front else f"Body of {name}."


def _path(project, name: str, kind: str):
    if kind == "skill":
        return project / ".claude" / "skills" / name / "SKILL.md"
    return project / ".claude" / f"{kind}s" / f"{name}.md"


def test_errors_only_where_the_client_does_not_load_the_file(claude, fake_api):
    texts = {}
    for name, (kind, front, _) in CASES.items():
        path = _path(claude.project, name, kind)
        path.parent.mkdir(parents=True, exist_ok=True)
        texts[name] = (f"---\n{front}---\n" if front is not None else "") + f"Body of {name}.\n"
        path.write_text(texts[name])
    fake_api.conversation("FM-PROBE", "ok")

    claude.run("FM-PROBE: hello")

    (request,) = fake_api.messages_requests("FM-PROBE")
    shown = json.dumps(request.body)
    loaded = {name: _marker(name, front) in shown for name, (_, front, _) in CASES.items()}
    # what Claude Code 2.1.330 was seen to do: every skill and command loads; an agent without
    # frontmatter, name or description does not
    assert {n for n, ok in loaded.items() if not ok} == {"namelessagent", "blankagent", "bareagent"}
    for name, (kind, _, code) in CASES.items():
        rel = _path(claude.project, name, kind).relative_to(claude.project).as_posix()
        found = [
            d for d in lint_document(texts[name], rel, "claude-code").diagnostics if d.code == code
        ]
        assert found, (name, code)
        severities = {d.severity for d in found}
        assert severities == ({"warning"} if loaded[name] else {"error"}), (name, severities)
