"""CM003 state-file."""

from __future__ import annotations

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
