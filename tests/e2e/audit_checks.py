"""What the e2e audit tests of every client check: ``spawnkit audit`` against the fake API.

The fake API sees exactly what the orchestrator model was sent, so it is the independent truth:
per sub-agent, the words the orchestrator received (estimated with ``spawnkit.tokens``, like the
audit's ``estimated_tokens``), whether spawnkit held a longer answer back and where it saved it,
how many sub-agents ran at once, and the usage it reported for each request (its size / 4),
which the audit must read back from the transcript as the orchestrator's context.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import jsonschema

from spawnkit import tokens
from spawnkit.standard import protocol

from . import fake_gemini as gem
from .fake_server import Conversation
from .sandbox import Sandbox
from .scenarios import SAVED_COPY, received_tokens

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "standards/schemas/audit.schema.json").read_text()
)
MARGIN = 0.08  # the estimate's own safety margin: the audit may differ from the fake by this much


def audit_session(sandbox: Sandbox, host: str, version: str, *paths: str) -> dict:
    """``spawnkit audit --format json`` in the sandbox: valid, read cleanly, one session."""
    proc = sandbox.spawnkit("audit", *paths, "--format", "json", check=False)
    assert proc.returncode in (0, 1), proc.stderr
    doc = json.loads(proc.stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    assert doc["input"]["problems"] == {} and doc["input"]["unknown_records"] == {}
    (session,) = doc["sessions"]
    assert session["host"] == host and session["client_version"] == version
    return session


def check_returns(
    session: dict, main: Conversation, call_ids: list[str], subs: list[Conversation], project: Path
) -> dict[str, dict]:
    """Each launch's return as the audit reports it, against the fake: a refused launch never
    started and has none; the others the size the orchestrator received (within ``MARGIN``),
    blocked exactly when spawnkit's block named a saved copy, and that copy on disk in the
    project, as large as the audit says. The returns, by launch id."""
    reported = [max(1, math.ceil(len(req.raw) / 4)) for req in main.requests]
    assert [p["prompt"] for p in session["context"]] == reported  # the usage the API gave
    returns = {r["tool_use_id"]: r for r in session["returns"]}
    for call_id, sub in zip(call_ids, subs, strict=True):
        expected = received_tokens(main, call_id)
        if expected is None:  # refused by the parallel cap: it never started
            assert call_id not in returns and not sub.requests
            continue
        got = returns[call_id]
        assert abs(got["estimated_tokens"] - expected) <= MARGIN * expected, (got, expected)
        assert got["tokens_source"] != "estimate" and got["tokens"] <= got["delivered_tokens"]
        # what the sub-agent was told after its answer (Gemini CLI: its denied complete_task)
        said = (SAVED_COPY.search(told(r)) for r in sub.requests[1:])
        held = next((found for found in said if found), None)
        assert got["blocked"] is (held is not None), got
        if held is not None:
            assert got["saved_path"] == held.group(0)
            saved = Path(got["saved_path"])
            assert saved.is_file() and saved.is_relative_to(project)
            assert got["full_tokens"] == tokens.estimate(saved.read_text(encoding="utf-8"))
            assert got["estimated_tokens"] <= protocol.return_budget() < got["full_tokens"]
    return returns


def told(req) -> str:
    """The text a sub-agent's request carries after its previous answer."""
    if isinstance(req, gem.Request):
        responses = req.function_responses()
        return responses[-1].text if responses else ""
    return req.last_user_text


def check_overlap(session: dict, returns: dict[str, dict], enforced: bool) -> None:
    """``cap + 1`` long answers at once: with enforce, one launch refused and every answer held
    back; without, each one over the budget and one sub-agent too many."""
    cap = protocol.max_parallel()
    codes = [f["code"] for f in session["findings"]]
    assert all(r["blocked"] is enforced for r in returns.values())
    if enforced:
        assert session["peak_parallel"] == cap
        assert session["denied_launches"] == 1 and len(returns) == cap
        assert "CM001" not in codes and "CM005" not in codes
    else:
        assert session["peak_parallel"] == cap + 1
        assert codes.count("CM001") == cap + 1 and codes.count("CM005") == 1
        assert session["denied_launches"] == 0


def audit_by_skill(sandbox: Sandbox, *paths: str) -> dict:
    """``spawnkit audit --by skill --format json`` run from a folder that is not the project (a
    skill's file must be found from what the session recorded, never from where the audit
    runs), HOME the sandbox's: valid against the schema, read cleanly."""
    elsewhere = sandbox.root / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    args = ("audit", *paths, "--by", "skill", "--format", "json")
    proc = sandbox.spawnkit(*args, check=False, cwd=elsewhere)
    assert proc.returncode in (0, 1), proc.stderr
    doc = json.loads(proc.stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    assert doc["by"] == "skill" and doc["input"]["problems"] == {}, doc["input"]
    assert doc["input"]["unknown_records"] == {}
    return doc


def check_skill(doc: dict, name: str, path: Path, returns: int, outside: int) -> dict:
    """The one skill of the audit: its name as recorded, its file, ``returns`` returns all over
    the budget (CM001 each, the sessions named as evidence); ``outside`` returns outside any
    skill. The skill's entry."""
    (skill,) = doc["skills"]
    assert skill["name"] == name and skill["path"] == str(path), skill
    assert skill["returns"] == returns == skill["over_budget"], skill
    assert skill["findings"].get("CM001") == returns, skill
    sessions = {s["id"] for s in doc["sessions"]}
    assert {e["session"] for e in skill["evidence"]} <= sessions
    assert all(
        e["tokens"] > protocol.return_budget() for e in skill["evidence"] if e["code"] == "CM001"
    )
    assert doc["unattributed"]["returns"] == outside, doc["unattributed"]
    assert skill["tokens"] == sum(
        r["tokens"] * r["deliveries"]
        for s in doc["sessions"]
        for r in s["returns"]
        if r["skill"] == name
    )
    return skill
