"""``spawnkit audit`` on the command line: formats, filters, where it looks, exit codes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from spawnkit.audit import render_text
from spawnkit.audit.discovery import parse_since, project_folder_name
from spawnkit.audit.engine import audit

from .conftest import FIXTURES, SCENARIOS, audit_json, copy_scenario, run_cli, validate

ANSI = re.compile(r"\x1b\[")


@pytest.mark.parametrize("name", SCENARIOS)
def test_text_fits_80_columns_without_colour_when_piped(name):
    result = run_cli("audit", str(FIXTURES / name))
    assert result.exit_code in (0, 1)
    assert not ANSI.search(result.stdout)
    too_wide = [line for line in result.stdout.splitlines() if len(line) > 80]
    assert too_wide == []


def test_text_shows_a_bar_per_return_and_the_findings():
    out = run_cli("audit", str(FIXTURES / "claude/fanout-off")).stdout
    rows = [line for line in out.splitlines() if re.match(r"\s+\d+  audit part \d", line)]
    assert len(rows) == 6 and all("█" in r and "▓" in r for r in rows)  # over the budget mark
    assert "CM001" in out and "CM003" in out and "x budget" in out
    # two sub-agents answered between the same two requests: their recorded growth is shared
    doc = audit_json(str(FIXTURES / "claude/fanout-off"))
    shown = [r["tokens"] for r in doc["sessions"][0]["returns"]]
    assert [int(re.search(r" ([\d,]+)\*  ", r).group(1).replace(",", "")) for r in rows] == shown
    assert "(* shared)" in out
    enforced = run_cli("audit", str(FIXTURES / "claude/fanout-enforce")).stdout
    held = audit_json(str(FIXTURES / "claude/fanout-enforce"))["sessions"][0]["returns"]
    assert {r["full_tokens"] for r in held} == {1552}  # the long answers, estimated
    assert enforced.count("blocked, 1,552 saved") == 6


def test_text_falls_back_to_ascii():
    result = audit([FIXTURES])
    text = render_text.render(result, encoding="ascii")
    text.encode("ascii")
    assert "#" in text and "|" in text


def test_exit_codes_follow_the_findings():
    assert run_cli("audit", str(FIXTURES / "claude/fanout-off")).exit_code == 1
    assert run_cli("audit", str(FIXTURES / "codex/enforce")).exit_code == 0


def test_json_validates_against_the_documented_schema():
    doc = audit_json(str(FIXTURES))
    validate(doc)
    assert doc["version"] == 3 and doc["standard"]["return_budget_tokens"] == 500
    # the minimum shape
    for session in doc["sessions"]:
        assert {"id", "host", "returns", "peak_parallel", "findings"} <= set(session)
        for ret in session["returns"]:
            assert {"agent_id", "tokens", "blocked", "saved_path"} <= set(ret)
        for finding in session["findings"]:
            assert {"code", "message"} <= set(finding)


def test_html_goes_to_a_file_and_stdout_stays_empty(tmp_path):
    target = tmp_path / "report.html"
    result = run_cli("audit", str(FIXTURES), "--format", "html", "-o", str(target))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert f"wrote {target}" in result.stderr
    page = target.read_text()
    assert page.startswith("<!doctype html>") and "default-src 'none'" in page
    assert "http://" not in page and "https://" not in page  # nothing to fetch


def test_text_written_to_a_file_has_no_colour_codes(tmp_path):
    target = tmp_path / "report.txt"
    run_cli("audit", str(FIXTURES), "-o", str(target))
    assert not ANSI.search(target.read_text()) and "summary" in target.read_text()


def test_a_refused_output_path_writes_nothing(tmp_path):
    result = run_cli("audit", str(FIXTURES), "-o", str(tmp_path / "missing" / "r.json"))
    assert result.exit_code == 2 and "existing folder" in result.stderr
    assert not (tmp_path / "missing").exists()


def test_paths_and_project_together_are_refused(tmp_path):
    result = run_cli("audit", str(FIXTURES), "--project", str(tmp_path))
    assert result.exit_code == 2 and "not both" in result.stderr


def test_session_filter_by_id_prefix():
    every = audit_json(str(FIXTURES))
    wanted = every["sessions"][0]["id"]
    doc = audit_json(str(FIXTURES), "--session", wanted[:8])
    assert [s["id"] for s in doc["sessions"]] == [wanted]


def test_since_filters_by_modification_time(tmp_path):
    old = copy_scenario("claude/fanout-off", tmp_path)
    copy_scenario("claude/fanout-enforce", tmp_path)
    long_ago = time.time() - 30 * 86400
    for path in old.rglob("*.jsonl"):
        os.utime(path, (long_ago, long_ago))
    assert len(audit_json(str(tmp_path))["sessions"]) == 2
    assert len(audit_json(str(tmp_path), "--since", "7d")["sessions"]) == 1
    bad = run_cli("audit", str(tmp_path), "--since", "last tuesday")
    assert bad.exit_code == 2 and "7d" in bad.stderr


def test_parse_since():
    now = 1_000_000.0
    assert parse_since("7d", now) == now - 7 * 86400
    assert parse_since("12h", now) == now - 12 * 3600
    assert parse_since("2w", now) == now - 14 * 86400
    assert parse_since("2026-11-01") == parse_since("2026-11-01T00:00:00Z")
    with pytest.raises(ValueError):
        parse_since("soon")


def _claude_config(home: Path) -> Path:
    return home / ".claude" / "projects"


def test_without_arguments_it_reads_both_clients_folders(tmp_path, monkeypatch):
    home = Path(os.environ["HOME"])
    claude = _claude_config(home) / project_folder_name(tmp_path / "app")
    claude.mkdir(parents=True)
    for item in (FIXTURES / "claude/fanout-off/projects").iterdir():
        for part in item.iterdir():
            dest = claude / part.name
            if part.is_dir():
                import shutil

                shutil.copytree(part, dest)
            else:
                dest.write_bytes(part.read_bytes())
    codex_home = tmp_path / "codex-home"
    import shutil

    shutil.copytree(FIXTURES / "codex/off/sessions", codex_home / "sessions")
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    doc = audit_json()
    assert sorted(s["host"] for s in doc["sessions"]) == ["claude-code", "codex"]


def test_project_picks_that_projects_sessions_only(tmp_path, monkeypatch):
    import shutil

    home = Path(os.environ["HOME"])
    app, other = tmp_path / "my app", tmp_path / "other"
    app.mkdir()
    other.mkdir()
    source = next((FIXTURES / "claude/mixed-off/projects").iterdir())
    shutil.copytree(source, _claude_config(home) / project_folder_name(app.resolve()))
    source = next((FIXTURES / "claude/fanout-off/projects").iterdir())
    shutil.copytree(source, _claude_config(home) / project_folder_name(other.resolve()))
    # a Codex rollout recorded in the same project, one elsewhere
    codex_home = tmp_path / "codex-home"
    for n, (scenario, cwd) in enumerate((("codex/off", app), ("codex/enforce", other))):
        for path in (FIXTURES / scenario / "sessions").rglob("*.jsonl"):
            target = codex_home / "sessions" / f"{n}" / path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(path.read_text().replace("/home/user/project", str(cwd.resolve())))
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    monkeypatch.chdir(tmp_path)
    doc = audit_json("--project", "my app")
    assert sorted((s["host"], len(s["returns"])) for s in doc["sessions"]) == [
        ("claude-code", 3),
        ("codex", 2),
    ]
    (codex,) = [s for s in doc["sessions"] if s["host"] == "codex"]
    assert codex["project"] == str(app.resolve())
    missing = run_cli("audit", "--project", str(tmp_path / "nowhere"))
    assert missing.exit_code == 2


def test_nothing_to_audit_is_said_not_failed():
    result = run_cli("audit")
    assert result.exit_code == 0
    assert "nothing to audit" in result.stderr


def test_help_names_the_formats_and_the_exit_codes():
    out = run_cli("audit", "--help").stdout
    for word in ("--format", "--since", "--project", "--session", "-o", "Exit 0", "CM005"):
        assert word in out


def test_the_installed_command_runs_out_of_process(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "spawnkit", "audit", str(FIXTURES / "codex"), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    assert len(json.loads(proc.stdout)["sessions"]) == 2


def test_a_failure_midway_leaves_no_report_and_no_temporary_file(tmp_path, monkeypatch):
    from spawnkit.audit import render_json

    def broken(audit, out, by="session"):
        out('{"version": 1, "sessions": [')
        for _ in audit.sessions:
            raise OSError(28, "No space left on device")

    monkeypatch.setitem(
        __import__("spawnkit.commands.audit", fromlist=["WRITERS"]).WRITERS, "json", broken
    )
    target = tmp_path / "report.json"
    target.write_text("the previous report\n")
    result = run_cli("audit", str(FIXTURES), "--format", "json", "-o", str(target))
    assert result.exit_code == 2 and "No space left on device" in result.stderr
    assert target.read_text() == "the previous report\n"  # untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]
    assert render_json.VERSION == 3


def test_a_closed_pipe_ends_quietly(tmp_path):
    for n in range(12):  # enough report to overflow the pipe's buffer
        copy_scenario("claude/fanout-off", tmp_path / f"c{n}")
    proc = subprocess.Popen(
        [sys.executable, "-m", "spawnkit", "audit", str(tmp_path), "--format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout.read(10) == b'{\n  "versi'
    proc.stdout.close()  # like `| head -c 10`
    _, err = proc.communicate(timeout=60)
    assert err == b"", err  # quiet: not a word, not a traceback
    assert proc.returncode == 2  # like every verb whose output could not be written (commands.edge)


def test_the_report_is_written_while_sessions_are_read(tmp_path):
    """Streaming: the first session is out before the last one is read."""
    from spawnkit.audit import render_json
    from spawnkit.audit.engine import stream

    run = stream([FIXTURES])
    events: list[str] = []
    original = run.sessions

    def watched():
        for session in original:
            events.append("read")
            yield session

    run.sessions = watched()
    render_json.write(run, lambda text: events.append("out"))
    first_out_after_read = events.index("out", events.index("read"))
    assert first_out_after_read < len(events) - 1 - events[::-1].index("read")
