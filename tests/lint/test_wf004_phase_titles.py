"""WF004 phase-titles."""

from __future__ import annotations

HEAD = (
    "export const meta = { name: 'a', description: 'b', "
    "phases: [{ title: 'Scan' }, { title: 'Fix' }] }\n"
)


def test_matching_titles_pass(wf_found):
    text = HEAD + "phase('Scan')\nphase('Fix')\nreturn 1\n"
    assert wf_found(text, "WF004", meta=False) == []


def test_a_title_from_an_agent_option_counts(wf_found):
    text = HEAD + "phase('Scan')\nawait agent('x', { phase: 'Fix' })\nreturn 1\n"
    assert wf_found(text, "WF004", meta=False) == []


def test_an_undeclared_title_and_the_declared_one_left_empty(wf_found):
    text = HEAD + "phase('Scan')\nphase('fix')\nreturn 1\n"
    found = wf_found(text, "WF004", meta=False)
    assert found == [
        (1, "meta.phases declares 'Fix', but no phase() call or agent uses it"),
        (
            3,
            "phase 'fix' is not in meta.phases (did you mean 'Fix'?): its agents get a progress "
            "group of their own",
        ),
    ]


def test_a_title_from_a_constant_is_read(wf_found):
    text = HEAD + "const FIX = 'Fix'\nphase('Scan')\nphase(FIX)\nreturn 1\n"
    assert wf_found(text, "WF004", meta=False) == []


def test_dynamic_titles_leave_declared_phases_unjudged(wf_found):
    text = HEAD + "for (const p of args.phases) phase(p)\nreturn 1\n"
    assert wf_found(text, "WF004", meta=False) == []


def test_no_declared_phases_is_not_checked(wf_found):
    assert wf_found("phase('Anything')\nreturn 1\n", "WF004") == []
