"""Codex CLI in lint: its spawn tool and wording are spawning; its skill folders are found and
linted with the portable profile (Codex reads only the spec's keys)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from spawnkit.commands import lint as lint_command
from spawnkit.lint.engine import lint_document

HEAD = "---\nname: demo\ndescription: Audits the repository.\n---\n# demo\n\n"

SPAWNING = {
    "call spawn_agent with a prompt": (
        "For each module, call spawn_agent with the prompt below, then wait_agent for it.\n\n"
        "~~~text\nReview the module and report every issue.\n~~~\n"
    ),
    "the spawn_agent tool in prose": "Use the `spawn_agent` tool once per package.\n",
    "v2 name": "Invoke collaboration.spawn_agent for every file (task_name: the file's slug).\n",
    "namespaced v2 name": "Call collaborationspawn_agent for each failing test.\n",
    "python sketch": (
        "Steps:\n\n```python\nfor m in modules:\n"
        '    spawn_agent(message=f"review {m}", fork_context=False)\n```\n'
    ),
    "json tool call": '```json\n{"name": "spawn_agent", "arguments": {"message": "scan"}}\n```\n',
    "sub-agent wording": "Spawn one sub-agent per directory and wait for each to finish.\n",
}

NOT_SPAWNING = {
    "describes Codex": "Codex starts sub-agents with spawn_agent; this skill never does.\n",
    "negated": "Never call spawn_agent: do every step yourself.\n",
    "waiting only": "Call wait_agent on the ids the user gives you and summarise them.\n",
    "a word inside another": "Run my_spawn_agent_helper.sh to rebuild the index.\n",
}


@pytest.mark.parametrize("name", list(SPAWNING))
def test_codex_spawning_is_recognised(name):
    result = lint_document(HEAD + SPAWNING[name], "demo/SKILL.md", preview=True)
    assert result.orchestrator, name
    assert {"CM001", "CM003"} <= {d.code for d in result.diagnostics}


@pytest.mark.parametrize("name", list(NOT_SPAWNING))
def test_text_about_codex_that_spawns_nothing_is_not_an_orchestrator(name):
    result = lint_document(HEAD + NOT_SPAWNING[name], "demo/SKILL.md")
    assert not result.orchestrator, name
    assert result.diagnostics == []


CLAUDE_ONLY_KEY = "---\nname: demo\ndescription: Says hello.\nwhen_to_use: greetings\n---\nHi.\n"


def _run(*paths: Path, cwd: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = lint_command.run(list(paths), out=out, err=err, cwd=cwd)
    return code, out.getvalue(), err.getvalue()


def test_codex_skill_folders_are_default_roots_and_use_the_portable_profile(tmp_path, monkeypatch):
    home, project = tmp_path / "home", tmp_path / "project"
    codex_home = home / ".codex"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    project.mkdir()
    monkeypatch.chdir(project)
    places = [
        codex_home / "skills" / "demo",
        home / ".agents" / "skills" / "demo",
        project / ".agents" / "skills" / "demo",
        project / ".codex" / "skills" / "demo",
        project / ".claude" / "skills" / "demo",
    ]
    for folder in places:
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(CLAUDE_ONLY_KEY)
    system = codex_home / "skills" / ".system" / "imagegen"  # Codex's own built-ins
    system.mkdir(parents=True)
    (system / "SKILL.md").write_text("---\nname: wrong-name\n---\n")

    code, out, _ = _run(cwd=project)

    assert code == 1
    flagged = {line.split(":", 1)[0] for line in out.splitlines() if "SP011" in line}
    # when_to_use is a Claude Code key: fine under .claude, unknown to Codex.
    assert len(flagged) == 4 and not any(".claude" in f for f in flagged)
    assert ".system" not in out
    assert "5 files" in out


def test_an_explicit_profile_still_wins(tmp_path):
    skill = tmp_path / ".agents" / "skills" / "demo"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(CLAUDE_ONLY_KEY)
    out, err = io.StringIO(), io.StringIO()
    code = lint_command.run([skill], profile="claude-code", out=out, err=err, cwd=tmp_path)
    assert code == 0, out.getvalue()
