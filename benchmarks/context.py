"""How much orchestrator context spawnkit saves, measured in the real Claude Code, Codex and
Copilot CLIs.

    python benchmarks/context.py                 # measure, print, write docs/benchmarks.md
    python benchmarks/context.py --no-others     # only the context figures
    python benchmarks/context.py --keep-others   # rerun the context figures, keep the other
                                                 # benchmarks' sections of docs/benchmarks.md
    python benchmarks/context.py --client codex  # one client only (default: all)
    python benchmarks/context.py --json          # machine-readable figures on stdout

An orchestrator spawns 6 sub-agents (the standard's cap per batch), each of which answers ~3,000
tokens first. The real ``claude -p`` (Agent tool, foreground), ``codex exec`` (spawn_agent and
wait_agent, multi-agent v1) and ``copilot -p`` (sync ``task`` calls) run against the scripted
fake APIs of the e2e tests, once with no hooks ("off") and once after ``spawnkit install --mode
enforce`` (``--host codex`` for Codex, ``--host copilot`` for Copilot). The
fake server sees exactly what the orchestrator model is sent, so the figures are the request that
follows the last sub-agent return: its size in bytes, its estimated tokens (spawnkit.tokens), the
growth since the orchestrator's first request, and the tokens of each sub-agent return as the
parent received it (Codex hands each result over twice: in wait_agent's output and in a
notification; both copies are counted). Medians over ``--repeats`` runs; ratios are
off / enforce in the same run.

It then runs the other ``benchmarks/*.py`` scripts and gathers their output, and writes
``docs/benchmarks.md`` with the machine it ran on and the command to rerun.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "src"), str(REPO)]

from spawnkit import tokens  # noqa: E402
from spawnkit.standard import protocol  # noqa: E402
from tests.e2e.codex_sandbox import CODEX_HINT, CodexSandbox, find_codex  # noqa: E402
from tests.e2e.copilot_sandbox import COPILOT_HINT, CopilotSandbox, find_copilot  # noqa: E402
from tests.e2e.fake_api import FakeAnthropic  # noqa: E402
from tests.e2e.fake_chat import FakeChat  # noqa: E402
from tests.e2e.fake_responses import FakeResponses  # noqa: E402
from tests.e2e.sandbox import INSTALL_HINT, ClaudeSandbox, find_claude  # noqa: E402
from tests.e2e.scenarios import FanOut, codex_fan_out, copilot_fan_out, fan_out  # noqa: E402

CLIENTS = {
    "claude": ("Claude Code", find_claude, INSTALL_HINT),
    "codex": ("Codex CLI", find_codex, CODEX_HINT),
    "copilot": ("Copilot CLI", find_copilot, COPILOT_HINT),
}
FAKES = {"claude": FakeAnthropic, "codex": FakeResponses, "copilot": FakeChat}
# Copilot CLI unpacks itself into its cache folder on first use (~8 s): once per benchmark run.
COPILOT_CACHE = Path(tempfile.gettempdir()) / f"spawnkit-bench-copilot-cache-{os.getpid()}"

COMMAND = "python benchmarks/context.py"
OTHERS_TIMEOUT = 900


def model_tokens(req) -> int:  # noqa: ANN001 - a request of either fake
    """Estimated tokens of what the model reads: system prompt, messages and tool definitions."""
    return tokens.estimate(
        req.text + "\n" + json.dumps(req.body.get("tools", []), ensure_ascii=False)
    )


def measure(
    client: str, binary: str, mode: str, agents: int, answer_tokens: int
) -> dict[str, float]:
    """One orchestrated run; ``mode`` is "off" (nothing installed) or a spawnkit mode."""
    with tempfile.TemporaryDirectory(prefix="spawnkit-bench-") as tmp, FAKES[client]() as api:
        if client == "copilot":
            box = CopilotSandbox(Path(tmp), binary, api, COPILOT_CACHE)
            if mode != "off":
                box.spawnkit("install", "--host", "copilot", "--mode", mode, "--yes")
            fan = copilot_fan_out(api, "BENCH", agents=agents, answer_tokens=answer_tokens)
            run = box.run(fan.prompt)
            last = fan.after_last_return()
        elif client == "codex":
            box = CodexSandbox(Path(tmp), binary, api)
            if mode != "off":
                box.spawnkit("install", "--host", "codex", "--mode", mode, "--yes")
            fan = codex_fan_out(api, "BENCH", agents=agents, answer_tokens=answer_tokens)
            run = box.run(fan.prompt)
            last = fan.main.last
        else:
            box = ClaudeSandbox(Path(tmp), binary, api)
            if mode != "off":
                box.spawnkit("install", "--mode", mode, "--yes")
            fan = fan_out(api, "BENCH", agents=agents, answer_tokens=answer_tokens)
            run = box.run(fan.prompt, output_format="json")
            last = fan.after_last_return()
        first = fan.main.requests[0]
        returns = _returns(fan, last)
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


def _returns(fan: FanOut, last) -> list[int]:  # noqa: ANN001
    """Tokens each sub-agent's words take in the orchestrator's last request, every copy."""
    found = []
    for call_id in fan.call_ids:
        words = last.agent_result(call_id) or ""
        escaped = json.dumps(words, ensure_ascii=False)[1:-1]  # inside a JSON tool output
        copies = last.text.count(words) + (last.text.count(escaped) if escaped != words else 0)
        copies = max(1, copies) if words else 1
        found.append(tokens.estimate(words) * copies)
    return found


def context_figures(
    client: str, binary: str, agents: int, repeats: int, answer_tokens: int
) -> dict:
    runs: dict[str, list[dict[str, float]]] = {"off": [], "enforce": []}
    for i in range(repeats):
        for mode in runs:
            runs[mode].append(measure(client, binary, mode, agents, answer_tokens))
            print(
                f"  {client} run {i + 1}/{repeats} {mode}: "
                f"{runs[mode][-1]['request_tokens']} tokens",
                file=sys.stderr,
            )
    medians = {
        mode: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for mode, rs in runs.items()
    }
    off, on = medians["off"], medians["enforce"]
    return {
        "client": client,
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


def kept_tail(path: Path) -> str:
    """The other benchmarks' sections of an earlier ``path``, verbatim (from its first
    ``## `benchmarks/…``` heading on), to rewrite the context figures alone."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return ""
    at = text.find("\n## `benchmarks/")
    return text[at:] if at != -1 else ""


