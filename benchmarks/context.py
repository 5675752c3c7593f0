"""How much orchestrator context spawnkit saves, measured in the real Claude Code client.

    python benchmarks/context.py                 # measure, print, write docs/benchmarks.md
    python benchmarks/context.py --no-others     # only the context figures
    python benchmarks/context.py --json          # machine-readable figures on stdout

An orchestrator spawns 6 sub-agents (the standard's cap per batch, foreground), each of which
answers ~3,000 tokens first. The real ``claude -p`` runs against the scripted fake API of the e2e
tests, once with no hooks ("off") and once after ``spawnkit install --mode enforce``. The fake
server sees exactly what the orchestrator model is sent, so the figures are the request that
follows the last sub-agent return: its size in bytes, its estimated tokens (spawnkit.tokens), the
growth since the orchestrator's first request, and the tokens of each sub-agent return as the
parent received it. Medians over ``--repeats`` runs; ratios are off / enforce in the same run.

It then runs the other ``benchmarks/*.py`` scripts and gathers their output, and writes
``docs/benchmarks.md`` with the machine it ran on and the command to rerun.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "src"), str(REPO)]

from spawnkit import protocol, tokens  # noqa: E402
from tests.e2e.fake_api import FakeAnthropic, Request  # noqa: E402
from tests.e2e.sandbox import INSTALL_HINT, ClaudeSandbox, find_claude  # noqa: E402
from tests.e2e.scenarios import fan_out  # noqa: E402

COMMAND = "python benchmarks/context.py"
OTHERS_TIMEOUT = 900


def model_tokens(req: Request) -> int:
    """Estimated tokens of what the model reads: system prompt, messages and tool definitions."""
    return tokens.estimate(
        req.text + "\n" + json.dumps(req.body.get("tools", []), ensure_ascii=False)
    )


def measure(binary: str, mode: str, agents: int, answer_tokens: int) -> dict[str, float]:
    """One orchestrated run; ``mode`` is "off" (nothing installed) or a spawnkit mode."""
    with tempfile.TemporaryDirectory(prefix="spawnkit-bench-") as tmp, FakeAnthropic() as api:
        box = ClaudeSandbox(Path(tmp), binary, api)
        if mode != "off":
            box.spawnkit("install", "--mode", mode, "--yes")
        fan = fan_out(
            api, "BENCH", agents=agents, answer_tokens=answer_tokens
        )  # same text both ways
        run = box.run(fan.prompt, output_format="json")
        first, last = fan.main.requests[0], fan.after_last_return()
        returns = [tokens.estimate(last.agent_result(c["id"]) or "") for c in fan.calls]
        return {
            "request_bytes": last.size,
            "request_tokens": model_tokens(last),
            "growth_bytes": last.size - first.size,
            "growth_tokens": model_tokens(last) - model_tokens(first),
            "return_tokens_median": statistics.median(returns),
            "return_tokens_max": max(returns),
            "answer_tokens": statistics.median(tokens.estimate(a) for a in fan.answers.values()),
            "seconds": run.seconds,
        }


def context_figures(binary: str, agents: int, repeats: int, answer_tokens: int) -> dict:
    runs: dict[str, list[dict[str, float]]] = {"off": [], "enforce": []}
    for i in range(repeats):
        for mode in runs:
            runs[mode].append(measure(binary, mode, agents, answer_tokens))
            print(
                f"  run {i + 1}/{repeats} {mode}: {runs[mode][-1]['request_tokens']} tokens",
                file=sys.stderr,
            )
    medians = {
        mode: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for mode, rs in runs.items()
    }
    off, on = medians["off"], medians["enforce"]
    return {
        "agents": agents,
        "repeats": repeats,
        "budget": protocol.return_budget(),
        "off": off,
        "enforce": on,
        "ratio_request": off["request_tokens"] / on["request_tokens"],
        "ratio_growth": off["growth_tokens"] / on["growth_tokens"],
        "ratio_per_return": off["return_tokens_median"] / on["return_tokens_median"],
    }


def other_benchmarks() -> list[tuple[str, str]]:
    """Run every other benchmarks/*.py and keep its output (their own headline figures)."""
    found = []
    for script in sorted((REPO / "benchmarks").glob("*.py")):
        if script.name == Path(__file__).name or script.name.startswith("_"):
            continue
        print(f"  running {script.name} ...", file=sys.stderr)
        try:
            proc = subprocess.run(
                [sys.executable, str(script)],
                cwd=REPO,
                capture_output=True,
                text=True,
                timeout=OTHERS_TIMEOUT,
                check=False,
            )
            out = proc.stdout.strip() or proc.stderr.strip()
            if proc.returncode != 0:
                out = f"(exited {proc.returncode})\n{proc.stderr.strip()[-2000:]}"
        except subprocess.TimeoutExpired:
            out = f"(timed out after {OTHERS_TIMEOUT} s)"
        found.append((script.name, out))
    return found


def machine(binary: str) -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    version = subprocess.run(
        [binary, "--version"], capture_output=True, text=True, check=False
    ).stdout
    return {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "claude": (version.split() or ["unknown"])[0],
        "date": time.strftime("%Y-%m-%d"),
        "load": " / ".join(f"{x:.1f}" for x in os.getloadavg())
        if hasattr(os, "getloadavg")
        else "n/a",
    }


def render(ctx: dict, host: dict[str, str], others: list[tuple[str, str]]) -> str:
    off, on = ctx["off"], ctx["enforce"]
    rows = [
        ("tokens of one sub-agent return, as received (median)", "return_tokens_median"),
        ("largest sub-agent return received", "return_tokens_max"),
        ("orchestrator request after the last return, bytes", "request_bytes"),
        ("orchestrator request after the last return, est. tokens", "request_tokens"),
        ("growth of that request over the first one, est. tokens", "growth_tokens"),
    ]
    table = ["| measure | hooks off | spawnkit enforce | off / enforce |", "|---|---:|---:|---:|"]
    for label, key in rows:
        table.append(f"| {label} | {off[key]:,.0f} | {on[key]:,.0f} | {off[key] / on[key]:.1f}x |")
    table.append(
        f"| wall time of one `claude -p` run, s | {off['seconds']:.1f} | {on['seconds']:.1f} | |"
    )
    fill = textwrap.fill
    machine_line = fill(
        f"Measured on {host['date']}: {host['cpu']}, {host['cores']} cores, {host['os']}, "
        f"Python {host['python']}, Claude Code {host['claude']}; load average at the start "
        f"{host['load']} (1 / 5 / 15 min): timings on a busy machine are noisy, sizes are not.",
        100,
    )
    setup = fill(
        f"An orchestrator spawns {ctx['agents']} sub-agents, {protocol.max_parallel()} at a time; "
        f'each first answers ~{off["answer_tokens"]:,.0f} tokens. "off": no hooks. '
        '"enforce": after `spawnkit install --mode enforce`, whose SubagentStop hook saves the '
        "long answer under `.spawnkit/returns/` and has the sub-agent reply again within the "
        f"{ctx['budget']}-token budget. Sizes are what the scripted fake API received from the "
        f"client; tokens by `spawnkit.tokens.estimate`. Medians of {ctx['repeats']} runs.",
        100,
    )
    summary = fill(
        f"Context per sub-agent return: {off['return_tokens_median']:,.0f} tokens without "
        f"spawnkit, {on['return_tokens_median']:,.0f} with it ({ctx['ratio_per_return']:.1f}x "
        f"less). After {ctx['agents']} returns the orchestrator's context has grown "
        f"{ctx['ratio_growth']:.1f}x less, and its whole request (system prompt and tool "
        f"definitions included) is {ctx['ratio_request']:.1f}x smaller. The client's own `usage` "
        "figures are left out: against a fake API they only echo what the fake server reports "
        "(ceil(bytes / 4)).",
        100,
    )
    doc = (
        "\n\n".join(
            [
                "# Benchmarks",
                machine_line,
                f"Rerun everything: `{COMMAND}` (needs the Claude Code CLI: tests/e2e/README.md).",
                "## Orchestrator context with and without spawnkit (real Claude Code client)",
                setup,
                "\n".join(table),
                summary,
            ]
        )
        + "\n"
    )
    for name, out in others:
        doc += f"\n## `benchmarks/{name}`\n\nRerun: `python benchmarks/{name}`\n\n```\n{out}\n```\n"
    return doc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--answer-tokens", type=int, default=3000)
    parser.add_argument("--no-others", action="store_true", help="skip the other benchmarks")
    parser.add_argument("--output", type=Path, default=REPO / "docs" / "benchmarks.md")
    parser.add_argument("--no-write", action="store_true", help="print only, write no file")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    binary = find_claude()
    if not binary:
        print(f"context.py: error: Claude Code CLI not found; {INSTALL_HINT}", file=sys.stderr)
        return 2
    host = machine(binary)
    print(f"context: {args.agents} sub-agents x {args.repeats} runs per mode ...", file=sys.stderr)
    ctx = context_figures(binary, args.agents, args.repeats, args.answer_tokens)
    others = [] if args.no_others else other_benchmarks()
    doc = render(ctx, host, others)
    if args.json:
        print(json.dumps({"machine": host, "context": ctx, "others": dict(others)}, indent=2))
    else:
        section = doc[doc.index("## Orchestrator context") :]
        print(section.split("\n## ", 1)[0])
    if not args.no_write:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(doc, encoding="utf-8")
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
