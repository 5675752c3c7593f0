"""``spawnkit tokens``: files, stdin, JSON, budgets, and --exact against a server on 127.0.0.1."""

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from count_tokens_server import FakeCountTokens, Reply

from spawnkit import tokens
from spawnkit.cli import cli
from spawnkit.tokens import report as token_report

RETURN = (
    "AGENT: audit\nSTATUS: COMPLETE\nKEY_METRICS: files=12, errors=3\n"
    "TOP_FINDINGS: src/app.py:42 unchecked None\nREPORT: .audit-reports/step-1.md\n"
)
NO_KEY = {"ANTHROPIC_API_KEY": None, "ANTHROPIC_BASE_URL": None}


def _runner(env: dict | None = None) -> CliRunner:
    try:  # click < 8.2 mixes stderr into stdout unless told not to
        return CliRunner(mix_stderr=False, env=env)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner(env=env)


def run(*args: str, input: bytes | None = None, env: dict | None = None):
    return _runner(NO_KEY | (env or {})).invoke(cli, ["tokens", *args], input=input)


@pytest.fixture
def fake():
    server = FakeCountTokens()
    yield server
    server.close()


@pytest.fixture
def reply_file(tmp_path: Path) -> Path:
    path = tmp_path / "reply.md"
    path.write_text(RETURN, encoding="utf-8")
    return path


def test_file_prints_the_estimate_alone(reply_file):
    result = run(str(reply_file))
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{tokens.estimate(RETURN)}\n"
    assert result.stderr == ""


@pytest.mark.parametrize("args", [(), ("-",)])
def test_stdin(args):
    result = run(*args, input=RETURN.encode())
    assert result.exit_code == 0
    assert int(result.stdout) == tokens.estimate(RETURN)


def test_json(reply_file):
    result = run(str(reply_file), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data == {
        "source": str(reply_file),
        "characters": len(RETURN),
        "tokens": tokens.estimate(RETURN),
        "method": "estimate",
        "estimate": tokens.estimate(RETURN),
        "model": "claude-opus-4-7",
        "calibrated_to": "claude-opus-4-7",
    }


def test_missing_file_is_one_line_and_exit_2(tmp_path):
    result = run(str(tmp_path / "nope.md"))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        (
            f"spawnkit: error: no such file: {tmp_path / 'nope.md'} "
            "(give an existing file, or - to read standard input)"
        )
    ]


def test_directory_is_refused(tmp_path):
    result = run(str(tmp_path))
    assert result.exit_code == 2
    assert "is a directory" in result.stderr and "Traceback" not in result.stderr


