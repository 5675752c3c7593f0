"""Fuzz: mutated real payloads never make the hook crash, hang or print junk.

10,000 mutations run in-process through ``main.run`` (the same function the
script calls) and a few hundred through the real script (both slow); a thousand per host
run in the quick suite. Every answer must be empty or one JSON object whose
``hookEventName`` is the payload's own event, and no run may end in the internal-error
path: failing open is the last resort, not the plan.
Set SPAWNKIT_FUZZ_SEED to explore other seeds.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from .conftest import CODEX_PAYLOADS, PAYLOADS, SCRIPT

SEED = int(os.environ.get("SPAWNKIT_FUZZ_SEED", "20251122"))
EVENTS = [
    "PreToolUse",
    "PostToolUse",
    "PostToolBatch",
    "SubagentStart",
    "SubagentStop",
    "Stop",
    "UserPromptSubmit",
]
TOOLS = ["Agent", "Task", "Read", "Write", "Edit", "MultiEdit", "Bash", "TaskStop", "Workflow", ""]
CODEX_TOOLS = ["spawn_agent", "collaborationspawn_agent", "apply_patch", "exec_command", ""]
SEEDS = [json.loads(p.read_text()) for p in sorted(PAYLOADS.glob("*.json"))]
CODEX_SEEDS = [json.loads(p.read_text()) for p in sorted(CODEX_PAYLOADS.glob("*.json"))]


def odd_value(rng: random.Random, hook) -> object:
    choice = rng.randrange(14)
    if choice == 0:
        return None
    if choice == 1:
        return rng.choice([True, False])
    if choice == 2:
        return rng.choice([0, -1, 2**70, 3.5, float("inf")])
    if choice == 3:
        return "x" * rng.choice([0, 1, 5000, 300_000])
    if choice == 4:
        depth = rng.choice([10, 200, 900])
        value: object = "deep"
        for _ in range(depth):
            value = [value] if rng.random() < 0.5 else {"k": value}
        return value
    if choice == 5:
        return ["a", 1, None, {"b": []}]
    if choice == 6:
        return rng.choice(
            [
                {"file_path": 7, "prompt": ["p"]},
                {"message": 7, "items": [{"type": "text", "text": 3}, "x"]},
                {"command": "*** Begin Patch\n*** Add File: .agents/skills/x/SKILL.md\n+y\n"},
                '{"agent_id": ["not", "a", "string"]}',
            ]
        )
    if choice == 7:
        return "\ud800 lone surrogate \x00 nul \u202e"
    if choice == 8:
        return str(hook.project / ".claude" / "skills" / "demo" / "SKILL.md")
    if choice == 9:
        return str(hook.project / ".demo-reports" / "r.md")
    if choice == 10:
        return "../../../" * 50 + "etc/passwd"
    if choice == 11:
        return rng.choice(EVENTS)
    if choice == 12:
        return rng.choice(TOOLS + CODEX_TOOLS)
    return "RETURN CONTRACT at most 400 tokens " * rng.randrange(1, 4)


def mutate(rng: random.Random, data: object, hook, depth: int = 0) -> object:
    if isinstance(data, dict):
        out = {}
        for key, value in data.items():
            roll = rng.random()
            if roll < 0.08:
                continue  # field dropped
            if roll < 0.16:
                out[key] = odd_value(rng, hook)  # field retyped
            else:
                out[key] = mutate(rng, value, hook, depth + 1) if depth < 4 else value
        if rng.random() < 0.05:
            out[rng.choice(["agent_id", "tool_input", "tool_calls", "stop_hook_active", "cwd"])] = (
                odd_value(rng, hook)
            )
        return out
    if isinstance(data, list) and rng.random() < 0.2:
        return data * rng.randrange(0, 4)
    if isinstance(data, str) and rng.random() < 0.05:
        return data * rng.randrange(50, 400)
    return data


def case(rng: random.Random, hook) -> tuple[bytes, dict[str, str]]:
    codex = hook.host.name == "codex"
    data = mutate(rng, rng.choice(CODEX_SEEDS if codex else SEEDS), hook)
    if isinstance(data, dict) and rng.random() < 0.5:
        data["cwd"] = str(hook.project)
    if isinstance(data, dict) and rng.random() < 0.3:
        data["hook_event_name"] = rng.choice(EVENTS)
        data["tool_name"] = rng.choice(CODEX_TOOLS if codex else TOOLS)
    raw = json.dumps(data).encode("utf-8", "surrogatepass")
    roll = rng.random()
    if roll < 0.05:
        raw = raw[: rng.randrange(len(raw) + 1)]  # truncated
    elif roll < 0.10:
        raw = bytearray(raw)
        for _ in range(rng.randrange(1, 8)):
            raw[rng.randrange(len(raw))] = rng.choice(
                [0xFF, 0xC3, 0x80, 0x00, 0x22]
            )  # invalid UTF-8
        raw = bytes(raw)
    env = {
        "SPAWNKIT_MODE": rng.choice(["off", "warn", "enforce"]),
        "SPAWNKIT_MAX_RETRIES": str(rng.randrange(0, 6)),
    }
    return raw, env


def sent_event(raw: bytes) -> object:
    """The ``hook_event_name`` of the payload as sent, or None when it is not a JSON object."""
    try:
        data = json.loads(raw.decode("utf-8", "replace"), strict=False)  # as the hook reads it
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return data.get("hook_event_name") if isinstance(data, dict) else None


def check(out: str, raw: bytes) -> None:
    if not out:
        return
    answer = json.loads(out)
    assert isinstance(answer, dict), out
    assert "internal error" not in answer.get("systemMessage", ""), (out, raw[:500])
    specific = answer.get("hookSpecificOutput")
    if specific is not None:
        # the answer is about the event the client asked about, not just some known event
        assert specific["hookEventName"] == sent_event(raw), (out[:300], raw[:300])


def setup_files(hook) -> None:
    skill = hook.project / ".claude" / "skills" / "demo" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: demo\n---\nbody\n")
    (hook.project / ".demo-reports").mkdir()


# The events whose answer carries hookSpecificOutput on each host. Which of them a thousand
# cases reach depends on the seeds (every fixture payload), so the test asks for at least two,
# PreToolUse among them: adding a fixture must not break it.
CAN_ANSWER = {
    "hook": {"PreToolUse", "PostToolUse", "PostToolBatch", "UserPromptSubmit"},
    "codex": {"PreToolUse", "PostToolUse", "SubagentStart"},
}


@pytest.mark.parametrize("host", ["hook", "codex"])
def test_a_thousand_mutations_answer_the_event_asked(request, host):
    """The quick run's share of the fuzz: enough cases to reach the events that answer."""
    target = request.getfixturevalue(host)
    rng = random.Random(SEED + 3)
    setup_files(target)
    answered = set()
    for _ in range(1_000):
        raw, env = case(rng, target)
        target.now += rng.choice([0.0, 1.0, 4000.0])
        out = target.raw(raw, env)
        check(out, raw)
        if out and "hookSpecificOutput" in out:
            answered.add(json.loads(out)["hookSpecificOutput"]["hookEventName"])
    assert "PreToolUse" in answered and len(answered) >= 2, answered
    assert answered <= CAN_ANSWER[host], answered


