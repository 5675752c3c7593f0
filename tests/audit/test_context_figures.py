"""The context figures (every point, the peak, the growth) against a recomputation from usage.

The fake APIs behind the real-client fixtures report every prompt token as uncached, while
real Claude Code transcripts carry most of the prompt in ``cache_read_input_tokens`` (and the
new part in ``cache_creation_input_tokens``). So these tests first move the recorded prompt
into the cache counters the way a real session reports it, keeping each response's total,
and then check the audit's figures against ``usage_context`` below: a small reading of the
transcript's usage fields written here, apart from spawnkit's reader. Dropping a cache counter
or scaling the growth then changes a number these tests compare exactly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import SCENARIOS, audit_json, copy_scenario

CLAUDE = [name for name in SCENARIOS if name.startswith("claude/")]
CODEX = [name for name in SCENARIOS if name.startswith("codex/")]
CLAUDE_PROMPT = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
FRESH = 3  # what a real cached turn leaves uncached: a few tokens after the last breakpoint


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _main_transcript(folder: Path, host: str) -> Path:
    if host == "claude":
        (path,) = [p for p in folder.rglob("*.jsonl") if "subagents" not in p.parts]
        return path
    (path,) = [p for p in folder.rglob("*.jsonl") if _codex_is_main(p)]
    return path


def _codex_is_main(path: Path) -> bool:
    meta = _records(path)[0]
    source = meta.get("payload", {}).get("source")
    return not (isinstance(source, dict) and "subagent" in source)


def usage_context(path: Path, host: str) -> list[int]:
    """The orchestrator's context after each response, from the usage the client recorded.

    Claude Code: one point per assistant message id (its content blocks are separate records
    with the same usage), the prompt in all three input counters plus the output. Codex: one
    point per ``token_count`` event with a ``last_token_usage``, whose ``input_tokens`` already
    include the cached ones (Codex logs ``non_cached_input_tokens`` as their difference).
    """
    points: list[int] = []
    if host == "claude":
        usage_by_id: dict[str, dict] = {}
        for rec in _records(path):
            msg = rec.get("message")
            if rec.get("type") != "assistant" or rec.get("isSidechain") or "usage" not in msg:
                continue
            known = usage_by_id.setdefault(msg["id"], msg["usage"])
            assert known == msg["usage"], "one message's records disagree on its usage"
            if known is msg["usage"]:
                usage = msg["usage"]
                points.append(sum(usage[k] for k in CLAUDE_PROMPT) + usage["output_tokens"])
        return points
    for rec in _records(path):
        payload = rec.get("payload", {})
        if payload.get("type") == "token_count" and payload.get("info"):
            last = payload["info"]["last_token_usage"]
            points.append(last["input_tokens"] + last["output_tokens"])
    return points


def _cache_like_a_real_session(path: Path, host: str) -> None:
    """Rewrite the main transcript's usage as a real cached session records it (same totals)."""
    records = _records(path)
    if host == "claude":
        prompts: dict[str, dict] = {}
        before = 0
        for rec in records:
            msg = rec.get("message")
            if rec.get("type") != "assistant" or rec.get("isSidechain") or "usage" not in msg:
                continue
            usage = msg["usage"]
            if msg["id"] not in prompts:
                prompt = sum(usage[k] for k in CLAUDE_PROMPT)
                # the first turn finds the system prompt and tools cached by earlier sessions
                cached = min(before, prompt - FRESH) if before else prompt * 4 // 5
                prompts[msg["id"]] = {
                    "input_tokens": FRESH,
                    "cache_creation_input_tokens": prompt - cached - FRESH,
                    "cache_read_input_tokens": cached,
                }
                before = prompt
            usage.update(prompts[msg["id"]])
    else:
        for rec in records:
            payload = rec.get("payload", {})
            if payload.get("type") == "token_count" and payload.get("info"):
                usage = payload["info"]["last_token_usage"]
                usage["cached_input_tokens"] = usage["input_tokens"] * 9 // 10
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


@pytest.fixture(params=CLAUDE + CODEX)
def cached(request, tmp_path: Path) -> tuple[str, Path, Path]:
    """A scenario whose main transcript carries most of every prompt in the cache counters."""
    name = request.param
    host = name.split("/")[0]
    folder = copy_scenario(name, tmp_path)
    main = _main_transcript(folder, host)
    _cache_like_a_real_session(main, host)
    return host, folder, main


def test_the_rewritten_fixtures_carry_most_of_the_prompt_in_the_cache(cached):
    host, _, main = cached
    read = fresh = 0
    for rec in _records(main):
        if host == "claude":
            usage = (
                (rec.get("message") or {}).get("usage") if rec.get("type") == "assistant" else None
            )
            if usage and not rec.get("isSidechain"):
                read += usage["cache_read_input_tokens"] + usage["cache_creation_input_tokens"]
                fresh += usage["input_tokens"]
        elif rec.get("payload", {}).get("type") == "token_count" and rec["payload"].get("info"):
            last = rec["payload"]["info"]["last_token_usage"]
            read += last["cached_input_tokens"]
            fresh += last["input_tokens"] - last["cached_input_tokens"]
    assert read > 5 * fresh > 0


def test_every_context_point_peak_and_growth_match_the_usage(cached):
    host, folder, main = cached
    expected = usage_context(main, host)
    assert len(expected) >= 3 and len(set(expected)) >= 3  # a curve, not one repeated value
    (session,) = audit_json(str(folder))["sessions"]
    assert session["context_source"] == "usage"
    assert [p["tokens"] for p in session["context"]] == expected
    assert session["peak_context"] == max(expected)
    assert session["context_growth"] == expected[-1] - expected[0]


def test_the_figures_do_not_depend_on_how_the_prompt_was_cached(cached, tmp_path: Path):
    """Moving prompt tokens between the counters changes nothing the audit reports."""
    host, folder, _ = cached
    name = next(n for n in CLAUDE + CODEX if folder.name == n.replace("/", "-"))
    plain = audit_json(str(copy_scenario(name, tmp_path / "plain")))["sessions"][0]
    (session,) = audit_json(str(folder))["sessions"]
    for key in ("context", "peak_context", "context_growth"):
        assert session[key] == plain[key], key


def test_the_text_report_shows_the_same_context(cached):
    """``spawnkit audit`` (text) prints first -> last and the peak from the same points."""
    from .conftest import run_cli

    host, folder, main = cached
    expected = usage_context(main, host)
    out = run_cli("audit", str(folder)).stdout
    assert _k(expected[0]) in out and _k(expected[-1]) in out, out


def _k(n: int) -> str:
    """The text report's rounding of a token count (``12.4k``)."""
    from spawnkit.audit.render_text import _k as shown

    return shown(n)
