"""CM005 max-parallel: sub-agents run one at a time or under a stated cap."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from spawnkit import protocol
from spawnkit.lint.analysis import AGENT_NOUN, NUM, number
from spawnkit.lint.patterns import Gated, Keywords, folded, lazy
from spawnkit.lint.rules.base import Context, Finding, Rule

_PARALLEL = folded(
    r"\bin\s+parallel\b|\bconcurrent(?:ly)?\b|\bsimultaneous(?:ly)?\b|\bat\s+the\s+same\s+time\b|\bat\s+once\b"
    r"|\bin\s+a\s+single\s+(?:message|turn|response)\b|\bfan(?:ning)?\s+out\b"
    r"|\bone\s+(?:[\w-]+\s+)?(?:sub-?agent|agent|worker)\s+(?:per|for\s+each|for\s+every)\b"
    r"|\b(?:sub-?agent|agent|worker)\s+per\s+\w+"
    r"|\bparallel\s+(?:[\w-]+\s+)?(?:sub-?agents?|subagents?|agents?|workers?|reviewers?)\b",
)
_UNBOUNDED = folded(
    r"\ball\s+(?:[\w-]+\s+){0,3}?(?:in\s+parallel|at\s+once|simultaneously|concurrently|at\s+the\s+same\s+time)\b"
    r"|\bas\s+many\s+(?:sub-?agents?|agents?|workers?\s+)?as\b|\bunlimited\b|\bno\s+limit\b",
)
_AGENTS = r"(?:[\w-]+\s+){0,3}?(?:sub-?agents?|subagents?|agents?|workers?|reviewers?)"
_CAP = Gated(
    lazy(
        r"\b(?:at\s+most|up\s+to|no\s+more\s+than|max(?:imum)?(?:\s+of)?|never\s+more\s+than|limit(?:ed)?\s+to"
        r"|cap(?:ped)?\s+at)\s+"
        + NUM
        + r"\b(?:\s+[\w-]+){0,3}?\s+(?:in\s+parallel|at\s+(?:a|one|the\s+same)\s+time"
        r"|concurrent(?:ly)?|parallel|simultaneous(?:ly)?|may\s+run|run|running)"
        r"|\b" + NUM + r"\s+at\s+a\s+time\b"
        r"|\bbatch(?:es)?\s+of\s+"
        + NUM
        + r"\s+"
        + _AGENTS
        + r"|\b"
        + NUM
        + r"\s+"
        + _AGENTS
        + r"\s+(?:(?:run|are\s+run|running|work)\s+)?(?:in\s+parallel|concurrently|at\s+once|at\s+a\s+time"
        r"|simultaneously)"
        r"|\b"
        + NUM
        + r"\s+parallel\s+"
        + _AGENTS
        + r"|\bmax(?:imum)?[\s_-]+(?:parallel(?:[\s_-]+(?:sub-?agents?|agents?|workers?))?"
        r"|sub-?agents?|agents?|workers?)"
        r"[^.\d\n]{0,20}?(?:default\s*[:=]?\s*)?" + NUM + r"\b"
        r"|\bmax(?:imum)?\s+parallel(?:\s+[\w-]+)?\s*[:=]?\s*"
        + NUM
        + r"\b|\bconcurrency\s*[:=]\s*"
        + NUM
        + r"\b",
        re.I,
    ),
    # words the pattern cannot match without
    *(
        "most",
        "up",
        "more",
        "max",
        "limit",
        "cap",
        "time",
        "batch",
        "concurren",
        "parallel",
        "simultan",
    ),
    "once",
    exact=True,
)
_SEQUENTIAL = folded(
    r"\bone\s+(?:[\w-]+\s+){0,2}?at\s+a\s+time\b|\bone\s+after\s+(?:another|the\s+other)\b|\bsequential(?:ly)?\b"
    r"|\bin\s+sequence\b|\bin\s+turn\b|\bone\s+by\s+one\b|\bnever\s+(?:start|run|spawn|launch)\s+a\s+second\b"
    r"|\b(?:never|not|don't|do\s+not)\s+(?:[\w-]+\s+){0,3}?(?:in\s+parallel|at\s+once|concurrently)\b"
    r"|\bnever\s+two\s+at\s+once\b|\bwait\s+for\s+(?:each|it|the|one|both)\b[^.]{0,60}\bbefore\b|\bin\s+pairs\b",
)


# every pattern above needs one of these words; other sentences are skipped cheaply
_HINT = Keywords(
    "parallel",
    "concurren",
    "simultan",
    "same time",
    "at once",
    "single",
    "fan",
    "per ",
    "for e",
    "a time",
    "after",
    "sequen",
    "turn",
    "one by",
    "never",
    "second",
    "wait",
    "batch",
    "max",
    "pairs",
    "as many",
    "unlimited",
    "limit",
    "cap",
)
# the words each pattern cannot match without (cheap pre-checks on the lowered sentence)
_SEQ_WORDS = Keywords(
    "a time",
    "one after",
    "sequen",
    "in turn",
    "one by one",
    "second",
    "parallel",
    "at once",
    "concurren",
    "wait",
    "pairs",
)
_PAR_WORDS = Keywords(
    "parallel", "concurren", "simultan", "same time", "at once", "single", "fan", "per ", "for e"
)
_UNB_WORDS = Keywords("all ", "as many", "unlimited", "no limit")
_DIGIT = lazy(r"\d")
_TOOL_WORDS = Keywords("task tool", "agent tool", "task(", "agent(", "subagent_type", "parallel")
_NUMBER_WORDS = Keywords(
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"
)


_BOTH = folded(r"\bboth\s+(?:[\w-]+\s+)?(?:sub-?agents|subagents|agents|reviewers|workers)\b")


def _cap_values(text: str, low: str) -> list[int]:
    values: list[int] = []
    if "both" in low and _BOTH.search(text, low):
        values.append(2)
    if not (_NUMBER_WORDS.any_in(low) or _DIGIT.search(low)):
        return values
    for m in _CAP.finditer(text, low):
        word = next(g for g in m.groups() if g)
        values.append(number(word))
    return values


class MaxParallel(Rule):
    code = "CM005"
    protocol_rule = True
    what = """
