"""Ctrl-C and SIGTERM: one line, exit 130, no temporary folder, no half-made skill (issue 14, item 1)."""

from __future__ import annotations

import signal
import subprocess
import time

import pytest

from spawnkit.template.answers import questions

from .sandbox import Sandbox, run_on_terminal

pytestmark = pytest.mark.slow


def _first_question() -> str:
    return str(questions()["purpose"]["help"])[:30]


@pytest.mark.parametrize("action", ["ctrl-c", "sigterm"])
def test_stopping_new_at_a_question_writes_nothing(sandbox: Sandbox, action: str):
    before = sandbox.snapshot()
    run = run_on_terminal(
        sandbox, ("new", "my-audit", "--dest", "my-audit"), _first_question(), action
    )
    assert run.code == 130, run.output
    tail = run.output.strip().splitlines()[-1]
    assert tail == "spawnkit: error: aborted, nothing written", run.output
    assert "AnswersMap" not in run.output and "Traceback" not in run.output
    assert len(run.output) < 4000, "copier's internals leaked into the output"
    assert sandbox.snapshot() == before  # no skill, no template store, no temp folder


@pytest.mark.parametrize("delay", [0.3, 0.6, 0.9, 1.2, 1.6, 2.0, 2.5])
def test_sigterm_while_new_renders_leaves_no_temp_folder(sandbox: Sandbox, delay: float):
    proc = subprocess.Popen(
        sandbox.command(("new", "my-audit", "--defaults", "--dest", "my-audit"), user=False),
        cwd=sandbox.work,
        env=sandbox.env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(delay)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert list(sandbox.tmp.iterdir()) == [], "temporary folders left behind"
    skill = sandbox.work / "my-audit"
    if proc.returncode == -signal.SIGTERM:  # still inside Python's own start-up: nothing ran
        assert not err and not skill.exists()
        return
    assert proc.returncode in (0, 130), err
    if proc.returncode == 130:
        assert err.strip().splitlines() == ["spawnkit: error: aborted, nothing written"]
        assert not skill.exists()
        config = sandbox.home / ".claude"
        assert not config.exists(), sorted(str(p.relative_to(config)) for p in config.rglob("*"))
    else:  # the signal came after the command had finished its work
        assert (skill / "SKILL.md").is_file() and (skill / ".copier-answers.yml").is_file()
