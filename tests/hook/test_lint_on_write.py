"""PostToolUse Write/Edit/MultiEdit: lint skill, command and agent files as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from spawnkit import hosts
from spawnkit.hosts.kinds import file_kind, locate
from spawnkit.lint.engine import Diagnostic

from .conftest import SCRIPT, payload

SRC = SCRIPT.parents[2]  # the folder holding the spawnkit package the script puts on sys.path

BAD = "---\nname: demo\ndescription: Audits.\n---\nLaunch one agent per file, all in parallel.\n"


def fake_lint(text: str, path: str, profile: str | None = None) -> list[Diagnostic]:
    """A tiny rule set standing in for the engine: flags 'all in parallel' and 'be concise'."""
    assert profile == "claude-code"
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        if "all in parallel" in line:
            found.append(
                Diagnostic(
                    path,
                    n,
                    1,
                    "CM005",
                    "max-parallel",
                    "error",
                    "Runs every sub-agent at once.\nSecond line is dropped.",
                    "Cap it at 2.",
                )
            )
        if "be concise" in line:
            found.append(
                Diagnostic(
                    path,
                    n,
                    1,
                    "CM001",
                    "return-budget",
                    "error",
                    "'be concise' is not a token cap.",
                    "Say 'at most 500 tokens'.",
                )
            )
    return found


def write(hook, relative: str, content: str = BAD, tool: str = "Write") -> dict:
    target = hook.project / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content, encoding="utf-8")
    data = payload("PostToolUse_Write" if tool == "Write" else "PostToolUse_Edit")
    data["tool_name"] = tool
    data["tool_input"] = dict(data["tool_input"], file_path=str(target))
    return data


CONTEXT = (
    "spawnkit lint: .claude/skills/demo/SKILL.md breaks 1 rule(s) of the skill standard:\n"
    "- line 5: CM005 max-parallel: Runs every sub-agent at once.\n"
    "Fix them in the file; run `spawnkit rule CODE` for details of a rule."
)
SYSTEM = "spawnkit: 1 lint issue(s) in .claude/skills/demo/SKILL.md (CM005)"


def test_warn_gives_the_model_context_and_the_user_a_line(hook):
    data = write(hook, ".claude/skills/demo/SKILL.md")
    assert hook(data, lint=fake_lint) == {
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": CONTEXT},
        "systemMessage": SYSTEM,
    }


def test_enforce_blocks_with_the_findings_as_feedback(hook):
    data = write(hook, ".claude/skills/demo/SKILL.md", tool="Edit")
    assert hook(data, {"SPAWNKIT_MODE_CM005": "enforce"}, lint=fake_lint) == {
        "decision": "block",
        "reason": CONTEXT,
        "systemMessage": SYSTEM,
    }


def test_modes_apply_per_rule(hook):
    data = write(
        hook,
        ".claude/commands/audit.md",
        BAD + "Tell each agent to be concise.\n",
        tool="MultiEdit",
    )
    hook.write_config("project", {"version": 1, "rules": {"max-parallel": "off"}})
    answer = hook(data, lint=fake_lint)
    assert answer["hookSpecificOutput"]["additionalContext"] == (
        "spawnkit lint: .claude/commands/audit.md breaks 1 rule(s) of the skill standard:\n"
        "- line 6: CM001 return-budget: 'be concise' is not a token cap.\n"
        "Fix them in the file; run `spawnkit rule CODE` for details of a rule."
    )


def test_the_file_on_disk_is_linted_not_the_tool_input(hook):
    data = write(hook, ".claude/agents/scanner.md", "clean now\n", tool="Edit")
    data["tool_input"]["new_string"] = "all in parallel"
    assert hook(data, lint=fake_lint) is None


def test_clean_file_and_other_files_are_silent(hook):
    assert (
        hook(
            write(hook, ".claude/skills/demo/SKILL.md", "---\nname: demo\n---\nfine\n"),
            lint=fake_lint,
        )
        is None
    )
    assert hook(write(hook, "docs/SKILL.md"), lint=fake_lint) is None
    assert hook(payload("PostToolUse_Write"), lint=fake_lint) is None  # /home/user/proj/a.txt


def test_off_everything(hook):
    assert (
        hook(write(hook, ".claude/skills/demo/SKILL.md"), {"SPAWNKIT_MODE": "off"}, lint=fake_lint)
        is None
    )


def test_long_findings_are_capped(hook):
    data = write(hook, ".claude/skills/demo/SKILL.md", "all in parallel\n" * 20)
    context = hook(data, lint=fake_lint)["hookSpecificOutput"]["additionalContext"]
    assert context.count("\n- line") == 15
    assert "- … and 5 more (run `spawnkit lint .claude/skills/demo/SKILL.md`)" in context


ORCHESTRATOR = """---
name: demo
description: Audits every file of a repo with sub-agents.
---
# Demo audit

