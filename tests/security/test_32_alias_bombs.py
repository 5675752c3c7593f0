"""Issue 30, item 3: a YAML alias bomb in a frontmatter: 30 s and 441 MB for ~700 bytes.

Nine levels of anchors, each level a list of nine aliases to the one before, expand to 9**9
values; the hook's own reader refuses anchors, the CLI's lint (PyYAML) built the value and
walked it. Now every YAML spawnkit parses (a frontmatter in the CLI's lint and doctor, an
answers file, copier.yml, a ``-d`` value) counts what its aliases add before a value is built
(``spawnkit.files.bounded.yaml_document``): more than ``MAX_ALIAS_NODES`` is one line, exit 2,
the same shape as a too deep file; up to it, aliases read as before.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from spawnkit.files import bounded
from spawnkit.lint import frontmatter
from spawnkit.template import answers

from .conftest import one_line_error, spawnkit
from .hostile import no_traceback, watched

MAX_ALIAS_NODES = getattr(bounded, "MAX_ALIAS_NODES", 10_000)  # the CLI tests also run on 081e6cb


def bomb(levels: int = 9, width: int = 9) -> str:
    """``levels`` anchors, each a list of ``width`` aliases to the one before (width**levels)."""
    lines = [f"a0: &a0 [{', '.join(['x'] * width)}]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def bomb_skill(name: str = "b") -> str:
    return f"---\nname: {name}\ndescription: Plain.\n{bomb()}---\n\nbody\n"


def growth(aliases: int, extra_scalar: bool = False) -> str:
    """A document whose aliases add exactly ``2 * aliases`` nodes (each names a list holding
    one scalar), plus one with ``extra_scalar``."""
    text = "a: &a [x]\ns: &s y\nb: [" + ", ".join(["*a"] * aliases) + "]\n"
    return text + ("t: *s\n" if extra_scalar else "")


def test_the_bomb_is_small_and_would_be_huge():
    assert len(bomb_skill()) <= 800
    expanded = sum(9**level for level in range(1, 10))  # the values its nine lists hold
    assert expanded > 400_000_000


def test_growth_is_counted_without_expanding():
    loader = yaml.SafeLoader(growth(MAX_ALIAS_NODES // 2))
    try:
        assert bounded.alias_growth(loader.get_single_node()) == MAX_ALIAS_NODES
    finally:
        loader.dispose()


def test_the_limit_holds_at_the_limit():
    """Aliases adding exactly MAX_ALIAS_NODES nodes read as before; one more is refused."""
    at_limit = bounded.yaml_loads(growth(MAX_ALIAS_NODES // 2), "f")
    assert len(at_limit["b"]) == MAX_ALIAS_NODES // 2 and at_limit["b"][0] == ["x"]
    with pytest.raises(bounded.TooExpanded, match="f has YAML aliases that expand it by more"):
        bounded.yaml_loads(growth(MAX_ALIAS_NODES // 2, extra_scalar=True), "f")


def test_a_self_referring_document_is_refused():
    with pytest.raises(bounded.TooExpanded):
        bounded.yaml_loads("a: &a [1, *a]\n", "f")


def test_ordinary_aliases_and_merge_keys_still_read():
    text = "base: &base {x: 1, y: [1, 2]}\none: {<<: *base, z: 3}\ntwo: *base\n"
    assert bounded.yaml_loads(text, "f") == yaml.safe_load(text)


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_lint_refuses_the_bomb_in_one_line_fast(project, fmt):
    """Must: <= 5 s and <= 200 MB (loose bounds; docs/security.md has the figures)."""
    folder = project / ".claude" / "skills" / "b"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(bomb_skill())
    run = watched("lint", "--format", fmt, ".claude", cwd=project, timeout=60)
    no_traceback(run)
    assert run.code == 2
    assert run.err.strip() == (
        "spawnkit: error: .claude/skills/b/SKILL.md's frontmatter has YAML aliases that expand"
        f" it by more than {MAX_ALIAS_NODES:,} values, more than spawnkit reads (real ones use"
        " a few aliases, if any); write the values out instead of *aliases, then run the"
        " command again"
    ), run.err
    assert run.seconds <= 5 and run.peak_mb <= 200, (run.seconds, run.peak_mb)


def test_lint_keeps_the_other_files_results(project):
    for name, text in (("b", bomb_skill()), ("ok", "---\nname: ok\ndescription: Fine.\n---\n")):
        (project / ".claude" / "skills" / name).mkdir(parents=True)
        (project / ".claude" / "skills" / name / "SKILL.md").write_text(text)
    run = watched("lint", "--format", "json", ".claude", cwd=project, timeout=60)
    assert run.code == 2 and ".claude/skills/ok/SKILL.md" in run.out


def test_the_hooks_reader_refuses_anchors_outright():
    lines = bomb_skill().splitlines()
    with pytest.raises(frontmatter.Unsupported, match="anchors"):
        frontmatter.parse(lines, reader="strict")
    with pytest.raises(bounded.TooExpanded):
        frontmatter.parse(lines, reader="pyyaml")


def test_doctor_names_the_bomb_like_a_deep_file(project):
    skills = Path(os.environ["HOME"]) / ".claude" / "skills" / "b"
    skills.mkdir(parents=True)
    (skills / "SKILL.md").write_text(bomb_skill())
    run = watched("doctor", "--json", cwd=project, timeout=60)
    no_traceback(run)
    checks = {c["name"]: c for c in json.loads(run.out)["checks"]}
    assert checks["skills lint"]["status"] == "broken"
    assert (
        "b/SKILL.md's frontmatter has YAML aliases that expand" in checks["skills lint"]["detail"]
    )
    assert run.seconds <= 30


def test_an_answers_file_bomb_is_one_line(project):
    folder = project / ".claude" / "skills" / "b"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: b\ndescription: Plain.\n---\n")
    (folder / ".copier-answers.yml").write_text("_commit: 0.1.0\n" + bomb())
    proc = spawnkit("update", "--check", cwd=project, timeout=60)
    assert "has YAML aliases that expand it by more than" in one_line_error(proc)


def test_a_data_value_bomb_is_one_line(project):
    value = "[" + ", ".join(["*a"] * 9) + "]"
    proc = spawnkit("new", "x", "--defaults", "-d", f"steps=[&a [1,2,3,4,5,6,7,8,9], {value}]")
    assert proc.returncode == 2
    one_line_error(proc)
    proc = spawnkit("new", "x", "--defaults", "-d", "steps=" + _flow_bomb(), cwd=project)
    assert "--data steps has YAML aliases that expand it" in one_line_error(proc)
    assert not (project / ".claude").exists()


def _flow_bomb(levels: int = 9) -> str:
    inner = "&a0 [x, x, x, x, x, x, x, x, x]"
    for i in range(1, levels):
        inner = f"&a{i} [{inner}, " + ", ".join([f"*a{i - 1}"] * 8) + "]"
    return f"[{inner}, " + ", ".join([f"*a{levels - 1}"] * 8) + "]"


def test_a_copier_yml_bomb_is_refused(tmp_path):
    (tmp_path / "copier.yml").write_text("skill_name: {type: str}\n" + bomb())
    with pytest.raises(bounded.TooExpanded, match="copier.yml has YAML aliases"):
        answers.questions(tmp_path)
