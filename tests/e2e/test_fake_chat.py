"""The fake Chat Completions API's own contract, over real HTTP on 127.0.0.1 (no Copilot needed)."""

from __future__ import annotations

import json

from .fake_chat import FakeChat, Request, say, task, tool_call
from .fake_server import post


def _post(api: FakeChat, body: dict) -> tuple[str, bytes]:
    return post(api.url + "/v1/chat/completions", body)


def _body(*messages: dict, stream: bool = True) -> dict:
    return {
        "model": "gpt-4.1",
        "stream": stream,
        "tools": [{"type": "function", "function": {"name": "task", "parameters": {}}}],
        "messages": [{"role": "system", "content": "You are Copilot."}, *messages],
    }


def _chunks(payload: bytes) -> list[dict | str]:
    found: list[dict | str] = []
    for block in payload.decode().strip().split("\n\n"):
        assert block.startswith("data: ") and "\nevent:" not in block
        data = block.removeprefix("data: ")
        found.append(data if data == "[DONE]" else json.loads(data))
    return found


def test_streams_text_then_tool_calls_as_chunks_ending_in_done():
    with FakeChat() as api:
        call = task("SUB: audit", "audit", call_id="call_1")
        api.conversation("ORCH", [say("launching"), call])
        ctype, payload = _post(api, _body({"role": "user", "content": "ORCH go"}))

    assert ctype == "text/event-stream"
    chunks = _chunks(payload)
    assert chunks[-1] == "[DONE]"
    deltas = [c["choices"][0]["delta"] for c in chunks[:-2]]
    assert deltas[0] == {"role": "assistant", "content": ""}
    assert deltas[1] == {"content": "launching"}
    (made,) = deltas[2]["tool_calls"]
    assert made["id"] == "call_1" and made["function"]["name"] == "task"
    assert json.loads(made["function"]["arguments"])["prompt"] == "SUB: audit"
    assert chunks[-3]["choices"][0]["finish_reason"] == "tool_calls"
    usage = chunks[-2]["usage"]
    assert chunks[-2]["choices"] == [] and usage["prompt_tokens"] > 0


def test_a_plain_request_gets_one_completion():
    with FakeChat() as api:
        api.conversation("ORCH", "hello")
        _, payload = _post(api, _body({"role": "user", "content": "ORCH"}, stream=False))
    body = json.loads(payload)
    assert body["choices"][0]["message"] == {"role": "assistant", "content": "hello"}
    assert body["choices"][0]["finish_reason"] == "stop"


def test_steps_follow_the_assistant_turns_and_results_are_read_back():
    with FakeChat() as api:
        call = tool_call("view", {"path": "/p/x"}, call_id="call_9")
        conv = api.conversation("ORCH", call, "done")
        history = [
            {"role": "user", "content": [{"type": "text", "text": "ORCH go"}]},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_9",
                        "type": "function",
                        "function": {"name": "view", "arguments": '{"path": "/p/x"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_9", "content": "Denied by preToolUse hook: no"},
        ]
        _, first = _post(api, _body(history[0]))
        _, second = _post(api, _body(*history))

    assert '"view"' in first.decode() and '"done"' in second.decode()
    last: Request = conv.last
    assert last.turn == 1 and last.first_user_text == "ORCH go"
    assert last.tool_calls() == [{"id": "call_9", "name": "view", "arguments": {"path": "/p/x"}}]
    assert last.launch_refused("call_9") and last.agent_result("call_9") is None
    assert last.new_text == "Denied by preToolUse hook: no"


def test_requests_without_tools_are_side_requests_and_unknown_paths_404():
    with FakeChat() as api:
        api.conversation("ORCH", "hello")
        body = _body({"role": "user", "content": "ORCH"})
        body.pop("tools")
        _, payload = _post(api, body)
        assert "Done." in payload.decode()
        assert api.chat_requests()[0].conversation == "side"
        try:
            post(api.url + "/v1/responses", {})
        except Exception as exc:  # noqa: BLE001 - urllib raises HTTPError for the 404
            assert "404" in str(exc)
        else:
            raise AssertionError("an unfaked path must answer 404")
