"""Issue 35: a sub-agent's SendMessage to the orchestrator is a return too.

Each scenario installs spawnkit with the real ``spawnkit install`` and drives the real client
(2.1.330 unless SPAWNKIT_CLAUDE_BIN names another; scripts/e2e_claude_version.py runs them on
the newest): a named background agent (``scenarios.messaging``) loads SendMessage and messages
the orchestrator, or another agent, while the orchestrator waits for it.

1. enforce: a ~21,000-character message to main is refused and saved whole; the agent sends a
   short note naming the copy, and that note is all the orchestrator gets;
2. a short message to main passes untouched (spawnkit's hook ran on it and said nothing);
3. a long message to another agent passes untouched: it reaches that agent whole;
4. warn: the long message reaches the orchestrator whole; the sender, the orchestrator and the
   user are each told once;
5. an agent that sends the long message again after every refusal is let through, with a
   warning, after the retry bound: no loop.
"""

from __future__ import annotations

from pathlib import Path

from spawnkit import tokens
from spawnkit.standard import protocol

from .scenarios import long_message, messaging

BUDGET = protocol.return_budget()
HOOK = "PreToolUse:SendMessage"


def _saved(project: Path) -> list[Path]:
    return sorted((project / ".spawnkit" / "returns").rglob("*.md"))


def _hook_answers(run, name: str = HOOK) -> list[str]:
    """What spawnkit's hook printed on each SendMessage call ("" for silence)."""
    return [
        ev.get("output", "") for ev in run.hook_responses("PreToolUse") if ev["hook_name"] == name
    ]


def test_enforce_holds_a_long_message_to_main_and_saves_it_whole(claude, fake_api):
    claude.spawnkit("install", "--mode", "enforce", "--yes")
    report = long_message("M1")
    assert len(report) >= 21_000
    plan = messaging(fake_api, "M1", report)

    claude.run(plan.prompt)

    # The agent was told why, and where its message is; it sent a short note instead.
    (refused, reason), (failed, sent) = plan.results()
    assert refused and not failed, sent
    assert f"at most {BUDGET} tokens" in reason and "NOT sent" in reason
    (copy,) = _saved(claude.project)
    assert copy.read_text(encoding="utf-8") == report  # saved whole
    assert copy.name.endswith("-message.md") and str(copy) in reason
    # The orchestrator got the note, within the budget, and never a line of the report.
    ((sender, note),) = plan.received()
    assert sender == plan.name
    assert str(copy) in note
    assert tokens.estimate(note) <= BUDGET
    assert all("MSGMARK" not in req.text for req in plan.main.requests)


def test_a_short_message_to_main_passes_untouched(claude, fake_api):
    claude.spawnkit("install", "--mode", "enforce", "--yes")
    note = "M2 note: 180 findings in 23 packages; full list in .audit-reports/retry.md"
    plan = messaging(fake_api, "M2", note)

    run = claude.run(plan.prompt)

    ((failed, _),) = plan.results()
    assert not failed
    assert plan.received() == [(plan.name, note)]
    assert _hook_answers(run) == [""]  # the hook looked at it and had nothing to say
    assert not _saved(claude.project)


def test_a_long_message_to_another_agent_passes_untouched(claude, fake_api):
    claude.spawnkit("install", "--mode", "enforce", "--yes")
    report = long_message("M3")
    plan = messaging(fake_api, "M3", report, to="m3-peer")

    run = claude.run(plan.prompt)

    ((failed, told),) = plan.results()
    assert not failed and "m3-peer" in told
    assert any(report in req.text for req in plan.peer.requests)  # delivered whole
    assert _hook_answers(run) == [""]
    assert not plan.received()  # nothing reached the orchestrator
    assert not _saved(claude.project)


def test_warn_reports_a_long_message_without_refusing_it(claude, fake_api):
    claude.spawnkit("install", "--mode", "warn", "--yes")
    report = long_message("M4")
    plan = messaging(fake_api, "M4", report)

    run = claude.run(plan.prompt)

    ((failed, _),) = plan.results()
    assert not failed
    assert plan.received() == [(plan.name, report)]  # delivered whole
    size = tokens.estimate(report)
    # The sender is told after its call, the orchestrator with the message ...
    after = plan.sender.request_with_result(plan.sends[0]["id"])
    assert f'your message to "main" is ~{size} tokens, over the {BUDGET}-token' in after.new_text
    arrival = next(r for r in plan.main.requests if r.agent_messages())
    assert f'the message from "{plan.name}" is ~{size} tokens' in arrival.new_text
    # ... and the user once, when it was sent.
    (warning,) = run.system_messages("PreToolUse")
    assert warning.startswith("spawnkit: the general-purpose sub-agent ")
    assert f"sent the orchestrator ~{size} tokens" in warning
    assert not run.system_messages("UserPromptSubmit")
    assert not _saved(claude.project)


def test_an_agent_that_keeps_sending_is_let_through_after_the_retry_bound(claude, fake_api):
    claude.spawnkit("install", "--mode", "enforce", "--yes")
    report = long_message("M5")
    plan = messaging(fake_api, "M5", report, stubborn=True)

    run = claude.run(plan.prompt)

    retries = 2  # the default max_retries, as for answers
    results = plan.results()
    assert [error for error, _ in results] == [True] * retries + [False]  # then it went through
    copies = _saved(claude.project)
    assert len(copies) == retries
    assert all(c.read_text(encoding="utf-8") == report for c in copies)
    (warning,) = run.system_messages("PreToolUse")
    assert f"after {retries} refusals; let it through so the agent is not stuck" in warning
    assert plan.received() == [(plan.name, report)]  # once
    assert not run.system_messages("UserPromptSubmit")  # the user was told when it was sent
