"""WF003 meta-literal: read as Claude Code reads meta."""

from __future__ import annotations

import pytest


def meta(body: str) -> str:
    return f"export const meta = {body}\nreturn 1\n"


@pytest.mark.parametrize(
    "body",
    [
        "{ name: 'a', description: 'b' }",
        "{ 'name': \"a\", description: `b`, n: -1, f: 1.5, t: true, z: null, r: /x/ }",
        "{ name: 'a', description: 'b', phases: [{ title: 'A', detail: 'x' }, { title: 'B' },] }",
        "{ name: 'a', description: 'b', whenToUse: 'when asked', 1: 'numeric key' }",
        "({ name: 'a', description: 'b' })".strip("()"),
    ],
)
def test_pure_literals_pass(wf_found, body):
    assert wf_found(meta(body), "WF003", meta=False) == []


@pytest.mark.parametrize(
    "body, why",
    [
        ("{ name: NAME, description: 'b' }", "`NAME` is a variable"),
        ("{ name: 'a', description: `about ${x}` }", "template interpolation"),
        ("{ name: 'a', description: 'b', n: +1 }", "negative number"),
        ("{ name: 'a', description: 'b', p: [1, , 2] }", "hole"),
        ("{ name: 'a', description: 'b', p: [...xs] }", "spread"),
        ("{ ...base, description: 'b' }", "spread"),
        ("{ name: 'a', description: 'b', ['k']: 1 }", "computed keys"),
        ("{ name: 'a', description: 'b', m() { return 1 } }", "methods"),
        ("{ name: 'a', description: 'b', get g() { return 1 } }", "methods"),
        ("{ name, description: 'b' }", "`name` is a variable"),
        ("{ name: 'a', description: 'b', __proto__: {} }", "reserved"),
        ("{ name: 'a', description: String(1) }", "a call"),
        ("{ name: 'a', description: 'b', u: undefined }", "`undefined` is a variable"),
    ],
)
def test_computed_parts_are_refused(wf_found, body, why):
    found = wf_found(meta(body), "WF003", meta=False)
    assert len(found) == 1 and why in found[0][1], found


@pytest.mark.parametrize(
    "body, why",
    [
        ("{ description: 'b' }", "meta.name is missing"),
        ("{ name: '', description: 'b' }", "meta.name must be a non-empty string"),
        ("{ name: 'a', description: 1 }", "meta.description must be a non-empty string"),
        ("{ name: 'a' }", "meta.description is missing"),
    ],
)
def test_name_and_description(wf_found, body, why):
    assert [m for _, m in wf_found(meta(body), "WF003", meta=False)] == [why]
