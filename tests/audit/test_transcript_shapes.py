"""Shapes real transcripts take that the first audit got wrong (issue 24, items 2-7).

Each test starts from the real-client fixtures (Claude Code 2.1.330, Codex 0.169.0) and gives
them the shape older or other real clients write, as seen in the real corpus
(tests/fixtures/audit-real): the flat sub-agent files of Claude Code 2.0.x, the provisional
output counts of its streamed records, the repeated token counts of Codex 0.77-0.104, a rollout
without token counts, a copied rollout. The same is checked on the real files too: the
materialised corpus, else its vendored subset (the Codex 0.104 rollouts are not vendored).
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from spawnkit.audit.signals import shell_writes_file

from .conftest import FIXTURES, RealCorpus, audit_json, copy_scenario, run_cli
from .real_corpus import groups
from .recompute import recompute


def _rewrite(path: Path, change: Callable[[dict], dict | list[dict] | None]) -> None:
    """Rewrite a transcript record by record: ``change`` returns the record(s) to keep."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        kept = change(json.loads(line))
        for rec in kept if isinstance(kept, list) else [kept] if kept is not None else []:
            out.append(json.dumps(rec, separators=(",", ":"), ensure_ascii=False))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def _main(root: Path) -> Path:
    return next(p for p in root.rglob("*.jsonl") if "subagents" not in p.parts)


def _real(real: RealCorpus, folder: str) -> Path:
    """The real group's folder: materialised in full, else its vendored subset."""
    return real.root(next(g for g in groups() if g.folder.endswith(folder)))


# --- 2. `2>/dev/null` writes no file ---------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "find . -name '*.py' 2>/dev/null",
        "grep -rn TODO src 2>/dev/null | head -20",
        "ls -la 2>&1 | head",
        "cat README.md >/dev/null 2>&1",
        "git log --oneline -5 2> /dev/null",
        "make test &>/dev/null",
        "echo 'a > b' | tee /dev/null",
        "python -c 'print(1 > 0)' 1>&2",
    ],
)
def test_a_command_that_writes_no_file(command):
    assert not shell_writes_file(command)


@pytest.mark.parametrize(
    "command",
    [
        "echo done > .reports/a.md",
        "find . -name '*.py' 2>/dev/null > files.txt",
        "pytest 2>&1 | tee report.log",
        "cat <<'EOF' >> notes.md",
        "echo x>out.txt",
        "cmd &> all.log",
    ],
)
def test_a_command_that_writes_a_file(command):
    assert shell_writes_file(command)


def test_a_sub_agent_that_only_read_with_2_devnull_still_breaks_cm002(tmp_path):
    root = copy_scenario("claude/fanout-off", tmp_path)
    find = {"command": "find src -name '*.py' 2>/dev/null | head -50", "description": "list"}

    def reads_first(rec: dict) -> dict:
        msg = rec.get("message")
        if rec.get("type") == "assistant" and isinstance(msg, dict):
            msg["content"] = [
                {"type": "tool_use", "id": "toolu_find", "name": "Bash", "input": find},
                *msg["content"],
            ]
        return rec

    for agent in root.rglob("subagents/agent-*.jsonl"):
        _rewrite(agent, reads_first)
    session = audit_json(str(root))["sessions"][0]
    assert all(r["wrote_files"] is False for r in session["returns"])
    assert [f["code"] for f in session["findings"]].count("CM002") == 6


# --- 3. Claude Code 2.0.x sub-agent files beside their session -------------------------------


def test_flat_sub_agent_files_belong_to_their_session(tmp_path):
    root = copy_scenario("claude/fanout-off", tmp_path)
    main = _main(root)
    for agent in list(root.rglob("subagents/agent-*.jsonl")):
        agent.rename(main.parent / agent.name)  # where 2.0.x kept them
    shutil.rmtree(main.with_suffix(""))
    doc = audit_json(str(root))
    (session,) = doc["sessions"]
    assert session["subagent_transcripts"] == 6
    assert all(r["wrote_files"] is False for r in session["returns"])
    assert doc["input"]["problems"] == {}
    named = audit_json(str(main))  # the session's file named alone brings its sub-agents
    assert named["sessions"][0]["subagent_transcripts"] == 6


