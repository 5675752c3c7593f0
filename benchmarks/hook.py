"""Start-up cost of one spawnkit-hook process, against a bare Python start in the same run.

Measures the median wall time of:
  * ``<python> -I -S -c pass``                       (baseline: the floor for any Python hook)
  * ``<python> -I -S <src>/spawnkit/hook/__main__.py`` on the real SubagentStop payload
  * the same on the real PreToolUse Agent payload
  * the same on a real workflow's ``<task-notification>`` (UserPromptSubmit), its result grown
    to ~2,000 tokens so the notification is parsed, measured and reported (issue 20)
  * the same on a sub-agent's real PreToolUse ``SendMessage`` to main (a short note: the usual
    path, measured and let through) and on the orchestrator's real UserPromptSubmit carrying a
    ~21,000-character ``<agent-message>`` (parsed, measured and reported; issue 35)
  * ``… __main__.py --host codex`` on Codex CLI's real SubagentStop and PreToolUse
    ``spawn_agent`` payloads
  * ``… __main__.py --host copilot --event …`` on Copilot CLI's real subagentStop and
    preToolUse ``task`` payloads
  * ``… __main__.py --host gemini`` on Gemini CLI's real BeforeTool ``complete_task`` (a short
    answer: the usual path) and ``invoke_agent`` payloads, and ``--host qwen`` on Qwen Code's
    real SubagentStop
  * ``spawnkit-hook`` (the pip console script, for comparison) on the SubagentStop payload
interleaved round by round so machine load hits all of them alike, and prints the
ratios hook / baseline (goal: <= 1.6), of the wall time and, beside it, of the CPU time the
process used (less sensitive to other work on a busy machine). Runs in throw-away Claude, Codex
and Copilot folders.

Then a Read whose ``file_path`` is 15 MB long (issue 12: it took 11.6 s, over the client's
10 s hook timeout), against the usual Read payload, and against what only moving and
parsing the same stdin costs in a fresh process (``_json``, as the hook parses it). Goal:
the 15 MB Read costs at most the usual Read plus that parsing difference (10 % slack).

    python benchmarks/hook.py [--rounds 200] [--big-rounds 20] [--python PATH] [--json]
                              [--against SRC]

``--against SRC`` (another tree's ``src`` folder, e.g. a ``git worktree`` of the commit before a
change) adds every hook case run from that tree, interleaved in the same rounds, and prints the
ratio of this tree's median to that one's: a before/after in one run, on one machine load.
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

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "src" / "spawnkit" / "hook" / "__main__.py"
PAYLOADS = REPO / "tests" / "fixtures" / "payloads"
CODEX_PAYLOADS = REPO / "tests" / "fixtures" / "codex-payloads"
COPILOT_PAYLOADS = REPO / "tests" / "fixtures" / "copilot-payloads"
GEMINI_PAYLOADS = REPO / "tests" / "fixtures" / "gemini-payloads"
QWEN_PAYLOADS = REPO / "tests" / "fixtures" / "qwen-payloads"
GOAL = 1.6


def timed(argv: list[str], stdin: bytes, env: dict[str, str]) -> float:
    return cpu_timed(argv, stdin, env)[0]


def cpu_timed(argv: list[str], stdin: bytes, env: dict[str, str]) -> tuple[float, float]:
    """Wall time and the child's CPU time (user + system): on a loaded machine the wall time
    also counts waiting for a core, the CPU time does not."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, input=stdin, stdout=subprocess.PIPE, env=env, check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"benchmark command failed ({proc.returncode}): {argv}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rounds", type=int, default=200, help="runs of each command (default 200)"
    )
    parser.add_argument("--python", default=sys.executable, help="interpreter to measure")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--big-rounds", type=int, default=20, help="runs of the 15 MB Read cases (default 20)"
    )
    parser.add_argument(
        "--against",
        type=Path,
        help="another tree's src folder: its hook is measured in the same rounds (before/after)",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="spawnkit-bench-") as tmp:
        env, stdin = setup(tmp)
        cases = hook_cases(args.python, stdin, args.against)
        console = shutil.which("spawnkit-hook", path=str(Path(args.python).parent))
        if console:
            cases["spawnkit-hook console script, SubagentStop"] = (
                [console],
                stdin("SubagentStop_foreground"),
            )
        for argv, data in cases.values():  # warm up: page cache, bytecode, state files
            for _ in range(5):
                timed(argv, data, env)
        samples: dict[str, list[float]] = {name: [] for name in cases}
        cpu: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.rounds):
            for name, (argv, data) in cases.items():
                reset_sessions(name, env)
                wall, used = cpu_timed(argv, data, env)
                samples[name].append(wall)
                cpu[name].append(used)

        big = big_read(args, env, stdin)

    medians = {name: statistics.median(times) * 1000 for name, times in samples.items()}
    base = medians["python -I -S -c pass"]
    ratios = {name: ms / base for name, ms in medians.items()}
    cpu_medians = {name: statistics.median(times) * 1000 for name, times in cpu.items()}
    cpu_ratios = {
        name: ms / cpu_medians["python -I -S -c pass"] for name, ms in cpu_medians.items()
    }
    if args.json:
        print(
            json.dumps(
                {
                    "rounds": args.rounds,
                    "python": args.python,
                    "median_ms": medians,
                    "ratio_to_baseline": ratios,
                    "cpu_median_ms": cpu_medians,
                    "cpu_ratio_to_baseline": cpu_ratios,
                    "goal": GOAL,
                    "big_read_ms": big,
                    "against": str(args.against) if args.against else None,
                },
                indent=2,
            )
        )
    else:
        print(f"{args.rounds} rounds, {args.python}")
        for name in cases:
            print(
                f"  {name:45s} median {medians[name]:6.1f} ms   ratio {ratios[name]:.2f}"
                f"   cpu {cpu_medians[name]:5.1f} ms ratio {cpu_ratios[name]:.2f}"
            )
        worst = max(ratio for name, ratio in ratios.items() if name.startswith("hook "))
        verdict = "meets" if worst <= GOAL else "misses"
        print(f"worst hook ratio {worst:.2f} {verdict} the goal of <= {GOAL}")
        worst_cpu = max(r for name, r in cpu_ratios.items() if name.startswith("hook "))
        print(f"worst hook CPU-time ratio {worst_cpu:.2f} (the wall ratio is the goal's measure)")
        if args.against:
            print(f"this tree against {args.against} (median ratio, 1.00 = unchanged):")
            for name in cases:
                if name.startswith("hook ") and "against " + name in medians:
                    change = medians[name] / medians["against " + name]
                    print(f"  {name:45s} {change:.2f}")
        bound = big["hook Read"] + (big["parse only, 15 MB"] - big["parse only"]) * 1.1
        print(f"{args.big_rounds} rounds, Read of a 15 MB file_path:")
        for name, ms in big.items():
            print(f"  {name:45s} median {ms:6.1f} ms")
        verdict = "meets" if big["hook Read, 15 MB"] <= bound else "misses"
        print(
            f"15 MB Read {big['hook Read, 15 MB']:.1f} ms {verdict} the bound of the usual Read"
            f" plus parsing: {bound:.1f} ms"
        )
    return 0


