"""The repo is a plain Copier template too: `copier copy` + `copier update` against its version tags."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from spawnkit.standard import resources
from spawnkit.template import store

LINE = "A line the template gained in 0.0.2, under the first section heading."


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@x",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@x",
    )
    return env


def _run(args, cwd: Path) -> str:
    res = subprocess.run(args, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, f"{args}: {res.stderr}"
    return res.stdout


def test_copier_copy_then_copier_update_against_repo_tags(tmp_path):
    clone = tmp_path / "spawnkit"
    clone.mkdir()
    root = resources.data_root()
    for name in store.CONTENT_ROOTS:
        src = root / name
        shutil.copytree(src, clone / name) if src.is_dir() else shutil.copy2(src, clone / name)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "0.0.1"], ["tag", "0.0.1"]):
        _run(["git", *args], clone)

    project = tmp_path / "project"
    skill = project / ".claude" / "skills" / "demo"
    project.mkdir()
    _run(["git", "init", "-q"], project)
    _run(
        [
            sys.executable,
            "-m",
            "copier",
            "copy",
            "--defaults",
            "--vcs-ref",
            "0.0.1",
            str(clone),
            str(skill),
        ],
        project,
    )
    md = skill / "SKILL.md"
    md.write_text(md.read_text() + "\nMy own closing line.\n")
    _run(["git", "add", "-A"], project)
    _run(["git", "commit", "-qm", "my skill"], project)

    tpl = clone / "template" / "SKILL.md.jinja"
    text = tpl.read_text().splitlines(keepends=True)
    first = next(i for i, x in enumerate(text) if x.startswith("## "))
    text.insert(first + 1, LINE + "\n")
    tpl.write_text("".join(text))
    for args in (["commit", "-qam", "0.0.2"], ["tag", "0.0.2"]):
        _run(["git", *args], clone)

    _run([sys.executable, "-m", "copier", "update", "--defaults"], skill)
    updated = md.read_text()
    assert LINE in updated and "My own closing line." in updated and "<<<<<<<" not in updated
    assert yaml.safe_load((skill / ".copier-answers.yml").read_text())["_commit"] == "0.0.2"
