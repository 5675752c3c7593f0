"""Instructions one spawnkit-hook process executes, per case, against a bare Python start.

The cases, payloads and throw-away folders are ``benchmarks/hook.py``'s. Each command runs under
``valgrind --tool=callgrind`` and the count of instructions it executed (user space, the
interpreter's start and end included) is read from callgrind's summary. Unlike wall time, the
count hardly moves with the machine's load (a few thousandths between runs, from hash
randomisation), so it shows a change of 1 % that a timed run on a busy machine cannot: use it to
find where the hook's time goes and to compare two trees; the goal itself (<= 1.6) is on wall
time (``benchmarks/hook.py``). System calls are not counted (a file created, a lock taken).

    python benchmarks/hook_instructions.py [--runs 1] [--python PATH] [--against SRC]
                                           [--only TEXT] [--json]

``--against SRC`` (another tree's ``src`` folder, e.g. a ``git worktree`` of the commit before a
change) counts every hook case from that tree too and prints this tree's count over that one's.
Needs valgrind (``apt-get install valgrind``); each run of a command takes a second or two.
Exit status: 0, or 2 when valgrind is missing or a command fails.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hook import GOAL, hook_cases, reset_sessions, setup  # noqa: E402

BARE = "python -I -S -c pass"


def count(argv: list[str], stdin: bytes, env: dict[str, str], out: Path) -> int:
    """Instructions ``argv`` executes (callgrind's summary), stdin given, stdout discarded."""
    out.unlink(missing_ok=True)
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv],
        input=stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"benchmark command failed ({proc.returncode}) under valgrind: {argv}")
    for line in out.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise SystemExit(f"no instruction count in {out}: is this valgrind's callgrind?")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="counts per command (median; 1)")
    parser.add_argument("--python", default=sys.executable, help="interpreter to measure")
    parser.add_argument("--against", type=Path, help="another tree's src folder, counted too")
    parser.add_argument("--only", default="", help="only the cases whose name contains this")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.stderr.write(
            "hook_instructions: valgrind not found; install it (apt-get install valgrind)\n"
        )
        return 2

    with tempfile.TemporaryDirectory(prefix="spawnkit-bench-") as tmp:
        env, stdin = setup(tmp)
        cases = {
            name: case
            for name, case in hook_cases(args.python, stdin, args.against).items()
            if name == BARE or args.only in name
        }
        for name, (argv, data) in cases.items():  # bytecode caches and state files, untimed
            for _ in range(2):
                reset_sessions(name, env)
                subprocess.run(argv, input=data, stdout=subprocess.DEVNULL, env=env, check=False)
        out = Path(tmp, "callgrind.out")
        counts: dict[str, int] = {}
        for name, (argv, data) in cases.items():
            runs = []
            for _ in range(args.runs):
                reset_sessions(name, env)
                runs.append(count(argv, data, env, out))
            counts[name] = int(statistics.median(runs))

    base = counts[BARE]
    ratios = {name: n / base for name, n in counts.items()}
    changes = {
        name: n / counts["against " + name]
        for name, n in counts.items()
        if name.startswith("hook ") and "against " + name in counts
    }
    if args.json:
        figures = {
            "runs": args.runs,
            "python": args.python,
            "instructions": counts,
            "ratio_to_baseline": ratios,
            "against": str(args.against) if args.against else None,
            "ratio_to_against": changes,
        }
        print(json.dumps(figures, indent=2))
        return 0
    print(f"instructions, median of {args.runs} per command, {args.python}")
    for name, n in counts.items():
        print(f"  {name:48s} {n / 1e6:7.2f} M   ratio {ratios[name]:.2f}")
    worst = max(r for name, r in ratios.items() if name.startswith("hook "))
    print(f"worst hook ratio {worst:.2f} (instructions; the goal of <= {GOAL} is on wall time)")
    if changes:
        print(f"this tree against {args.against} (instructions, 1.00 = unchanged):")
        for name, change in changes.items():
            print(f"  {name:48s} {change:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
