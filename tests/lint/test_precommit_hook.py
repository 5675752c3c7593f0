"""The ``spawnkit-lint`` pre-commit hook, run by the real ``pre-commit try-repo``.

pre-commit builds a virtualenv and pip-installs this repository into it. The
test keeps that offline: PIP_NO_INDEX plus PIP_FIND_LINKS pointing at a
wheelhouse repacked from the packages already installed here (spawnkit's
dependencies and its build backend).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from wheelhouse import build, runtime_requirements

ROOT = Path(__file__).resolve().parents[2]
CLEAN = (
    "---\nname: notes\ndescription: Turn a transcript into notes.\n---\nSummarise the meeting.\n"
)
# the shipped calibration asserts this file (it names the spawn tool) and its CM001: the prompt
# caps no reply (a process of its own: no test model can stand in)
BAD = (
    "---\nname: sweep\ndescription: Sweep every package.\n---\n"
    "Keep `.sweep-reports/state-<ts>.json`, updated after every package; resume from it if "
    "unfinished.\n\n"
    "Use the Task tool to launch one sub-agent per package, one at a time, with this prompt:\n\n"
    "```\nCheck {package}; write findings to .sweep-reports/{package}.md.\n```\n"
)
FIXED = BAD.replace(".md.\n", ".md. Reply in at most 200 tokens.\n")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_hook_definition_matches_skills_commands_and_agents():
    import re

    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "spawnkit-lint")
    assert hook["entry"] == "spawnkit lint --pre-commit" and hook["language"] == "python"
    pattern = re.compile(hook["files"])
    for path in (
        "SKILL.md",
        "skills/a/SKILL.md",
        ".claude/commands/x.md",
        "plugin/agents/y.md",
        "commands/ns/z.md",
    ):
        assert pattern.search(path), path
    for path in ("README.md", "skills/a/reference.md", "docs/agents.txt", "SKILL.md.bak"):
        assert not pattern.search(path), path


WF_BAD = (
    "export const meta = { name: 'stamp', description: 'Stamp the report' }\n"
    "const started = Date.now()\nreturn { started }\n"
)


def test_pre_commit_try_repo_runs_the_hook_offline(tmp_path):
    wheels = tmp_path / "wheels"
    build(wheels, ["hatchling", *runtime_requirements()])
    project = tmp_path / "project"
    for rel, text in {
        "skills/notes/SKILL.md": CLEAN,
        "skills/sweep/SKILL.md": BAD,
        "README.md": "# readme\n",
        # a workflow script Claude Code loads, and app code that only looks like one
        ".claude/workflows/stamp.js": WF_BAD,
        "src/workflows/app.js": WF_BAD,
    }.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text)
    _git(project, "init", "-q")
    _git(project, "add", ".")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PIP_", "PRE_COMMIT", "VIRTUALENV_"))
    }
    env.update(
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS=str(wheels),
        PRE_COMMIT_HOME=str(tmp_path / "pc-home"),
        VIRTUALENV_NO_PERIODIC_UPDATE="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    pre_commit = [sys.executable, "-m", "pre_commit"]
    repo = tmp_path / "spawnkit-repo"
    shutil.copytree(
        ROOT,
        repo,
        ignore=shutil.ignore_patterns(".git", "__pycache__", "*.egg-info", ".pytest_cache"),
    )
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "snapshot")

    failing = subprocess.run(
        pre_commit + ["try-repo", str(repo), "spawnkit-lint", "--all-files"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "skills/sweep/SKILL.md:10:1: CM001" in failing.stdout
    assert ".claude/workflows/stamp.js:2:17: WF005" in failing.stdout
    assert "src/workflows/app.js" not in failing.stdout
    assert "README.md" not in failing.stdout.split("spawnkit lint")[-1]

    (project / "skills/sweep/SKILL.md").write_text(FIXED)
    (project / ".claude/workflows/stamp.js").write_text(WF_BAD.replace("Date.now()", "args.at"))
    _git(project, "add", ".")
    passing = subprocess.run(
        pre_commit + ["try-repo", str(repo), "spawnkit-lint", "--all-files"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout
