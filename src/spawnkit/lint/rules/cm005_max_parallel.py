"""CM005 max-parallel: sub-agents run one at a time or under a stated cap."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import takewhile
from typing import Any

from spawnkit.lint import vocabulary as V
from spawnkit.lint.analysis import AGENT_NOUN, CJK_CHAR, NUM, inside, number, quoted_spans
from spawnkit.lint.patterns import Gated, Keywords, folded, lazy
from spawnkit.lint.rules.base import (
    CALIBRATED,
    Context,
    Evidence,
    Family,
    Finding,
    Rule,
    quote,
)
from spawnkit.standard import protocol

_PARALLEL = folded(
    r"\bin\s+parallel\b|\bconcurrent(?:ly)?\b|\bsimultaneous(?:ly)?\b|\bat\s+the\s+same\s+time\b|\bat\s+once\b"
    r"|\bin\s+a\s+single\s+(?:message|turn|response)\b|\bfan(?:ning)?\s+out\b"
    r"|\bone\s+(?:[\w-]+\s+)?(?:sub-?agent|agent|worker)\s+(?:per|for\s+each|for\s+every)\b"
    r"|\b(?:sub-?agents?|subagents?|agents?|workers?)\s+(?:per|for\s+(?:each|every))\s+\w+"
    r"|\bparallel\s+(?:[\w-]+\s+)?(?:sub-?agents?|subagents?|agents?|workers?|reviewers?)\b"
    # one agent per item with the item first: "For each participant, spawn an agent"
    r"|\bfor\s+(?:each|every)\s+[^.,;:]{1,40},\s*(?:\w+\s+)?(?:spawn|launch|dispatch|start|create|run"
    r"|use|invoke)\s+(?:a|an|one)\s+(?:[\w-]+\s+){0,2}(?:sub-?agent|subagent|agent|worker)\b"
    # several at once without a number: "use multiple researcher subagents", "parallelize"
    r"|\b(?:multiple|several|many)\s+(?:[\w-]+\s+){0,2}(?:sub-?agents|subagents|agents|workers)\b"
    r"|\bparalleli[sz]e",
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
    r"|\b(?:never|not|don't|do\s+not)\s+(?:[\w-]+\s+){0,3}?(?:in\s+parallel|at\s+once|concurrently"
    r"|paralleli[sz]e)"
    r"|\bnever\s+two\s+at\s+once\b|\bwait\s+for\s+(?:each|it|the|one)\b[^.]{0,60}\bbefore\b|\bin\s+pairs\b",
)


# every pattern above needs one of these words; other sentences are skipped cheaply
_HINT = Keywords(
    "parallel",
    "multiple",
    "several",
    "many",
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
    # "For **each**": a block's raw text holds the emphasis, its sentences hold spaces
    "for *",
    "for _",
    "for  ",
    wide=V.CJK_PARALLEL,
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
    "parallel",
    "concurren",
    "simultan",
    "same time",
    "at once",
    "single",
    "fan",
    "per ",
    "for e",
    "multiple",
    "several",
    "many",
    "for  ",
)
_UNB_WORDS = Keywords("all ", "as many", "unlimited", "no limit")
_DIGIT = lazy(r"\d")
_TOOL_WORDS = Keywords("task tool", "agent tool", "task(", "agent(", "subagent_type", "parallel")
_NUMBER_WORDS = Keywords(
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"
)


# a sentence said of sub-agents: an agent noun, a job ("reviewers"), the spawn tool or a call
_AGENT_WORDS = Keywords("task tool", "agent tool", "task(", "agent(", "subagent_type", "spawn")
_ROLE = lazy(r"\b(?:" + V.alternation(V.ROLE_NOUNS) + r")s?\b")


def _said_of_agents(text: str, low: str) -> bool:
    if AGENT_NOUN.search(text, low) or _AGENT_WORDS.any_in(low):
        return True
    return not low.isascii() and any(n in low for n in V.CJK_AGENT_NOUNS) or bool(_ROLE.search(low))


_BOTH = folded(r"\bboth\s+(?:[\w-]+\s+)?(?:sub-?agents|subagents|agents|reviewers|workers)\b")


# a number of sub-agents started ("two Explore agents", "3 parallel reviewers"), on lowered
# text; plural only: "one agent per file" is a fan-out, not a count
_STARTED = lazy(
    r"\b" + NUM + r"\s+(?:[\w-]+\s+){0,2}?(?:sub-?agents|subagents|agents|workers|reviewers)\b"
)
_RANGE = lazy(r"\s*(?:-|–|to)\s*(\d+)")  # "max-agents (1-8)": the upper bound counts


def _cap_values(text: str, low: str) -> list[int]:
    values: list[int] = []
    if "both" in low and _BOTH.search(text, low):
        values.append(2)
    if not (_NUMBER_WORDS.any_in(low) or _DIGIT.search(low)):
        return values
    for m in _CAP.finditer(text, low):
        k = next(i for i, g in enumerate(m.groups(), 1) if g)
        upper = _RANGE.match(low, m.end(k))
        values.append(max(number(m.group(k)), int(upper.group(1)) if upper else 0))
    return values


# what makes a one-at-a-time remark no rule for the skill: it is negated ("never
# sequentially"), contrasted ("rather than sequential follow-ups", "vs"), an alternative ("or
# execute sequentially") or a fallback ("if the host cannot …, run sequentially")
# ... or it covers only part of the work ("parallelize across documents, sequential within")
# or names a kind of thing rather than a way to run ("sequential tasks:", "sequential shutdown")
_PARTIAL = folded(r"\bparalleli[sz]e|\bin\s+parallel\b")
_ATTRIBUTIVE = lazy(  # matched on lowered text
    r"sequential\s+(?!(?:execution|mode|order|processing|fashion|manner|runs?|by|within|across)\b)[a-z]"
)
_ALTERNATIVE = folded(
    r"\b(?:or|unless|optionally|on\s+request|when\s+(?:you|the\s+user)\s+asks?|if\s+(?:you|the\s+user)\s+asks?)\b"
)
_NOT_A_RULE = folded(
    r"\b(?:not|never|rather\s+than|instead\s+of|vs\.?|versus|or|if|unless|otherwise|fall\s*back"
    r"|degrade\w*|cannot|can't|unavailable|without)\b"
)
# sections that describe a fallback: their sequential steps cap nothing else
_FALLBACK_SECTION = lazy(
    r"\b(?:without|fallback|fall\s*back|degraded?|unavailable|no\s+sub-?agents?)\b", re.I
)


OVER = "cap-over-limit"
UNBOUNDED = "no-limit"
PARALLEL = "parallel-without-cap"
FAN_OUT = "fan-out-without-cap"
CODE_CALLS = "calls-in-code"
LOOSE = "parallel-not-said-of-agents"


class MaxParallel(Rule):
    code = "CM005"
    protocol_rule = True
    tier = CALIBRATED  # each finding's tier from its probability (spawnkit.lint.calibration)
    families = (
        Family(
            OVER,
            CALIBRATED,
            'a number of parallel sub-agents above the cap ("spawn 5 agents in parallel")',
        ),
        Family(
            UNBOUNDED,
            CALIBRATED,
            'parallelism with no limit ("all in parallel", "as many as needed")',
        ),
        Family(
            PARALLEL, CALIBRATED, "a parallel statement with no cap in it, its section or the skill"
        ),
        Family(
            FAN_OUT, CALIBRATED, 'a fan-out stated by structure: "For each X:" over spawn steps'
        ),
        Family(
            CODE_CALLS, CALIBRATED, "a code sketch with more spawn calls than the cap, none awaited"
        ),
        Family(
            LOOSE,
            CALIBRATED,
            "a parallel statement in a heading, or one that names no sub-agent and no spawn step",
        ),
    )
    what = """
