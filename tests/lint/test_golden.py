"""The complete lint output over the labelled corpus and the rules' own examples, pinned.

Precision/recall tests tolerate small shifts; this one does not: any change to a
message, a line, a fix hint, a verdict, a tier or a finding's evidence shows here. Files are
linted with the preview tier on, so every reading is pinned, each finding with its tier. After
an intended change, regenerate the file and review the diff:

    python tests/lint/test_golden.py --update
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

from spawnkit.lint.engine import lint_document
from spawnkit.lint.rules import ALL, PROFILES

CORPUS = Path(__file__).parent / "corpus"
WORKFLOW_CORPUS = Path(__file__).parent / "workflow-corpus"
GOLDEN = Path(__file__).parent / "golden" / "corpus_diagnostics.json"


def _lintable() -> list[Path]:
    return sorted(
        p
        for p in CORPUS.rglob("*.md")
        if p.name == "SKILL.md" or p.parent.name in ("commands", "agents")
    )


def _result(text: str, path: str, profile: str, shown: str) -> dict:
    result = lint_document(text, path, profile, preview=True)
    return {
        "kind": result.kind,
        "orchestrator": result.orchestrator,
        "spawn_tier": result.spawn_tier,
        "diagnostics": [
            {
                "line": d.line,
                "col": d.col,
                "code": d.code,
                "name": d.name,
                "severity": d.severity,
                "tier": d.tier,
                "family": d.family,
                "message": d.message.replace(path, shown),
                "evidence": [[e.line, e.note] for e in d.evidence],
                "looked_for": d.looked_for,
                "fix": d.fix,
            }
            for d in result.diagnostics
        ],
    }


def current() -> dict:
    """profile -> file -> result, for every corpus file (the workflow scripts too) and every
    rule's bad/good example."""
    out: dict = {}
    for profile in PROFILES:
        files: dict = {}
        for path in _lintable():
            rel = path.relative_to(CORPUS).as_posix()
            files[rel] = _result(path.read_text(encoding="utf-8"), str(path), profile, rel)
        for path in sorted(WORKFLOW_CORPUS.glob("*.js")):
            rel = "workflow-corpus/" + path.name
            files[rel] = _result(path.read_text(encoding="utf-8"), str(path), profile, rel)
        for rule in ALL:
            for which in ("bad", "good"):
                text = textwrap.dedent(getattr(rule, which)).lstrip("\n")
                key = f"rule-example:{rule.code}:{which}:{rule.example_path}"
                files[key] = _result(text, rule.example_path, profile, rule.example_path)
        out[profile] = files
    return out


def test_lint_output_matches_the_golden_file():
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    got = current()
    for profile in expected:
        for name in sorted(set(expected[profile]) | set(got[profile])):
            assert got[profile].get(name) == expected[profile].get(name), (profile, name)
    assert got == expected


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/lint/test_golden.py --update")
    GOLDEN.write_text(json.dumps(current(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
