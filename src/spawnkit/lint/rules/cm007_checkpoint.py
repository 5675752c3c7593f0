"""CM007 checkpoint: the state file is brought up to date at least every few steps."""

from __future__ import annotations

import re
from collections.abc import Iterator

from spawnkit.lint.analysis import (
    NUM,
    STATE_ANY,
    STATE_STORE,
    Analysis,
    Sentence,
    holding,
    number,
    sentences,
)
from spawnkit.lint.markdown import Block
from spawnkit.lint.patterns import Gated, folded, lazy
from spawnkit.lint.rules.base import (
    DEFAULT,
    PREVIEW,
    Context,
    Evidence,
    Family,
    Finding,
    Rule,
    quote,
)
from spawnkit.lint.rules.cm003_state_file import runs_steps, state_evidence, state_places
from spawnkit.standard import protocol

_UPDATE = Gated(
    lazy(
        r"\b(?:update[sd]?|rewrite|rewritten|rewrites|write|written|writes|record|mark|move|store|save"
        r"|refresh|note|set|tick|checkpoint|append(?:ed|s)?|log(?:ged|s)?|persist(?:ed|s)?)\b"
        r"|\bkeep\b[^!?;]{0,60}?\b(?:current|up to date)\b",
        re.I,
    ),
    *("update", "writ", "record", "mark", "move", "store", "save", "refresh", "note", "set"),
    *("tick", "checkpoint", "keep", "append", "log", "persist"),
    exact=True,
)
_AT_END = Gated(
    lazy(
        r"\b(?:once|when|after)\s+(?:all|every|each)\s+(?:[\w-]+\s+){0,2}(?:has|have)\s+"
        r"(?:been|finished|returned|completed|run)\b"
        r"|\bin\s+one\s+go\b|\bat\s+the\s+(?:very\s+)?end\b|\bonly\s+(?:at\s+the\s+end|once)\b"
        r"|\bwhen\s+(?:all|everything)\b|\bafter\s+(?:all|the\s+last)\b",
        re.I,
    ),
    *("once", "when", "after", "go", "end", "only"),
    exact=True,
)
# "every 3 steps" (not "every 5 minutes": a timer, which counts as a checkpoint)
_TIME_UNIT = r"(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|[smh])\b"
_EVERY_N = Gated(
    lazy(r"\bevery\s+" + NUM + r"\s+(?!" + _TIME_UNIT + r")[\w-]+", re.I), "every", exact=True
)
_PER_STEP = folded(
    r"\b(?:after|as|when|whenever|once)\s+(?:each|every|it|its|the|an?|one|that)\b|\bper\s+\w+\b"
    # on a timer: "every 5 minutes", "periodically"
    r"|\bevery\s+(?:\d+\s*)?" + _TIME_UNIT + r"|\bperiodically\b|\bon\s+a\s+timer\b"
    # on events: "on each completion", "on every event"
    r"|\bon\s+(?:each|every)\s+\w+"
    # kept by each worker as it goes: "each agent writes to agent-X-progress.md"
    r"|\beach\s+(?:sub-?agent|subagent|agent|worker|teammate|task|step|phase)\b"
    r"|\bwhen\s+(?:it|they)\s+(?:returns?|finish|repl)|\bwhenever\b|\bthen\s+update\b"
    r"|\b(?:each|every)\s+time\b"
    r"|\b(?:after|upon|on)\s+(?:a\s+|the\s+)?(?:successful|completing|completion\s+of|finishing)\b"
    r"|\bas\s+soon\s+as\b|\bimmediately\s+after\b|\bright\s+after\b"
    r"|\bat\s+(?:each|every)\s+(?:step|phase|stage|decision|task)\b"
    r"|\bbefore\s+(?:starting|spawning|launching|the\s+next)\b|\bthen\s+(?:start|spawn|launch|move\s+on\s+to)\s+the\s+next\b"
    # as items finish ("as tasks complete, update the checkboxes")
    r"|\bas\s+(?:\w+\s+){0,2}?(?:complete|completes|finish|finishes|return|returns|land|lands)\b"
    # an item marked done is an update per item: "mark the fix complete in FIXES.md", "tick it"
    r"|\b(?:mark|marks|tick|ticks|check\s+off|checks\s+off)\b[^.\n]{0,60}?(?:\[x\]|\bcompleted?\b|\bdone\b)"
    r"|\bcheckbox(?:es)?\b",
)
_REFERS = folded(r"\b(?:it|that\s+file|the\s+file|note|tick)\b|\bmark")
_FOR_EACH = folded(r"\b(?:for\s+(?:each|every)|per)\b")
_STATE_SECTION = lazy(r"\b(?:state|progress|checkpoint|context management)\b", re.I)


NEVER = "never-updated"
AT_END = "updated-at-end"
EVERY_N = "interval-over-limit"
LOOKED_FOR = (
    "an update of the state while the run goes on: after each step, task or phase, on an event "
    'or a timer ("update state.json after every step", "mark the task done in tasks.md")'
)