def test_invalid_utf8_is_counted_with_replacement_characters(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("résumé: ok\n".encode("latin-1"))
    result = run(str(path), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["invalid_utf8_replaced"] is True
    assert data["characters"] == len("r\ufffdsum\ufffd: ok\n")
    assert data["tokens"] == tokens.estimate("r\ufffdsum\ufffd: ok\n")
    assert "not valid UTF-8" in result.stderr


def test_budget_over_exits_1_and_says_by_how_much(reply_file):
    count = tokens.estimate(RETURN)
    result = run(str(reply_file), "--budget", str(count - 5))
    assert result.exit_code == 1
    assert result.stdout == f"{count}\n"
    assert result.stderr == (
        f"spawnkit: {reply_file}: ~{count} tokens (5 over the {count - 5}-token budget)\n"
    )


def test_budget_within_exits_0(reply_file):
    result = run(str(reply_file), "--budget", str(tokens.estimate(RETURN)), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["budget"] == tokens.estimate(RETURN) and data["over_budget"] is False


def test_negative_budget_is_a_usage_error(reply_file):
    result = run(str(reply_file), "--budget", "-1")
    assert result.exit_code == 2


# --- --exact -----------------------------------------------------------------------------------


def test_exact_asks_the_api(fake, reply_file):
    fake.reply = Reply(body=b'{"input_tokens": 71}')
    result = run(str(reply_file), "--exact", "--json", env=fake.env())
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["method"] == "exact"
    assert data["tokens"] == 71 - 10
    assert data["estimate"] == tokens.estimate(RETURN)
    assert "fallback_reason" not in data and "calibrated_to" not in data
    assert fake.received[0].body["messages"][0]["content"] == RETURN
    assert result.stderr == ""


def test_exact_with_another_model(fake, reply_file):
    result = run(str(reply_file), "--exact", "--model", "claude-opus-4-6", env=fake.env())
    assert result.stdout == f"{42 - 6}\n"
    assert fake.received[0].body["model"] == "claude-opus-4-6"


def test_exact_without_key_falls_back_and_says_so(reply_file):
    result = run(str(reply_file), "--exact", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["method"] == "estimate"
    assert data["tokens"] == tokens.estimate(RETURN)
    assert data["fallback_reason"] == "ANTHROPIC_API_KEY is not set"
    assert result.stderr == (
        "spawnkit: warning: --exact fell back to the estimate: ANTHROPIC_API_KEY is not set\n"
    )


@pytest.mark.parametrize(
    "reply, reason",
    [
        (Reply(status=500, body=b'{"error": {"message": "boom"}}'), "HTTP 500 from"),
        (Reply(body=b"{not json"), "unexpected answer"),
    ],
)
def test_exact_server_failures_fall_back(fake, reply_file, reply, reason):
    fake.reply = reply
    result = run(str(reply_file), "--exact", "--json", env=fake.env())
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["method"] == "estimate" and reason in data["fallback_reason"]
    assert data["tokens"] == tokens.estimate(RETURN)
    assert "fell back to the estimate" in result.stderr


def test_exact_unreachable_server_falls_back(reply_file):
    closed = FakeCountTokens()
    env = closed.env()
    closed.close()
    result = run(str(reply_file), "--exact", env=env)
    assert result.exit_code == 0
    assert result.stdout == f"{tokens.estimate(RETURN)}\n"
    assert "cannot reach" in result.stderr


def test_exact_timeout_falls_back(fake, reply_file):
    # The CLI waits 3 s; the same code path is driven here with a short, injected limit.
    fake.reply = Reply(hang=True)
    report = token_report.measure(str(reply_file), exact=True, env=fake.env(), timeout=0.2)
    assert report.method == "estimate"
    assert report.tokens == tokens.estimate(RETURN)
    assert "no answer" in report.fallback_reason
    assert any("fell back" in w for w in report.warnings)


def test_exact_budget_uses_the_exact_count(fake, reply_file):
    fake.reply = Reply(body=b'{"input_tokens": 1010}')
    result = run(str(reply_file), "--exact", "--budget", "999", env=fake.env())
    assert result.exit_code == 1
    assert result.stdout == "1000\n"


# --- the installed command, as a shell would run it --------------------------------------------


def _spawnkit() -> list[str]:
    script = Path(sys.executable).with_name("spawnkit")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from spawnkit.cli import main; main()"]


def test_real_command_reads_a_pipe(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    result = subprocess.run(
        [*_spawnkit(), "tokens", "--json"],
        input=RETURN.encode(),
        capture_output=True,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["tokens"] == tokens.estimate(RETURN)


def test_real_command_missing_file(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    result = subprocess.run(
        [*_spawnkit(), "tokens", str(tmp_path / "gone.txt")],
        capture_output=True,
        env=env,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("spawnkit: error:")


def test_binary_file(tmp_path):
    path = tmp_path / "blob.bin"
    path.write_bytes(bytes(range(256)) * 400)
    result = run(str(path), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["invalid_utf8_replaced"] is True
    assert data["tokens"] >= data["characters"] / 4


def test_no_file_and_a_terminal_on_stdin_is_refused_instead_of_hanging(tmp_path):
    controller, terminal = pty.openpty()
    try:
        result = subprocess.run(
            [*_spawnkit(), "tokens"],
            stdin=terminal,
            capture_output=True,
            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(terminal)
        os.close(controller)
    assert result.returncode == 2
    assert result.stderr.startswith("spawnkit: error: no input: give a FILE, or pipe text in")
