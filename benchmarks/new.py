"""Wall time of `spawnkit new` against a raw `copier copy` of the same template, measured in one run.

    python benchmarks/new.py [--runs N]

Both are run as a user runs them (a fresh process per call, console scripts on PATH), alternating,
into fresh folders. Prints the medians and their ratio; the goal is a ratio of at most 1.2.
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

from spawnkit.template.scaffold import template_source

GOAL = 1.2


def command(script: str, module: str) -> list[str]:
    """The console script beside this interpreter or on PATH, else ``python -m module``."""
    found = Path(sys.executable).with_name(script)
    if found.exists():
        return [str(found)]
    on_path = shutil.which(script)
    return [on_path] if on_path else [sys.executable, "-m", module]


def timed(argv: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each (default 7)")
    args = parser.parse_args()

    source = str(template_source())
    spawnkit = command("spawnkit", "spawnkit")
    copier = command("copier", "copier")
    times: dict[str, list[float]] = {"spawnkit new": [], "copier copy": []}
    with tempfile.TemporaryDirectory(prefix="spawnkit-bench-") as tmp:
        root = Path(tmp)
        for run in range(args.runs + 1):  # the first round warms caches and is not counted
            for label in times:
                where = root / f"{label.split()[0]}-{run}"
                where.mkdir()
                if label == "spawnkit new":
                    argv = [*spawnkit, "new", "bench-skill", "--defaults", "--dest", "bench-skill"]
                else:
                    argv = [
                        *copier,
                        "copy",
                        "--defaults",
                        "--data",
                        "skill_name=bench-skill",
                        source,
                        "bench-skill",
                    ]
                elapsed = timed(argv, where)
                if not (where / "bench-skill" / "SKILL.md").is_file():
                    raise SystemExit(f"{label} did not create SKILL.md")
                if run:
                    times[label].append(elapsed)
            print(f"round {run}/{args.runs} done", file=sys.stderr)
            shutil.rmtree(root / f"spawnkit-{run}")
            shutil.rmtree(root / f"copier-{run}")

    medians = {label: statistics.median(values) for label, values in times.items()}
    ratio = medians["spawnkit new"] / medians["copier copy"]
    print(f"template: {source}  runs: {args.runs}  cpus: {os.cpu_count()}")
    for label, median in medians.items():
        print(
            f"{label:>13}: median {median:.3f} s  (min {min(times[label]):.3f}, max {max(times[label]):.3f})"
        )
    print(f"        ratio: {ratio:.2f}  (goal <= {GOAL}: {'met' if ratio <= GOAL else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