Finds every statement about running sub-agents in parallel and checks that a cap
no larger than the standard's is stated with it or once for the whole skill.
"All in parallel", "one agent per item" with no cap, "as many as needed",
"unlimited", or a cap above the standard violate; so does parallelism with no
stated cap at all. A fan-out counts however it is stated: "for each participant,
spawn an agent", "multiple researcher subagents", a "For each URL:" step over a
spawn, a code sketch with more spawn calls than the cap, a settings row
("| Max concurrency | 8 |"). "One at a time" and "sequentially" are caps of one —
unless negated ("never sequentially"), offered as an alternative or a fallback
("if the host cannot run parallel work, run sequentially"), quoted, or about a
part of the work only ("sequential within").
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
        tables = []
        for s in a.prose_where(_HINT):
            if _HINT.any_in(s.lower):
                fallback = any(_FALLBACK_SECTION.search(title) for title in s.block.section)
                key = (id(s.block), s.line) if s.block.kind == "table" else id(s.block)
                f = _Facts(s.text, s.lower, a.report_line(s.block, s.line), key, fallback)
                f.section = s.block.section
                if s.block.kind == "heading" or not (
                    _said_of_agents(s.text, s.lower) or a.spawns_in(s.block)
                ):
                    # a title, or parallel work that is not said to be sub-agents' ("what can
                    # run in parallel", "start step 4 in parallel"): offered, not asserted
                    f.family = LOOSE
                if f.parallel and not f.caps and not f.sequential:
                    listed = _listed(a, s)
                    if listed:
                        f.caps.append(listed)  # "launch these in parallel:" and N items
                facts.append(f)
                if s.block.kind == "table" and (not tables or tables[-1] is not s.block):
                    tables.append(s.block)
        facts += [
            _Facts(b.text, b.lower, a.report_line(b), id(b))
            for b in a.shell_blocks
            if _HINT.any_in(b.lower)
        ]
        facts += _table_rows(a, tables)
        facts += _fan_outs(a, limit)
        # a cap stated once for the skill covers every parallel statement (a skill often names
        # its fan-out loosely first and counts it later); "ask one question at a time" is not
        # about sub-agents and covers nothing outside its own section, nor does a fallback ("if
        # the host cannot …, run sequentially")
        capping = [f for f in facts if f.sequential or any(v <= limit for v in f.caps)]
        general_ok = any(f.about_agents for f in capping)
        capped_blocks = {f.block for f in capping}
        capped_sections = {f.section for f in capping if f.section}
        looked_for = (
            f"a cap of at most {limit} with the statement, in its section or once for the skill "
            f'("at most {limit} at a time", "one at a time", "sequentially", max_parallel: {limit})'
        )
        for f in facts:
            said = (Evidence(f.line, f"parallel: {quote(f.said)}"),) if f.said else ()
            for value in f.caps:
                if value > limit:
                    yield Finding(
                        f.line,
                        f"allows {value} sub-agents in parallel; the standard's cap is {limit}",
                        family=CODE_CALLS if f.family == CODE_CALLS else OVER,
                        evidence=said,
                        looked_for=f"a number of sub-agents running at once of at most {limit}",
                    )
            if f.unbounded:
                yield Finding(
                    f.line,
                    f"runs sub-agents with no cap ('{f.unbounded}'); "
                    f"the standard allows at most {limit} in parallel",
                    family=UNBOUNDED,
                    evidence=said,
                    looked_for=looked_for,
                )
            elif (
                f.parallel
                and not f.sequential
                and not f.caps
                and f.block not in capped_blocks
                and f.section not in capped_sections
                and not general_ok
            ):
                yield Finding(
                    f.line,
                    f"runs sub-agents in parallel without a stated cap (at most {limit})",
                    family=f.family,
                    evidence=said + ctx.spawn_evidence(1),
                    looked_for=looked_for,
                )