1. List the files.
2. Launch one sub-agent per file with the Agent tool, all in parallel.
3. Read each agent's full report and summarise it for the user.
"""


def test_real_engine_on_a_protocol_breaking_skill(hook, calibrated):
    """No seam: the real lint engine reads the written file (its tiers from a fixed model:
    CM002 and CM003 offered, the other calibrated rules asserted, as the shipped model may
    move when it is refitted)."""
    calibrated(rules={"CM002": {"bias": -10.0}, "CM003": {"bias": -10.0}})
    data = write(hook, ".claude/skills/demo/SKILL.md", ORCHESTRATOR)
    answer = hook(data)
    # the hook shows the default tier only: CM002, CM003 and CM006 (line 9) are offered
    assert answer["systemMessage"] == (
        "spawnkit: 2 lint issue(s) in .claude/skills/demo/SKILL.md (CM001, CM005)"
    )
    lines = answer["hookSpecificOutput"]["additionalContext"].splitlines()
    assert (
        lines[0]
        == "spawnkit lint: .claude/skills/demo/SKILL.md breaks 2 rule(s) of the skill standard:"
    )
    assert [line.split(":")[0:2] for line in lines[1:-1]] == [
        ["- line 8", " CM001 return-budget"],
        ["- line 8", " CM005 max-parallel"],
    ]
    # Enforcing one of the broken rules turns the same findings into a block.
    enforced = hook(data, {"SPAWNKIT_MODE_CM005": "enforce", "SPAWNKIT_MODE_CM001": "off"})
    assert enforced["decision"] == "block" and "CM001" not in enforced["reason"]


def test_real_engine_is_silent_on_a_clean_skill(hook):
    good = "---\nname: demo\ndescription: Says hello.\n---\nSay hello to the user.\n"
    assert hook(write(hook, ".claude/skills/demo/SKILL.md", good)) is None


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/p/.claude/skills/demo/SKILL.md", "skill"),
        ("/p/.claude/skills/demo/reference.md", None),
        ("/p/.claude/skills/SKILL.md", None),
        ("/p/.claude/skills/demo/sub/SKILL.md", None),
        ("/p/.claude/commands/audit.md", "command"),
        ("/p/.claude/commands/team/audit.md", "command"),
        ("/p/.claude/commands/audit.txt", None),
        ("/p/.claude/agents/scanner.md", "agent"),
        ("/cfg/skills/demo/SKILL.md", "skill"),  # the config dir need not be named .claude
        ("/p/skills/demo/SKILL.md", None),  # not a Claude location
        ("/p/.claude/skills/demo/agents/x.md", None),
    ],
)
def test_file_kind(path, kind):
    assert file_kind(path, DIRS) == kind


DIRS = [(hosts.get("claude-code"), "/cfg"), (hosts.get("codex"), "/home/u/.codex")]


@pytest.mark.parametrize(
    ("path", "found"),
    [
        ("/p/.claude/skills/demo/SKILL.md", ("skill", "claude-code")),
        ("/p/.agents/skills/demo/SKILL.md", ("skill", "portable")),
        ("/home/u/.agents/skills/demo/SKILL.md", ("skill", "portable")),
        ("/p/.codex/skills/demo/SKILL.md", ("skill", "portable")),
        ("/home/u/.codex/skills/demo/SKILL.md", ("skill", "portable")),
        ("/x/codexhome/skills/demo/SKILL.md", None),  # only the configured home counts
        ("/p/.agents/commands/audit.md", None),  # commands and agents are Claude formats
        ("/p/.codex/agents/scanner.md", None),
        ("/p/.agents/skills/demo/notes.md", None),
    ],
)
def test_codex_locations_are_linted_with_the_portable_profile(path, found):
    assert locate(path, DIRS) == found
    custom = [(hosts.get("claude-code"), "/cfg"), (hosts.get("codex"), "/x/codexhome")]
    assert locate("/x/codexhome/skills/demo/SKILL.md", custom) == ("skill", "portable")


def test_file_kind_in_a_plugin(tmp_path):
    plugin = tmp_path / "my-plugin"
    (plugin / ".claude-plugin").mkdir(parents=True)
    assert file_kind(str(plugin / "skills" / "x" / "SKILL.md"), DIRS) is None  # no plugin.json
    (plugin / ".claude-plugin" / "plugin.json").write_text("{}")
    assert file_kind(str(plugin / "skills" / "x" / "SKILL.md"), DIRS) == "skill"
    assert file_kind(str(plugin / "agents" / "a.md"), DIRS) == "agent"
    assert file_kind(str(tmp_path / "other" / "agents" / "a.md"), DIRS) is None


# --- workflow scripts ---------------------------------------------------------------------

WF_BAD = (
    "export const meta = { name: 'stamp', description: 'Stamp the report' }\n"
    "const started = Date.now()\nreturn { started }\n"
)


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/p/.claude/workflows/review.js", "workflow"),
        ("/cfg/workflows/mine.js", "workflow"),
        ("/p/.claude/skills/audit/workflow.js", "workflow"),
        ("/p/.claude/workflows/sub/review.js", None),  # Claude Code reads only the folder's own
        ("/p/.claude/workflows/review.ts", None),
        ("/p/.claude/workflows/.js", None),
        ("/p/.claude/skills/audit/other.js", None),
        ("/p/src/workflows/app.js", None),
        ("/p/.agents/skills/audit/workflow.js", None),  # Codex runs no workflows
    ],
)
def test_workflow_locations(path, kind):
    assert file_kind(path, DIRS) == kind


@pytest.mark.parametrize(
    "where", [".claude/workflows/stamp.js", ".claude/skills/stamp/workflow.js"]
)
def test_a_written_workflow_script_is_linted_with_the_real_engine(hook, where):
    answer = hook(write(hook, where, WF_BAD))
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert f"spawnkit lint: {where} breaks 1 rule(s)" in context
    assert "- line 2: WF005 deterministic: Date.now() is not deterministic" in context
    assert answer["systemMessage"] == f"spawnkit: 1 lint issue(s) in {where} (WF005)"


def test_a_workflow_protocol_rule_takes_its_mode_by_name(hook):
    """WF006-WF009 are rules of the standard (protocol.json), so the hook's config knows them."""
    no_report = (
        "export const meta = { name: 'sizes', description: 'Measure the bundle' }\n"
        "const S = { type: 'object', properties: { kb: { type: 'number' } } }\n"
        "const r = await agent('Measure the bundle size.', { schema: S })\nreturn { kb: r.kb }\n"
    )
    data = write(hook, ".claude/workflows/sizes.js", no_report)
    answer = hook(data, {"SPAWNKIT_MODE_REPORT_FILE": "enforce"})
    assert answer["decision"] == "block" and "line 3: WF009 report-file" in answer["reason"]
    assert hook(data, {"SPAWNKIT_MODE_WF009": "off"}) is None


def test_without_tree_sitter_the_hook_passes_a_script_by(hook, monkeypatch):
    from spawnkit.lint.workflow import parse

    monkeypatch.setattr(parse, "available", lambda: False)
    assert hook(write(hook, ".claude/workflows/stamp.js", WF_BAD)) is None


def test_the_script_entry_point_lints_a_workflow_when_tree_sitter_is_beside_spawnkit(hook):
    """Run as settings.json runs it (-I -S): the checkout's src/ is put on sys.path, and
    tree-sitter is importable only if it sits there too — else the hook stays silent (exit 0)."""
    proc = hook.script(write(hook, ".claude/workflows/stamp.js", WF_BAD))
    assert proc.returncode == 0 and proc.stderr == ""
    try:
        import tree_sitter  # noqa: F401

        beside = Path(tree_sitter.__file__).parents[1] == SRC
    except ImportError:  # pragma: no cover
        beside = False
    if beside:
        assert "WF005" in proc.stdout
    else:
        assert proc.stdout == ""
