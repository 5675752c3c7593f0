"""Findings per tier that ``spawnkit lint`` reports on the real-skill corpus's files.

    python benchmarks/lint_tiers.py            # the whole corpus, and batches 1-2 (issue 13's ~270)
    PYTHONPATH=OTHER/src python benchmarks/lint_tiers.py   # the same for another spawnkit

Counts what a user would see, file by file, as ``spawnkit lint`` reads them (the PyYAML
frontmatter reader): errors and warnings of the protocol (CM) and spec (SP) rules, the files
judged as orchestrators, and — where the installed spawnkit has tiers — what ``--preview`` adds;
and per rule (``rule CM001 default findings``, ``… default files``, ``… preview …``) the findings
and the files each tier reports.
It imports nothing but ``lint_document``, so it runs unchanged against a spawnkit from before
tiers existed: that is how the "before" column in docs/lint-accuracy.md was taken. Texts come
from the cache that ``benchmarks/lint_real.py --materialize-from`` fills; an absent or changed
text is skipped and counted.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import sys
from collections import Counter
from pathlib import Path

import yaml

from spawnkit.lint.engine import lint_document

DATA = Path(__file__).resolve().parent / "data" / "lint-real"
SUBSETS = {
    "all": lambda entry: True,
    "batches 1-2": lambda entry: entry.get("batch", 1) in (1, 2),
}


def count(doc: dict, texts: Path) -> dict[str, dict[str, int]]:
    """Per subset: files, skipped, orchestrators (default and with preview) and findings by
    ``<tier> <severity> <CM|SP>``."""
    tiers = "preview" in inspect.signature(lint_document).parameters
    out: dict[str, Counter[str]] = {name: Counter() for name in SUBSETS}
    for entry in doc["files"]:
        path = texts / entry["repo"] / entry["path"]
        data = path.read_bytes() if path.is_file() else None
        wanted = [name for name, pick in SUBSETS.items() if pick(entry)]
        if data is None or hashlib.sha256(data).hexdigest() != entry["sha256"]:
            for name in wanted:
                out[name]["skipped"] += 1
            continue
        text = data.decode("utf-8", "replace")
        result = lint_document(text, str(path), reader="pyyaml")
        found: Counter[str] = Counter(
            f"default {d.severity} {d.code[:2]}" for d in result.diagnostics
        )
        # per rule: its findings, and the files it reports, by tier
        found.update(f"rule {d.code} default findings" for d in result.diagnostics)
        found.update({f"rule {d.code} default files" for d in result.diagnostics})
        found["files"] = 1
        found["orchestrators"] = int(result.orchestrator)
        if tiers:
            more = lint_document(text, str(path), reader="pyyaml", preview=True)
            found["orchestrators with --preview"] = int(more.orchestrator)
            for d in more.diagnostics:
                if d.tier == "preview":
                    found[f"preview {d.severity} {d.code[:2]}"] += 1
                    found[f"rule {d.code} preview findings"] += 1
            found.update(
                {f"rule {d.code} preview files" for d in more.diagnostics if d.tier == "preview"}
            )
        for name in wanted:
            out[name].update(found)
    return {name: dict(sorted(c.items())) for name, c in out.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DATA / "corpus.yaml")
    parser.add_argument("--texts", type=Path, default=DATA / "texts")
    args = parser.parse_args(argv)
    doc = yaml.safe_load(args.corpus.read_text(encoding="utf-8"))
    print(json.dumps(count(doc, args.texts), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
