"""The fake Responses API's own contract, over real HTTP on 127.0.0.1 (no Codex needed)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from .fake_responses import FakeResponses, Request, say, spawn_agent, wait_agent
from .fake_server import post
from .fake_server import read_sse as _events


def _post(api: FakeResponses, body: dict, headers: dict | None = None) -> tuple[str, bytes]:
    return post(api.url + "/v1/responses", body, headers)


def _user(text: str) -> dict:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def _body(*items: dict) -> dict:
    return {"model": "m", "stream": True, "tools": [{"type": "function"}], "input": list(items)}


ENV = _user("<environment_context>\n  <cwd>/p</cwd>\n</environment_context>")


def test_streams_items_in_the_responses_sse_shape():
    with FakeResponses() as api:
        call = spawn_agent("SUB: x", call_id="call_1")
        api.conversation("HELLO", [say("hi"), call])
        ctype, payload = _post(api, _body(ENV, _user("HELLO there")))

    assert ctype == "text/event-stream"
    events = _events(payload)
    names = [name for name, _ in events]
    assert names == [
        "response.created",
        "response.output_item.added",
        "response.output_text.delta",
        "response.output_item.done",
        "response.output_item.added",
        "response.output_item.done",
        "response.completed",
    ]
    assert all(data["type"] == name for name, data in events)
    done = events[-1][1]["response"]
    assert done["usage"]["total_tokens"] > 0 and done["id"] == events[0][1]["response"]["id"]
    text, spawn = done["output"]
    assert text["content"][0]["text"] == "hi" and events[2][1]["delta"] == "hi"
    assert spawn["type"] == "function_call" and spawn["namespace"] == "multi_agent_v1"
    assert spawn["call_id"] == "call_1" and json.loads(spawn["arguments"])["message"] == "SUB: x"


def test_routes_by_task_text_not_harness_context_and_counts_model_turns():
    with FakeResponses() as api:
        main = api.conversation("ORCH", "first", "second")
        api.conversation("environment_context", "never")  # harness text is not the task
        _post(api, _body(ENV, _user("ORCH: go")))
        history = [
            ENV,
            _user("ORCH: go"),
            say("first"),
            {"type": "function_call_output", "call_id": "c", "output": "ok"},
        ]
        _, payload = _post(api, _body(*history))

    assert [r.turn for r in main.requests] == [0, 1]
    assert _events(payload)[-1][1]["response"]["output"][0]["content"][0]["text"] == "second"


def test_a_v2_sub_agent_is_told_apart_by_its_agent_path():
    """A v2 sub-agent inherits its parent's history: only the agent path tells them apart."""
    with FakeResponses() as api:
        main = api.conversation("ORCH", "parent")
        sub = api.conversation("/root/worker", "child")
        meta = {"x-codex-turn-metadata": json.dumps({"agent_name": "/root/worker"})}
        _post(api, _body(ENV, _user("ORCH: go")))
        _post(api, _body(ENV, _user("ORCH: go")), meta)

    assert len(main.requests) == 1 and len(sub.requests) == 1
    assert sub.first.agent_name == "/root/worker"


def test_agent_results_from_wait_agent_output_and_notifications():
    spawn = spawn_agent("SUB", call_id="call_s")
    spawned = {"type": "function_call_output", "call_id": "call_s", "output": '{"agent_id":"a1"}'}
    waited = {
        "type": "function_call_output",
        "call_id": "call_w",
        "output": json.dumps({"status": {"a1": {"completed": "SHORT"}}, "timed_out": False}),
    }
    note = _user(
        '<subagent_notification>\n{"agent_path":"a1","status":{"completed":"SHORT"}}\n'
        "</subagent_notification>"
    )
    req = Request(0, "POST", "/v1/responses", "", b"", _body(_user("ORCH"), spawn, spawned))
    assert req.spawned_agent_id("call_s") == "a1" and req.agent_result("call_s") is None
    for extra in ([wait_agent(["a1"]), waited], [note]):
        req = Request(
            0, "POST", "/v1/responses", "", b"", _body(_user("ORCH"), spawn, spawned, *extra)
        )
        assert req.agent_result("call_s") == "SHORT"
    both = Request(
        0, "POST", "/v1/responses", "", b"", _body(_user("ORCH"), spawn, spawned, waited, note)
    )
    assert both.agent_results("call_s") == ["SHORT", "SHORT"]  # handed over twice
    assert not both.launch_refused("call_s")


def test_a_spawn_whose_output_names_no_agent_was_refused():
    spawn = spawn_agent("SUB", call_id="call_s")
    denied = {
        "type": "function_call_output",
        "call_id": "call_s",
        "output": "Tool call blocked by PreToolUse hook: spawnkit max-parallel (CM005): wait",
    }
    req = Request(0, "POST", "/v1/responses", "", b"", _body(_user("ORCH"), spawn, denied))
    assert req.launch_refused("call_s") and req.agent_results("call_s") == []
    pending = Request(0, "POST", "/v1/responses", "", b"", _body(_user("ORCH"), spawn))
    assert not pending.launch_refused("call_s")


def test_other_paths_are_refused_and_recorded():
    with FakeResponses() as api:
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(api.url + "/v1/models", timeout=10)
        assert err.value.code == 404
        assert [r.conversation for r in api.requests] == ["other"]
