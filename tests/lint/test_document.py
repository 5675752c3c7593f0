"""A file's kind and folder come from its path exactly as pathlib splits it."""

from __future__ import annotations

from pathlib import PurePath

import pytest

from spawnkit.lint.document import AGENT, COMMAND, SKILL, folder_and_name, kind_of

PATHS = [
    "",
    ".",
    "..",
    "/",
    "//x",
    "SKILL.md",
    "/SKILL.md",
    "skills/demo/SKILL.md",
    "skills/demo/./SKILL.md",
    "skills//demo/SKILL.md/",
    "skills/demo/../SKILL.md",
    "plugin/agents/reviewer.md",
    "plugin/agents/./reviewer.md",
    "plugin/commands/run.md",
    "agents",
    " a / b ",
]


@pytest.mark.parametrize("path", PATHS)
def test_folder_and_name_match_pathlib(path):
    p = PurePath(path)
    assert folder_and_name(path) == (p.parent.name, p.name)


def test_kind_of():
    assert kind_of("skills/demo/SKILL.md") == SKILL
    assert kind_of("plugin/agents/./reviewer.md") == AGENT
    assert kind_of("plugin/commands/run.md") == COMMAND
    assert kind_of("agents") == COMMAND