def _table_rows(a: Any, tables: list[Any]) -> list[_Facts]:
    """A table row read as "key: value" ("| Max concurrency | 8 subagents |"): only its caps."""
    out = []
    for block in tables:
        for k, row in enumerate(block.lines):
            cells = [c.strip() for c in row.strip().strip("|").split("|")]
            if len(cells) < 2 or not all(cells[:2]):
                continue
            text = f"{cells[0]}: {cells[1]}"
            low = text.lower()
            if not (_CAP.hit(text, low) and (_DIGIT.search(low) or _NUMBER_WORDS.any_in(low))):
                continue  # no number, or no word a cap needs: most rows
            caps = _cap_values(text, low)
            if caps:
                f = _Facts("", "", a.report_line(block, block.start + k), (id(block), k))
                f.said = text
                f.caps = caps
                f.about_agents = bool(AGENT_NOUN.search(text, low) or _TOOL_WORDS.any_in(low))
                out.append(f)
    return out


# spawn calls in one code block: "Task tool #1:", "subagent_type", "Task(", "Agent("
_CALL_KEY = lazy(r"\b(?:" + V.alternation(V.SPAWN_CALL_KEYS) + r")\b")
_CALL = lazy(
    r"\b(?:"
    + V.alternation(V.SPAWN_TOOLS)
    + r")\(|\b(?:"
    + V.alternation(V.SPAWN_TOOLS)
    + r")\s+tool\s*#\s*\d|^\s*#\d+:",
    re.M,
)
_AWAIT = lazy(r"\bawait\b")
# "For each URL in the README:" over steps — not over ordered units, which run in turn
_FOR_EACH = lazy(
    r"^\W*for\s+(?:each|every)\s+(?!(?:phase|step|stage|iteration|round|batch|wave|milestone"
    r"|level|layer)s?\b)[^:\n]{0,80}:\s*$",
    re.I,
)
_MAX_FOLLOWING = 12  # blocks looked at under a "For each X:" line


