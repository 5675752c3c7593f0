"""Copilot 4: a skill made by ``spawnkit new --host copilot`` (or installed by ``spawnkit install
--host copilot``) is discovered and listed to the model by Copilot CLI."""

from __future__ import annotations

import re

import pytest


def listed_skills(system_text: str) -> dict[str, str]:
    """name -> description from Copilot's ``<available_skills>`` listing in its system prompt."""
    block = system_text[system_text.index("<available_skills>") :]
    return dict(re.findall(r"<name>(.*?)</name>\s*<description>(.*?)</description>", block, re.S))


@pytest.mark.parametrize("scope", ["user", "project"])
def test_a_generated_skill_is_listed_to_the_model(copilot, fake_chat, scope):
    name = f"demo-{scope}"
    copilot.spawnkit("new", name, "--defaults", "--host", "copilot", "--scope", scope)
    folder = copilot.copilot_home if scope == "user" else copilot.project / ".github"
    skill_md = folder / "skills" / name / "SKILL.md"
    description = re.search(r'^description: "(.*)"$', skill_md.read_text(), re.M).group(1)
    main = fake_chat.conversation("P4-ORCH", "Listed.")

    copilot.run("P4-ORCH: which skills do you have?")

    system = "\n".join(main.first.texts_of("system"))
    assert listed_skills(system)[name] == description


def test_the_installed_spawnkit_skill_is_listed_too(copilot, fake_chat):
    copilot.spawnkit("install", "--host", "copilot", "--yes")
    main = fake_chat.conversation("P4I-ORCH", "Listed.")
    copilot.run("P4I-ORCH: which skills do you have?")
    assert "spawnkit" in listed_skills("\n".join(main.first.texts_of("system")))
