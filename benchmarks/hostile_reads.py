"""Time and peak memory of the read-only commands over hostile projects (issue 30).

    python benchmarks/hostile_reads.py [--runs 3] [--against SRC] [--timeout 60]

Each case is a project built to make a read cost the user: a link to ``/`` planted in
``.claude/skills`` (``spawnkit lint`` with no path and with ``.claude`` named), and a
SKILL.md whose ~500-byte frontmatter holds nine levels of nine YAML aliases (9**9 values
once expanded). Every command runs as its own process; its wall time and its own peak RSS
(``RUSAGE_CHILDREN`` of a watcher that waits for nothing else) are the medians of
``--runs`` runs. ``--against SRC`` (another tree's ``src`` folder: ``git archive 081e6cb src
standards copier.yml template skills hooks | tar -x -C /tmp/base``, then ``/tmp/base/src``)
runs the same cases on that code in the same run; a run past ``--timeout`` seconds is
killed and shown as such. The issue's bounds: the link to ``/`` within 20 s and 300 MB, the
alias bomb within 5 s and 200 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WATCH = r"""
import json, resource, subprocess, sys
try:
    proc = subprocess.run(sys.argv[2:], capture_output=True, timeout=float(sys.argv[1]))
    code = proc.returncode
except subprocess.TimeoutExpired:
    code = None
print(json.dumps([code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024]))
"""


def bomb_front() -> str:
    lines = ["a0: &a0 [" + ", ".join(["x"] * 9) + "]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    return "---\nname: b\ndescription: Plain.\n" + "\n".join(lines) + "\n---\n\nbody\n"


def build(root: Path) -> dict[str, tuple[Path, list[str]]]:
    """The cases: (working folder, spawnkit arguments)."""
    linked = root / "linked-root"
    (linked / ".claude" / "skills").mkdir(parents=True)
    (linked / ".claude" / "skills" / "root").symlink_to("/")
    bomb = root / "alias-bomb"
    (bomb / ".claude" / "skills" / "b").mkdir(parents=True)
    (bomb / ".claude" / "skills" / "b" / "SKILL.md").write_text(bomb_front())
    return {
        "lint, link to / (no path)": (linked, ["lint"]),
        "lint .claude, link to /": (linked, ["lint", ".claude"]),
        "lint, alias bomb": (bomb, ["lint", ".claude"]),
    }


def measure(cwd: Path, args: list[str], src: Path | None, timeout: float, home: Path):
    env = {**os.environ, "HOME": str(home)}
    env.pop("CLAUDE_CONFIG_DIR", None)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", WATCH, str(timeout), sys.executable, "-m", "spawnkit", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        check=True,
    )
    seconds = time.perf_counter() - started
    code, peak = json.loads(out.stdout)
    return code, seconds, peak


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another tree's src folder (the baseline)")
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    trees = {"this tree": None}
    if args.against:
        trees["against"] = args.against.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        cases = build(Path(tmp))
        print(f"median of {args.runs} runs; a run past {args.timeout:.0f} s is killed")
        for name, (cwd, argv) in cases.items():
            for tree, src in trees.items():
                runs = [measure(cwd, argv, src, args.timeout, home) for _ in range(args.runs)]
                killed = sum(code is None for code, _, _ in runs)
                seconds = statistics.median(s for _, s, _ in runs)
                peak = statistics.median(p for _, _, p in runs)
                codes = sorted({c for c, _, _ in runs if c is not None})
                end = f"killed {killed}/{args.runs}" if killed else f"exit {codes}"
                print(f"{name:<28} {tree:<10} {seconds:7.2f} s  {peak:7.1f} MB  {end}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