def _fan_outs(a: Any, limit: int) -> list[_Facts]:
    """Fan-outs stated by structure rather than by a parallel word: a code block holding more
    spawn calls than the cap, none awaited in turn; a "For each X:" line over steps that spawn."""
    out: list[_Facts] = []
    for _, blocks in a.groups:
        for idx, block in enumerate(blocks):
            if block.kind == "code":
                calls = max(len(_CALL_KEY.findall(block.text)), len(_CALL.findall(block.text)))
                if (
                    calls > limit
                    and len(_AWAIT.findall(block.text)) < calls - 1
                    and not _SEQUENTIAL.search(block.text, block.lower)
                ):
                    f = _Facts("", "", a.report_line(block), id(block))
                    f.caps, f.parallel = [calls], True
                    f.said = f"{calls} spawn calls in one code block"
                    f.family = CODE_CALLS
                    out.append(f)
            elif block.kind in ("item", "paragraph") and _FOR_EACH.match(block.text):
                following = blocks[idx + 1 : idx + 1 + _MAX_FOLLOWING]
                if block.kind == "item":
                    under = [b for b in following if b.parent == idx]
                else:  # the list right under the paragraph
                    under = list(takewhile(lambda b: b.kind == "item", following))
                if any(a.spawns_in(b) and not _SEQUENTIAL.search(b.text, b.lower) for b in under):
                    f = _Facts(block.text, block.lower, a.report_line(block), id(block))
                    f.parallel, f.about_agents = True, True
                    f.family = FAN_OUT
                    out.append(f)
    return out


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


def _a_rule(text: str, low: str, seq: re.Match[str]) -> bool:
    """Whether a one-at-a-time remark is a rule for running sub-agents (see _NOT_A_RULE)."""
    said = seq.group(0)
    if len(low.split()) <= 2 and low.rstrip().endswith(":"):
        return False  # a mode's name as a label ("**Sequential**:"), its steps come after it
    if _NOT_A_RULE.search(low[: seq.start()]) or _ALTERNATIVE.search(low[seq.end() :]):
        return False
    if ('"' in text or "“" in text) and inside(quoted_spans(text), seq.start()):
        return False  # a quoted rationalization: "Sequential dispatch is fine"
    if "parallel" not in said and _PARTIAL.search(low):
        return False
    return not _ATTRIBUTIVE.match(low, seq.start())


class _Facts:
    """What one sentence (or shell block) says about parallelism."""

    __slots__ = (
        "line",
        "block",
        "caps",
        "sequential",
        "parallel",
        "unbounded",
        "about_agents",
        "section",
        "said",
        "family",
    )

    def __init__(
        self, text: str, low: str, line: int, block: object, fallback: bool = False
    ) -> None:
        self.line = line
        self.block = block
        self.said = text  # the words, for the finding's evidence
        self.family = PARALLEL
        self.caps = _cap_values(text, low)
        seq = _SEQUENTIAL.search(text, low) if _SEQ_WORDS.any_in(low) else None
        self.sequential = seq is not None and not fallback and _a_rule(text, low, seq)
        self.parallel = bool(_PAR_WORDS.any_in(low) and _PARALLEL.search(text, low))
        m = _UNBOUNDED.search(text, low) if _UNB_WORDS.any_in(low) else None
        self.unbounded = " ".join(text[m.start() : m.end()].split()) if m else ""
        self.about_agents = bool(AGENT_NOUN.search(text, low) or _TOOL_WORDS.any_in(low))
        if self.parallel and not self.caps:
            # the agents it starts, counted: "Spawn two Explore agents in a single message"
            self.caps = [number(m.group(1)) for m in _STARTED.finditer(low)]
        if not low.isascii() and CJK_CHAR.search(low):
            # Japanese, Chinese, Korean: no word boundaries ("SubAgentを並列で起動")
            self.parallel = self.parallel or any(w in low for w in V.CJK_PARALLEL)
            self.about_agents = self.about_agents or any(n in low for n in V.CJK_AGENT_NOUNS)
        self.section: tuple[str, ...] = ()
