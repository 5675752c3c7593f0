"""Lint time against file size: linear, with the 10 MB file in under 5 s.

    python benchmarks/lint_size.py [--sizes 0.4,1.6,10] [--repeat 3]

Three shapes of a SKILL.md body, each cut to 0.4, 1.6 and 10 MB and linted with
``lint_document`` in this process (median of R runs):

- ``skills``: the labelled corpus's skill bodies repeated (headings, lists, tables,
  prompt blocks): what a huge real skill looks like;
- ``paragraph``: the same prose as one paragraph with no blank line;
- ``run-on``: one sentence with no stop, a spawn verb every few words (the worst case
  for rules that look back from each verb).

The growth column is time per MB at each size over time per MB at the smallest: 1.0 is
linear; the quadratic engine this replaced (issue 13) took 2.3 s at 0.4 MB and 31 s at 1.6 MB.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from spawnkit.lint.engine import lint_document

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "lint" / "corpus"
HEAD = "---\nname: big\ndescription: A very large skill, for timing.\n---\n"


def bodies() -> dict[str, str]:
    texts = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.rglob("SKILL.md"))]
    body = "\n\n".join(t.split("---", 2)[-1] for t in texts)
    prose = " ".join(
        line
        for line in body.split("\n")
        if line.strip() and not line.lstrip().startswith(("#", "```", "|", ">", "-", "*"))
    )
    runon = "spawn a sub-agent and run the agents then hand the work to a worker and "
    return {"skills": body, "paragraph": prose, "run-on": runon}


def sized(unit: str, megabytes: float) -> str:
    n = int(megabytes * 1_000_000)
    return HEAD + (unit * (n // len(unit) + 1))[:n]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="0.4,1.6,10")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--preview",
        action="store_true",
        help="lint with the preview tier on (every rule runs: the slowest case)",
    )
    args = parser.parse_args()
    kwargs = {"preview": True} if args.preview else {}
    sizes = [float(x) for x in args.sizes.split(",")]
    print("| shape | size | wall s (median) | CPU s (median) | CPU s per MB | growth vs smallest |")
    print("|---|---|---|---|---|---|")
    worst = 0.0
    for shape, unit in bodies().items():
        first = None
        for mb in sizes:
            text = sized(unit, mb)
            wall, cpu = [], []
            for _ in range(args.repeat):
                start, cpu_start = time.perf_counter(), time.process_time()
                lint_document(text, "skills/big/SKILL.md", reader="pyyaml", **kwargs)
                wall.append(time.perf_counter() - start)
                cpu.append(time.process_time() - cpu_start)
            secs, cpu_s = statistics.median(wall), statistics.median(cpu)
            per_mb = cpu_s / mb
            first = first or per_mb
            if mb == max(sizes):
                worst = max(worst, secs)
            print(
                f"| {shape} | {mb:g} MB | {secs:.2f} | {cpu_s:.2f} | {per_mb:.2f} "
                f"| {per_mb / first:.2f} |"
            )
    print(f"\nslowest {max(sizes):g} MB file: {worst:.2f} s wall (goal: under 5 s)")
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