def setup(tmp: str):
    """The throw-away Claude, Codex, Copilot, Gemini and Qwen folders in ``tmp``: the hook's
    environment, and a reader of a real payload pointed at the project there."""
    project = Path(tmp, "proj")
    project.mkdir()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": tmp,
        "CLAUDE_CONFIG_DIR": str(Path(tmp, "claude")),
        "CLAUDE_PROJECT_DIR": str(project),
        "CODEX_HOME": str(Path(tmp, "codex")),
        "COPILOT_HOME": str(Path(tmp, "copilot")),
        "COPILOT_PROJECT_DIR": str(project),
        "GEMINI_PROJECT_DIR": str(project),
        "QWEN_HOME": str(Path(tmp, "qwen")),
        "QWEN_PROJECT_DIR": str(project),
    }

    def stdin(name: str, folder: Path = PAYLOADS) -> bytes:
        data = json.loads((folder / f"{name}.json").read_text())
        data["cwd"] = str(project)
        return json.dumps(data).encode()

    return env, stdin


def hook_cases(python: str, stdin, against: Path | None = None):
    """Every measured command and its stdin, by name: the bare start, each hook case, and with
    ``against`` each case again from that tree (``against …``)."""
    hook = [python, "-I", "-S", str(SCRIPT)]
    codex = [*hook, "--host", "codex"]
    copilot = [*hook, "--host", "copilot", "--event"]
    gemini, qwen = [*hook, "--host", "gemini"], [*hook, "--host", "qwen"]
    cases = {
        "python -I -S -c pass": ([python, "-I", "-S", "-c", "pass"], b""),
        "hook SubagentStop": (hook, stdin("SubagentStop_foreground")),
        "hook PreToolUse Agent": (hook, stdin("PreToolUse_Agent")),
        "hook UserPromptSubmit notification": (hook, notification(stdin)),
        "hook PreToolUse SendMessage": (hook, stdin("PreToolUse_SendMessage_main_short")),
        "hook UserPromptSubmit agent message": (
            hook,
            stdin("UserPromptSubmit_agent_message_long_busy"),
        ),
        "hook --host codex SubagentStop": (
            codex,
            stdin("block__SubagentStop_01", CODEX_PAYLOADS),
        ),
        "hook --host codex PreToolUse spawn_agent": (
            codex,
            stdin("run1__PreToolUse_00", CODEX_PAYLOADS),
        ),
        "hook --host copilot subagentStop": (
            [*copilot, "subagentStop"],
            stdin("subagentStop_after_block", COPILOT_PAYLOADS),
        ),
        "hook --host copilot preToolUse task": (
            [*copilot, "preToolUse"],
            stdin("preToolUse_task_main", COPILOT_PAYLOADS),
        ),
        "hook --host gemini BeforeTool complete_task": (
            gemini,
            stdin("BeforeTool_complete_task_short", GEMINI_PAYLOADS),
        ),
        "hook --host gemini BeforeTool invoke_agent": (
            gemini,
            stdin("BeforeTool_invoke_agent", GEMINI_PAYLOADS),
        ),
        "hook --host qwen SubagentStop": (
            qwen,
            stdin("SubagentStop_a_after_block", QWEN_PAYLOADS),
        ),
    }
    if against:
        other = str(against.resolve() / "spawnkit" / "hook" / "__main__.py")
        # a tree from before issue 33 knows no --host gemini or qwen: those cases are left out
        known = (against / "spawnkit" / "hosts" / "__init__.py").read_text()
        for name, (argv, data) in list(cases.items()):
            host = argv[argv.index("--host") + 1] if "--host" in argv else "claude-code"
            if name.startswith("hook ") and f'name="{host}"' in known:
                swapped = [other if part == str(SCRIPT) else part for part in argv]
                cases["against " + name] = (swapped, data)
    return cases


