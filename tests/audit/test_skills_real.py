"""Issue 31 on real public transcripts, none of them tagged by the client (Claude Code 1.0.98 to
2.1.39, before ``attributionSkill``): built-in commands are no skills, a custom command's or a
skill's launches are its own, and a launch after a compaction is not given to a skill invoked
before it."""

from __future__ import annotations

import json

from spawnkit.hosts.builtins import CLAUDE_CODE as BUILTINS

from . import real_corpus
from .conftest import audit_json

GROUPS = {g.name: g for g in real_corpus.groups()}
RCGRAY = "rcgray/claude-code-bug-phantom-reads-17407"
SESSION_EXAMPLES = GROUPS[f"{RCGRAY}:dev/misc/session-examples"]
SCHEMA_13 = GROUPS[f"{RCGRAY}:dev/misc/schema-13-2120"]
VIEWER = GROUPS["d-kimuson/claude-code-viewer:mock-global-claude-dir/projects/sample-project"]
SPOTTER = GROUPS["marot/spotter:test/fixtures/transcripts"]


def _sessions(real, group) -> dict[str, dict]:
    doc = real.audit(real.vendored_root(group))
    return {s["id"]: s for s in doc["sessions"]}


def _typed(path) -> set[str]:
    """Every ``/name`` the user typed in a transcript, as recorded."""
    found = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if "<command-name>/" in line:
            found.add(line.split("<command-name>/", 1)[1].split("<", 1)[0])
    return found


def test_built_in_commands_are_no_skills(real):
    typed_builtins = set()
    for group in (SESSION_EXAMPLES, SCHEMA_13, VIEWER, SPOTTER):
        root = real.vendored_root(group)
        for path in root.rglob("*.jsonl"):
            typed_builtins |= _typed(path) & BUILTINS
        for session in _sessions(real, group).values():
            assert not {s["name"] for s in session["skills"]} & BUILTINS, session["id"]
    # what these users typed: /context, /exit, /export, /init, /mcp, /status
    assert typed_builtins >= {"context", "exit", "export", "init", "mcp"}


def test_a_custom_commands_launches_are_its_own(real):
    viewer = _sessions(real, VIEWER)
    orchestrated = [s for s in viewer.values() if s["skills"]]
    assert {s["skills"][0]["name"] for s in orchestrated} == {"orchestrator"}
    returns = [r for s in orchestrated for r in s["returns"]]
    assert len(returns) == 7 and {r["skill"] for r in returns} == {"orchestrator"}
    # /wsd:init typed, then the model's SlashCommand /wsd:boot and /wsd:onboard, then a Task:
    # the Task belongs to the last one invoked
    examples = _sessions(real, SESSION_EXAMPLES)
    tasks = [r for s in examples.values() for r in s["returns"]]
    assert tasks and {r["skill"] for r in tasks} == {"wsd:onboard"}
    names = {k["name"] for s in examples.values() for k in s["skills"]}
    assert names == {"wsd:init", "wsd:boot", "wsd:onboard", "refine-plan"}
    # 2.1.20: /context (built-in) around /setup-hard and /analyze-wpd, whose two Tasks are its
    schema = _sessions(real, SCHEMA_13)
    tasks = [r for s in schema.values() for r in s["returns"]]
    assert tasks and {r["skill"] for r in tasks} == {"analyze-wpd"}
    assert {k["name"] for s in schema.values() for k in s["skills"]} == {
        "setup-hard",
        "analyze-wpd",
    }


def test_a_launch_after_a_compaction_is_not_a_skill_invoked_before_it(real):
    """2.1.39: the model calls the Skill tool (handgemacht:commit, which fails to load), the
    client compacts the conversation, and the model launches a Task in the same turn."""
    (session,) = [s for s in _sessions(real, SPOTTER).values() if s["id"].startswith("8463c716")]
    (task,) = session["returns"]
    assert task["description"] == "Explore Tmux module and test setup"
    assert task["skill"] is None and session["skills"] == []


def test_a_compaction_ends_a_real_skills_span(real, tmp_path):
    """The same rule on a span that was open: 2.0.58's /wsd:onboard and its Task, with the
    compaction records of the 2.1.39 session above put just before the Task's launch."""
    source = next(real.vendored_root(SESSION_EXAMPLES).glob("2.0.58-good/c489af7a-*.jsonl"))
    spotter = next(real.vendored_root(SPOTTER).glob("8463c716-*.jsonl"))
    boundary = [
        line
        for line in spotter.read_text(encoding="utf-8").splitlines()
        if '"compact_boundary"' in line or '"isCompactSummary":true' in line
    ][:2]
    lines = source.read_text(encoding="utf-8").splitlines()
    task = next(i for i, line in enumerate(lines) if '"name":"Task"' in line)
    folder = tmp_path / "projects" / "p"
    folder.mkdir(parents=True)
    before = audit_json(str(source))["sessions"][0]["returns"]
    (folder / source.name).write_text(
        "\n".join(lines[:task] + boundary + lines[task:]) + "\n", encoding="utf-8"
    )
    after = audit_json(str(folder))["sessions"][0]["returns"]
    assert [r["skill"] for r in before] == ["wsd:onboard"]
    assert [r["skill"] for r in after] == [None]
    assert len(boundary) == 2 and all(json.loads(b)["sessionId"] for b in boundary)
