"""``spawnkit lint`` and ``spawnkit rule`` from the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from spawnkit.cli import cli

CORPUS = Path(__file__).parent / "corpus"
CLEAN = (
    "---\nname: notes\ndescription: Turn a transcript into notes.\n---\nSummarise the meeting.\n"
)
PARALLEL = (
    "---\nname: sweep\ndescription: Sweep every package.\n---\n"
    "Keep `.sweep-reports/state-<ts>.json`, updated after every package; resume from it if "
    "unfinished.\n\n"
    "Launch one sub-agent per package, all in parallel, with this prompt:\n\n"
    "```\nCheck {package}; write findings to .sweep-reports/{package}.md. Reply in at most 200 "
    "tokens.\n```\n"
)


# a file the shipped calibration asserts (it names the spawn tool) and whose sub-agents are
# never told to cap their reply: a CM001 error by default, in a process of its own too
ASSERTED = (
    "---\nname: sweep\ndescription: Sweep every package.\n---\n"
    "Use the Task tool to spawn one reviewer sub-agent per package.\n"
)
# the in-process tests check how lint reads, shows and exits, not which tier a finding gets
pytestmark = pytest.mark.usefixtures("sure")


def _skill(root: Path, name: str, text: str) -> Path:
    path = root / "skills" / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def run(args, cwd: Path, env: dict | None = None):
    runner = CliRunner()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return runner.invoke(cli, args, env=env, catch_exceptions=False)
    finally:
        os.chdir(old)


def test_exit_codes_and_text_format(tmp_path):
    _skill(tmp_path, "notes", CLEAN)
    ok = run(["lint", "skills/notes"], tmp_path)
    assert ok.exit_code == 0 and "All checks passed: 1 file" in ok.output
    _skill(tmp_path, "sweep", PARALLEL)
    bad = run(["lint", "skills"], tmp_path)
    assert bad.exit_code == 1
    assert "skills/sweep/SKILL.md:7:1: CM005 runs sub-agents with no cap" in bad.output
    assert "    fix: " in bad.output
    missing = run(["lint", "nope"], tmp_path)
    assert missing.exit_code == 2 and "nope does not exist" in missing.output


def test_json_contract(tmp_path):
    _skill(tmp_path, "sweep", PARALLEL)
    _skill(tmp_path, "notes", CLEAN)
    result = run(["lint", "--format", "json", "skills"], tmp_path)
    data = json.loads(result.output)
    assert data["version"] == 1
    by_path = {f["path"]: f for f in data["files"]}
    assert by_path["skills/notes/SKILL.md"] == {
        "path": "skills/notes/SKILL.md",
        "orchestrator": False,
        "spawn_tier": None,
        "spawn_probability": None,
        "spawns": [],
        "suppressed": 0,
        "diagnostics": [],
    }
    sweep = by_path["skills/sweep/SKILL.md"]
    assert sweep["orchestrator"] is True and sweep["spawn_tier"] == "default"
    assert sweep["spawn_probability"] == 0.993  # the test model's: sigmoid(5)
    assert sweep["spawns"][0]["line"] == 7 and "spawns sub-agents" in sweep["spawns"][0]["note"]
    diag = sweep["diagnostics"][0]
    assert set(diag) == {
        "code",
        "name",
        "severity",
        "tier",
        "family",
        "line",
        "col",
        "message",
        "evidence",
        "looked_for",
        "probability",
        "fix",
    }
    assert (diag["code"], diag["name"], diag["severity"], diag["line"], diag["tier"]) == (
        "CM005",
        "max-parallel",
        "error",
        7,
        "default",
    )
    assert diag["evidence"][0]["line"] == 7 and "in parallel" in diag["evidence"][0]["note"]


def test_github_annotations(tmp_path):
    _skill(tmp_path, "sweep", PARALLEL)
    out = run(["lint", "--format", "github", "skills"], tmp_path).output.strip().splitlines()
    assert out[0].startswith(
        "::error file=skills/sweep/SKILL.md,line=7,col=1,title=CM005::runs sub-agents"
    )
    assert all("\n" not in line for line in out)


def test_select_ignore_profile_and_config(tmp_path):
    _skill(tmp_path, "sweep", PARALLEL + "\n")
    _skill(
        tmp_path,
        "deploy",
        "---\nname: deploy\ndescription: Deploy.\nwhen_to_use: on request\n---\nDeploy.\n",
    )
    assert run(["lint", "--ignore", "CM005", "skills"], tmp_path).exit_code == 0
    assert run(["lint", "--select", "SP", "skills"], tmp_path).exit_code == 0
    portable = run(["lint", "--profile", "portable", "--select", "SP011", "skills"], tmp_path)
    assert portable.exit_code == 1 and "when_to_use" in portable.output
    (tmp_path / "pyproject.toml").write_text(
        '[tool.spawnkit]\nprofile = "portable"\nignore = ["CM"]\n'
    )
    configured = run(["lint", "skills"], tmp_path)
    assert (
        configured.exit_code == 1
        and "SP011" in configured.output
        and "CM005" not in configured.output
    )
    (tmp_path / ".spawnkit.toml").write_text('ignore = ["SP011", "CM005"]\n')
    assert run(["lint", "skills"], tmp_path).exit_code == 0  # the dotfile wins over pyproject.toml
    (tmp_path / ".spawnkit.toml").write_text('ignored = ["SP011"]\n')
    typo = run(["lint", "skills"], tmp_path)
    assert typo.exit_code == 2 and "unknown spawnkit setting(s) ignored" in typo.output
    assert run(["lint", "--select", "XY9", "skills"], tmp_path).exit_code == 2


def test_default_paths_are_the_config_dir_and_project_claude(tmp_path):
    config = tmp_path / "cfg"
    _skill(config, "sweep", PARALLEL)
    project = tmp_path / "proj"
    (project / ".claude" / "commands").mkdir(parents=True)
    (project / ".claude" / "commands" / "hello.md").write_text(
        "---\ndescription: Say hello <name>.\n---\nHi.\n"
    )
    result = run(["lint", "--format", "json"], project, env={"CLAUDE_CONFIG_DIR": str(config)})
    codes = {d["code"] for f in json.loads(result.output)["files"] for d in f["diagnostics"]}
    assert codes == {"CM005", "SP010"}


def test_plugin_folder_discovery_skips_reports_and_sibling_docs(tmp_path):
    plugin = tmp_path / "plugin"
    _skill(plugin, "notes", CLEAN)
    (plugin / ".claude-plugin").mkdir()
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "plugin"}')
    (plugin / "skills" / "notes" / "reference.md").write_text("# not linted on its own\n")
    (plugin / "agents").mkdir()
    (plugin / "agents" / "helper.md").write_text(
        "---\nname: helper\ndescription: Helps.\n---\nHelp.\n"
    )
    (plugin / ".notes-reports").mkdir()
    (plugin / ".notes-reports" / "SKILL.md").write_text("junk")
    data = json.loads(run(["lint", "--format", "json", "plugin"], tmp_path).output)
    assert sorted(f["path"] for f in data["files"]) == [
        "plugin/agents/helper.md",
        "plugin/skills/notes/SKILL.md",
    ]


def test_unreadable_file_is_an_io_error(tmp_path):
    path = _skill(tmp_path, "bin", "x")
    path.write_bytes(b"\xff\xfe\x00bad")
    result = run(["lint", str(path)], tmp_path)
    assert result.exit_code == 2 and "is not UTF-8 text" in result.output
    assert "All checks passed" not in result.output
    assert "1 file could not be checked" in result.output


def test_rule_command(tmp_path):
    doc = run(["rule", "cm005"], tmp_path)
    assert doc.exit_code == 0 and doc.output.startswith("CM005 max-parallel (error, calibrated)")
    assert "## Tier: calibrated" in doc.output and "- no-limit (" in doc.output
    assert "## Example (bad)" in doc.output and "## Use instead (good)" in doc.output
    listing = run(["rule"], tmp_path).output.splitlines()
    assert len(listing) == 31 and listing[0].startswith("SP001")  # 22 Markdown + 9 WF rules
    assert run(["rule", "--all"], tmp_path).output.count("## What it does") == 31
    unknown = run(["rule", "XX999"], tmp_path)
    assert unknown.exit_code == 2
    assert (
        unknown.output.strip()
        == "spawnkit: error: unknown rule 'XX999'; give a code or a name such as CM005 or "
        "max-parallel (`spawnkit rule` lists them)"
    )


HEAVY = ("copier", "yaml", "jinja2", "json", "tomllib", "tomli")
PROBE = f"""
import sys
from spawnkit.cli import main
sys.argv = ["spawnkit", "lint", *sys.argv[1:]]
try:
    main()