def test_flat_sub_agents_of_the_real_2_0_sessions(real):
    root = _real(real, "session-examples")
    doc = audit_json(str(root / "2.0.58-good"))
    (session,) = doc["sessions"]  # three agent-*.jsonl beside it are not sessions
    assert session["subagent_transcripts"] == 3
    assert session["returns"][0]["wrote_files"] is False  # it read, and wrote nothing


def test_a_sub_agent_without_its_session_stays_a_warning(tmp_path):
    root = copy_scenario("claude/fanout-off", tmp_path)
    main = _main(root)
    main.unlink()
    result = run_cli("audit", str(root), "--format", "json")
    assert result.exit_code == 0  # a warning, not a finding
    doc = json.loads(result.stdout)
    assert doc["sessions"] == [] and doc["input"]["problems"] == {"orphan_subagents": 6}
    assert "6 orphan subagents" in result.stderr


# --- 4. streamed records: the final usage -----------------------------------------------------


def test_a_streamed_response_keeps_the_usage_of_its_last_record(tmp_path):
    root = copy_scenario("claude/fanout-off", tmp_path)
    main = _main(root)
    final: dict[str, int] = {}
    left: dict[str, int] = {}  # records of each response still to come
    for line in main.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec.get("type") == "assistant":
            left[rec["message"]["id"]] = left.get(rec["message"]["id"], 0) + 1

    def provisional(rec: dict) -> dict:
        """Claude Code 2.0.x writes 1 as the output count of all but a response's last record."""
        msg = rec.get("message")
        if rec.get("type") == "assistant" and isinstance(msg, dict):
            usage = msg["usage"]
            prompt = sum(usage[k] for k in ("input_tokens", "cache_creation_input_tokens"))
            final[msg["id"]] = prompt + usage["cache_read_input_tokens"] + usage["output_tokens"]
            left[msg["id"]] -= 1
            if left[msg["id"]]:
                msg["usage"] = dict(msg["usage"], output_tokens=1)
        return rec

    _rewrite(main, provisional)
    session = audit_json(str(root))["sessions"][0]
    assert [p["tokens"] for p in session["context"]] == list(final.values())
    assert session["peak_context"] == max(final.values())


def test_the_real_streamed_records_of_2_0_58(real):
    root = _real(real, "session-examples")
    doc = audit_json(str(root / "2.0.58-init-only"))
    (session,) = doc["sessions"]
    outputs = [p["output"] for p in session["context"]]
    assert outputs == [p.output for p in recompute(Path(session["path"])).points]
    assert 278 in outputs and 2 not in outputs  # the records said 2, 2, 2, then 278


def test_a_resumed_session_replaying_its_history_is_read_once(real):
    root = _real(real, "session-examples")
    (session,) = audit_json(str(root / "2.0.58-init-only"))["sessions"]
    assert len(session["returns"]) == 1  # its one Task call, replayed on resume
    assert session["context"][-1]["tokens"] > 0  # a <synthetic> message is no response


# --- 5. Codex: a repeated token_count is no new response -------------------------------------


def _codex_root(tmp_path: Path) -> Path:
    return copy_scenario("codex/off", tmp_path)


def test_repeated_token_counts_are_one_response(tmp_path):
    root = _codex_root(tmp_path)
    before = {
        s["id"]: [p["tokens"] for p in s["context"]] for s in audit_json(str(root))["sessions"]
    }

    def twice(rec: dict) -> dict | list[dict]:
        payload = rec.get("payload") or {}
        return [rec, rec] if payload.get("type") == "token_count" else rec

    for rollout in root.rglob("rollout-*.jsonl"):
        _rewrite(rollout, twice)
    after = {
        s["id"]: [p["tokens"] for p in s["context"]] for s in audit_json(str(root))["sessions"]
    }
    assert after == before and all(before.values())


# --- 6. a Codex rollout without token counts --------------------------------------------------


def test_a_rollout_without_token_counts_invents_no_window(tmp_path):
    root = _codex_root(tmp_path)
    for rollout in root.rglob("rollout-*.jsonl"):
        _rewrite(
            rollout, lambda r: None if (r.get("payload") or {}).get("type") == "token_count" else r
        )
    for session in audit_json(str(root))["sessions"]:
        assert session["context"] == [] and session["context_source"] == "none"
        assert session["context_window"] is None and session["context_window_source"] is None
        assert all(r["tokens_source"] == "estimate" for r in session["returns"])
    text = run_cli("audit", str(root)).stdout
    assert "(~ estimated)" in text and "~" in text.split("(~ estimated)")[1].splitlines()[1]
    given = audit_json(str(root), "--context-window", "128000")["sessions"][0]
    assert given["context_window"] == 128000 and given["context_window_source"] == "option"


