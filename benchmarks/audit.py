"""``spawnkit audit`` throughput and peak memory on a generated transcript set.

    python benchmarks/audit.py                  # 1 GB set, 3 runs each, one core
    python benchmarks/audit.py --size-mb 200 --runs 1 --json
    python benchmarks/audit.py --against /tmp/before/src   # this tree against another, same set

The set is made of copies of the real-client fixtures (tests/fixtures/audit: Claude Code
2.1.330 and Codex 0.169.0 transcripts, every scenario), each copy with its own session and
thread ids, until it reaches ``--size-mb``. Each measurement is a fresh process pinned to one
core (``taskset -c 0`` where available):

1. ``spawnkit audit ROOT --format json`` (the whole command: discovery, reading, analysis,
   rendering), wall and CPU seconds, MB/s, peak RSS;
2. baseline, same run: read every line and ``json.loads`` it (what any reader of these files
   pays at least), and a bare line read;
3. memory: peak RSS of the audit on a tenth of the set, and on that tenth plus one 50 MB line,
   against the whole set: the line, not the total, moves it.

``--against SRC`` (another tree's ``src`` folder, e.g. a ``git worktree`` of the commit before a
change) also audits the same set with that tree, each of its runs right after one of this
tree's (so both see the same load), and reports the ratio of the medians: what the change
costs. Issue 31 (attribution of launches to skills) was held to at most 1.10 this way.

Goal (issue 16): 1 GB in under 30 s on one core; memory bounded by the longest line.
The fixtures carry little of what the audit skips unparsed (system-prompt copies are cut in
them), so this set is harder per byte than a real one of the same size.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "audit"
GOAL_SECONDS_PER_GB = 30.0


# --- the transcript set --------------------------------------------------------------------------


def _scenarios() -> list[tuple[str, list[tuple[Path, bytes]]]]:
    found = []
    for facts in sorted(FIXTURES.glob("*/*/facts.json")):
        folder = facts.parent
        files = [(p.relative_to(folder), p.read_bytes()) for p in sorted(folder.rglob("*.jsonl"))]
        found.append((folder.relative_to(FIXTURES).as_posix(), files))
    return found


def _ids(name: str, files: list[tuple[Path, bytes]]) -> list[bytes]:
    """The session (Claude Code) or thread-id prefix (Codex) to make unique per copy."""
    if name.startswith("codex/"):
        return [files[0][0].name.split("-")[-5].encode()]  # all threads of a run share it
    main = next(rel for rel, _ in files if "subagents" not in rel.parts)
    return [main.stem.encode()]


def generate(root: Path, size: int) -> tuple[int, int]:
    """Copies of every fixture scenario under ``root`` until ``size`` bytes; (bytes, files)."""
    scenarios = [(name, files, _ids(name, files)) for name, files in _scenarios()]
    written = count = copy = 0
    while written < size:
        copy += 1
        tag = f"{copy:08x}"
        for name, files, ids in scenarios:
            for rel, data in files:
                text = data
                parts = str(rel)
                for old in ids:
                    new = tag.encode() + old[8:]
                    text = text.replace(old, new)
                    parts = parts.replace(old.decode(), new.decode())
                host = name.split("/")[0]
                if host == "codex":
                    target = root / "codex" / "sessions" / f"{copy % 97:04d}" / Path(parts).name
                else:
                    target = root / "claude" / "projects" / f"copy-{copy}-{name.split('/')[1]}"
                    target = target / Path(parts).relative_to(Path(parts).parts[0]).relative_to(
                        Path(parts).parts[1]
                    )
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(text)
                written += len(text)
                count += 1
    return written, count


# --- measurements (each in a fresh process) ------------------------------------------------------


def _child(kind: str, root: str) -> None:
    started = time.perf_counter()
    if kind == "audit":
        from spawnkit.cli import main

        sys.argv = ["spawnkit", "audit", root, "--format", "json"]
        out = sys.stdout
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - the report itself is not the point
        try:
            main()
        except SystemExit:
            pass
        sys.stdout = out
    else:
        import json as _json

        for folder, _, names in os.walk(root):
            for name in names:
                if name.endswith(".jsonl"):
                    with open(os.path.join(folder, name), "rb") as fh:
                        for line in fh:
                            if kind == "json.loads":
                                _json.loads(line)
    wall = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(
        json.dumps(
            {
                "seconds": wall,
                "cpu": usage.ru_utime + usage.ru_stime,
                "rss_mb": usage.ru_maxrss / 1024,
            }
        )
    )


def measure(kind: str, root: Path, src: Path | None = None) -> dict[str, float]:
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    proc = subprocess.run(
        [*pin, sys.executable, __file__, "--child", kind, str(root)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(src or REPO / "src")},
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _median(results: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(r[key] for r in results) for key in results[0]}


def median_of(kind: str, root: Path, runs: int) -> dict[str, float]:
    return _median([measure(kind, root) for _ in range(runs)])


def paired(root: Path, runs: int, other: Path) -> tuple[dict[str, float], dict[str, float]]:
    """The audit of ``root`` by this tree and by ``other``, run in turns: (this, other)."""
    mine, theirs = [], []
    for _ in range(runs):
        mine.append(measure("audit", root))
        theirs.append(measure("audit", root, other))
    return _median(mine), _median(theirs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--against",
        type=Path,
        metavar="SRC",
        help="another tree's src folder: audit the same set with it too, in turns, and compare",
    )
    parser.add_argument("--child", nargs=2, metavar=("KIND", "ROOT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.against is not None and not (args.against / "spawnkit" / "cli.py").is_file():
        parser.error(f"--against {args.against}: not a src folder holding spawnkit")
    if args.child:
        _child(*args.child)
        return 0
    with tempfile.TemporaryDirectory(prefix="spawnkit-audit-bench-") as tmp:
        whole, tenth = Path(tmp) / "whole", Path(tmp) / "tenth"
        size, files = generate(whole, args.size_mb * 1_000_000)
        small_size, _ = generate(tenth, args.size_mb * 100_000)
        if args.against is not None:
            audit, against = paired(whole, args.runs, args.against.resolve())
        else:
            audit, against = median_of("audit", whole, args.runs), None
        loads = median_of("json.loads", whole, args.runs)
        raw = median_of("read", whole, args.runs)
        small = median_of("audit", tenth, args.runs)
        big_line = tenth / "claude" / "projects" / "big-line" / "big.jsonl"
        big_line.parent.mkdir(parents=True)
        filler = "x" * 50_000_000
        record = {"type": "user", "message": {"role": "user", "content": filler}}
        big_line.write_text(json.dumps(record) + "\n")
        with_line = median_of("audit", tenth, args.runs)
    mb = size / 1e6
    figures = {
        "set_mb": round(mb, 1),
        "files": files,
        "audit_seconds": round(audit["seconds"], 2),
        "audit_cpu_seconds": round(audit["cpu"], 2),
        "audit_mb_per_s": round(mb / audit["seconds"], 1),
        "seconds_per_gb": round(audit["seconds"] / mb * 1000, 1),
        "json_loads_seconds": round(loads["seconds"], 2),
        "read_seconds": round(raw["seconds"], 2),
        "ratio_to_json_loads": round(audit["seconds"] / loads["seconds"], 2),
        "rss_mb_whole": round(audit["rss_mb"], 1),
        "rss_mb_tenth": round(small["rss_mb"], 1),
        "rss_mb_tenth_plus_50mb_line": round(with_line["rss_mb"], 1),
        "tenth_mb": round(small_size / 1e6, 1),
        "goal_met": audit["seconds"] / mb * 1000 < GOAL_SECONDS_PER_GB,
    }
    if against is not None:
        figures.update(
            against=str(args.against),
            against_seconds=round(against["seconds"], 2),
            against_cpu_seconds=round(against["cpu"], 2),
            ratio_to_against=round(audit["seconds"] / against["seconds"], 3),
            cpu_ratio_to_against=round(audit["cpu"] / against["cpu"], 3),
        )
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(
        f"spawnkit audit, {figures['set_mb']:,} MB in {files:,} transcripts (copies of the real-"
        f"client fixtures), one core, median of {args.runs}:\n"
        f"  audit: {figures['audit_seconds']} s wall ({figures['audit_cpu_seconds']} s CPU), "
        f"{figures['audit_mb_per_s']} MB/s = {figures['seconds_per_gb']} s per GB "
        f"(goal < {GOAL_SECONDS_PER_GB:.0f} s: {'met' if figures['goal_met'] else 'NOT met'})\n"
        f"  baseline, same run: read + json.loads every line {figures['json_loads_seconds']} s "
        f"(audit = {figures['ratio_to_json_loads']}x), bare line read {figures['read_seconds']} s\n"
        f"  peak RSS: {figures['rss_mb_whole']} MB on the whole set, {figures['rss_mb_tenth']} MB "
        f"on a tenth ({figures['tenth_mb']} MB), {figures['rss_mb_tenth_plus_50mb_line']} MB on "
        "that tenth plus one 50 MB line"
    )
    if against is not None:
        print(
            f"  against {args.against}, same set, in turns: {figures['against_seconds']} s wall "
            f"({figures['against_cpu_seconds']} s CPU); this tree = {figures['ratio_to_against']}x "
            f"wall, {figures['cpu_ratio_to_against']}x CPU"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
