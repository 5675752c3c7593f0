#!/usr/bin/env python3
"""Median time of spawnkit's settings merge vs a naive load-modify-dump, same files, same run.

For settings.json files holding 10, 100 and 1,000 user hook entries (4-space indent, the
shape of a power user's file), it times, in-process:
- spawnkit: ``settings_merge.install`` (splices the entries into the text, every other byte
  kept) followed by ``settings_merge.uninstall`` (gives the original back);
- baseline: ``json.loads``, append the same entries, ``json.dumps`` and back: what an
  installer that reformats the user's file does (it loses the user's formatting).
It also times ``spawnkit doctor``'s trial run of the installed hook command on an empty
payload (a fresh process, as Claude Code runs it). Usage: python benchmarks/install.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time

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
    assert sm.uninstall(result.text, result.created_keys) == text


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
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


if __name__ == "__main__":
    main()
