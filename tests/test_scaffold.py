"""`spawnkit new` and the scaffold module behind it: where skills go, what is refused, nothing half-written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import skills_ref
import yaml
from click.testing import CliRunner
from skill_render import split_skill, template_copy

from spawnkit.cli import cli
from spawnkit.hosts import paths
from spawnkit.standard import protocol
from spawnkit.template import scaffold

WORKFLOW_MIN_BUDGET = protocol.load()["workflow"]["min_return_budget"]


def tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def spawnkit(
    *args: str, cwd: Path, env: dict[str, str] | None = None, **kw
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "spawnkit", *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
        **kw,
    )


@pytest.fixture(scope="module")
def wheel_like_source(tmp_path_factory) -> Path:
    return template_copy(tmp_path_factory.mktemp("tpl"))


@pytest.fixture
def runner(monkeypatch, tmp_path, wheel_like_source) -> CliRunner:
    """In-process CLI, rendering from a plain copy of the template as an installed wheel does."""
    monkeypatch.setattr(scaffold, "template_source", lambda: wheel_like_source)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "config"))
    return CliRunner()


def test_readme_quick_start_skill_validates_and_runs(tmp_path):
    done = spawnkit("new", "demo-audit", "--defaults", "--dest", "D/demo-audit", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    skill = tmp_path / "D" / "demo-audit"
    assert f"Created skill demo-audit in {skill}" in done.stdout
    assert "Next:" in done.stdout and "SKILL.md" in done.stdout
    assert skills_ref.validate(skill) == []
    assert split_skill(skill)[0]["name"] == "demo-audit"

    state = [sys.executable, str(skill / "scripts" / "state.py")]
    assert subprocess.run([*state, "init"], cwd=tmp_path).returncode == 0
    (tmp_path / ".demo-audit-reports" / "survey.md").write_text("report")
    recorded = subprocess.run(
        [
            *state,
            "step",
            "survey",
            "--status",
            "complete",
            "--report",
            ".demo-audit-reports/survey.md",
            "--metric",
            "findings=2",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert recorded.stdout.startswith("[1/4] survey: findings=2 — .demo-audit-reports/survey.md")
    resumed = subprocess.run([*state, "resume"], cwd=tmp_path, capture_output=True, text=True)
    assert resumed.returncode == 0 and resumed.stdout.startswith(
        "Resuming — 1/4 steps complete, next: analyze"
    )


def test_no_terminal_means_no_questions(tmp_path):
    """Without --defaults and without a TTY, `new` must not wait for answers (CI)."""
    done = spawnkit(
        "new", "quiet-skill", "--dest", "quiet-skill", cwd=tmp_path, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "quiet-skill" / "SKILL.md").is_file()


def test_default_scope_is_the_project(runner, tmp_path):
    result = runner.invoke(cli, ["new", "proj-skill", "--defaults"])
    assert result.exit_code == 0, result.output
    skill = tmp_path / ".claude" / "skills" / "proj-skill"
    assert (skill / "SKILL.md").is_file()
    assert "run /proj-skill in Claude Code" in result.output


def test_user_scope_uses_claude_config_dir(runner, tmp_path):
    result = runner.invoke(cli, ["new", "user-skill", "--scope", "user", "--defaults"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "config" / "skills" / "user-skill" / "SKILL.md").is_file()
    assert "run /user-skill in Claude Code" in result.output


def test_user_scope_falls_back_to_home(runner, tmp_path, monkeypatch):
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    result = runner.invoke(cli, ["new", "home-skill", "--scope", "user", "--defaults"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "home" / ".claude" / "skills" / "home-skill" / "SKILL.md").is_file()


@pytest.mark.parametrize(
    ("scope", "where"),
    [("project", ".agents/skills"), ("user", "codex-home/skills"), (None, ".agents/skills")],
)
def test_host_codex_puts_the_skill_where_codex_reads_skills(
    runner, tmp_path, monkeypatch, scope, where
):
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    args = ["new", "cx-skill", "--host", "codex", "--defaults"]
    result = runner.invoke(cli, args + (["--scope", scope] if scope else []))
    assert result.exit_code == 0, result.output
    skill = tmp_path / where / "cx-skill"
    assert (skill / "SKILL.md").is_file() and (skill / "scripts" / "state.py").is_file()
    assert "Codex: it lists the skill as cx-skill" in result.output
    assert not (tmp_path / ".claude").exists() and not (tmp_path / "config" / "skills").exists()


def test_host_codex_user_scope_falls_back_to_dot_codex(runner, tmp_path, monkeypatch):
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    result = runner.invoke(cli, ["new", "cx", "--host", "codex", "--scope", "user", "--defaults"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "home" / ".codex" / "skills" / "cx" / "SKILL.md").is_file()


@pytest.mark.parametrize(
    ("scope", "where"),
    [("project", ".github/skills"), ("user", "copilot-home/skills"), (None, ".github/skills")],
)
def test_host_copilot_puts_the_skill_where_copilot_reads_skills(
    runner, tmp_path, monkeypatch, scope, where
):
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "copilot-home"))
    args = ["new", "cp-skill", "--host", "copilot", "--defaults"]
    result = runner.invoke(cli, args + (["--scope", scope] if scope else []))
    assert result.exit_code == 0, result.output
    skill = tmp_path / where / "cp-skill"
    assert (skill / "SKILL.md").is_file() and (skill / "scripts" / "state.py").is_file()
    assert "Copilot CLI: it lists the skill as cp-skill (type /cp-skill" in result.output
    assert not (tmp_path / ".claude").exists() and not (tmp_path / ".agents").exists()


def test_host_copilot_user_scope_falls_back_to_dot_copilot(runner, tmp_path, monkeypatch):
    monkeypatch.delenv("COPILOT_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    result = runner.invoke(cli, ["new", "cp", "--host", "copilot", "--scope", "user", "--defaults"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "home" / ".copilot" / "skills" / "cp" / "SKILL.md").is_file()


def test_a_dest_inside_a_github_skills_folder_is_recognised_as_copilots(runner, tmp_path):
    result = runner.invoke(cli, ["new", "cp", "--dest", ".github/skills/cp", "--defaults"])
    assert result.exit_code == 0, result.output
    assert "Copilot CLI: it lists the skill as cp" in result.output


def test_a_dest_outside_every_skills_folder_names_every_hosts_folders(runner, tmp_path):
    """Where to move the skill, for each host spawnkit serves (from the host descriptions)."""
    from spawnkit import hosts

    result = runner.invoke(cli, ["new", "loose", "--dest", "work/loose", "--defaults"])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("Next:"))
    for host in hosts.all_hosts():
        assert f"({host.label})" in line, host
    assert "./.gemini/skills/ or ~/.gemini/skills/ (Gemini CLI)" in line


def test_host_and_dest_together_are_refused(runner, tmp_path):
    result = runner.invoke(cli, ["new", "x", "--host", "codex", "--dest", "x", "--defaults"])
    assert result.exit_code == 2 and "not both" in result.output
    assert not (tmp_path / "x").exists()


def test_a_dest_inside_a_codex_skills_folder_is_recognised(runner, tmp_path):
    result = runner.invoke(cli, ["new", "cx", "--dest", ".agents/skills/cx", "--defaults"])
    assert result.exit_code == 0, result.output
    assert "Codex: it lists the skill as cx" in result.output


def test_paths(monkeypatch, tmp_path):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert paths.claude_config_dir() == tmp_path / "cfg"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "  ")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert paths.claude_config_dir() == tmp_path / "home" / ".claude"
    assert paths.project_claude_dir(tmp_path) == tmp_path / ".claude"
    monkeypatch.chdir(tmp_path)
    assert paths.project_claude_dir() == tmp_path / ".claude"


def test_template_source_is_one_place():
    assert (scaffold.template_source() / "copier.yml").is_file()
    assert (scaffold.template_source() / "standards" / "protocol.json").is_file()


def test_data_answers_reach_the_template(runner, tmp_path):
    result = runner.invoke(
        cli,
        [
            "new",
            "hooked",
            "--dest",
            "hooked",
            "-d",
            "profile=claude-code",
            "-d",
            "skill_hooks=true",
            "-d",
            "max_parallel=2",
            "-d",
            "return_style=status-only",
            "-d",
            "steps=[{name: scan, job: Scan it.}]",
        ],
    )
    assert result.exit_code == 0, result.output
    front, body = split_skill(tmp_path / "hooked")
    assert "hooks" in front and "allowed-tools" in front
    assert "at most 2 sub-agents in parallel" in body and "handoff-scan.json" in body
    answers = yaml.safe_load((tmp_path / "hooked" / ".copier-answers.yml").read_text())
    assert answers["skill_name"] == "hooked" and answers["steps"] == [
        {"name": "scan", "job": "Scan it."}
    ]


BAD_NAMES = ["Upper", "../x", "a" * 65, "", "two--hyphens", "-lead", "has space", "x/y"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_names_are_refused_with_nothing_written(runner, tmp_path, name):
    before = tree(tmp_path)
    for extra in ([], ["--dest", "somewhere"], ["--scope", "user"]):
        result = runner.invoke(cli, ["new", "--defaults", *extra, "--", name])
        assert result.exit_code == 2
        assert result.stderr.startswith("spawnkit: error: ") and result.stderr.count("\n") == 1
        assert "Traceback" not in result.output
    assert tree(tmp_path) == before


BAD_DATA = [
    (["-d", "return_budget=600"], "return budget must be between 1 and 500"),
    (["-d", "return_budget=lots"], "whole number"),
    (["-d", "max_parallel=3"], "max_parallel must be between 1 and 2"),
    (["-d", "checkpoint_every=9"], "checkpoint_every"),
    (["-d", "steps=[{name: Bad, job: x}]"], "must be a slug"),
    (["-d", "steps=[{name: a, job: x"], "not valid YAML"),
    (["-d", "description=<b>bold</b>"], "must not contain"),
    (["-d", "reports_dir=../up"], "reports_dir"),
    (["-d", "profile=fancy"], "choose one of portable, claude-code"),
    (["-d", "skill_hooks=maybe"], "true or false"),
    (["-d", "colour=blue"], "unknown --data key 'colour'"),
    (["-d", "skill_name=other"], "NAME argument"),
    (["-d", "novalue"], "KEY=VALUE"),
    (["--dest", "wrong-folder"], "must equal the skill name"),
    (["--dest", "x/new-skill", "--scope", "user"], "either --dest or --scope"),
    (["--engine", "workflow", "--host", "codex"], "needs Claude Code's Workflow tool"),
    (["--engine", "workflow", "--host", "copilot"], "Copilot CLI lacks"),
    (["-d", "engine=workflow", "--host", "codex", "--scope", "user"], "Codex CLI lacks"),
    (["--engine", "workflow", "--dest", ".agents/skills/new-skill"], "Codex CLI lacks"),
    (["--engine", "workflow", "-d", "engine=prompt"], "disagree"),
    (["-d", "engine=script"], "choose one of prompt, workflow"),
    (
        ["--engine", "workflow", "-d", f"return_budget={WORKFLOW_MIN_BUDGET - 1}"],
        f"at least {WORKFLOW_MIN_BUDGET} tokens",
    ),
]


@pytest.mark.parametrize("args, message", BAD_DATA, ids=[" ".join(a) for a, _ in BAD_DATA])
def test_refused_answers_write_nothing(runner, tmp_path, args, message):
    before = tree(tmp_path)
    result = runner.invoke(cli, ["new", "new-skill", "--defaults", *args])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert result.stderr.startswith("spawnkit: error: ") and result.stderr.count("\n") == 1
    assert tree(tmp_path) == before


def test_existing_folder_needs_force_and_replaced_files_are_backed_up(runner, tmp_path):
    assert runner.invoke(cli, ["new", "kept", "--dest", "kept", "--defaults"]).exit_code == 0
    skill = tmp_path / "kept"
    edited = skill / "SKILL.md"
    edited.write_text(edited.read_text() + "\nmy notes\n")
    (skill / "NOTES.md").write_text("mine")
    snapshot = {p: p.read_bytes() for p in skill.rglob("*") if p.is_file()}

    refused = runner.invoke(cli, ["new", "kept", "--dest", "kept", "--defaults"])
    assert refused.exit_code == 2 and "--force" in refused.stderr
    assert {p: p.read_bytes() for p in skill.rglob("*") if p.is_file()} == snapshot

    forced = runner.invoke(
        cli, ["new", "kept", "--dest", "kept", "--defaults", "--force", "-d", "max_parallel=2"]
    )
    assert forced.exit_code == 0, forced.output
    assert (
        "my notes" not in edited.read_text()
        and "at most 2 sub-agents in parallel" in edited.read_text()
    )
    assert (
        skill / "NOTES.md"
    ).read_text() == "mine"  # files the template does not write are left alone
    # the backup goes to the user's folder, as install's and update's do: a project keeps none
    assert not (tmp_path / ".spawnkit-backups").exists()
    [backup] = (tmp_path / "config" / ".spawnkit" / "backups").iterdir()
    assert backup.name.startswith("kept-") and f"backed up to {backup}" in forced.output
    assert "my notes" in (backup / "SKILL.md").read_text()
    assert sorted(p.name for p in backup.rglob("*") if p.is_file()) == [
        ".copier-answers.yml",
        "SKILL.md",
    ]


def test_an_empty_existing_folder_is_fine_without_force(runner, tmp_path):
    (tmp_path / "empty-one").mkdir()
    assert (
        runner.invoke(cli, ["new", "empty-one", "--dest", "empty-one", "--defaults"]).exit_code == 0
    )
    assert (tmp_path / "empty-one" / "SKILL.md").is_file()


def test_a_file_in_the_way_is_refused(runner, tmp_path):
    (tmp_path / "busy").write_text("not a folder")
    result = runner.invoke(cli, ["new", "busy", "--dest", "busy", "--defaults", "--force"])
    assert result.exit_code == 2 and "not a folder" in result.stderr
    assert (tmp_path / "busy").read_text() == "not a folder"


@pytest.mark.parametrize("verb", ["new", "adopt"])
def test_help_lists_the_template_questions(verb):
    from spawnkit.template import answers

    result = CliRunner().invoke(cli, [verb, "--help"])
    assert result.exit_code == 0
    for question in answers.answerable():
        assert question in result.output
    assert "-d, --data" in result.output


# --- issue 14 ---


def test_dest_dot_fills_the_working_folder_and_never_replaces_it(runner, tmp_path, monkeypatch):
    folder = tmp_path / "my-audit"
    folder.mkdir()
    inode = folder.stat().st_ino
    monkeypatch.chdir(folder)
    result = runner.invoke(cli, ["new", "my-audit", "--defaults", "--dest", "."])
    assert result.exit_code == 0, result.output
    assert Path.cwd() == folder and folder.stat().st_ino == inode  # the shell's folder survived
    assert (folder / "SKILL.md").is_file() and (folder / "scripts" / "state.py").is_file()


def test_an_answer_whose_question_is_not_asked_is_refused(runner, tmp_path):
    result = runner.invoke(cli, ["new", "x", "--defaults", "--dest", "x", "-d", "skill_hooks=true"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "spawnkit: error: --data skill_hooks needs profile=claude-code; add --data "
        "profile=claude-code, or drop --data skill_hooks"
    )
    assert not (tmp_path / "x").exists() and not (tmp_path / "config").exists()
    args = ["new", "x", "--defaults", "--dest", "x", "-d", "skill_hooks=true"]
    result = runner.invoke(cli, [*args, "-d", "profile=claude-code"])
    assert result.exit_code == 0, result.output
    assert "hooks" in split_skill(tmp_path / "x")[0]
    assert yaml.safe_load((tmp_path / "x" / ".copier-answers.yml").read_text())["skill_hooks"]


def test_the_workflow_engine_adds_workflow_js_and_its_lowest_budget_is_allowed(runner, tmp_path):
    budget = f"return_budget={WORKFLOW_MIN_BUDGET}"
    args = ["new", "wf-skill", "--defaults", "--engine", "workflow", "-d", budget]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    skill = tmp_path / ".claude" / "skills" / "wf-skill"
    assert f"adjust the step jobs in {skill}/workflow.js (and fallback.md)" in result.output
    assert tree(skill) == [
        ".copier-answers.yml",
        "SKILL.md",
        "fallback.md",
        "scripts",
        "scripts/state.py",
        "workflow.js",
    ]
    assert yaml.safe_load((skill / ".copier-answers.yml").read_text())["engine"] == "workflow"
    assert runner.invoke(cli, ["new", "plain", "--defaults"]).exit_code == 0
    assert not (tmp_path / ".claude" / "skills" / "plain" / "workflow.js").exists()