def test_the_real_rollouts_without_token_counts(real):
    root = _real(real, "Resources/Fixtures")
    doc = audit_json(str(root))
    bare = [s for s in doc["sessions"] if s["client_version"] in ("0.51.0", "0.52.0")]
    assert len(bare) == 2
    assert all(s["context_window"] is None and s["context_source"] == "none" for s in bare)


def test_claude_code_keeps_its_documented_default_window():
    (session,) = audit_json(str(FIXTURES / "claude/fanout-off"))["sessions"]
    assert session["context_window"] == 200_000
    assert session["context_window_source"] == "default"


# --- 7. two rollouts with one thread id --------------------------------------------------------


def test_a_copied_rollout_is_reported_not_dropped(tmp_path):
    first = _codex_root(tmp_path / "a")
    second = tmp_path / "b" / "copy"
    shutil.copytree(first, second)
    result = run_cli("audit", str(tmp_path), "--format", "json")
    doc = json.loads(result.stdout)
    ids = [s["id"] for s in doc["sessions"]]
    assert len(ids) == 2 and len(set(ids)) == 1  # both audited
    assert doc["input"]["problems"]["duplicate_sessions"] == 1
    assert f"session {ids[0]} is in two transcripts" in result.stderr
    for session in doc["sessions"]:  # each copy keeps its own two sub-agents
        assert session["subagent_transcripts"] == 2 and len(session["returns"]) == 2


# --- background agents' notifications: a stopped agent ------------------------------------------


def test_a_killed_background_agent_is_a_return_with_its_status(tmp_path):
    root = copy_scenario("claude/mixed-off", tmp_path)
    main = _main(root)
    text = main.read_text(encoding="utf-8")
    call = re.search(r"<tool-use-id>(\w+)</tool-use-id>", text).group(1)

    def stopped(note: re.Match) -> str:  # what Claude Code says of an agent TaskStop ended
        if call not in note.group(0):
            return note.group(0)
        body = note.group(0).replace("<status>completed</status>", "<status>killed</status>")
        return re.sub(r"<result>.*?</result>", "", body, flags=re.S)

    text = re.sub(r"<task-notification>.*?</task-notification>", stopped, text, flags=re.S)
    main.write_text(text, encoding="utf-8")
    session = audit_json(str(root))["sessions"][0]
    statuses = sorted(r["status"] for r in session["returns"])
    assert statuses == ["completed", "completed", "killed"]
    killed = next(r for r in session["returns"] if r["status"] == "killed")
    assert killed["chars"] == 0 and killed["estimated_tokens"] == 0 and killed["background"]


# --- issue 35: agent messages, delivered idle (a user record) or busy (a queued command) -------


def _delivering(rec: dict) -> bool:
    origin = rec.get("origin") or (rec.get("attachment") or {}).get("origin")
    return isinstance(origin, dict) and origin.get("kind") == "peer"


@pytest.mark.parametrize("scenario", ["claude/messages-off", "claude/messages-enforce"])
def test_a_replayed_delivery_is_one_message(tmp_path, scenario):
    root = copy_scenario(scenario, tmp_path)
    _rewrite(_main(root), lambda rec: [rec, rec] if _delivering(rec) else rec)
    (session,) = audit_json(str(root))["sessions"]
    assert len(session["messages"]) == 1


def test_a_delivery_of_two_messages_is_two(tmp_path):
    """Messages queued together arrive in one record; each is its own."""
    root = copy_scenario("claude/messages-enforce", tmp_path)

    def twice(rec: dict) -> dict:
        if _delivering(rec) and rec.get("type") == "user":
            content = rec["message"]["content"]
            start = content.index("<agent-message ")
            end = content.index("</agent-message>") + len("</agent-message>")
            rec["message"]["content"] = content[:end] + "\n" + content[start:end] + content[end:]
        return rec

    _rewrite(_main(root), twice)
    (session,) = audit_json(str(root))["sessions"]
    assert [m["sender"] for m in session["messages"]] == ["msg-mate", "msg-mate"]
    assert session["messages"][0]["chars"] == session["messages"][1]["chars"]
