#!/usr/bin/env python3
"""Median wall time of `spawnkit update` of one skill vs a raw `copier update` of the same change.

Both sides update the same skill (generated from an older template version, then
edited by the "user") to the running spawnkit's template, in the same run:
- spawnkit: `spawnkit update demo` — temp git repo, backup, checks, sync back; the
  skill folder is not under git.
- baseline: `copier update --defaults --vcs-ref <tag>` in a git repo holding the same
  skill, committed (what plain copier needs), against the same template store.
Each measurement is a fresh process (interpreter start and imports included), after
restoring the skill to its pre-update state. Usage: python benchmarks/update.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from spawnkit.template import store
from spawnkit.template.gitutil import fixed_env, git, isolated_env

OLD = "0.0.1"


def older_template() -> store.Files:
    """The running template minus a line under its first section: the change both sides apply."""
    files = store.running_content()
    path = "template/SKILL.md.jinja"
    mode, data = files[path]
    lines = data.decode().splitlines(keepends=True)
    first = next(i for i, x in enumerate(lines) if x.startswith("## "))
    del lines[first + 1]
    return {**files, path: (mode, "".join(lines).encode())}


def user_edit(skill: Path) -> None:
    md = skill / "SKILL.md"
    md.write_text(
        md.read_text() + "\n## My notes\n\nA line the user added far from template changes.\n"
    )
    (skill / "notes.md").write_text("the user's own file\n")


def timed(args: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    res = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    elapsed = time.perf_counter() - start
    if res.returncode not in (0, 1):
        sys.exit(f"{' '.join(args)} failed ({res.returncode}): {res.stderr.strip()}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory(prefix="spawnkit-bench-") as tmp_s:
        tmp = Path(tmp_s)
        home = tmp / "home"
        config = home / ".claude"
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(HOME=str(home), **fixed_env())
        env.pop("CLAUDE_CONFIG_DIR", None)
        os.environ.update(HOME=str(home))
        os.environ.pop("CLAUDE_CONFIG_DIR", None)

        st = store.Store(store.store_dir(config))
        st.init()
        st.add_version(OLD, older_template())
        target = store.ensure_store(config).tag

        from copier import run_copy

        skill = config / "skills" / "demo"
        with isolated_env(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            run_copy(store.src_path_for(st.path), skill, vcs_ref=OLD, defaults=True, quiet=True)
        user_edit(skill)
        pristine = tmp / "pristine"
        shutil.copytree(skill, pristine)

        project = tmp / "project"
        shutil.copytree(pristine, project / "demo")
        git(["init", "-q"], project)
        git(["add", "-A"], project)
        git(["commit", "-qm", "skill"], project)

        spawnkit_cmd = [sys.executable, "-m", "spawnkit", "update", "demo"]
        copier_cmd = [sys.executable, "-m", "copier", "update", "--defaults", "--vcs-ref", target]
        ours, theirs = [], []
        for i in range(runs):
            shutil.rmtree(skill)
            shutil.copytree(pristine, skill)
            ours.append(timed(spawnkit_cmd, tmp, env))
            git(["reset", "-q", "--hard"], project)
            git(["clean", "-qfdx"], project)
            theirs.append(timed(copier_cmd, project / "demo", env))
            for done in (skill, project / "demo"):  # both really updated, and kept the user's line
                assert f"_commit: {target}" in (done / ".copier-answers.yml").read_text(), done
                assert "A line the user added" in (done / "SKILL.md").read_text(), done
            print(
                f"run {i + 1}/{runs}: spawnkit {ours[-1]:.2f}s, copier {theirs[-1]:.2f}s",
                file=sys.stderr,
            )
        m_ours, m_theirs = statistics.median(ours), statistics.median(theirs)
        print(f"spawnkit update (one skill, no git needed): median {m_ours:.2f} s over {runs} runs")
        print(
            f"copier update (same change, git repo):      median {m_theirs:.2f} s over {runs} runs"
        )
        print(f"ratio spawnkit/copier: {m_ours / m_theirs:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