Finds every statement about running sub-agents in parallel and checks that a cap
no larger than the standard's is stated with it or once for the whole skill.
"All in parallel", "one agent per item" with no cap, "as many as needed",
"unlimited", or a cap above the standard violate; so does parallelism with no
stated cap at all. "One at a time" and "sequentially" are caps of one.
"""
    why = """
Parallel sub-agents return together: their replies land in the orchestrator's
context in one burst, before it can checkpoint. A small cap keeps each burst
survivable.
"""
    bad = """
---
name: demo-audit
description: Audit each package with a sub-agent.
---
Keep `.demo-audit-reports/state-<timestamp>.json`, updated after every package;
resume from an unfinished one at start.

Launch one sub-agent per package, all in parallel, with this prompt:

```
Audit {package}. Write every finding to .demo-audit-reports/{package}.md.
Reply with at most 400 tokens: STATUS, counts, report path.
```
"""
    good = """
---
name: demo-audit
description: Audit each package with a sub-agent.
---
Keep `.demo-audit-reports/state-<timestamp>.json`, updated after every package;
resume from an unfinished one at start.

Launch one sub-agent per package, at most 2 in parallel, with this prompt:

```
Audit {package}. Write every finding to .demo-audit-reports/{package}.md.
Reply with at most 400 tokens: STATUS, counts, report path.
```
"""

    fix = (
        'Run sub-agents one at a time, or state a cap: "at most {max_parallel} sub-agents in '
        'parallel; checkpoint after each batch".'
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        a = ctx.analysis
        limit = protocol.max_parallel()
        facts = []
        for s in a.prose_where(_HINT):
            if _HINT.any_in(s.lower):
                f = _Facts(s.text, s.lower, a.report_line(s.block, s.line), id(s.block))
                if f.parallel and not f.caps and not f.sequential:
                    listed = _listed(a, s)
                    if listed:
                        f.caps.append(listed)  # "launch these in parallel:" and N items
                facts.append(f)
        facts += [
            _Facts(b.text, b.lower, a.report_line(b), id(b))
            for b in a.shell_blocks
            if _HINT.any_in(b.lower)
        ]
        # a cap stated once for the skill covers every parallel statement; "ask one question at
        # a time" is not about sub-agents and covers nothing
        general_ok = any(
            (f.sequential or any(v <= limit for v in f.caps)) and f.about_agents for f in facts
        )
        capped_blocks = {f.block for f in facts if f.sequential or any(v <= limit for v in f.caps)}
        for f in facts:
            for value in f.caps:
                if value > limit:
                    yield Finding(
                        f.line,
                        f"allows {value} sub-agents in parallel; the standard's cap is {limit}",
                    )
            if f.unbounded:
                yield Finding(
                    f.line,
                    f"runs sub-agents with no cap ('{f.unbounded}'); "
                    f"the standard allows at most {limit} in parallel",
                )
            elif (
                f.parallel
                and not f.sequential
                and not f.caps
                and f.block not in capped_blocks
                and not general_ok
            ):
                yield Finding(
                    f.line, f"runs sub-agents in parallel without a stated cap (at most {limit})"
                )


_MAX_LISTED = 50  # blocks looked at after the colon


def _listed(a: Any, s: Any) -> int:
    """How many list items or table rows follow a sentence that ends with a colon."""
    if not s.text.rstrip().endswith(":") or s.offset + len(s.text) < len(s.block.text.rstrip()):
        return 0
    where = a.memo.get("block_index")
    if where is None:
        where = a.memo["block_index"] = {
            id(b): (blocks, idx) for _, blocks in a.groups for idx, b in enumerate(blocks)
        }
    found = where.get(id(s.block))  # type: ignore[union-attr]
    if found is None:
        return 0
    blocks, idx = found
    rest = blocks[idx + 1 : idx + 1 + _MAX_LISTED]
    if s.block.kind == "item":
        children = [b for b in rest if b.parent == idx and b.kind == "item"]
        if children:
            return len(children)
    if rest and rest[0].kind == "table":
        rows = [r for r in rest[0].text.split("\n") if r.strip()]
        return max(0, len(rows) - 1)
    if rest and rest[0].kind == "item":
        first = rest[0]
        return sum(
            1
            for b in rest
            if b.kind == "item" and b.list_id == first.list_id and b.parent == first.parent
        )
    return 0


class _Facts:
    """What one sentence (or shell block) says about parallelism."""

    __slots__ = ("line", "block", "caps", "sequential", "parallel", "unbounded", "about_agents")

    def __init__(self, text: str, low: str, line: int, block: int) -> None:
        self.line = line
        self.block = block
        self.caps = _cap_values(text, low)
        self.sequential = bool(_SEQ_WORDS.any_in(low) and _SEQUENTIAL.search(text, low))
        self.parallel = bool(_PAR_WORDS.any_in(low) and _PARALLEL.search(text, low))
        m = _UNBOUNDED.search(text, low) if _UNB_WORDS.any_in(low) else None
        self.unbounded = " ".join(text[m.start() : m.end()].split()) if m else ""
        self.about_agents = bool(AGENT_NOUN.search(text, low) or _TOOL_WORDS.any_in(low))
