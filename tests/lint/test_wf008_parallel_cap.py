"""WF008 parallel-cap: count agents in flight, at the cap and one over it."""

from __future__ import annotations

import pytest

from spawnkit.standard import protocol

HEAD = """const S = { type: 'object', properties: { ok: { type: 'boolean' } } }
const P = (x) => `Check ${x}; write the result to .demo-reports/${x}.md.`
"""


def items(n: int) -> str:
    return "[" + ", ".join(f"'i{k}'" for k in range(n)) + "]"


def codes(wf, body: str) -> list[int]:
    return [d.line for d in wf(HEAD + body).diagnostics if d.code == "WF008"]


CAP = protocol.max_parallel()

SHAPES = {
    "parallel-map": "await parallel({items}.map((x) => () => agent(P(x), {{ schema: S }})))",
    "pipeline": "await pipeline({items}, (x) => agent(P(x), {{ schema: S }}))",
    "promise-all-map": "await Promise.all({items}.map(async (x) => agent(P(x), {{ schema: S }})))",
    "foreach": ";{items}.forEach((x) => {{ agent(P(x), {{ schema: S }}) }})",
    "named-function": "async function check(x) {{ return agent(P(x), {{ schema: S }}) }}\n"
    "await parallel({items}.map((x) => () => check(x)))",
    "function-reference": "const check = (x) => agent(P(x), {{ schema: S }})\n"
    "await Promise.all({items}.map(check))",
    "worker-pool": "const q = [...args.xs]\n"
    "await parallel(Array.from({{ length: {n} }}, () => async () => {{\n"
    "  while (q.length) await agent(P(q.shift()), {{ schema: S }})\n}}))",
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_at_the_cap_passes_and_one_over_is_found(wf, shape):
    at = SHAPES[shape].format(items=items(CAP), n=CAP)
    over = SHAPES[shape].format(items=items(CAP + 1), n=CAP + 1)
    assert codes(wf, at) == []
    assert len(codes(wf, over)) == 1


def test_promise_all_of_calls_counts_the_calls(wf):
    two = "await Promise.all([agent(P(1), { schema: S }), agent(P(2), { schema: S })])"
    three = two.replace("])", ", agent(P(3), { schema: S })])")
    assert codes(wf, two) == [] and len(codes(wf, three)) == 1


def test_array_of_thunks(wf):
    thunks = ", ".join(f"() => agent(P({k}), {{ schema: S }})" for k in range(CAP + 1))
    assert len(codes(wf, f"await parallel([{thunks}])")) == 1
    thunks = ", ".join(f"() => agent(P({k}), {{ schema: S }})" for k in range(CAP))
    assert codes(wf, f"await parallel([{thunks}])") == []


def test_batches_cut_with_slice(wf):
    body = (
        "for (let i = 0; i < args.xs.length; i += {n}) {{\n"
        "  await parallel(args.xs.slice(i, i + {n}).map((x) => () => agent(P(x), {{ schema: S }})))\n}}"
    )
    assert codes(wf, body.format(n=CAP)) == []
    assert len(codes(wf, body.format(n=CAP + 1))) == 1


def test_limiters_count_with_their_number(wf):
    body = (
        "function limiter(n) {{ return (task) => task() }}\nconst limit = limiter({n})\n"
        "await parallel(args.xs.map((x) => () => limit(() => agent(P(x), {{ schema: S }}))))"
    )
    assert codes(wf, body.format(n=CAP)) == []
    found = wf(HEAD + body.format(n=CAP + 1)).diagnostics
    assert [d.code for d in found] == ["WF008"] and f"lets {CAP + 1} agents" in found[0].message


def test_nested_fan_outs_multiply(wf):
    body = (
        "await parallel({outer}.map((a) => () =>\n"
        "  parallel({inner}.map((b) => () => agent(P(a + b), {{ schema: S }})))))"
    )
    assert codes(wf, body.format(outer=items(1), inner=items(CAP))) == []
    found = wf(HEAD + body.format(outer=items(2), inner=items(2))).diagnostics
    assert [d.message.split(";")[0] for d in found] == [
        "nested fan-outs start 2 × 2 = 4 agents at once"
    ]


def test_lists_of_unknown_length(wf):
    assert len(codes(wf, "await parallel(args.xs.map((x) => () => agent(P(x))))")) == 1
    answer = (
        "const r = await agent(P('list'), {{ schema: {{ type: 'object', properties: {{ xs: {{ type: 'array', "
        "{limit}items: {{ type: 'string', maxLength: 9 }} }} }} }} }})\n"
        "await parallel(r.xs.map((x) => () => agent(P(x), {{ schema: S }})))"
    )
    assert len(codes(wf, answer.format(limit=""))) == 1
    assert codes(wf, answer.format(limit=f"maxItems: {CAP}, ")) == []
    assert len(codes(wf, answer.format(limit=f"maxItems: {CAP + 1}, "))) == 1


def test_sequential_loops_and_unreadable_lists_pass(wf):
    assert codes(wf, "for (const x of args.xs) await agent(P(x), { schema: S })") == []
    # a list made by code the linter cannot read is not judged
    assert codes(wf, "await parallel(helpers.split(args).map((x) => () => agent(P(x))))") == []


def test_the_cap_comes_from_the_standard(wf, monkeypatch):
    body = SHAPES["parallel-map"].format(items=items(CAP + 1))
    assert len(codes(wf, body)) == 1
    monkeypatch.setattr(protocol, "max_parallel", lambda: CAP + 1)
    assert codes(wf, body) == []


HELPER = """function limiter(n) {{ return async (task) => task() }}
const limit = limiter({n})
async function step(name, ask) {{
  const answer = await limit(ask)
  return answer ? answer.ok : false
}}
await parallel([{thunks}])"""


def test_a_callback_handed_through_a_helper_meets_the_limiter(wf):
    """The shape spawnkit's generated workflow.js uses: step(name, () => agent()) -> limit(ask)."""
    thunks = ", ".join(
        f"() => step('s{k}', () => agent(P({k}), {{ schema: S }}))" for k in range(3)
    )
    assert codes(wf, HELPER.format(n=CAP, thunks=thunks)) == []
    found = wf(HEAD + HELPER.format(n=CAP + 1, thunks=thunks)).diagnostics
    assert [(d.code, d.line) for d in found] == [("WF008", 5)]  # on `limiter(3)`, once


def test_a_helper_that_only_calls_the_callback_is_no_limiter(wf):
    body = (
        "async function retry(task) { return (await task()) ?? (await task()) }\n"
        "await parallel({items}.map((x) => () => retry(() => agent(P(x), {{ schema: S }}))))"
    )
    assert (
        codes(wf, body.replace("{items}", items(CAP)).replace("{{", "{").replace("}}", "}")) == []
    )
    over = body.replace("{items}", items(CAP + 1)).replace("{{", "{").replace("}}", "}")
    assert len(codes(wf, over)) == 1
