"""Workflow scripts through the whole of ``spawnkit lint``: discovery, the command line, report
formats, suppression comments, and tree-sitter loaded only for them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from spawnkit.cli import cli
from spawnkit.lint.discovery import discover, is_workflow_script
from spawnkit.lint.engine import lint_document
from spawnkit.lint.rules import get
from spawnkit.lint.workflow import parse

BAD = textwrap.dedent(get("WF005").bad).lstrip()
GOOD = textwrap.dedent(get("WF005").good).lstrip()


def run(args, cwd: Path):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(cli, args, catch_exceptions=False)
    finally:
        os.chdir(old)


def put(root: Path, rel: str, text: str = BAD) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_discovery_finds_what_claude_code_loads(tmp_path, monkeypatch):
    config = tmp_path / "config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    wanted = [
        put(tmp_path, "proj/.claude/workflows/review.js"),
        put(tmp_path, "proj/.claude/skills/audit/workflow.js"),
        put(tmp_path, "config/workflows/mine.js"),
        put(tmp_path, "plugin/workflows/shipped.js"),
    ]
    put(
        tmp_path, "proj/.claude/skills/audit/SKILL.md", "---\nname: audit\ndescription: x\n---\nx\n"
    )
    put(tmp_path, "plugin/.claude-plugin/plugin.json", "{}")
    ignored = [
        put(tmp_path, "proj/.claude/workflows/nested/deeper.js"),  # not read by Claude Code
        put(tmp_path, "proj/.claude/workflows/typed.ts"),
        put(tmp_path, "proj/.claude/workflows/module.mjs"),
        put(tmp_path, "proj/src/workflows/app.js"),  # an app's own code
        put(tmp_path, "proj/scripts/workflow.js"),  # no SKILL.md beside it
    ]
    found = set(discover([tmp_path]))
    assert set(wanted) <= found
    assert not set(ignored) & found
    assert all(is_workflow_script(p, str(config)) for p in wanted)


def test_cli_lints_scripts_found_and_named_with_exit_codes(tmp_path):
    put(tmp_path, ".claude/workflows/bad.js")
    put(tmp_path, ".claude/workflows/good.js", GOOD)
    result = run(["lint", ".claude"], tmp_path)
    assert result.exit_code == 1
    assert ".claude/workflows/bad.js:2:17: WF005 Date.now() is not deterministic" in result.output
    assert "in 2 files" in result.output
    named = put(tmp_path, "anywhere/thing.js", GOOD)
    assert run(["lint", str(named)], tmp_path).exit_code == 0
    other = put(tmp_path, "notes.txt", "x")
    refused = run(["lint", str(other)], tmp_path)
    assert refused.exit_code == 2 and "neither Markdown nor a workflow script" in refused.output


def test_json_and_github_formats(tmp_path):
    put(tmp_path, ".claude/workflows/bad.js")
    data = json.loads(run(["lint", "--format", "json", ".claude"], tmp_path).output)
    (entry,) = data["files"]
    assert entry["path"] == ".claude/workflows/bad.js" and entry["orchestrator"] is False
    assert [d["code"] for d in entry["diagnostics"]] == ["WF005"]
    github = run(["lint", "--format", "github", ".claude"], tmp_path).output
    assert github.startswith("::error file=.claude/workflows/bad.js,line=2,col=17,title=WF005::")


def test_select_and_ignore_take_wf_codes_and_names(tmp_path):
    put(tmp_path, ".claude/workflows/bad.js")
    assert run(["lint", "--ignore", "WF", ".claude"], tmp_path).exit_code == 0
    assert run(["lint", "--ignore", "deterministic", ".claude"], tmp_path).exit_code == 0
    assert run(["lint", "--select", "WF005", ".claude"], tmp_path).exit_code == 1
    assert run(["lint", "--select", "CM", ".claude"], tmp_path).exit_code == 0


def test_rule_command_explains_wf_rules():
    result = CliRunner().invoke(cli, ["rule", "parallel-cap"])
    assert result.exit_code == 0
    assert result.output.startswith("WF008 parallel-cap (error)")
    assert "## Example (bad)" in result.output and "at most 2" in result.output
    listing = CliRunner().invoke(cli, ["rule"]).output
    assert "WF001  script-syntax" in listing and "WF009  report-file" in listing


@pytest.mark.parametrize(
    "comment, silenced",
    [
        ("// spawnkit: ignore WF005\nconst started = Date.now()", True),
        ("const started = Date.now() // spawnkit: ignore WF005", True),
        ("/* spawnkit: ignore */\nconst started = Date.now()", True),
        ("// spawnkit: ignore-file WF005\n\n\nconst started = Date.now()", True),
        ("// spawnkit: ignore WF009\nconst started = Date.now()", False),
        ("// spawnkit: ignore WF005\n\nconst started = Date.now()", False),  # two lines down
        ("const s = '// spawnkit: ignore WF005'; const started = Date.now()", False),
    ],
)
def test_suppression_comments(comment, silenced):
    text = (
        "export const meta = { name: 'a', description: 'b' }\n" + comment + "\nreturn { started }\n"
    )
    codes = [d.code for d in lint_document(text, "w.js").diagnostics]
    assert codes == ([] if silenced else ["WF005"])


PROBE = (
    "import sys, runpy\n"
    "sys.argv = ['spawnkit', 'lint', sys.argv[1]]\n"
    "try:\n"
    "    runpy.run_module('spawnkit', run_name='__main__')\n"
    "except SystemExit as exc:\n"
    "    wf = any(m.startswith(('spawnkit.lint.workflow', 'spawnkit.lint.rules.wf_')) for m in sys.modules)\n"
    "    print('EXIT', exc.code, 'tree_sitter' in sys.modules, wf, file=sys.stderr)\n"
)


def test_tree_sitter_and_the_wf_rules_are_loaded_only_for_workflow_scripts(tmp_path):
    skill = put(
        tmp_path, "skills/notes/SKILL.md", "---\nname: notes\ndescription: Notes.\n---\nx\n"
    )
    script = put(tmp_path, ".claude/workflows/good.js", GOOD)
    for path, loaded in ((skill, False), (script, True)):
        proc = subprocess.run(
            [sys.executable, "-c", PROBE, str(path)], cwd=tmp_path, capture_output=True, text=True
        )
        assert f"EXIT 0 {loaded} {loaded}" in proc.stderr, proc.stderr


def test_no_parser_is_one_line_and_exit_2(tmp_path, monkeypatch):
    put(tmp_path, ".claude/workflows/good.js", GOOD)

    def missing():
        raise parse.Unavailable("tree-sitter's JavaScript grammar cannot be imported (test)")

    monkeypatch.setattr(parse, "parser", missing)
    result = run(["lint", ".claude"], tmp_path)
    assert result.exit_code == 2
    assert (
        "spawnkit: error: .claude/workflows/good.js: tree-sitter's JavaScript grammar"
        in result.output
    )
    assert "Traceback" not in result.output
