"""The exact path: count_tokens over urllib, against a scripted server on 127.0.0.1 only."""

import time

import pytest
from count_tokens_server import FakeCountTokens, Reply

from spawnkit.tokens import count_api as token_count_api
from spawnkit.tokens.count_api import CountError, count_tokens


@pytest.fixture
def fake():
    server = FakeCountTokens()
    yield server
    server.close()


def test_sends_the_documented_request_and_subtracts_the_wrapper(fake):
    assert count_tokens("hello there", env=fake.env()) == 42 - 10
    [request] = fake.received
    assert request.path == "/v1/messages/count_tokens"
    assert request.headers["x-api-key"] == "sk-test-key"
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert request.headers["content-type"] == "application/json"
    assert request.body == {
        "model": "claude-opus-4-7",
        "messages": [{"role": "user", "content": "hello there"}],
    }


@pytest.mark.parametrize(
    "model, overhead",
    [
        ("claude-opus-4-7", 10),
        ("claude-opus-4-7-20260416", 10),
        ("claude-opus-4-6", 6),
        ("claude-sonnet-4-5", token_count_api.DEFAULT_OVERHEAD),
    ],
)
def test_wrapper_per_model(fake, model, overhead):
    assert count_tokens("x y z", model, env=fake.env()) == 42 - overhead
    assert fake.received[0].body["model"] == model


def test_trailing_slash_in_base_url(fake):
    env = fake.env() | {"ANTHROPIC_BASE_URL": fake.url + "/"}
    count_tokens("text", env=env)
    assert fake.received[0].path == "/v1/messages/count_tokens"


def test_reads_the_process_environment_by_default(fake, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-from-env")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.url)
    assert count_tokens("text") == 32
    assert fake.received[0].headers["x-api-key"] == "sk-from-env"


def test_no_key_means_no_request(fake):
    with pytest.raises(CountError, match="ANTHROPIC_API_KEY is not set"):
        count_tokens("text", env={"ANTHROPIC_BASE_URL": fake.url, "ANTHROPIC_API_KEY": " "})
    assert fake.received == []


def test_empty_text_is_zero_without_a_request(fake):
    assert count_tokens("", env=fake.env()) == 0
    assert fake.received == []


def test_tiny_text_counts_at_least_one(fake):
    fake.reply = Reply(body=b'{"input_tokens": 11}')
    assert count_tokens("x", env=fake.env()) == 1


def test_http_error_carries_the_api_message(fake):
    fake.reply = Reply(
        status=401,
        body=b'{"type": "error", "error": {"type": "authentication_error", '
        b'"message": "invalid x-api-key"}}',
    )
    with pytest.raises(CountError, match=r"HTTP 401 from .*: invalid x-api-key"):
        count_tokens("text", env=fake.env())


def test_http_error_without_json_body(fake):
    fake.reply = Reply(status=503, body=b"<html>overloaded</html>")
    expected = r"^HTTP 503 from http://127\.0\.0\.1:\d+/v1/messages/count_tokens$"
    with pytest.raises(CountError, match=expected):
        count_tokens("text", env=fake.env())


@pytest.mark.parametrize(
    "body",
    [b"not json", b'{"tokens": 3}', b'{"input_tokens": "12"}', b'{"input_tokens": -1}', b"[1]"],
)
def test_unexpected_answers(fake, body):
    fake.reply = Reply(body=body)
    with pytest.raises(CountError, match="unexpected"):
        count_tokens("text", env=fake.env())


def test_timeout_is_honoured(fake):
    fake.reply = Reply(hang=True)
    started = time.monotonic()
    with pytest.raises(CountError, match=r"no answer from .* within 0\.2 s"):
        count_tokens("text", env=fake.env(), timeout=0.2)
    assert time.monotonic() - started < 2.5  # the 0.2 s limit, not the 3 s default


def test_connection_refused():
    closed = FakeCountTokens()
    env = closed.env()
    closed.close()
    with pytest.raises(CountError, match="cannot reach"):
        count_tokens("text", env=env, timeout=2)


def test_base_url_must_be_http(fake):
    with pytest.raises(CountError, match="ANTHROPIC_BASE_URL must start with https:// or http://"):
        count_tokens("text", env=fake.env() | {"ANTHROPIC_BASE_URL": "file:///etc"})


def test_undecodable_bytes_are_sent_as_replacement_characters(fake):
    text = b"caf\xe9 ok".decode("utf-8", "surrogateescape")
    count_tokens(text, env=fake.env())
    assert fake.received[0].body["messages"][0]["content"] == "caf\ufffd ok"
