"""One error style for every verb, and no traceback where a newcomer met one (issue 14, items 2, 16)."""

from __future__ import annotations

import os
import re
import subprocess

import pytest
from click.testing import CliRunner

from spawnkit.cli import cli

from .sandbox import Sandbox

ONE_ERROR = re.compile(r"^spawnkit: error: \S.*$")


def invoke(*args: str, **kw):
    return CliRunner().invoke(cli, list(args), **kw)


def assert_one_error(result, *needles: str) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and ONE_ERROR.match(lines[0]), result.stderr
    assert "Traceback" not in result.output and "Usage:" not in result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


# --- item 16: click's usage errors in spawnkit's style, for every verb -------------------


@pytest.mark.parametrize("verb", sorted(cli.commands))
def test_an_unknown_option_is_one_spawnkit_error(verb):
    result = invoke(verb, "--no-such-option")
    assert result.exit_code == 2
    assert_one_error(result, "no such option", f"see 'spawnkit {verb} --help'")


@pytest.mark.parametrize("verb", ["new", "adopt"])
def test_a_missing_argument_is_one_spawnkit_error(verb):
    result = invoke(verb)
    assert result.exit_code == 2
    assert_one_error(result, "missing argument", f"see 'spawnkit {verb} --help'")


@pytest.mark.parametrize(
    "args, needle",
    [
        (("lint", "--format", "xml"), "'xml' is not one of"),
        (("install", "--scope", "team"), "'team' is not one of"),
        (("tokens", "--budget", "-3"), "-3"),
        (("nope",), "no such command 'nope'"),
        (("new", "a", "b"), "unexpected extra argument"),
    ],
)
def test_bad_values_and_commands_are_one_spawnkit_error(args, needle):
    result = invoke(*args)
    assert result.exit_code == 2
    assert_one_error(result, needle)


def test_bare_spawnkit_shows_the_help_and_succeeds():
    result = invoke()
    assert result.exit_code == 0 and "Commands:" in result.stdout and not result.stderr


def test_help_states_the_exit_codes():
    text = invoke("--help").stdout
    for code in ("0", "1", "2", "130"):
        assert re.search(rf"\b{code}\b", text)


def test_rule_accepts_names_and_refuses_a_rule_with_all():
    by_code = invoke("rule", "CM005").stdout
    assert by_code and invoke("rule", "max-parallel").stdout == by_code
    assert invoke("rule", "MAX_PARALLEL").stdout == by_code
    both = invoke("rule", "CM005", "--all")
    assert both.exit_code == 2 and not both.stdout
    assert_one_error(both, "not both")


def test_lint_select_and_config_take_rule_names(tmp_path, monkeypatch):
    skill = tmp_path / "audit"
    skill.mkdir()
    (skill / "SKILL.md").write_text(
        "---\nname: audit\ndescription: Audits.\n---\n\nSpawn 5 agents in parallel with the Agent tool.\n"
    )
    monkeypatch.chdir(tmp_path)
    by_name = invoke("lint", "--select", "max-parallel", str(skill))
    assert by_name.exit_code == 1 and "CM005" in by_name.stdout and "CM003" not in by_name.stdout
    (tmp_path / ".spawnkit.toml").write_text('ignore = ["max-parallel", "state-file"]\n')
    ignored = invoke("lint", str(skill))
    assert "CM005" not in ignored.stdout and "CM003" not in ignored.stdout
    (tmp_path / ".spawnkit.toml").write_text('ignore = ["max-paralel"]\n')
    typo = invoke("lint", str(skill))
    assert typo.exit_code == 2
    assert_one_error(typo, "'max-paralel' is neither a rule name nor a code prefix")


# --- item 2: the tracebacks a newcomer met, now one line each, nothing written ----------


def _refused(box: Sandbox, result, before) -> str:
    assert result.code == 2, result
    lines = result.error_lines
    assert len(lines) == 1 and ONE_ERROR.match(lines[0]), result
    assert "Traceback" not in result.stderr
    assert box.snapshot() == before, f"a refusal wrote files\n{result}"
    return lines[0]


@pytest.mark.slow
def test_adopt_of_a_skill_md_that_is_not_utf8(sandbox: Sandbox):
    skill = sandbox.work / "bad"
    skill.mkdir()
    (skill / "SKILL.md").write_bytes(b"---\nname: bad\ndescription: caf\xe9\n---\nbody\n")
    before = sandbox.snapshot()
    line = _refused(sandbox, sandbox.run("adopt", "bad"), before)
    assert "SKILL.md is not UTF-8 text (byte 0xe9 on line 3)" in line


@pytest.mark.slow
def test_new_under_a_file(sandbox: Sandbox):
    (sandbox.work / "f").write_text("a file\n")
    before = sandbox.snapshot()
    line = _refused(sandbox, sandbox.run("new", "zz", "--defaults", "--dest", "f/zz"), before)
    assert "f is not a directory" in line


@pytest.mark.slow
def test_new_in_a_read_only_folder(sandbox: Sandbox, unprivileged):
    (sandbox.work / "ro").mkdir()
    os.chmod(sandbox.work / "ro", 0o555)
    before = sandbox.snapshot()
    result = sandbox.run("new", "y", "--defaults", "--dest", "ro/y", user=True)
    assert "is read-only" in _refused(sandbox, result, before)


@pytest.mark.slow
def test_new_in_the_user_scope_with_a_read_only_config_folder(sandbox: Sandbox, unprivileged):
    config = sandbox.home / ".claude"
    config.mkdir()
    os.chmod(config, 0o555)
    before = sandbox.snapshot()
    result = sandbox.run("new", "x", "--defaults", "--scope", "user", user=True)
    assert "is read-only" in _refused(sandbox, result, before)


@pytest.mark.slow
def test_an_internal_error_is_one_line_and_logged(sandbox: Sandbox):
    """The last resort: a bug is one line naming the log, never a traceback on the terminal."""
    code = (
        "import sys, spawnkit.commands.rule as r\n"
        "def boom(*a, **k): raise RuntimeError('simulated bug')\n"
        "r.run = boom\n"
        "from spawnkit.cli import main\n"
        "sys.argv = ['spawnkit', 'rule']\n"
        "main()\n"
    )
    proc = subprocess.run(
        [*sandbox.command((), user=False)[:1], "-c", code],
        env=sandbox.env(),
        cwd=sandbox.work,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    [line] = proc.stderr.strip().splitlines()
    assert line.startswith("spawnkit: error: internal error (RuntimeError: simulated bug)")
    log = sandbox.home / ".claude" / ".spawnkit" / "spawnkit.log"
    assert str(log) in line and "simulated bug" in log.read_text()


def test_a_reader_that_goes_away_ends_every_verb_the_same_quiet_way(sandbox: Sandbox):
    """`spawnkit rule --all | head -0`, `spawnkit audit | head -0`: no traceback, no message,
    exit 2 — the one CLI edge handles a closed stdout for every verb."""
    import subprocess
    import sys
    from pathlib import Path

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "audit"
    for args in (["rule", "--all"], ["audit", str(fixtures)]):
        proc = subprocess.Popen(
            [sys.executable, "-m", "spawnkit", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=sandbox.env(),
            cwd=sandbox.work,
        )
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader is gone before the first line is written
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=120) == 2, (args, err)
        assert err == "", (args, err)
