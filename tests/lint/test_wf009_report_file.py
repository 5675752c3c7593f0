"""WF009 report-file."""

from __future__ import annotations

import pytest

S = "const S = { type: 'object', properties: { ok: { type: 'boolean' } } }\n"


@pytest.mark.parametrize(
    "body",
    [
        "await agent('Audit it. Write the full audit to .demo-reports/audit.md.', { schema: S })",
        "await agent(`Audit ${x}; save your findings in .demo-reports/${x}.md`, { schema: S })",
        "await agent('Audit it and put the result under .demo-reports/', { schema: S })",
        "const reportPath = `.r/${x}.md`\nawait agent(`Audit ${x}. Report: ${reportPath}`, { schema: S })",
        "const DIR = '.demo-reports'\nconst ask = (a) => `Audit ${a}; write your notes to ${DIR}/${a}.md.`\n"
        "for (const a of ['x', 'y']) await agent(ask(a), { schema: S })",
        "await agent(args.prompt, { schema: S })",  # not readable here: not judged
        "await agent(`Combine the findings into out/summary-${x}.md`, { schema: S })",
        "await agent('Merge both reviews into `out/review.md`.', { schema: S })",
    ],
)
def test_prompts_naming_their_report_file_pass(wf_found, body):
    assert wf_found(S + "const x = args.x\n" + body + "\nreturn 1", "WF009") == []


@pytest.mark.parametrize(
    "body",
    [
        "await agent('Audit the code.', { schema: S })",
        "await agent('Read config.json and check its keys.', { schema: S })",
        "await agent(`Audit ${x} and answer briefly.`, { schema: S })",
        "await agent('Combine the two lists into one table.', { schema: S })",  # no file
        "const ask = (a) => 'Audit ' + a\nfor (const a of ['x', 'y']) await agent(ask(a), { schema: S })",
    ],
)
def test_prompts_without_one_are_found(wf_found, body):
    found = wf_found(S + "const x = args.x\n" + body + "\nreturn 1", "WF009")
    assert len(found) == 1 and "names no report file" in found[0][1]


def test_each_context_of_a_shared_prompt_is_read(wf_found):
    body = (
        "const STEPS = [{ p: 'Scan it; write to .demo-reports/scan.md.' }, { p: 'Fix it.' }]\n"
        "for (const s of STEPS) await agent(s.p, { schema: S })\nreturn 1"
    )
    found = wf_found(S + body, "WF009")
    assert len(found) == 1 and "Fix it." in found[0][1]
