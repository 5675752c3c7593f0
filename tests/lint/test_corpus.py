"""Per-rule precision and recall on the labelled corpus stay at or above 0.9."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from spawnkit.lint.engine import lint_document

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).parent / "corpus"


def _bench():
    spec = importlib.util.spec_from_file_location(
        "lint_corpus", ROOT / "benchmarks" / "lint_corpus.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_corpus_is_big_and_varied():
    files = json.loads((CORPUS / "manifest.json").read_text())["files"]
    assert len(files) >= 30
    kinds = {rel.split("/")[0] for rel in files}
    assert kinds == {"skills", "commands", "agents"}
    assert sum(f["orchestrator"] for f in files.values()) >= 15
    assert sum(not f["orchestrator"] for f in files.values()) >= 15
    assert all((CORPUS / rel).is_file() for rel in files)
    on_disk = {
        p.relative_to(CORPUS).as_posix()
        for p in CORPUS.rglob("*.md")
        if p.name == "SKILL.md" or p.parent.name in ("commands", "agents")
    }
    assert on_disk == set(files), "every lintable corpus file is labelled"


def _below(scores: dict, floor: float) -> dict:
    """The rules whose precision or recall (where defined) is under ``floor``, with their misses."""
    return {
        code: (s.precision, s.recall, s.misses)
        for code, s in scores.items()
        if (s.precision is not None and s.precision < floor)
        or (s.recall is not None and s.recall < floor)
    }


def test_precision_and_recall_per_rule():
    scores, detection, _ = _bench().evaluate(CORPUS)
    assert not _below(scores, 0.9)
    assert detection.precision >= 0.9 and detection.recall >= 0.9, detection.misses
    # every protocol rule is exercised by at least two labelled files
    assert all(scores[f"CM00{n}"].tp >= 2 for n in range(1, 9))


WORKFLOW_CORPUS = Path(__file__).parent / "workflow-corpus"


def test_workflow_corpus_is_big_and_varied():
    files = json.loads((WORKFLOW_CORPUS / "manifest.json").read_text())["files"]
    assert len(files) >= 40
    assert {p.name for p in WORKFLOW_CORPUS.glob("*.js")} == set(files), "every script is labelled"
    assert sum(not f["expected"] for f in files.values()) >= 12  # good scripts
    codes = [c for f in files.values() for c in f["expected"]]
    assert all(codes.count(f"WF00{n}") >= 2 for n in range(1, 10))  # every rule, twice at least


def test_workflow_rules_precision_and_recall():
    scores, spawns, _ = _bench().evaluate_workflows(WORKFLOW_CORPUS)
    assert not _below(scores, 0.9)
    assert spawns.precision >= 0.9 and spawns.recall >= 0.9, spawns.misses


def test_spec_rules_agree_with_skills_ref_under_the_portable_profile():
    """The reference validator (skills-ref) and spawnkit agree on which skills break the spec."""
    from skills_ref import validator
    from skills_ref.errors import ParseError
    from skills_ref.parser import parse_frontmatter

    spec_codes = {
        "SP001",
        "SP002",
        "SP004",
        "SP005",
        "SP006",
        "SP007",
        "SP008",
        "SP009",
        "SP011",
        "SP013",
    }
    for skill in sorted(CORPUS.glob("skills/*/SKILL.md")):
        text = skill.read_text()
        ours = {
            d.code for d in lint_document(text, str(skill), "portable").diagnostics
        } & spec_codes
        if "SP003" in {d.code for d in lint_document(text, str(skill), "portable").diagnostics}:
            continue  # spawnkit declined to judge this frontmatter
        try:
            meta, _ = parse_frontmatter(text)
            theirs = validator.validate_metadata(meta, skill.parent)
        except ParseError as exc:
            theirs = [str(exc)]
        assert bool(ours) == bool(theirs), (skill, ours, theirs)
