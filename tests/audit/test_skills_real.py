"""Issue 31 on real public transcripts, none of them tagged by the client (Claude Code 1.0.98 to
2.1.22, before ``attributionSkill``): built-in commands are no skills, a custom command's or a
skill's launches are its own. (The public transcripts found with a compaction are not vendored
or come from a repository kept for the independent check; the compaction rule is held on a
transcript the real client writes, with its tags taken out: tests/e2e/test_skill_audit.py.)"""

from __future__ import annotations

from spawnkit.hosts.builtins import CLAUDE_CODE as BUILTINS

from . import real_corpus

GROUPS = {g.name: g for g in real_corpus.groups()}
RCGRAY = "rcgray/claude-code-bug-phantom-reads-17407"
SESSION_EXAMPLES = GROUPS[f"{RCGRAY}:dev/misc/session-examples"]
SCHEMA_13 = GROUPS[f"{RCGRAY}:dev/misc/schema-13-2120"]
VIEWER = GROUPS["d-kimuson/claude-code-viewer:mock-global-claude-dir/projects/sample-project"]


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
    for group in (SESSION_EXAMPLES, SCHEMA_13, VIEWER):
        root = real.vendored_root(group)
        for path in root.rglob("*.jsonl"):
            typed_builtins |= _typed(path) & BUILTINS
        for session in _sessions(real, group).values():
            assert not {s["name"] for s in session["skills"]} & BUILTINS, session["id"]
    # what these users typed: /context, /exit, /export, /init, /status
    assert typed_builtins >= {"context", "exit", "export", "init", "status"}


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
