"""Machine formats: SARIF validated against the official 2.1.0 schema.

tests/fixtures/sarif-schema-2.1.0.json is OASIS's SARIF 2.1.0 JSON schema (errata 01), the
text of Schemata/sarif-schema-2.1.0.json in the oasis-tcs/sarif-spec repository (commit
0a8091f7d4057e57b6d8d9b56129e5f918747b34; 112,768 characters), vendored so the test is offline.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from spawnkit.lint.engine import Diagnostic, FileResult, lint_document
from spawnkit.lint.report import as_github, as_sarif
from spawnkit.lint.rules import ALL

SCHEMA = Path(__file__).resolve().parents[1] / "fixtures" / "sarif-schema-2.1.0.json"
CORPUS = Path(__file__).parent / "corpus"


def _results():
    markdown = [
        lint_document(p.read_text(), p.relative_to(CORPUS).as_posix())
        for p in sorted(CORPUS.rglob("*.md"))
        if p.name == "SKILL.md" or p.parent.name in ("commands", "agents")
    ]
    workflows = CORPUS.parent / "workflow-corpus"  # WF findings in the same log
    return markdown + [
        lint_document(p.read_text(), f"workflows/{p.name}") for p in sorted(workflows.glob("*.js"))
    ]


def test_sarif_is_valid_against_the_official_schema():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    results = _results()
    log = json.loads(as_sarif(results))
    validator = jsonschema.Draft4Validator(schema)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, [e.message for e in errors[:3]]
    run = log["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == [r.code for r in ALL]
    assert len(run["results"]) == sum(len(r.diagnostics) for r in results) > 20
    first = run["results"][0]
    assert run["tool"]["driver"]["rules"][first["ruleIndex"]]["id"] == first["ruleId"]


def test_sarif_schema_rejects_a_broken_log():
    """The vendored schema really constrains: a result without a message is invalid."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    log = json.loads(as_sarif(_results()))
    del log["runs"][0]["results"][0]["message"]
    assert list(jsonschema.Draft4Validator(schema).iter_errors(log))


def test_github_escapes_properties_and_data():
    """GitHub's own escaping for %, : and ,; a line break or ESC inside a value (a message is
    one line by construction: any control character in it came from a file) goes through
    the output gate first and is shown as an escape, never as a second annotation line."""
    diag = Diagnostic(
        "skills/a,b:c\x1b[8m/SKILL.md",
        3,
        1,
        "CM005",
        "max-parallel",
        "warning",
        "100% parallel\nnow\r\x1b]0;t\x07",
        "cap it",
    )
    line = as_github([FileResult("x", "skill", True, [diag])])
    assert line == (
        "::warning file=skills/a%2Cb%3Ac\\x1b[8m/SKILL.md,line=3,col=1,title=CM005::"
        "100%25 parallel\\x0anow\\x0d\\x1b]0;t\\x07 (max-parallel). Fix: cap it"
    )
