"""How much orchestrator context spawnkit saves, measured in the real Claude Code, Codex, Copilot,
Gemini and Qwen CLIs.

    python benchmarks/context.py                 # measure, print, write docs/benchmarks.md
    python benchmarks/context.py --no-others     # only the context figures
    python benchmarks/context.py --keep-others   # rerun the context figures, keep the other
                                                 # benchmarks' sections of docs/benchmarks.md
    python benchmarks/context.py --client codex  # one client only (default: all)
    python benchmarks/context.py --json          # machine-readable figures on stdout
    python benchmarks/context.py --engines-only  # only the engine comparison; updates its
                                                 # section of docs/benchmarks.md in place

An orchestrator spawns 6 sub-agents (the standard's cap per batch), each of which answers ~3,000
tokens first. The real ``claude -p`` (Agent tool, foreground), ``codex exec`` (spawn_agent and
wait_agent, multi-agent v1), ``copilot -p`` (sync ``task`` calls), ``gemini -p`` (``invoke_agent``,
each sub-agent answering through ``complete_task``) and ``qwen`` (foreground ``agent`` calls) run
against the scripted fake APIs of the e2e tests, once with no hooks ("off") and once after
``spawnkit install --mode enforce`` (``--host codex``, ``copilot``, ``gemini``, ``qwen``). The
fake server sees exactly what the orchestrator model is sent, so the figures are the request that
follows the last sub-agent return: its size in bytes, its estimated tokens (spawnkit.tokens), the
growth since the orchestrator's first request, and the tokens of each sub-agent return as the
parent received it (Codex hands each result over twice: in wait_agent's output and in a
notification; both copies are counted). Medians over ``--repeats`` runs; ratios are
off / enforce in the same run.

The engine comparison (Claude Code only) runs a skill made by ``spawnkit new`` with each engine, and
a workflow written without spawnkit, at two step counts, and measures what the orchestrator's
request grows by from just before the first launch (the first Agent call, or the Workflow call) to
just after the last step's result arrived (the last ``state.py step`` output, or the
``<task-notification>``): per step at the larger count, per added step (the slope between the two
counts) and the fixed rest (for a workflow: its launch record and notification). "prompt engine":
``--engine prompt``, one sub-agent at a time, each writing its report and replying within the
contract, each reply recorded with ``state.py step``. "workflow engine": ``--engine workflow``,
its agents writing their reports, recording their steps and answering through the schema.
"unguarded workflow": every step's agent at once, no schema, each answering ~3,000 tokens, and
the script returning those answers.

It then runs the other ``benchmarks/*.py`` scripts and gathers their output, and writes
``docs/benchmarks.md`` with the machine it ran on and the command to rerun.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "src"), str(REPO)]

from spawnkit import tokens  # noqa: E402
from spawnkit.standard import protocol  # noqa: E402
from tests.e2e.codex_sandbox import CODEX_HINT, CodexSandbox, find_codex  # noqa: E402
from tests.e2e.copilot_sandbox import COPILOT_HINT, CopilotSandbox, find_copilot  # noqa: E402
from tests.e2e.fake_api import FakeAnthropic, tool_use  # noqa: E402
from tests.e2e.fake_chat import FakeChat  # noqa: E402
from tests.e2e.fake_gemini import FakeGemini  # noqa: E402
from tests.e2e.fake_responses import FakeResponses  # noqa: E402
from tests.e2e.gemini_sandbox import GEMINI_HINT, GeminiSandbox, find_gemini  # noqa: E402
from tests.e2e.qwen_sandbox import QWEN_HINT, QwenSandbox, find_qwen  # noqa: E402
from tests.e2e.sandbox import INSTALL_HINT, ClaudeSandbox, find_claude  # noqa: E402
from tests.e2e.scenarios import (  # noqa: E402
    FanOut,
    codex_fan_out,
    copilot_fan_out,
    fan_out,
    gemini_fan_out,
    long_answer,
    qwen_fan_out,
)
from tests.e2e.workflow_scenarios import (  # noqa: E402
    WIDE_OPEN,
    Overlap,
    orchestrate,
    prompt_agents,
    prompt_orchestrate,
    result_of,
    unguarded_script,
    workflow_agents,
)

CLIENTS = {
    "claude": ("Claude Code", find_claude, INSTALL_HINT),
    "codex": ("Codex CLI", find_codex, CODEX_HINT),
    "copilot": ("Copilot CLI", find_copilot, COPILOT_HINT),
    "gemini": ("Gemini CLI", find_gemini, GEMINI_HINT),
    "qwen": ("Qwen Code", find_qwen, QWEN_HINT),
}
FAKES = {
    "claude": FakeAnthropic,
    "codex": FakeResponses,
    "copilot": FakeChat,
    "gemini": FakeGemini,
    "qwen": FakeChat,
}
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
        elif client in ("gemini", "qwen"):
            sandbox = GeminiSandbox if client == "gemini" else QwenSandbox
            box = sandbox(Path(tmp), binary, api)
            if mode != "off":
                box.spawnkit("install", "--host", client, "--mode", mode, "--yes")
            spread = gemini_fan_out if client == "gemini" else qwen_fan_out
            fan = spread(api, "BENCH", agents=agents, answer_tokens=answer_tokens)
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


ENGINES = ("prompt", "workflow", "unguarded")
ENGINE_LABELS = {
    "prompt": "prompt engine",
    "workflow": "workflow engine",
    "unguarded": "unguarded workflow",
}
ENGINE_SKILL = "bench-skill"
PER_STEP_TARGET = 100  # issue 23: what the workflow engine should cost per step, at most


def engine_run(binary: str, engine: str, steps: int, answer_tokens: int) -> dict[str, float]:
    """One orchestrated run of ``steps`` steps with ``engine``; sizes of what the model read."""
    names = [f"part-{i}" for i in range(1, steps + 1)]
    with same_folder() as tmp, FakeAnthropic() as api:
        box = ClaudeSandbox(tmp, binary, api)
        if engine == "unguarded":
            script = box.project / "unguarded.js"
            script.write_text(unguarded_script(names, schema=False), encoding="utf-8")
            main = api.conversation(
                "BENCH-ENGINE",
                tool_use("Workflow", {"scriptPath": str(script)}),
                "Waiting.",
                "Done.",
            )
            for name in names:
                api.conversation(
                    f'You are the "{name}" sub-agent', long_answer(name, answer_tokens)
                )
            run = box.run("BENCH-ENGINE: run it", output_format="json", env=WIDE_OPEN)
            before, (after, note) = main.requests[0], result_of(main)
        else:
            jobs = [{"name": n, "job": f"Audit {n} of the repository."} for n in names]
            box.spawnkit(
                "new", ENGINE_SKILL, "--defaults", "--scope", "user", "--engine", engine,
                "-d", "steps=" + json.dumps(jobs),
            )  # fmt: skip
            prompt = f"BENCH-ENGINE: run the {ENGINE_SKILL} skill"
            if engine == "workflow":
                orchestrator = orchestrate(api, "BENCH-ENGINE", ENGINE_SKILL)
                workflow_agents(api, box.project, names, Overlap())
                run = box.run(prompt, output_format="json", env=WIDE_OPEN)
                launch = orchestrator.calls["workflow"]["id"]
                after, note = result_of(orchestrator)
            else:
                orchestrator = prompt_orchestrate(api, "BENCH-ENGINE", ENGINE_SKILL)
                prompt_agents(api, box.project, names)
                run = box.run(prompt, output_format="json")
                launch = orchestrator.launches[0]["id"]
                last = orchestrator.records[-1]["id"]
                after, note = orchestrator.conversation.request_with_result(last), None
            before = next(
                r for r in orchestrator.conversation.requests
                if any(b.get("id") == launch for b in r.reply or [])
            )  # fmt: skip
        return {
            "growth_tokens": model_tokens(after) - model_tokens(before),
            "growth_bytes": after.size - before.size,
            "notification_tokens": tokens.estimate(note["text"]) if note else 0,
            "result_tokens": tokens.estimate(note["result"]) if note else 0,
            "full_result_tokens": tokens.estimate(full_result(note)) if note else 0,
            "seconds": run.seconds,
        }


@contextlib.contextmanager
def same_folder() -> Iterator[Path]:
    """A fresh folder of the same name for every run: paths recur in what the client sends
    (the notification names its files), and random folder names would add noise to the
    estimate of every run (tokens differ with the letters and digits of a name)."""
    folder = Path(tempfile.gettempdir()) / f"spawnkit-bench-engines-{os.getuid()}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(mode=0o700)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def full_result(note: dict[str, str]) -> str:
    """The workflow's whole result: the client cuts a long one in the notification (about 8,000
    characters) and names the file that holds all of it, which the model may read back."""
    cut = re.search(r"\(truncated [\d,]+ chars, full result in (\S+?)\)", note["result"])
    return Path(cut.group(1)).read_text(encoding="utf-8") if cut else note["result"]


def engine_figures(binary: str, sizes: tuple[int, int], repeats: int, answer_tokens: int) -> dict:
    """Medians per engine and step count; per step, per added step and the fixed rest."""
    figures: dict = {"sizes": list(sizes), "repeats": repeats, "budget": protocol.return_budget()}
    for engine in ENGINES:
        medians = {}
        for steps in sizes:
            runs = []
            for i in range(repeats):
                runs.append(engine_run(binary, engine, steps, answer_tokens))
                print(
                    f"  engines: {engine} {steps} steps, run {i + 1}/{repeats}: "
                    f"+{runs[-1]['growth_tokens']:,} tokens",
                    file=sys.stderr,
                )
            medians[steps] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        small, large = medians[sizes[0]], medians[sizes[1]]
        slope = (large["growth_tokens"] - small["growth_tokens"]) / (sizes[1] - sizes[0])
        figures[engine] = {
            "growth_tokens": large["growth_tokens"],
            "per_step": large["growth_tokens"] / sizes[1],
            "per_added_step": slope,
            "fixed": large["growth_tokens"] - slope * sizes[1],
            "notification_tokens": large["notification_tokens"],
            "result_tokens": large["result_tokens"],
            "full_result_tokens": large["full_result_tokens"],
            "full_per_added_step": (large["full_result_tokens"] - small["full_result_tokens"])
            / (sizes[1] - sizes[0]),
            "seconds": large["seconds"],
        }
    return figures


ENGINE_ROWS = [
    ("context growth for {large} steps, est. tokens", "growth_tokens", ",.0f"),
    ("per step at {large} steps", "per_step", ",.0f"),
    ("per added step ({small} → {large} steps)", "per_added_step", ",.0f"),
    ("fixed rest of a run (launch record, notification)", "fixed", ",.0f"),
    ("the workflow's result as received, est. tokens", "result_tokens", ",.0f"),
    ("its whole result (the file a cut result points to)", "full_result_tokens", ",.0f"),
    ("the whole notification around it, est. tokens", "notification_tokens", ",.0f"),
    ("wall time of one run at {large} steps, s", "seconds", ".1f"),
]
ENGINES_START, ENGINES_END = "<!-- generated:engines -->", "<!-- /generated:engines -->"


def render_engines(figures: dict) -> str:
    """The engine comparison section of docs/benchmarks.md, between its markers."""
    small, large = figures["sizes"]
    measured = figures.get("machine")
    table = [
        "| measure | " + " | ".join(ENGINE_LABELS[e] for e in ENGINES) + " |",
        "|---|" + "---:|" * len(ENGINES),
    ]
    for label, key, fmt in ENGINE_ROWS:
        cells = []
        for engine in ENGINES:
            value = figures[engine][key]
            empty = engine == "prompt" and "tokens" in key and key != "growth_tokens"
            cells.append("–" if empty else format(value, fmt))
        table.append(f"| {label.format(small=small, large=large)} | " + " | ".join(cells) + " |")
    prompt, wf, unguarded = (figures[e] for e in ENGINES)
    verdict = "meets" if wf["per_added_step"] <= PER_STEP_TARGET else "misses"
    room = PER_STEP_TARGET - wf["per_added_step"]
    from_steps = f"from about {math.ceil(wf['fixed'] / room)} steps" if room > 0 else "at no size"
    summary = textwrap.fill(
        f"Each added step grows the orchestrator's context by {wf['per_added_step']:,.0f} tokens "
        "with the workflow engine (its result names one more step), "
        f"{prompt['per_added_step']:,.0f} with the prompt engine (the Agent call with its "
        "prompt, the reply, the `state.py step` output), and "
        f"{unguarded['per_added_step']:,.0f} with a workflow that returns its agents' answers, "
        "but only because Claude Code cuts a workflow's result at about 8,000 characters and "
        "names a file holding all of it: that file grows by "
        f"{unguarded['full_per_added_step']:,.0f} tokens per step, and a model that reads it "
        f"back gets them all. The workflow engine {verdict} the target of at most "
        f"{PER_STEP_TARGET} tokens per added step. What it costs is mostly fixed: "
        f"{wf['fixed']:,.0f} tokens per run for the client's launch record and notification "
        "(ids, paths, usage), which spawnkit does not write; averaged over "
        f"{large} steps that is {wf['per_step']:,.0f} per step, under {PER_STEP_TARGET} "
        f"{from_steps}. The result itself, the part the script decides, took "
        f"{wf['result_tokens']:,.0f} of the {figures['budget']}-token budget.",
        100,
    )
    setup = textwrap.fill(
        "Claude Code runs a skill made by `spawnkit new` with each engine (the orchestrator "
        "scripted to do what its SKILL.md says), and a workflow written without spawnkit, at "
        f"{small} and {large} steps. Growth: the orchestrator's request just after the last "
        "step's result arrived (the last `state.py step` output; the `<task-notification>`) "
        "minus the one just before the first launch (the first Agent call; the Workflow call); "
        "tokens by `spawnkit.tokens.estimate`, of everything the model reads. Prompt engine: one "
        "sub-agent at a time, each replying within the contract. Workflow engine: its agents "
        "write their reports, record their steps and answer through the schema. Unguarded "
        "workflow: no schema, every agent at once, each answering ~3,000 tokens, and the script "
        f"returning the answers. Medians of {figures['repeats']} runs; no spawnkit hooks "
        "installed."
        + (
            f" Measured on {measured['date']}: {measured['cores']} cores, Claude Code "
            f"{measured.get('claude', '?')}, load average at the start {measured['load']}."
            if measured
            else ""
        ),
        100,
    )
    return "\n\n".join(
        [
            ENGINES_START,
            "## Orchestrator context per step: prompt engine, workflow engine (Claude Code)",
            setup,
            "\n".join(table),
            summary,
            ENGINES_END,
        ]
    )


def splice_engines(doc: str, section: str) -> str:
    """``doc`` with its engine section replaced (or added after the context section)."""
    if ENGINES_START in doc and ENGINES_END in doc:
        head, rest = doc.split(ENGINES_START, 1)
        return head + section + rest.split(ENGINES_END, 1)[1]
    at = doc.find("\n## `benchmarks/")
    at = len(doc) if at < 0 else at + 1
    return doc[:at] + section + "\n\n" + doc[at:]


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
    engines: dict | None = None,
) -> str:
    """docs/benchmarks.md: one column pair per client measured, the engine comparison when
    measured; then the other benchmarks' sections (``tail``: kept as an earlier run wrote them)."""
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
        "`--host copilot`, `gemini`, `qwen` for the others), whose SubagentStop hook (Gemini "
        "CLI's: BeforeTool on complete_task) saves the long answer under "
        "`.spawnkit/returns/` and has the sub-agent reply again within the "
        f"{first['budget']}-token budget. Claude Code runs the sub-agents in the foreground with "
        "its Agent tool; Codex with spawn_agent and wait_agent (multi-agent v1), and hands each "
        "result to the orchestrator twice (wait_agent's output and a notification), so its "
        "per-return figure counts both copies; Copilot CLI with sync `task` calls, a batch per "
        "response, each result handed over once (its enforce run also gets the return block in "
        "each launch and the budget before each sub-agent's first turn); Gemini CLI with "
        "`invoke_agent` calls (its enforce run gets the return block in each launch too); Qwen "
        "Code with foreground `agent` calls (no return block: it ignores a rewritten launch). "
        "Sizes are what the "
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
                f"Rerun everything: `{COMMAND}` (needs the Claude Code, Codex, Copilot, Gemini "
                "and Qwen CLIs: tests/e2e/README.md).",
                "## Orchestrator context with and without spawnkit (real clients)",
                setup,
                "\n".join(table),
                summary,
            ]
        )
        + "\n"
    )
    if engines:
        doc += "\n" + render_engines(engines) + "\n"
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
    parser.add_argument(
        "--engines-only",
        action="store_true",
        help="only the engine comparison (Claude Code); rewrites its section of --output",
    )
    parser.add_argument(
        "--engine-steps",
        type=int,
        nargs=2,
        default=(2, 10),
        metavar=("SMALL", "LARGE"),
        help="the two step counts of the engine comparison (default: 2 10)",
    )
    parser.add_argument("--output", type=Path, default=REPO / "docs" / "benchmarks.md")
    parser.add_argument("--no-write", action="store_true", help="print only, write no file")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    if args.engines_only:
        return engines_main(args)
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
    engines = None
    if "claude" in binaries:
        print("engines: prompt, workflow, unguarded workflow ...", file=sys.stderr)
        engines = engine_figures(
            binaries["claude"], tuple(args.engine_steps), args.repeats, args.answer_tokens
        )
        engines["machine"] = host
    tail = kept_tail(args.output) if args.keep_others else ""
    others = [] if args.no_others or args.keep_others else other_benchmarks()
    doc = render(figures, host, others, tail, engines)
    if args.json:
        print(
            json.dumps(
                {"machine": host, "context": figures, "engines": engines, "others": dict(others)},
                indent=2,
            )
        )
    else:
        section = doc[doc.index("## Orchestrator context") :]
        print(section.split("\n## ", 1)[0])
    if not args.no_write and args.client == "all":
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(doc, encoding="utf-8")
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


def engines_main(args: argparse.Namespace) -> int:
    """``--engines-only``: measure the engines and rewrite their section of the document."""
    binary = find_claude()
    if not binary:
        print(f"context.py: error: Claude Code CLI not found; {INSTALL_HINT}", file=sys.stderr)
        return 2
    small, large = args.engine_steps
    if not 1 <= small < large:
        print("context.py: error: --engine-steps needs 1 <= SMALL < LARGE", file=sys.stderr)
        return 2
    print(f"engines: {small} and {large} steps x {args.repeats} runs ...", file=sys.stderr)
    host = machine({"claude": binary})
    engines = engine_figures(binary, (small, large), args.repeats, args.answer_tokens)
    engines["machine"] = host
    section = render_engines(engines)
    if args.json:
        print(json.dumps({"engines": engines}, indent=2))
    else:
        print(section)
    if not args.no_write:
        doc = args.output.read_text(encoding="utf-8") if args.output.exists() else "# Benchmarks\n"
        args.output.write_text(splice_engines(doc, section), encoding="utf-8")
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