def reset_sessions(name: str, env: dict[str, str]) -> None:
    """Every launch case, and every Copilot CLI and Gemini CLI case, starts its round from no
    session state, as a session's first launch does. A launch takes a slot of its own in the
    session file, also one whose call id is taken already (it gets ``#2``, ``#3``…), and a slot
    lives 60 s: replaying one payload would pile up a slot per round (150 rounds, two trees:
    some 300 launches in one file, each call parsing, listing and writing them all). Copilot CLI
    names no call id, and no stop follows a Gemini CLI launch, so their other cases start
    afresh too."""
    if "--host copilot" in name:
        folder = env["COPILOT_HOME"]
    elif "--host gemini" in name:
        folder = str(Path(env["HOME"], ".gemini"))
    elif name.endswith(("PreToolUse Agent", "PreToolUse spawn_agent")):
        folder = env["CODEX_HOME"] if "--host codex" in name else env["CLAUDE_CONFIG_DIR"]
    else:
        return
    shutil.rmtree(Path(folder, ".spawnkit", "sessions"), ignore_errors=True)


def notification(stdin) -> bytes:
    """A real workflow notification whose result is over the return budget."""
    data = json.loads(stdin("UserPromptSubmit_workflow_notification"))
    note = data["prompt"]
    start, end = note.index("<result>") + len("<result>"), note.index("</result>")
    result = json.dumps({"report": "finding: src/module.py raises KeyError under load; " * 150})
    data["prompt"] = note[:start] + result + note[end:]
    return json.dumps(data).encode()


PARSE = (
    "import sys, _json\n"
    "class C:\n"
    "    strict=False; object_hook=None; object_pairs_hook=None; parse_float=float\n"
    "    parse_int=int; parse_constant=float; memo={}\n"
    "_json.make_scanner(C())(sys.stdin.buffer.read().decode('utf-8', 'replace'), 0)\n"
)


def big_read(args, env: dict[str, str], stdin) -> dict[str, float]:
    """Medians (ms): the usual Read, the 15 MB Read, and parsing each payload alone."""
    usual = stdin("PreToolUse_Read")
    data = json.loads(usual)
    data["tool_input"]["file_path"] = data["cwd"] + "/.audit-reports/" + "x" * 15_000_000 + ".md"
    huge = json.dumps(data).encode()
    hook = [args.python, "-I", "-S", str(SCRIPT)]
    parse = [args.python, "-I", "-S", "-c", PARSE]
    cases = {
        "hook Read": (hook, usual),
        "hook Read, 15 MB": (hook, huge),
        "parse only": (parse, usual),
        "parse only, 15 MB": (parse, huge),
    }
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for argv, payload in cases.values():
        timed(argv, payload, env)
    for _ in range(args.big_rounds):
        for name, (argv, payload) in cases.items():
            samples[name].append(timed(argv, payload, env))
    return {name: statistics.median(times) * 1000 for name, times in samples.items()}


if __name__ == "__main__":
    raise SystemExit(main())