@pytest.mark.slow
def test_ten_thousand_mutations_in_process(hook):
    rng = random.Random(SEED)
    setup_files(hook)
    for _ in range(10_000):
        raw, env = case(rng, hook)
        hook.now += rng.choice([0.0, 1.0, 4000.0])
        check(hook.raw(raw, env), raw)
    assert (
        not (hook.state_dir / "hook.log").exists()
        or "internal error" not in (hook.state_dir / "hook.log").read_text()
    )


@pytest.mark.slow
def test_ten_thousand_codex_mutations_in_process(codex):
    rng = random.Random(SEED + 2)
    setup_files(codex)
    (codex.project / ".agents" / "skills" / "x").mkdir(parents=True)
    for _ in range(10_000):
        raw, env = case(rng, codex)
        codex.now += rng.choice([0.0, 1.0, 4000.0])
        check(codex.raw(raw, env), raw)
    log = codex.config_dir / ".spawnkit" / "hook.log"
    assert not log.exists() or "internal error" not in log.read_text()


@pytest.mark.slow
def test_three_hundred_mutations_through_the_script(hook):
    rng = random.Random(SEED + 1)
    setup_files(hook)
    cases = [case(rng, hook) for _ in range(300)]

    def one(item: tuple[bytes, dict[str, str]]) -> None:
        raw, env = item
        proc = subprocess.run(
            [sys.executable, "-I", "-S", str(SCRIPT)],
            input=raw,
            capture_output=True,
            env=hook.env | env,
            timeout=60,
        )
        assert proc.returncode == 0 and proc.stderr == b"", proc.stderr[-2000:]
        check(proc.stdout.decode("ascii"), raw)

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(one, cases))
