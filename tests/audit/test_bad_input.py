"""Hostile and broken input is counted and reported, never a traceback; symlinks stay unfollowed."""

from __future__ import annotations

import copy
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from spawnkit.audit import jsonl, render_html, render_json, render_text
from spawnkit.audit.engine import audit

from .conftest import FIXTURES, audit_json, copy_scenario, run_cli, validate

MAIN = "claude/fanout-off"


def _main_transcript(root: Path) -> Path:
    return next(p for p in root.rglob("*.jsonl") if "subagents" not in p.parts)


def test_an_empty_folder_is_no_error(tmp_path):
    result = run_cli("audit", str(tmp_path))
    assert result.exit_code == 0
    assert "no sessions found" in result.stderr
    assert "0 sessions" in result.stdout


def test_a_folder_without_transcripts(tmp_path):
    (tmp_path / "notes.md").write_text("# not a transcript\n")
    (tmp_path / "data.json").write_text("{}")
    doc = audit_json(str(tmp_path))
    assert doc["sessions"] == [] and doc["input"]["files"] == 0


def test_a_missing_path_is_a_usage_error(tmp_path):
    result = run_cli("audit", str(tmp_path / "nope"))
    assert result.exit_code == 2
    assert result.stderr.startswith("spawnkit: error: ") and "does not exist" in result.stderr
    assert "Traceback" not in result.stderr


def test_binary_files_are_counted_and_skipped(tmp_path):
    (tmp_path / "a.jsonl").write_bytes(os.urandom(4096) + b"\0")
    (tmp_path / "b.jsonl").write_bytes(b"\x7fELF\x02\x01\x01\0\0\0" + b"\0" * 100)
    result = run_cli("audit", str(tmp_path), "--format", "json")
    doc = json.loads(result.stdout)
    assert doc["input"]["problems"]["binary_files"] == 2
    assert "2 binary files" in result.stderr


