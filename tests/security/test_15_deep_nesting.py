"""Issue 21, item 3: deep nesting was an internal error, and one such file lost every result.

A SKILL.md frontmatter nesting ~500 flow levels (or ~1,500 block levels), a ``.spawnkit.toml``
or ``pyproject.toml`` ``[tool.spawnkit]`` list nested thousands deep, or ``new -d
steps=[[[…]]]`` ended in "internal error (RecursionError)"; one such file aborted the whole
``spawnkit lint`` run, and ``lint`` with no path, ``doctor`` and ``adopt`` failed with it.
Now one depth limit holds for every structured input (``spawnkit.files.bounded.MAX_DEPTH``):
up to it a file is read as before, beyond it the file gets one line and exit 2, and the other
files' results are all still there.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from spawnkit.files import bounded
from spawnkit.files.bounded import MAX_DEPTH
from tests.snapshots import snapshot

from .conftest import one_line_error, spawnkit

SPAWNS = """---
name: {name}
description: Reviews the code with helpers.
---

# {name}

Use the Task tool to spawn 5 agents in parallel, one per folder.
"""


def flow(levels: int) -> str:
    """A YAML/JSON flow value nesting ``levels`` lists."""
    return "[" * levels + "]" * levels


def flow_front(levels: int) -> str:
    """A frontmatter nesting ``levels`` levels in all (the top mapping is the first)."""
    return f"---\nname: deep\ndescription: x\nk: {flow(levels - 1)}\n---\n\nbody\n"


def block_front(levels: int) -> str:
    lines = ["---", "name: deep", "description: x", "k:"]
    lines += ["  " * i + "k:" for i in range(1, levels)]
    return "\n".join([*lines, "---", "", "body", ""])


def skill(root: Path, name: str, text: str) -> Path:
    folder = root / ".claude" / "skills" / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(text)
    return folder


def test_depth_counts_levels_without_recursion():
    assert bounded.depth("x") == 0 and bounded.depth([]) == 1 and bounded.depth({"a": [1]}) == 2
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert bounded.depth(deep) == MAX_DEPTH + 1  # stops counting past the limit


@pytest.mark.parametrize("levels", [MAX_DEPTH, MAX_DEPTH + 1])
@pytest.mark.parametrize("shape", [flow_front, block_front])
def test_a_frontmatter_is_read_up_to_the_limit_and_refused_beyond(project, levels, shape):
    skill(project, "deep", shape(levels))
    proc = spawnkit("lint", ".claude/skills/deep", cwd=project)
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    if levels == MAX_DEPTH:
        assert proc.returncode in (0, 1) and proc.stderr == "", proc.stderr
    else:
        assert f"nested more than {MAX_DEPTH} levels deep" in one_line_error(proc)


@pytest.mark.parametrize("shape", [lambda: flow_front(600), lambda: block_front(1_600)])
@pytest.mark.parametrize("where", [(".claude/skills",), ()])  # a path, and no path at all
def test_one_deep_file_costs_one_line_and_no_other_result(project, shape, where):
    skill(project, "deep", shape())
    skill(project, "other", SPAWNS.format(name="other"))
    proc = spawnkit("lint", *where, cwd=project)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    errors = proc.stderr.strip().splitlines()
    assert len(errors) == 1 and "deep/SKILL.md's frontmatter is nested more than" in errors[0]
    assert "other/SKILL.md" in proc.stdout and "CM001" in proc.stdout  # still reported


@pytest.mark.parametrize(
    "name, text",
    [
        (".spawnkit.toml", f"exclude = {flow(5000)}\n"),
        ("pyproject.toml", f"[tool.spawnkit]\nexclude = {flow(MAX_DEPTH)}\n"),
    ],
)
def test_a_deep_lint_config_is_one_line(project, name, text):
    skill(project, "other", SPAWNS.format(name="other"))
    (project / name).write_text(text)
    proc = spawnkit("lint", ".claude/skills", cwd=project)
    assert f"{project / name} is nested more than {MAX_DEPTH}" in one_line_error(proc)


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 2_000])
def test_a_deep_data_value_is_refused_and_writes_nothing(project, levels):
    home = Path(os.environ["HOME"])
    before = (snapshot(project), snapshot(home))
    proc = spawnkit("new", "x", "--defaults", "-d", f"steps={flow(levels)}", cwd=project)
    assert f"--data steps is nested more than {MAX_DEPTH}" in one_line_error(proc)
    assert (snapshot(project), snapshot(home)) == before


def test_a_value_at_the_limit_reaches_the_template_validator(project):
    proc = spawnkit("new", "x", "--defaults", "-d", f"steps={flow(MAX_DEPTH)}", cwd=project)
    assert "invalid steps" in one_line_error(proc)  # read, then judged by copier.yml


def test_adopt_and_doctor_name_the_deep_file(project):
    skill(project, "deep", flow_front(600))
    proc = spawnkit("adopt", ".claude/skills/deep", cwd=project)
    assert "deep/SKILL.md's frontmatter is nested more than" in one_line_error(proc)
    proc = spawnkit("doctor", "--scope", "project", "--json", cwd=project)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    checks = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}
    assert "nested more than" in checks["skills lint"]["detail"]


def test_a_deep_answers_file_is_one_line_for_update(project):
    folder = project / ".claude" / "skills" / "x"
    made = spawnkit("new", "x", "--defaults", cwd=project)
    assert made.returncode == 0, made.stderr
    answers = folder / ".copier-answers.yml"
    answers.write_text(answers.read_text() + f"extra: {flow(3_000)}\n")
    for args in (("update", "--check"), ("update", "--all")):
        proc = spawnkit(*args, cwd=project)
        assert f"the answers file {answers} is nested more than" in one_line_error(proc)


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 5_000])
def test_a_deep_spawnkit_json_is_one_line_for_install(tmp_path, levels):
    config = tmp_path / "claude"
    config.mkdir()
    (config / "spawnkit.json").write_text('{"a": ' + flow(levels - 1) + "}\n")
    before = snapshot(config)
    proc = spawnkit("install", "--mode", "enforce", "--yes", "--config-dir", str(config))
    assert f"spawnkit.json is nested more than {MAX_DEPTH}" in one_line_error(proc)
    assert snapshot(config) == before
