"""Per-rule precision and recall of ``spawnkit lint`` on the labelled corpus.

    python benchmarks/lint_corpus.py [--markdown]

The corpus (tests/lint/corpus/) holds hand-written skills, commands and agents;
manifest.json lists the codes each file should get under the claude-code
profile (``expected``) and, where it differs, the portable one
(``expected_portable``). Every file is linted under both profiles.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from spawnkit.lint.engine import lint_document
from spawnkit.lint.rules import ALL, PROFILES

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "lint" / "corpus"


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None


def evaluate(corpus: Path = CORPUS) -> tuple[dict[str, Score], Score, int]:
    """(per-rule scores, orchestrator-detection score, files) over both profiles."""
    manifest = json.loads((corpus / "manifest.json").read_text(encoding="utf-8"))["files"]
    scores = {rule.code: Score() for rule in ALL}
    detection = Score()
    for rel, label in sorted(manifest.items()):
        path = corpus / rel
        for profile in PROFILES:
            expected = set(
                label.get("expected_portable", label["expected"])
                if profile == "portable"
                else label["expected"]
            )
            result = lint_document(path.read_text(encoding="utf-8"), str(path), profile)
            got = {d.code for d in result.diagnostics}
            for code, score in scores.items():
                if code in got and code in expected:
                    score.tp += 1
                elif code in got:
                    score.fp += 1
                    score.misses.append(f"{rel} ({profile}): unexpected")
                elif code in expected:
                    score.fn += 1
                    score.misses.append(f"{rel} ({profile}): missed")
            if profile == PROFILES[0]:
                if result.orchestrator and label["orchestrator"]:
                    detection.tp += 1
                elif result.orchestrator:
                    detection.fp += 1
                    detection.misses.append(rel)
                elif label["orchestrator"]:
                    detection.fn += 1
                    detection.misses.append(rel)
    return scores, detection, len(manifest)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def table(scores: dict[str, Score], detection: Score, files: int) -> str:
    rows = ["| rule | name | positives | precision | recall |", "|---|---|---|---|---|"]
    for rule in ALL:
        s = scores[rule.code]
        rows.append(
            f"| {rule.code} | {rule.name} | {s.tp + s.fn} | {_fmt(s.precision)} | {_fmt(s.recall)} "
            f"|"
        )
    rows.append(
        f"| — | orchestrator detection | {detection.tp + detection.fn} | "
        f"{_fmt(detection.precision)} "
        f"| {_fmt(detection.recall)} |"
    )
    rows.append("")
    rows.append(
        f"{files} files, each linted under both profiles ({', '.join(PROFILES)}); "
        "positives = labelled (file, profile) pairs."
    )
    return "\n".join(rows)


def main() -> int:
    scores, detection, files = evaluate()
    print(table(scores, detection, files))
    problems = [m for s in list(scores.values()) + [detection] for m in s.misses]
    if problems and "--markdown" not in sys.argv:
        print("\nmismatches:\n  " + "\n  ".join(problems))
    return 0


if __name__ == "__main__":
    sys.exit(main())
