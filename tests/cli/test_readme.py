"""The README tells the truth: every fenced shell example runs, in an empty home folder.

The first block is the quick start. Its first line is run as written, in a copy of the
repository, offline (pip reads a wheelhouse repacked from the installed packages): a virtual
environment, ``pip install .``, a first skill; the skill must land outside the clone and the
clone must stay clean. Its second line is the test command (the fast tests), which CI runs
(``.ci/run`` must carry it verbatim, and the slow tests after it; running the suite from
inside the suite would be circular, and this module is slow, so the fast run never reaches it).

Every other ``bash`` block is the tour: its commands run in order, one process each, in a
fresh copy of the repository, as a reader runs them after the quick start: every file they
name must come with the clone (``examples/``). A command must end without a traceback, with a
documented exit code, and with the one its comment announces (``# exit 1: …``), 0 when it
announces none: an example that is refused (exit 2) is a README that lies.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.requires import unavailable

from .sandbox import DOCUMENTED_EXIT_CODES, Sandbox

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
SHELL_LANGUAGES = {"bash", "sh", "shell", "console"}
_FENCE = re.compile(r"^```(\w*)\s*\n(.*?)^```\s*$", re.M | re.S)
_EXIT = re.compile(r"\bexit (\d+)\b")


def shell_blocks(text: str) -> list[str]:
    return [m.group(2) for m in _FENCE.finditer(text) if m.group(1).lower() in SHELL_LANGUAGES]


def commands(block: str) -> list[tuple[str, set[int]]]:
    """``(command, expected exit codes)`` for each line of a block; ``# exit N`` sets the codes."""
    found = []
    for raw in block.replace("\\\n", " ").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        command, comment = line, ""
        # split off a trailing comment that is not inside quotes
        quote = None
        for index, char in enumerate(line):
            if quote:
                quote = None if char == quote else quote
            elif char in "'\"":
                quote = char
            elif char == "#" and (index == 0 or line[index - 1].isspace()):
                command, comment = line[:index].rstrip(), line[index + 1 :]
                break
        codes = {int(code) for code in _EXIT.findall(comment)} or {0}
        found.append((command, codes))
    return found


def test_readme_has_a_quick_start_and_a_tour():
    blocks = shell_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) >= 2, "the README needs its quick start and at least one example"
    quick = commands(blocks[0])
    assert len(quick) == 2, "the quick start is two commands: try it, then test it"
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert quick[1][0] in ci.splitlines(), ".ci/run must run the README's test command verbatim"
    # The quick start runs the fast tests (this module is slow: it never runs itself from
    # there); CI runs them and the rest, so every test runs in CI.
    assert quick[1][0].endswith('python -m pytest -m "not slow" -n 2'), quick[1][0]
    assert "python -m pytest -m slow" in ci.splitlines(), ".ci/run must run the slow tests too"
    used = {
        word for block in blocks[1:] for command, _ in commands(block) for word in command.split()
    }
    from spawnkit.cli import cli

    verbs = set(cli.commands)
    assert verbs <= used, f"the tour shows no example of: {sorted(verbs - used)}"


def fresh_clone(sandbox: Sandbox) -> Path:
    """A copy of the repository as ``git clone`` gives it: tracked files only, committed."""
    clone = sandbox.work / "spawnkit"
    shutil.copytree(
        REPO,
        clone,
        ignore=shutil.ignore_patterns(
            ".git", "__pycache__", "*.egg-info", ".pytest_cache", ".venv", ".ruff_cache"
        ),
    )
    subprocess.run(["git", "init", "-q"], cwd=clone, check=True)
    subprocess.run(["git", "add", "-A"], cwd=clone, check=True)
    git_id = ["-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", *git_id, "commit", "-qm", "clone"], cwd=clone, check=True)
    return clone


def test_the_tour_runs_as_written(sandbox: Sandbox):
    project = fresh_clone(sandbox)
    env = sandbox.env(
        {
            # --exact would call the API: point it at a closed port so it falls back offline
            "ANTHROPIC_BASE_URL": "http://127.0.0.1:9",
            "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
        }
    )
    failures = []
    for block in shell_blocks(README.read_text(encoding="utf-8"))[1:]:
        for command, expected in commands(block):
            proc = subprocess.run(
                ["bash", "-c", command],
                cwd=project,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=300,
            )
            output = proc.stdout + proc.stderr
            if (
                "Traceback" in output
                or proc.returncode not in DOCUMENTED_EXIT_CODES
                or proc.returncode not in expected
            ):
                failures.append(
                    f"$ {command}\n  exit {proc.returncode}, README says {sorted(expected)}\n"
                    + "".join(f"  | {line}\n" for line in output.splitlines()[-15:])
                )
    assert not failures, "README examples that do not do what the README says:\n" + "\n".join(
        failures
    )


def _wheelhouse(dest: Path) -> Path:
    sys.path.insert(0, str(REPO / "tests" / "lint"))
    try:
        from wheelhouse import build, runtime_requirements
    finally:
        sys.path.pop(0)
    build(dest, ["hatchling", *runtime_requirements()])
    return dest


def test_the_quick_start_works_on_a_fresh_machine(sandbox: Sandbox):
    """Line one of the quick start, as written, in a clean copy of the repository, offline."""
    [first, _] = commands(shell_blocks(README.read_text(encoding="utf-8"))[0])
    command = first[0]
    clone = fresh_clone(sandbox)
    # `python3` is the interpreter under the test environment (the wheels below are its), seen
    # as on a fresh machine: no virtual environment active, none of the test tools on PATH.
    base = Path(getattr(sys, "_base_executable", sys.executable))
    if subprocess.run([str(base), "-c", "import ensurepip, venv"]).returncode != 0:
        unavailable(f"{base} cannot make a virtual environment: install python3-venv")
    shims = sandbox.root / "bin"
    shims.mkdir()
    (shims / "python3").symlink_to(base)
    wheels = _wheelhouse(sandbox.root / "wheels")
    outside = [
        p for p in os.environ["PATH"].split(os.pathsep) if Path(p) != Path(sys.executable).parent
    ]
    env = sandbox.env(
        {
            "PIP_NO_INDEX": "1",
            "PIP_FIND_LINKS": str(wheels),
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
            "PATH": os.pathsep.join([str(shims), *outside]),
        }
    )
    env.pop("VIRTUAL_ENV", None)
    proc = subprocess.run(
        ["bash", "-c", command],
        cwd=clone,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    skill = sandbox.home / ".claude" / "skills" / "my-audit"
    assert (skill / "SKILL.md").is_file() and (skill / ".copier-answers.yml").is_file()
    status = subprocess.run(
        ["git", "status", "--porcelain", "--ignored=no"],
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    )
    assert status.stdout == "", f"the quick start left files in the clone:\n{status.stdout}"
    # the first hour: `workflow check` works in the environment the quick start made (its engine,
    # quickjs-ng, is a default dependency; it was an extra, and the check refused)
    venv_bin = clone / ".venv" / ("Scripts" if os.name == "nt" else "bin")
    checked = subprocess.run(
        [str(venv_bin / "spawnkit"), "workflow", "check", "examples/workflows/review.js"],
        cwd=clone,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "agents, at most" in checked.stdout
