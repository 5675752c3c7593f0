"""CM003 state-file."""

from __future__ import annotations

import pytest
from samples import GOOD_PROMPT, HEAD


def test_no_state_file_is_reported_at_the_first_spawn(lint):
    text = (
        HEAD
        + "One sub-agent at a time.\n\n"
        + GOOD_PROMPT
        + "\nKeep track of progress as you go.\n"
    )
    diags = [d for d in lint(text).diagnostics if d.code == "CM003"]
    assert len(diags) == 1 and diags[0].line == 7
    # without a state file, the resume and checkpoint rules stay quiet: one root cause, one finding
    assert {d.code for d in lint(text).diagnostics} == {"CM003"}


def test_state_file_forms(codes):
    for state in (
        "Record progress in `.demo-audit-reports/state-20240101-120000.json`",
        "Keep a progress file `progress.json`",
        "Write the state file first",
    ):
        text = (
            HEAD + state + ", updated after each package; resume from it if unfinished. "
            "One sub-agent at a time.\n\n" + GOOD_PROMPT
        )
        assert "CM003" not in codes(text), state


def test_reference_to_the_installed_standard_counts(codes):
    text = (
        HEAD
        + "Follow [the protocol](~/.claude/standards/CONTEXT_MANAGEMENT.md). "
        + "One sub-agent at a time.\n\n"
        + GOOD_PROMPT
    )
    assert codes(text) == []


def test_forked_skill_without_spawns_is_one_step(codes):
    fork = (
        "---\nname: demo-audit\ndescription: Audit in a fork.\ncontext: fork\n---\n"
        "Audit the repo; write the findings to .demo-audit-reports/findings.md. Reply with at most "
        "200 tokens.\n"
    )
    assert codes(fork) == []


def test_state_file_in_an_orchestration_sketch_counts(codes):
    text = HEAD + (
        "```python\n"
        'state = load_or_create(".demo-audit-reports/state.json")  # resume if younger than 2 h\n'
        "for package in pending(state):  # one at a time\n"
        '    Task(prompt=f"Audit {package}; write findings to .demo-audit-reports/{package}.md. "\n'
        '                "Reply in 200 tokens or fewer.")\n'
        "    mark_done(state, package)  # written to disk each time\n"
        "```\n"
    )
    assert codes(text) == []


# --- issue 25: state and progress in any form ----------------------------------------------

_RUN = "One sub-agent at a time.\n\n" + GOOD_PROMPT


@pytest.mark.parametrize(
    "state",
    [
        "Record each package's status in the project database after its sub-agent returns.",
        "Save the progress to the MCP memory after each package.",
        "Then run `bd update {id} --status done` for the package.",
        "After each package, run `task-master set-status --id={id}`.",
        "Set the package's status to done in packages.md.",
        "Append one line per package to `.demo-audit-reports/progress-log.jsonl`.",
        "Track every package in `.demo-audit-reports/runs.db`.",
    ],
)
def test_state_in_any_form_counts(codes, state):
    """A database, a memory tool, a status command, a status field and a progress log all keep
    the run's state (issue 25); the old reading knew only named state files."""
    assert "CM003" not in codes(HEAD + state + "\n\n" + _RUN), state


@pytest.mark.parametrize(
    "said",
    [
        "The project has no database record of the packages.",  # a noun, not a write
        "Read the logs/output.log of the last CI run.",  # reading a log is not keeping one
    ],
)
def test_look_alikes_of_state_are_not_state(codes, said):
    assert "CM003" in codes(HEAD + said + "\n\n" + _RUN), said


def test_a_resumable_run_without_a_named_state_is_a_preview_finding(lint):
    text = HEAD + "If the run was interrupted, resume where it left off.\n\n" + _RUN
    found = [d for d in lint(text).diagnostics if d.code == "CM003"]
    assert [(d.family, d.tier, d.severity) for d in found] == [
        ("resumable-without-named-state", "preview", "warning")
    ]
    assert any("speaks of resuming" in e.note for e in found[0].evidence)
    assert "CM003" not in {d.code for d in lint(text, preview=False).diagnostics}


def test_an_in_session_task_list_is_named_in_the_evidence_and_not_counted(lint):
    text = HEAD + "Track the packages with TodoWrite as you go.\n\n" + _RUN
    found = [d for d in lint(text).diagnostics if d.code == "CM003"]
    assert len(found) == 1 and found[0].family == "no-state"
    notes = [e.note for e in found[0].evidence]
    assert any(n.startswith("in-session task list, not counted") for n in notes)
