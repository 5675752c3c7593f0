"""The CLI reads frontmatter with PyYAML, the hook with the strict stdlib reader: same verdicts.

Wherever the strict reader answers (it raises ``Unsupported`` outside its subset), linting
with ``reader="pyyaml"`` must give exactly the diagnostics of the default reader, over the
whole corpus and every rule's examples, in both profiles.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from spawnkit.lint import frontmatter
from spawnkit.lint.engine import lint_document
from spawnkit.lint.rules import ALL, PROFILES

CORPUS = Path(__file__).parent / "corpus"


def _cases() -> list[tuple[str, str]]:
    cases = [
        (str(p), p.read_text(encoding="utf-8"))
        for p in sorted(CORPUS.rglob("*.md"))
        if p.name == "SKILL.md" or p.parent.name in ("commands", "agents")
    ]
    for rule in ALL:
        for which in ("bad", "good"):
            text = textwrap.dedent(getattr(rule, which)).lstrip("\n")
            cases.append((rule.example_path, text))
    return cases


def _strict_answers(text: str) -> bool:
    try:
        frontmatter.parse(text.replace("\r\n", "\n").split("\n"))
    except frontmatter.Unsupported:
        return False
    except frontmatter.YamlError:
        return True
    return True


@pytest.mark.parametrize("profile", PROFILES)
def test_pyyaml_reader_gives_the_same_verdicts_where_the_strict_reader_answers(profile):
    compared = 0
    for path, text in _cases():
        if not _strict_answers(text):
            continue
        strict = lint_document(text, path, profile)
        pyyaml = lint_document(text, path, profile, reader="pyyaml")
        assert _verdict(pyyaml) == _verdict(strict), path
        compared += 1
    assert compared > 80


def _verdict(result) -> tuple:
    """Invalid YAML is SP002 on the same line for both readers; only the parser's wording differs."""
    return result.orchestrator, [
        (d.line, d.code) if d.code == "SP002" else d for d in result.diagnostics
    ]


def test_outside_the_subset_the_cli_reads_what_the_hook_reports_as_unchecked():
    text = (
        "---\nname: hook-guard\ndescription: Guard files.\nhooks:\n  PreToolUse: &g\n"
        "    - matcher: Edit\n  PostToolUse: *g\n---\nGuard generated files.\n"
    )
    path = "skills/hook-guard/SKILL.md"
    assert [d.code for d in lint_document(text, path).diagnostics] == ["SP003"]
    assert lint_document(text, path, reader="pyyaml").diagnostics == []


def test_read_gives_the_mapping_or_none():
    assert frontmatter.read("---\nname: x\ntags: [a, b]\n---\nbody\n") == {
        "name": "x",
        "tags": ["a", "b"],
    }
    assert frontmatter.read("---\r\nname: x\r\n---\r\nbody\r\n") == {"name": "x"}
    assert frontmatter.read("no frontmatter\n") is None
    assert frontmatter.read("---\nname: x\n") is None  # never closed
    assert frontmatter.read("---\nname: [x\n---\n") is None  # invalid
    assert frontmatter.read("---\n- a\n---\n") is None  # not a mapping


def test_pyyaml_key_lines_match_the_strict_reader():
    body = "name: x\nyes: 1\n'quoted': 2\nnested:\n  a: 1\nlast: |\n  t"
    data, key_lines = frontmatter._pyyaml(body.split("\n"), first_line=2)
    strict = frontmatter.parse(f"---\n{body}\n---".split("\n"))
    assert (data, key_lines) == (strict.data, strict.key_lines)
