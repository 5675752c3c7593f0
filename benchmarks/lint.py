"""Lint throughput in one process, and the wall time of one ``spawnkit lint FILE`` process.

    python benchmarks/lint.py [--files 1000] [--runs 15]

1. Files/s: lint_document() over N files copied round-robin from the labelled
   corpus (skills, commands, agents; orchestrators and plain skills), in one
   process, median of 5 passes. Baseline measured in the same run: reading the
   same files from disk and parsing their frontmatter with PyYAML (what any
   frontmatter-aware tool pays at least).
2. Process wall time: median of R runs of ``spawnkit lint <one SKILL.md>``,
   against the baselines of a bare ``python -c pass`` and ``python -c "import click"``
   (the CLI framework every spawnkit command loads) in the same run.
Goals (issue 4): >= 1,000 files/s; <= 150 ms per process.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from spawnkit.lint.engine import lint_document

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "lint" / "corpus"


def corpus_files() -> list[Path]:
    return sorted(
        p
        for p in CORPUS.rglob("*.md")
        if p.name == "SKILL.md" or p.parent.name in ("commands", "agents")
    )


def make_tree(dest: Path, count: int) -> list[Path]:
    """``count`` lintable files (with their sibling files) copied from the corpus."""
    sources = corpus_files()
    out = []
    for i in range(count):
        src = sources[i % len(sources)]
        rel = src.relative_to(CORPUS)
        target = dest / f"copy{i}" / rel
        if src.name == "SKILL.md":
            shutil.copytree(src.parent, target.parent)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src, target)
        out.append(target)
    return out


def lint_all(files: list[Path]) -> int:
    found = 0
    for path in files:
        found += len(lint_document(path.read_text(encoding="utf-8"), str(path)).diagnostics)
    return found


def yaml_all(files: list[Path]) -> int:
    n = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        if text.startswith("---"):
            try:
                yaml.safe_load(text.split("---", 2)[1])
            except yaml.YAMLError:
                pass
        n += 1
    return n


def timed(fn, *args) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def process_ms(cmd: list[str], runs: int, cwd: Path) -> float:
    # as installed code runs: with bytecode caches (a warm-up run writes them if the
    # environment disables them, e.g. PYTHONDONTWRITEBYTECODE in some sandboxes)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(cmd, cwd=cwd, capture_output=True, env=env)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, capture_output=True, env=env)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = make_tree(Path(tmp), args.files)
        lint_all(files[:50])  # warm the page cache and regex caches
        lint_s = statistics.median(timed(lint_all, files) for _ in range(5))
        yaml_s = statistics.median(timed(yaml_all, files) for _ in range(5))
        print(
            f"files linted per second ({args.files} files, one process, median of 5): "
            f"{args.files / lint_s:,.0f} files/s ({lint_s * 1000:.0f} ms)"
        )
        print(
            f"  baseline, read + PyYAML frontmatter only: {args.files / yaml_s:,.0f} files/s "
            f"(lint costs {lint_s / yaml_s:.1f}x the baseline)"
        )
        one = files[0]
        spawnkit = shutil.which("spawnkit") or "spawnkit"
        lint_ms = process_ms([spawnkit, "lint", str(one)], args.runs, Path(tmp))
        bare_ms = process_ms([sys.executable, "-c", "pass"], args.runs, Path(tmp))
        print(f"one 'spawnkit lint FILE' process (median of {args.runs}): {lint_ms:.0f} ms")
        print(
            f"  baseline, bare 'python -c pass': {bare_ms:.0f} ms (ratio {lint_ms / bare_ms:.1f}x)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