class Checkpoint(Rule):
    code = "CM007"
    protocol_rule = True
    tier = PREVIEW  # below 0.9 precision on the tuning half (docs/lint-accuracy.md)
    families = (
        Family(NEVER, DEFAULT, "a state file the skill never says it updates during the run"),
        Family(AT_END, DEFAULT, 'a state file written only at the end ("once all agents finish")'),
        Family(EVERY_N, DEFAULT, "an update interval above the standard's"),
    )
    what = """
Checks when the state is updated, in whatever form it is kept (a file, a
database, a memory tool, a command that records status): after every step, task
or phase, on each event ("as each agent returns"), on a timer, or every few
steps within the standard's interval passes; "once all agents have finished",
"at the end", "in one go", or an interval above the standard's violate, and so
does state that is never said to be updated. Judged only once a state file
exists (CM003 reports a missing one). A reference to the installed standard
counts when the skill says nothing to the contrary.
"""
    why = """
A state file written only at the end is empty when the context dies halfway;
every step since the last write has to be redone.
"""
    bad = """
---
name: demo-audit
description: Audit each package with a sub-agent.
---
Create `.demo-audit-reports/state-<timestamp>.json` at start, or resume from an
unfinished one. When all packages have been audited, write the results to it.

For each package, one at a time, spawn a sub-agent with this prompt:

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
Create `.demo-audit-reports/state-<timestamp>.json` at start, or resume from an
unfinished one. Update it after every package.

For each package, one at a time, spawn a sub-agent with this prompt:

```
Audit {package}. Write every finding to .demo-audit-reports/{package}.md.
Reply with at most 400 tokens: STATUS, counts, report path.
```
"""

    fix = (
        "Update the state file after every step (at least every {checkpoint_every} steps), "
        "before starting the next sub-agent."
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        a = ctx.analysis
        if not runs_steps(a):
            return
        places = state_places(a)
        if not places:
            return
        every = protocol.checkpoint_every()
        good = False
        bad: list[Finding] = []
        for s, in_loop in self._state_updates(ctx):
            line = a.report_line(s.block, s.line)
            n = _EVERY_N.search(s.text, s.lower)
            said = (Evidence(line, f"state update: {quote(s.text)}"),)
            if n and number(n.group(1)) > every:
                message = (
                    f"the state file is updated only every {number(n.group(1))} steps; "
                    f"the standard asks for at least every {every}"
                )
                bad.append(
                    Finding(line, message, family=EVERY_N, evidence=said, looked_for=LOOKED_FOR)
                )
            elif _AT_END.search(s.text, s.lower):
                message = (
                    "the state file is written only after all sub-agents finish; "
                    "update it after every step"
                )
                bad.append(
                    Finding(line, message, family=AT_END, evidence=said, looked_for=LOOKED_FOR)
                )
            elif (
                in_loop
                or _PER_STEP.search(s.text, s.lower)
                or (n and number(n.group(1)) <= every)
                # recording a task's status ("--status done", "update status to fixed") is an
                # update per task by its nature
                or STATE_STORE.search(s.text, s.lower)
            ):
                good = True
        yield from bad
        if not good and not bad and not a.references_standard:
            yield Finding(
                places[0][0],
                "the skill never says when the state file is updated; update it after every step",
                family=NEVER,
                evidence=state_evidence(places),
                looked_for=LOOKED_FOR,
            )

    @staticmethod
    def _state_updates(ctx: Context) -> Iterator[tuple[Sentence, bool]]:
        """Sentences that update the state file, and whether each sits in the per-step loop.

        A sentence counts when it names the state file, or sits in a block (or
        section) that does and says "it"/"that file" or marks something done. It
        is in the loop when its list also holds the spawn instruction, or the list
        is introduced "for each …".
        """
        a = ctx.analysis
        code_ids = {id(b) for b in a.shell_blocks}
        sections: dict[tuple[str, ...], bool] = {}
        for _, blocks in a.groups:
            loop_lists: set[int] | None = None  # worked out when the group has an update
            for block in blocks:
                if block.kind in ("quote", "tag") or (
                    block.kind == "code" and id(block) not in code_ids
                ):
                    continue
                if id(block) in a.prompt_block_ids and id(block) not in code_ids:
                    continue
                store = STATE_STORE.hit(block.text, block.lower)
                if not (store or _UPDATE.hit(block.text, block.lower)):
                    continue  # none of its sentences can have the words the block lacks
                in_scope: bool | None = None  # the block or its section names the state file
                keys = _UPDATE.keys + STATE_STORE.keys if store else _UPDATE.keys
                for s in holding(block, sentences(block), keys):
                    if store and STATE_STORE.search(s.text, s.lower):
                        pass  # recording a status is itself an update ("seed done --slice")
                    elif not _UPDATE.search(s.text, s.lower):
                        continue
                    elif not STATE_ANY.search(s.text, s.lower):
                        if in_scope is None:
                            in_scope = bool(
                                STATE_ANY.search(block.text, block.lower)
                            ) or _state_section(block.section, sections)
                        if not (in_scope and _REFERS.search(s.text, s.lower)):
                            continue
                    if loop_lists is None:
                        loop_lists = _loop_lists(a, blocks)
                    yield s, block.list_id is not None and block.list_id in loop_lists


def _state_section(section: tuple[str, ...], seen: dict[tuple[str, ...], bool]) -> bool:
    """Whether a heading above says the section is about state (blocks share sections)."""
    hit = seen.get(section)
    if hit is None:
        hit = seen[section] = any(_STATE_SECTION.search(h) for h in section)
    return hit


def _loop_lists(a: Analysis, blocks: list[Block]) -> set[int]:
    """Ids of lists that run once per item: they hold a spawn step or follow a "for each …" lead."""
    loops: set[int] = set()
    lead: Block | None = None  # the last top-level block before the current list
    lead_loops: bool | None = None  # whether ``lead`` says "for each …" (asked once per lead)
    for block in blocks:
        if block.kind == "item" and block.list_id is not None:
            if a.spawns_in(block):
                loops.add(block.list_id)
            if lead is not None:
                if lead_loops is None:
                    lead_loops = bool(_FOR_EACH.search(lead.text, lead.lower))
                if lead_loops:
                    loops.add(block.list_id)
        elif block.parent is None:
            lead, lead_loops = block, None
    return loops
