"""``spawnkit lint PATH…`` runs without click, and means exactly what the click command means."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from spawnkit.__main__ import plain_lint_paths
from spawnkit.cli import cli
from spawnkit.commands import lint as command

CLEAN = "---\nname: notes\ndescription: Turn a transcript into notes.\n---\nSummarise it.\n"
PROBE = (
    "import sys, runpy\n"
    "sys.argv = ['spawnkit', 'lint', sys.argv[1]]\n"
    "try:\n"
    "    runpy.run_module('spawnkit', run_name='__main__')\n"
    "except SystemExit as exc:\n"
    "    print('EXIT', exc.code, 'click' in sys.modules, file=sys.stderr)\n"
)


def test_only_the_plain_form_takes_the_fast_path():
    assert plain_lint_paths(["lint", "a/SKILL.md", "b"]) == ["a/SKILL.md", "b"]
    assert plain_lint_paths(["lint"]) is None
    assert plain_lint_paths(["lint", "--format", "json", "x"]) is None
    assert plain_lint_paths(["lint", "-h"]) is None
    assert plain_lint_paths(["rule", "CM005"]) is None


def test_click_defaults_are_the_fast_path_defaults():
    ctx = cli.commands["lint"].make_context("lint", ["x"])
    params = dict(ctx.params)
    assert params.pop("paths") == (Path("x"),)
    params["select"] = command.split_codes(params["select"])  # () means "not given"
    params["ignore"] = command.split_codes(params["ignore"])
    assert params == command.DEFAULTS


def _probe(path: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PROBE, str(path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_plain_lint_does_not_import_click_and_keeps_exit_codes(tmp_path):
    skill = tmp_path / "skills" / "notes" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(CLEAN)
    ok = _probe(skill, tmp_path)
    assert "All checks passed: 1 file" in ok.stdout
    assert "EXIT 0 False" in ok.stderr
    missing = _probe(tmp_path / "nope.md", tmp_path)
    assert "spawnkit: error: " in missing.stderr and "EXIT 2 False" in missing.stderr
