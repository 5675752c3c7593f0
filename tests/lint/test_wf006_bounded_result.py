"""WF006 bounded-result: follow answers into the returned value."""

from __future__ import annotations

import pytest

BOUNDED = """const S = {
  type: 'object',
  properties: {
    status: { enum: ['OK', 'FAILED'] },
    summary: { type: 'string', maxLength: 300 },
    notes: { type: 'string' },
    items: { type: 'array', items: { type: 'string', maxLength: 50 } },
    capped: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 50 } },
    nested: { type: 'object', properties: { deep: { type: 'string' }, ok: { type: 'boolean' } } },
    either: { type: ['string', 'null'], maxLength: 40 },
    any: {},
  },
}
const P = 'Do it; write the full result to .demo-reports/out.md.'
"""


def found(wf_found, body: str) -> list[str]:
    return [m for _, m in wf_found(BOUNDED + body, "WF006")]


@pytest.mark.parametrize(
    "body",
    [
        "const r = await agent(P, { schema: S })\nreturn { status: r.status, summary: r.summary }",
        "const r = await agent(P, { schema: S })\nreturn { n: r.notes.length, has: r.items.length > 0 }",
        "const r = await agent(P, { schema: S })\nreturn { capped: r.capped, either: r.either }",
        "const r = await agent(P, { schema: S })\nreturn { ok: r.nested.ok }",
        "const t = await agent(P)\nreturn { preview: t.slice(0, 200) }",
        "const t = await agent(P)\nreturn { done: Boolean(t), size: t.length }",
        "const r = await agent(P, { schema: args.schema })\nreturn { r }",  # unknown schema
        "const r = await agent(P, { schema: S })\nlog(r.notes)\nreturn { status: r.status }",
    ],
)
def test_bounded_or_unreadable_returns_pass(wf_found, body):
    assert found(wf_found, body) == []


@pytest.mark.parametrize(
    "body, why",
    [
        ("const t = await agent(P)\nreturn `done: ${t}`", "free text"),
        ("const t = await agent(P)\nreturn { text: t.trim() }", "free text"),
        (
            "const r = await agent(P, { schema: S })\nreturn { notes: r.notes }",
            "`notes` has no maxLength",
        ),
        (
            "const r = await agent(P, { schema: S })\nreturn { d: r.nested.deep }",
            "`nested.deep` has no maxLength",
        ),
        ("const r = await agent(P, { schema: S })\nreturn r.items", "`items` has no maxItems"),
        (
            "const r = await agent(P, { schema: S })\nreturn r.items.map((i) => i.toUpperCase())",
            "`items` has no maxItems",
        ),
        ("const r = await agent(P, { schema: S })\nreturn { a: r.any }", "`any` accepts any value"),
        (
            "const { notes } = await agent(P, { schema: S })\nreturn { notes }",
            "`notes` has no maxLength",
        ),
        (
            "const rs = await parallel([1, 2].map((i) => () => agent(P, { schema: S })))\n"
            "return rs.map((r) => r.notes).join('\\n')",
            "`notes` has no maxLength",
        ),
        (
            "function pick(r) { return { why: r.notes } }\n"
            "const r = await agent(P, { schema: S })\nreturn pick(r)",
            "`notes` has no maxLength",
        ),
        (
            "const out = []\nfor (const x of args.xs) { const r = await agent(P, { schema: S }); "
            "out.push(r.notes) }\nreturn { out }",
            "`notes` has no maxLength",
        ),
        (
            "const run = (task) => task()\nconst r = await run(() => agent(P))\nreturn { r }",
            "free text",
        ),
        (
            "const texts = await pipeline(['a', 'b'], (x) => agent(P), (t) => t.toUpperCase())\n"
            "return { texts }",
            "free text",
        ),
    ],
)
def test_unbounded_answers_reaching_the_return_are_found(wf_found, body, why):
    messages = found(wf_found, body)
    assert len(messages) == 1 and why in messages[0], messages


def test_the_finding_is_on_the_agent_call_and_names_the_return(wf_found):
    body = "const t = await agent(\n  P,\n)\nconst x = 1\nreturn { t }\n"
    ((line, message),) = wf_found(BOUNDED + body, "WF006")
    assert line == BOUNDED.count("\n") + 2  # the agent() line, after the meta line
    assert f"return on line {BOUNDED.count(chr(10)) + 6}" in message


def test_max_length_at_the_boundary_is_what_counts(wf_found):
    schema = "{ type: 'object', properties: { s: { type: 'string', maxLength: 0 } } }"
    body = f"const r = await agent(P, {{ schema: {schema} }})\nreturn {{ s: r.s }}"
    assert found(wf_found, body) == []
    body = body.replace("maxLength: 0", "minLength: 0")
    assert len(found(wf_found, body)) == 1