def machine(binaries: dict[str, str]) -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    found = {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d"),
        "load": " / ".join(f"{x:.1f}" for x in os.getloadavg())
        if hasattr(os, "getloadavg")
        else "n/a",
    }
    for client, binary in binaries.items():
        version = subprocess.run(
            [binary, "--version"], capture_output=True, text=True, check=False
        ).stdout
        numbered = [word.rstrip(".") for word in version.split() if word[:1].isdigit()]
        found[client] = (numbered or ["unknown"])[0]
    return found


ROWS = [
    ("tokens of one sub-agent return, as received (median)", "return_tokens_median"),
    ("largest sub-agent return received", "return_tokens_max"),
    ("orchestrator request after the last return, bytes", "request_bytes"),
    ("orchestrator request after the last return, est. tokens", "request_tokens"),
    ("growth of that request over the first one, est. tokens", "growth_tokens"),
]


def render(
    figures: dict[str, dict],
    host: dict[str, str],
    others: list[tuple[str, str]],
    tail: str = "",
) -> str:
    """docs/benchmarks.md: one column pair per client measured; then the other benchmarks'
    sections (``tail``: kept as an earlier run wrote them)."""
    names = {c: CLIENTS[c][0] for c in figures}
    head = "| measure |" + "".join(
        f" {names[c]} off | {names[c]} enforce | off / enforce |" for c in figures
    )
    table = [head, "|---|" + "---:|---:|---:|" * len(figures)]
    for label, key in ROWS:
        cells = "".join(
            f" {f['off'][key]:,.0f} | {f['enforce'][key]:,.0f} | "
            f"{f['off'][key] / f['enforce'][key]:.1f}x |"
            for f in figures.values()
        )
        table.append(f"| {label} |{cells}")
    table.append(
        "| wall time of one run, s |"
        + "".join(
            f" {f['off']['seconds']:.1f} | {f['enforce']['seconds']:.1f} | |"
            for f in figures.values()
        )
    )
    fill = textwrap.fill
    versions = ", ".join(f"{names[c]} {host.get(c, '?')}" for c in figures)
    machine_line = fill(
        f"Measured on {host['date']}: {host['cpu']}, {host['cores']} cores, {host['os']}, "
        f"Python {host['python']}, {versions}; load average at the start "
        f"{host['load']} (1 / 5 / 15 min): timings on a busy machine are noisy, sizes are not.",
        100,
    )
    first = next(iter(figures.values()))
    setup = fill(
        f"An orchestrator spawns {first['agents']} sub-agents, {protocol.max_parallel()} at a "
        f'time; each first answers ~{first["off"]["answer_tokens"]:,.0f} tokens. "off": no '
        'hooks. "enforce": after `spawnkit install --mode enforce` (`--host codex` for Codex, '
        "`--host copilot` for Copilot), whose SubagentStop hook saves the long answer under "
        "`.spawnkit/returns/` and has the sub-agent reply again within the "
        f"{first['budget']}-token budget. Claude Code runs the sub-agents in the foreground with "
        "its Agent tool; Codex with spawn_agent and wait_agent (multi-agent v1), and hands each "
        "result to the orchestrator twice (wait_agent's output and a notification), so its "
        "per-return figure counts both copies; Copilot CLI with sync `task` calls, a batch per "
        "response, each result handed over once (its enforce run also gets the return block in "
        "each launch and the budget before each sub-agent's first turn). Sizes are what the "
        "scripted fake API received from the client; tokens by `spawnkit.tokens.estimate`. "
        f"Medians of {first['repeats']} runs.",
        100,
    )
    summaries = []
    for client, f in figures.items():
        off, on = f["off"], f["enforce"]
        summaries.append(
            f"{names[client]}: context per sub-agent return {off['return_tokens_median']:,.0f} "
            f"tokens without spawnkit, {on['return_tokens_median']:,.0f} with it "
            f"({f['ratio_per_return']:.1f}x less); after {f['agents']} returns the "
            f"orchestrator's context has grown {f['ratio_growth']:.1f}x less, and its whole "
            f"request (system prompt and tool definitions included) is "
            f"{f['ratio_request']:.1f}x smaller."
        )
    summary = fill(
        " ".join(summaries) + " The clients' own `usage` figures are left out: against a fake "
        "API they only echo what the fake server reports (ceil(bytes / 4)).",
        100,
    )
    doc = (
        "\n\n".join(
            [
                "# Benchmarks",
                machine_line,
                f"Rerun everything: `{COMMAND}` (needs the Claude Code, Codex and Copilot CLIs: "
                "tests/e2e/README.md).",
                "## Orchestrator context with and without spawnkit (real clients)",
                setup,
                "\n".join(table),
                summary,
            ]
        )
        + "\n"
    )
    for name, out in others:
        doc += f"\n## `benchmarks/{name}`\n\nRerun: `python benchmarks/{name}`\n\n```\n{out}\n```\n"
    return doc + tail


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--answer-tokens", type=int, default=3000)
    parser.add_argument(
        "--client", choices=[*CLIENTS, "all"], default="all", help="which client (default: all)"
    )
    parser.add_argument("--no-others", action="store_true", help="skip the other benchmarks")
    parser.add_argument(
        "--keep-others",
        action="store_true",
        help="do not rerun the other benchmarks: keep their sections of the output file",
    )
    parser.add_argument("--output", type=Path, default=REPO / "docs" / "benchmarks.md")
    parser.add_argument("--no-write", action="store_true", help="print only, write no file")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    binaries = {}
    for client in CLIENTS if args.client == "all" else [args.client]:
        label, find, hint = CLIENTS[client]
        binary = find()
        if not binary:
            print(f"context.py: error: {label} CLI not found; {hint}", file=sys.stderr)
            return 2
        binaries[client] = binary
    host = machine(binaries)
    print(f"context: {args.agents} sub-agents x {args.repeats} runs per mode ...", file=sys.stderr)
    try:
        figures = {
            client: context_figures(client, binary, args.agents, args.repeats, args.answer_tokens)
            for client, binary in binaries.items()
        }
    finally:
        shutil.rmtree(COPILOT_CACHE, ignore_errors=True)
    tail = kept_tail(args.output) if args.keep_others else ""
    others = [] if args.no_others or args.keep_others else other_benchmarks()
    doc = render(figures, host, others, tail)
    if args.json:
        print(json.dumps({"machine": host, "context": figures, "others": dict(others)}, indent=2))
    else:
        section = doc[doc.index("## Orchestrator context") :]
        print(section.split("\n## ", 1)[0])
    if not args.no_write and args.client == "all":
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(doc, encoding="utf-8")
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