except SystemExit as exc:
    print("exit", exc.code)
print(*(name in sys.modules for name in {HEAVY!r}))
"""


def lint_probe(cwd: Path, *args: str) -> tuple[str, dict[str, bool]]:
    """``spawnkit lint ARGS`` in a fresh interpreter: its exit line, and which of the heavy
    modules the lint path must not need it imported."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=cwd, capture_output=True, text=True, check=True
    )
    exit_line, loaded = out.stdout.strip().splitlines()[-2:]
    return exit_line, dict(zip(HEAVY, (v == "True" for v in loaded.split()), strict=True))


def test_lint_path_never_imports_copier_and_uses_real_process(tmp_path):
    _skill(tmp_path, "sweep", ASSERTED)
    exit_line, loaded = lint_probe(tmp_path, "skills")
    assert exit_line == "exit 1"
    assert not (loaded["copier"] or loaded["yaml"] or loaded["jinja2"])


def test_text_lint_without_a_config_file_imports_no_json_or_toml_parser(tmp_path):
    """The one-file path stays lean: json only for --format json/sarif, tomllib only with a
    config file to read."""
    _skill(tmp_path, "sweep", PARALLEL)
    _, loaded = lint_probe(tmp_path, "skills/sweep/SKILL.md")
    assert not (loaded["json"] or loaded["tomllib"] or loaded["tomli"])


def test_a_pyproject_that_never_names_spawnkit_is_not_parsed(tmp_path):
    """Most Python projects have a pyproject.toml without our table: lint neither pays for the
    TOML parser there nor judges the file (a broken one is not ours to refuse)."""
    _skill(tmp_path, "sweep", ASSERTED)

    def lint() -> tuple[str, bool]:
        exit_line, loaded = lint_probe(tmp_path, "skills/sweep/SKILL.md")
        return exit_line, loaded["tomllib"]

    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "app"\n[tool.ruff]\nline-length = 99\n')
    assert lint() == ("exit 1", False)
    pyproject.write_text("[project\nname = \n")  # broken, and not ours
    assert lint() == ("exit 1", False)
    pyproject.write_text('[tool.spawnkit]\nignore = ["CM"]\n')  # ours: read and obeyed
    assert lint() == ("exit 0", True)
    pyproject.write_text('[tool.spawnkit]\nignore = ["CM"\n')  # ours and broken: refused
    refused = run(["lint", "skills"], tmp_path)
    assert refused.exit_code == 2 and "pyproject.toml is not valid TOML" in refused.output


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_every_format_runs_on_the_whole_corpus(fmt):
    result = subprocess.run(
        [sys.executable, "-m", "spawnkit", "lint", "--format", fmt, str(CORPUS)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1 and result.stdout and not result.stderr
