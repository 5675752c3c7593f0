"""WF007 no-whole-answers."""

from __future__ import annotations

import pytest

HEAD = """const S = {
  type: 'object',
  properties: { status: { enum: ['OK', 'FAILED'] }, report: { type: 'string', maxLength: 200 } },
}
const P = 'Do it; write the full result to .demo-reports/out.md.'
"""


@pytest.mark.parametrize(
    "body",
    [
        "const r = await agent(P, { schema: S })\nreturn r",
        "const r = await agent(P, { schema: S })\nreturn { step: 'a', ...r }",
        "const rs = await parallel([() => agent(P, { schema: S })])\nreturn { rs }",
        "const r = await agent(P, { schema: S })\nreturn JSON.stringify(r)",
        "const r = await agent(P, { schema: S })\nreturn [r].filter(Boolean)",
    ],
)
def test_whole_answers_are_found_on_the_return(wf_found, body):
    ((line, message),) = wf_found(HEAD + body, "WF007")
    assert line == HEAD.count("\n") + 3
    # {"status": "FAILED", "report": <200 characters, each escaped at worst to two>}
    assert "whole agent answers (up to 432 characters each)" in message


@pytest.mark.parametrize(
    "body",
    [
        "const r = await agent(P, { schema: S })\nreturn { status: r.status, report: r.report }",
        "const rs = await parallel([() => agent(P, { schema: S })])\nreturn rs.map((r) => r?.status)",
        "const r = await agent(P, { schema: S })\nreturn { ok: r.status === 'OK' }",
    ],
)
def test_picked_fields_pass(wf_found, body):
    assert wf_found(HEAD + body, "WF007") == []


def test_a_free_text_answer_is_bounded_results_business_not_this_rules(wf):
    result = wf(HEAD + "const t = await agent(P)\nreturn t")
    assert [d.code for d in result.diagnostics] == ["WF006"]
