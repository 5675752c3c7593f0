#!/usr/bin/env python3
"""Median time of spawnkit's settings merge vs a naive load-modify-dump, same files, same run.

For settings.json files holding 10, 100 and 1,000 user hook entries (4-space indent, the
shape of a power user's file), it times, in-process:
- spawnkit: ``settings_merge.install`` (splices the entries into the text, every other byte
  kept) followed by ``settings_merge.remove`` (gives the original back);
- baseline: ``json.loads``, append the same entries, ``json.dumps`` and back: what an
  installer that reformats the user's file does (it loses the user's formatting).
It also times ``spawnkit doctor``'s trial run of the installed hook command on an empty
payload (a fresh process, as Claude Code runs it).

Large files (issue 12: a 10.7 MB settings.json took 28 s to install and 44 s to uninstall):
``spawnkit install --yes`` then ``spawnkit uninstall --yes``, each a fresh process through the
real CLI (lock, journal, backup, record), on two ~10 MB settings.json shapes: 55,000 user hook
groups, and a 360,000-entry permission list. Baseline in the same run: a fresh process that
only ``json.load``s the file and ``json.dump``s it back (the floor of any installer that reads
the whole file). Goal: install + uninstall under 2 s.

Usage: python benchmarks/install.py [--runs N] [--large-runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from spawnkit.install import registrations as regs
from spawnkit.install import settings_merge as sm


def settings_with(hooks: int) -> str:
    events = ["PreToolUse", "PostToolUse", "SubagentStop", "Stop", "SessionStart"]
    data: dict = {"model": "opus", "permissions": {"allow": ["Bash(ls:*)"]}, "hooks": {}}
    for i in range(hooks):
        group = {"matcher": "Bash", "hooks": [{"type": "command", "command": f"~/h/{i}.sh"}]}
        data["hooks"].setdefault(events[i % len(events)], []).append(group)
    return json.dumps(data, indent=4) + "\n"


def spawnkit_round_trip(text: str, command: str) -> None:
    result = sm.install(text, command)
    assert sm.remove(result.text, result.created_keys).text == text


def naive_round_trip(text: str, command: str) -> None:
    data = json.loads(text)
    for reg in regs.registrations():
        data["hooks"].setdefault(reg.event, []).append(regs.matcher_group(reg, command))
    out = json.dumps(data, indent=4)
    data = json.loads(out)
    for groups in data["hooks"].values():
        groups[:] = [g for g in groups if not regs.is_managed(g["hooks"][0]["command"])]
    json.dumps(data, indent=4)


def median_seconds(func, *args, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        func(*args)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


LARGE_GOAL = 2.0  # seconds, install + uninstall


def large_settings(shape: str) -> str:
    """~10 MB of settings.json in one of two shapes a power user (or a hostile repo) could have."""
    if shape == "hooks":
        groups = [
            {
                "matcher": f"Tool{i}",
                "hooks": [{"type": "command", "command": f"echo {i}", "timeout": 5}],
            }
            for i in range(55_000)
        ]
        data: dict = {"model": "opus", "hooks": {"PreToolUse": groups}}
    else:
        data = {
            "model": "opus",
            "permissions": {"allow": [f"Bash(tool-{i} *)" for i in range(360_000)]},
        }
    return json.dumps(data, indent=2) + "\n"


NAIVE = (
    "import json, sys; d = json.load(open(sys.argv[1])); "
    "open(sys.argv[1] + '.out', 'w').write(json.dumps(d, indent=2))"
)


def large_round_trip(text: str, runs: int) -> tuple[float, float, float]:
    """Medians (s) of: spawnkit install, spawnkit uninstall, naive load+dump; fresh processes."""
    install, uninstall, naive = [], [], []
    with tempfile.TemporaryDirectory(prefix="spawnkit-bench-large-") as tmp:
        env = {**os.environ, "HOME": tmp}
        env.pop("CLAUDE_CONFIG_DIR", None)
        for run in range(runs):
            cfg = Path(tmp) / f"claude{run}"
            cfg.mkdir()
            (cfg / "settings.json").write_text(text)
            for verb, times in (("install", install), ("uninstall", uninstall)):
                started = time.perf_counter()
                subprocess.run(
                    [sys.executable, "-m", "spawnkit", verb, "--yes", "--config-dir", str(cfg)],
                    env=env,
                    check=True,
                    capture_output=True,
                    stdin=subprocess.DEVNULL,
                )
                times.append(time.perf_counter() - started)
            if (cfg / "settings.json").read_text() != text:
                raise SystemExit("benchmark: uninstall did not give the original back")
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", NAIVE, str(cfg / "settings.json")], check=True)
            naive.append(time.perf_counter() - started)
            shutil.rmtree(cfg)
    return statistics.median(install), statistics.median(uninstall), statistics.median(naive)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--large-runs", type=int, default=5, help="runs per large file (default 5)")
    args = parser.parse_args()
    runs = args.runs
    command = regs.installed_command()
    for size in (10, 100, 1000):
        text = settings_with(size)
        ours = median_seconds(spawnkit_round_trip, text, command, runs=runs)
        base = median_seconds(naive_round_trip, text, command, runs=runs)
        print(
            f"install+uninstall, {size:>4} user hooks ({len(text) // 1024} KiB):"
            f" spawnkit {ours * 1000:.1f} ms, naive json {base * 1000:.1f} ms,"
            f" ratio {ours / base:.1f}x (median of {runs})"
        )
    trial = median_seconds(
        lambda: subprocess.run(
            command, shell=True, input=b"{}", capture_output=True, check=True, timeout=30
        ),
        runs=runs,
    )
    print(f"installed hook, empty payload, fresh process: {trial * 1000:.0f} ms (median of {runs})")
    for shape in ("hooks", "permissions"):
        text = large_settings(shape)
        install, uninstall, naive = large_round_trip(text, args.large_runs)
        total = install + uninstall
        verdict = "meets" if total <= LARGE_GOAL else "misses"
        print(
            f"{len(text) / 1e6:.1f} MB settings.json ({shape}), CLI processes: install"
            f" {install:.2f} s + uninstall {uninstall:.2f} s = {total:.2f} s ({verdict} the goal of"
            f" < {LARGE_GOAL:.0f} s); naive json load+dump {naive:.2f} s, ratio"
            f" {total / naive:.1f}x (medians of {args.large_runs})"
        )


if __name__ == "__main__":
    main()
