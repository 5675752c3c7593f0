"""The fake API's own contract, over real HTTP on 127.0.0.1 (no Claude Code needed)."""

from __future__ import annotations

import json
import threading

from .fake_api import FakeAnthropic, agent, text
from .fake_server import post
from .fake_server import read_sse as _events


def _post(api: FakeAnthropic, path: str, body: dict) -> tuple[str, bytes]:
    return post(api.url + path, body)


def _user(*texts: str) -> dict:
    return {"role": "user", "content": [{"type": "text", "text": t} for t in texts]}


def _body(*messages: dict, stream: bool = True) -> dict:
    return {
        "model": "m",
        "stream": stream,
        "tools": [{"name": "Agent"}],
        "messages": list(messages),
    }


def test_streams_text_and_tool_use_in_the_messages_sse_shape():
    with FakeAnthropic() as api:
        call = agent("SUB: x", id="toolu_1")
        api.conversation("HELLO", [text("hi"), call])
        ctype, payload = _post(
            api, "/v1/messages?beta=true", _body(_user("<reminder>", "HELLO there"))
        )

    assert ctype == "text/event-stream"
    names = [n for n, _ in _events(payload)]
    assert names == ["message_start"] + [
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
    ] * 2 + [
        "message_delta",
        "message_stop",
    ]
    ev = {n: d for n, d in _events(payload) if n != "content_block_start"}
    assert ev["message_delta"]["delta"]["stop_reason"] == "tool_use"
    starts = [d for n, d in _events(payload) if n == "content_block_start"]
    assert starts[1]["content_block"] == {
        "type": "tool_use",
        "id": "toolu_1",
        "name": "Agent",
        "input": {},
    }
    deltas = [d["delta"] for n, d in _events(payload) if n == "content_block_delta"]
    assert deltas[0] == {"type": "text_delta", "text": "hi"}
    assert json.loads(deltas[1]["partial_json"]) == call["input"]
    (req,) = api.requests
    assert req.conversation == "HELLO" and req.turn == 0 and req.query == "beta=true"


def test_turns_follow_the_history_rules_win_and_longest_match_picks_the_conversation():
    with FakeAnthropic() as api:
        api.conversation("TASK", "generic")
        conv = api.conversation("TASK-SPECIAL", "first", "second")
        conv.when(lambda r: "retry please" in r.last_user_text, "ruled")
        history = [_user("TASK-SPECIAL go"), {"role": "assistant", "content": [text("first")]}]
        _post(api, "/v1/messages", _body(history[0], stream=False))
        _, second = _post(api, "/v1/messages", _body(*history, _user("more"), stream=False))
        _, ruled = _post(api, "/v1/messages", _body(*history, _user("retry please"), stream=False))

    assert json.loads(second)["content"] == [text("second")]
    assert json.loads(ruled)["content"] == [text("ruled")]
    assert [r.turn for r in conv.requests] == [0, 1, 1]


def test_side_requests_unmatched_requests_and_count_tokens_are_recorded_and_answered():
    with FakeAnthropic() as api:
        api.conversation("MAIN", agent("SUB"))
        _, side = _post(
            api, "/v1/messages", {"model": "m", "messages": [_user("MAIN title please")]}
        )
        _, other = _post(api, "/v1/messages", _body(_user("who am I"), stream=False))
        _, count = _post(api, "/v1/messages/count_tokens", {"messages": [_user("x" * 400)]})

    assert json.loads(side)["content"] == [text("Done.")]
    assert json.loads(other)["stop_reason"] == "end_turn"
    assert json.loads(count)["input_tokens"] > 100
    assert [r.conversation for r in api.requests] == ["side", None, "count_tokens"]
    assert api.unmatched == [api.requests[1]]


def test_a_broken_script_is_answered_and_reported_not_hung():
    with FakeAnthropic() as api:
        api.conversation("BOOM", lambda req: 1 / 0)
        _, payload = _post(api, "/v1/messages", _body(_user("BOOM"), stream=False))

    assert json.loads(payload)["content"] == [text("Done.")]
    assert "ZeroDivisionError" in api.errors[0]


def test_a_step_can_wait_for_another_conversation():
    with FakeAnthropic() as api:
        api.conversation("RELEASE", "released")
        api.conversation(
            "HOLD",
            lambda req: (
                "held" if api.wait_for(lambda: len(api.requests) >= 2, timeout=10) else "timeout"
            ),
        )
        results: dict[str, bytes] = {}
        waiter = threading.Thread(
            target=lambda: results.update(
                hold=_post(api, "/v1/messages", _body(_user("HOLD"), stream=False))[1]
            )
        )
        waiter.start()
        assert api.wait_for(lambda: len(api.requests) == 1, timeout=10)
        _post(api, "/v1/messages", _body(_user("RELEASE"), stream=False))
        waiter.join(10)

    assert json.loads(results["hold"])["content"] == [text("held")]
