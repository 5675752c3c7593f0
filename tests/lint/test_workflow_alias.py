"""An ``agent`` reached under another name is still an agent call (issue 30, item 5).

``const real = agent; real(…)`` made a script that started 8 agents at once look like one that
spawns nothing: no WF008, no WF009, not an orchestrator. Each alias form below must read the
same as the plain ``agent(…)`` call it stands for.
"""

from __future__ import annotations

import pytest

from spawnkit.lint.engine import lint_document
from spawnkit.standard import protocol

META = "export const meta = { name: 'fan', description: 'Review every file at once' }\n"
CAP = protocol.max_parallel()
N = CAP + 6  # 8 with the standard's cap of 2
SCHEMA = "{ schema: { type: 'object', properties: { n: { type: 'integer' } } } }"
PROMPT = "'Review part ' + i + '; write the issues to .fan-reports/' + i + '.md.'"

# (name, declarations, how one agent is started with prompt P and options O)
ALIASES = [
    ("plain", "", "agent(P, O)"),
    ("const", "const real = agent\n", "real(P, O)"),
    ("let reassigned", "let real = null\nreal = agent\n", "real(P, O)"),
    ("destructured", "const { agent: spawn } = globalThis\n", "spawn(P, O)"),
    ("array", "const [spawn] = [agent]\n", "spawn(P, O)"),
    ("object field", "const api = { go: agent }\n", "api.go(P, O)"),
    ("globalThis", "", "globalThis.agent(P, O)"),
    ("globalThis subscript", "", "globalThis['agent'](P, O)"),
    ("comma", "", "(0, agent)(P, O)"),
    ("bind", "const bound = agent.bind(null)\n", "bound(P, O)"),
    ("call", "", "agent.call(null, P, O)"),
    ("alias call", "const real = agent\n", "real.call(null, P, O)"),
    ("apply", "", "agent.apply(null, [P, O])"),
    ("parameter", "function go(spawn, p, o) { return spawn(p, o) }\n", "go(agent, P, O)"),
    ("either", "const real = args && args.dry ? null : agent\n", "real(P, O)"),
]


def script(declarations: str, call: str) -> str:
    start = call.replace("P", PROMPT).replace("O", SCHEMA)
    return (
        META
        + declarations
        + f"const rs = await parallel(Array.from({{ length: {N} }}, (_, i) => () => {start}))\n"
        + "return { done: rs.filter(Boolean).length }\n"
    )


def codes(text: str) -> tuple[set[str], bool]:
    result = lint_document(text, ".claude/workflows/fan.js")
    return {d.code for d in result.diagnostics}, bool(result.orchestrator)


@pytest.mark.parametrize(("name", "declarations", "call"), ALIASES, ids=[a[0] for a in ALIASES])
def test_an_aliased_agent_fans_out_like_agent_itself(name, declarations, call):
    found, orchestrator = codes(script(declarations, call))
    assert orchestrator, f"{name}: the script spawns agents"
    assert "WF008" in found, f"{name}: {N} at once is over the cap of {CAP}: {found}"
    assert "WF009" not in found, f"{name}: the prompt names its report file: {found}"


@pytest.mark.parametrize(("name", "declarations", "call"), ALIASES, ids=[a[0] for a in ALIASES])
def test_an_aliased_agents_prompt_is_read(name, declarations, call):
    """WF009 reads the prompt of an aliased call (shifted by one for .call, inside .apply)."""
    text = script(declarations, call).replace(
        "; write the issues to .fan-reports/' + i + '.md.", ""
    )
    assert "WF009" in codes(text)[0], name


def test_the_forged_accounting_script_reads_as_eight_at_once():
    text = (
        META
        + "const real = agent\n"
        + "const rs = await parallel(Array.from({ length: 8 }, (_, i) => () =>"
        + " real('task ' + i + '; write it to .forge/' + i + '.md', "
        + SCHEMA
        + ")))\n"
        + "if (typeof __sk !== 'undefined') Object.assign(__sk, { count: 1, peak: 1 })\n"
        + "return { n: rs.length }\n"
    )
    found, orchestrator = codes(text)
    assert orchestrator and "WF008" in found


def test_agent_handed_on_as_a_value_still_spawns():
    """Where the linter cannot follow the alias to its call, the script still spawns agents."""
    text = META + "const rs = await Promise.all(args.files.map(agent))\nreturn rs.length\n"
    assert codes(text)[1]


def test_a_local_named_agent_is_not_the_global():
    text = (
        META
        + "const agent = (x) => x\n"
        + "const rs = Array.from({ length: 8 }, (_, i) => agent(i))\nreturn rs.length\n"
    )
    found, orchestrator = codes(text)
    assert not orchestrator and "WF008" not in found
