"""Codex 4: a skill made by ``spawnkit new --host codex`` is discovered and listed by Codex."""

from __future__ import annotations

import re
from pathlib import Path

import pytest


def listed_skills(developer_text: str) -> dict[str, tuple[str, Path]]:
    """name -> (description, SKILL.md path) from Codex's ``<skills_instructions>`` message,
    short paths (``r0/x/SKILL.md``) expanded with its skill roots table."""
    block = developer_text[developer_text.index("<skills_instructions>") :]
    roots = dict(re.findall(r"^- `(r\d+)` = `(.*)`$", block, re.M))
    found = {}
    for name, description, short in re.findall(
        r"^- ([a-z0-9-]+): (.*) \(file: (.*)\)$", block, re.M
    ):
        root, _, rest = short.partition("/")
        found[name] = (description, Path(roots.get(root, root)) / rest)
    return found


@pytest.mark.parametrize("scope", ["user", "project"])
def test_a_generated_skill_is_listed_to_the_model(codex, fake_responses, scope):
    name = f"demo-{scope}"
    codex.spawnkit("new", name, "--defaults", "--host", "codex", "--scope", scope)
    folder = codex.codex_home if scope == "user" else codex.project / ".agents"
    skill_md = folder / "skills" / name / "SKILL.md"
    description = re.search(r'^description: "(.*)"$', skill_md.read_text(), re.M).group(1)
    main = fake_responses.conversation("C4-ORCH", "Listed.")

    codex.run("C4-ORCH: which skills do you have?")

    listed = listed_skills(main.first.developer_text)
    assert listed[name] == (description, skill_md)