def test_a_truncated_last_line_and_a_malformed_one_are_counted(tmp_path):
    root = copy_scenario(MAIN, tmp_path)
    main = _main_transcript(root)
    lines = main.read_bytes().splitlines(keepends=True)
    # a crash mid-write: the last record cut in half, no newline; a garbage line in the middle
    broken = (
        lines[:10] + [b"{not json at all\n"] + lines[10:-1] + [lines[-1][: len(lines[-1]) // 2]]
    )
    main.write_bytes(b"".join(broken))
    doc = audit_json(str(root))
    assert doc["input"]["problems"]["truncated_lines"] == 1
    assert doc["input"]["problems"]["malformed_lines"] == 1
    (session,) = doc["sessions"]
    assert len(session["returns"]) == 6  # everything else still read


def test_unknown_record_types_from_a_newer_client_are_counted(tmp_path):
    root = copy_scenario(MAIN, tmp_path)
    main = _main_transcript(root)
    extra = [
        {"type": "quantum-summary", "sessionId": "x", "text": "from the future"},
        {"type": "quantum-summary"},
        {"type": "hologram", "payload": [1, 2, 3]},
        ["a", "list", "not", "an", "object"],
        "a string",
        12,
    ]
    with main.open("a") as fh:
        for record in extra:
            fh.write(json.dumps(record) + "\n")
    result = run_cli("audit", str(root), "--format", "json")
    doc = json.loads(result.stdout)
    assert doc["input"]["unknown_records"] == {"quantum-summary": 2, "hologram": 1}
    assert doc["input"]["problems"]["malformed_lines"] == 3  # JSON, but not an object
    assert "unknown types" in result.stderr and "quantum-summary x2" in result.stderr


def test_an_oversized_line_is_skipped_without_being_held(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonl, "MAX_LINE_BYTES", 4096)
    path = tmp_path / "s.jsonl"
    record = {"type": "user", "message": {"role": "user", "content": "x" * 100_000}}
    path.write_text(json.dumps(record) + "\n" + json.dumps({"type": "summary"}) + "\n")
    result = audit([tmp_path])
    assert result.stats.oversized_lines == 1
    assert result.stats.lines == 2
    assert result.stats.bytes == path.stat().st_size


def test_deep_nesting_invalid_utf8_and_nul_lines_do_not_raise(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(
        b"{}\n"  # keeps the file from looking binary at its start
        + b'{"a":' * 100_000
        + b"\n"
        + b'{"type":"user","message":{"content":"\xff\xfe bad utf-8"}}\n'
        + b'{"type":"assistant","message":"\x00"}\n'
        + b"\n\n   \n"
    )
    result = audit([tmp_path])
    assert result.stats.malformed_lines == 3


def test_wrongly_typed_fields_are_ignored(tmp_path):
    records = [
        {"type": "assistant", "message": {"id": 7, "content": "text", "usage": "lots"}},
        {"type": "assistant", "message": {"id": "m", "content": [None, 3, {"type": "tool_use"}]}},
        {"type": "assistant", "message": {"id": "n", "usage": {"input_tokens": True}}},
        {"type": "user", "message": {"content": [{"type": "tool_result", "content": 5}]}},
        {"type": "user", "toolUseResult": [], "message": None},
        {"type": "attachment", "attachment": {"type": "queued_command", "prompt": 9}},
        {"type": "attachment", "attachment": "none"},
        {
            "type": "assistant",
            "message": {"content": [{"type": "tool_use", "name": "Agent", "input": 1}]},
        },
        {"type": None},
        {"timestamp": 5, "cwd": ["x"], "isSidechain": "yes"},
    ]
    (tmp_path / "s.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (session,) = audit([tmp_path]).sessions
    assert session.returns == []


_ODD_VALUES = [
    None, 0, -1, True, 1e308, "", "x" * 50, [], {}, {"type": "text"},
    [{"type": "tool_use", "name": "Agent", "input": {}}], {"completed": 5},
    "2026-13-45T99:99:99Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
]  # fmt: skip


def _mutate(node, rng: random.Random, depth: int = 0) -> None:
    """Replace one value somewhere inside ``node`` by an odd one (or recurse into it)."""
    keys = list(node) if isinstance(node, dict) else list(range(len(node)))
    if not keys:
        return
    key = rng.choice(keys)
    if depth < 6 and isinstance(node[key], (dict, list)) and rng.random() < 0.5:
        _mutate(node[key], rng, depth + 1)
    else:
        node[key] = copy.deepcopy(rng.choice(_ODD_VALUES))


def test_mutated_real_transcripts_never_raise(tmp_path):
    """Fuzz: retype fields deep inside, cut lines, splice in bytes, shuffle; every fixture of
    both clients, 80 cases, all three renderers. Nothing raises."""
    sources = {p: p.read_bytes().splitlines() for p in FIXTURES.rglob("*.jsonl")}
    for n in range(80):
        rng = random.Random(n)
        case = tmp_path / f"case{n}"
        for source, lines in sources.items():
            out = []
            for line in lines:
                roll = rng.random()
                if roll < 0.25:
                    record = json.loads(line)
                    for _ in range(rng.randrange(1, 4)):
                        _mutate(record, rng)
                    line = json.dumps(record).encode()
                elif roll < 0.28:
                    line = line[: rng.randrange(len(line) + 1)]
                elif roll < 0.30:
                    line = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
                out.append(line)
            if n % 10 == 9:
                rng.shuffle(out)
            target = case / source.relative_to(FIXTURES)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(b"\n".join(out) + b"\n")
        result = audit([case])
        render_text.render(result)
        render_html.render(result)
        validate(json.loads(render_json.render(result)))


def test_symlinks_are_not_followed_out_of_the_root(tmp_path):
    outside = copy_scenario("claude/mixed-off", tmp_path / "outside")
    root = tmp_path / "root"
    root.mkdir()
    (root / "linked-dir").symlink_to(outside, target_is_directory=True)
    (root / "linked.jsonl").symlink_to(_main_transcript(outside))
    doc = audit_json(str(root))
    assert doc["sessions"] == []
    assert doc["input"]["problems"]["symlinks_skipped"] == 2


def test_a_symlinked_sub_agent_transcript_is_not_read(tmp_path):
    root = copy_scenario(MAIN, tmp_path)
    secret = tmp_path / "secret.jsonl"
    secret.write_text('{"type":"assistant","message":{"content":"secret"}}\n')
    agent = next(root.rglob("agent-*.jsonl"))
    agent.unlink()
    agent.symlink_to(secret)
    doc = audit_json(str(root))
    assert doc["input"]["problems"]["symlinks_skipped"] == 1
    assert doc["sessions"][0]["subagent_transcripts"] == 5


def test_a_fifo_is_never_opened_for_long(tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    stats_before = audit([tmp_path]).stats
    assert stats_before.files == 0  # a FIFO is not a regular file: never listed
    with pytest.raises(jsonl.Unreadable):
        jsonl.open_regular(str(fifo))


def test_a_transcript_named_directly_brings_its_sub_agents(tmp_path):
    root = copy_scenario(MAIN, tmp_path)
    doc = audit_json(str(_main_transcript(root)))
    (session,) = doc["sessions"]
    assert session["subagent_transcripts"] == 6
    assert all(r["wrote_files"] is False for r in session["returns"])


def test_a_sub_agent_transcript_alone_is_an_orphan(tmp_path):
    root = copy_scenario(MAIN, tmp_path)
    folder = next(root.rglob("subagents"))
    doc = audit_json(str(folder))
    assert doc["sessions"] == []
    assert doc["input"]["problems"]["orphan_subagents"] == 6


def test_files_over_the_limit_stop_the_walk(tmp_path, monkeypatch):
    from spawnkit.audit import discovery

    monkeypatch.setattr(discovery, "MAX_FILES", 3)
    for n in range(5):
        (tmp_path / f"s{n}.jsonl").write_text('{"type":"summary"}\n')
    result = audit([tmp_path])
    assert len(result.sessions) == 3 and result.stats.files_over_limit == 1


def test_texts_built_to_make_a_parser_backtrack_end_in_time(tmp_path):
    """Thousands of unclosed tags and frames: every scan is linear, so this finishes at once
    (a lazy regex per opening would rescan megabytes each time). Not a speed claim: the
    timeout only stops a hang."""
    notes = "<task-notification><result>" * 200_000
    frames = "The report follows:\n" * 200_000
    records = [
        {"type": "assistant", "message": {"id": "m", "content": [
            {"type": "tool_use", "id": "t", "name": "Agent", "input": {"description": "d"}}]}},
        {"type": "user", "message": {"content": notes}},
        {"type": "attachment", "attachment": {"type": "queued_command", "prompt": notes}},
        {"type": "user", "message": {"content": [
            {"type": "tool_result", "tool_use_id": "t", "content": frames}]}},
    ]  # fmt: skip
    (tmp_path / "s.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    proc = subprocess.run(
        [sys.executable, "-m", "spawnkit", "audit", str(tmp_path), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    (session,) = json.loads(proc.stdout)["sessions"]
    assert len(session["returns"]) == 1


def test_other_json_lines_files_in_a_config_folder_are_not_sessions(tmp_path):
    """Auditing ~/.claude itself: its prompt history is JSON Lines too, but no transcript."""
    cfg = tmp_path / ".claude"
    shutil.copytree(FIXTURES / "claude/mixed-off/projects", cfg / "projects")
    history = [
        {
            "display": "fix the tests",
            "pastedContents": {},
            "timestamp": 1795479000,
            "project": "/p",
        },
        {"display": "/audit", "pastedContents": {}, "timestamp": 1795479100, "project": "/p"},
    ]
    (cfg / "history.jsonl").write_text("".join(json.dumps(r) + "\n" for r in history))
    doc = audit_json(str(cfg))
    assert len(doc["sessions"]) == 1
    assert doc["input"]["problems"] == {"not_transcripts": 1}
    assert doc["input"]["unknown_records"] == {}
