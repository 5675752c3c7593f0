"""Per-rule precision and recall of ``spawnkit lint`` on the labelled corpora.

    python benchmarks/lint_corpus.py [--markdown]

The corpus (tests/lint/corpus/) holds hand-written skills, commands and agents;
manifest.json lists the codes each file should get under the claude-code
profile (``expected``) and, where it differs, under another one
(``expected_portable``, ``expected_copilot``, ``expected_gemini``, ``expected_qwen``). Every
file is linted under every profile, with
the preview tier on: the corpus tests what each reading can find; which readings are trusted by
default is decided on real skills (docs/lint-accuracy.md), not on files written for the tests.

The workflow corpus (tests/lint/workflow-corpus/) holds hand-written Claude Code workflow
scripts, good and bad, scored the same way on the WF rules (the profile does not change a
script's verdict, so each is linted once); "orchestrator" there means the script spawns agents.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from spawnkit.lint.engine import lint_document
from spawnkit.lint.rules import ALL, PROFILES

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scoring import Score  # noqa: E402

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "lint" / "corpus"
WORKFLOW_CORPUS = CORPUS.parent / "workflow-corpus"


def evaluate(corpus: Path = CORPUS) -> tuple[dict[str, Score], Score, int]:
    """(per-rule scores, orchestrator-detection score, files) over every profile."""
    manifest = json.loads((corpus / "manifest.json").read_text(encoding="utf-8"))["files"]
    scores = {rule.code: Score() for rule in ALL if rule.files == "markdown"}
    detection = Score()
    for rel, label in sorted(manifest.items()):
        path = corpus / rel
        for profile in PROFILES:
            expected = set(label.get(f"expected_{profile}", label["expected"]))
            result = lint_document(
                path.read_text(encoding="utf-8"), str(path), profile, preview=True
            )
            got = {d.code for d in result.diagnostics}
            for code, score in scores.items():
                score.add(code in got, code in expected, f"{rel} ({profile})")
            if profile == PROFILES[0]:
                detection.add(result.orchestrator, label["orchestrator"], rel)
    return scores, detection, len(manifest)


def evaluate_workflows(corpus: Path = WORKFLOW_CORPUS) -> tuple[dict[str, Score], Score, int]:
    """(per-rule scores, spawns-agents score, files) for the WF rules on the workflow corpus."""
    manifest = json.loads((corpus / "manifest.json").read_text(encoding="utf-8"))["files"]
    scores = {rule.code: Score() for rule in ALL if rule.files == "workflow"}
    detection = Score()
    for rel, label in sorted(manifest.items()):
        path = corpus / rel
        result = lint_document(path.read_text(encoding="utf-8"), str(path))
        got = {d.code for d in result.diagnostics}
        for code, score in scores.items():
            score.add(code in got, code in label["expected"], rel)
        detection.add(result.orchestrator, label["orchestrator"], rel)
    return scores, detection, len(manifest)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def table(scores: dict[str, Score], detection: Score, files: int, workflows: bool = False) -> str:
    rows = ["| rule | name | positives | precision | recall |", "|---|---|---|---|---|"]
    for rule in ALL:
        if rule.code not in scores:
            continue
        s = scores[rule.code]
        rows.append(
            f"| {rule.code} | {rule.name} | {s.tp + s.fn} | {_fmt(s.precision)} | {_fmt(s.recall)} "
            f"|"
        )
    label = "spawns agents" if workflows else "orchestrator detection"
    rows.append(
        f"| — | {label} | {detection.tp + detection.fn} | "
        f"{_fmt(detection.precision)} "
        f"| {_fmt(detection.recall)} |"
    )
    rows.append("")
    if workflows:
        rows.append(f"{files} workflow scripts; positives = scripts labelled with the code.")
    else:
        rows.append(
            f"{files} files, each linted under every profile ({', '.join(PROFILES)}); "
            "positives = labelled (file, profile) pairs."
        )
    return "\n".join(rows)


def main() -> int:
    scores, detection, files = evaluate()
    print(table(scores, detection, files))
    problems = [m for s in list(scores.values()) + [detection] for m in s.misses]
    wf_scores, wf_detection, wf_files = evaluate_workflows()
    print("\nWorkflow scripts (tests/lint/workflow-corpus/):\n")
    print(table(wf_scores, wf_detection, wf_files, workflows=True))
    problems += [m for s in list(wf_scores.values()) + [wf_detection] for m in s.misses]
    if problems and "--markdown" not in sys.argv:
        print("\nmismatches:\n  " + "\n  ".join(problems))
    return 0


if __name__ == "__main__":
    sys.exit(main())
