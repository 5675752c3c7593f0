"""CM001 return-budget: every sub-agent prompt caps the reply at a token budget."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from spawnkit.lint.analysis import AGENT_NOUN, NEGATION, Prompt, Sentence, sentences
from spawnkit.lint.markdown import Block
from spawnkit.lint.patterns import Gated, folded, lazy
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

_TOKENS = folded(r"(?<![\w{])(\d[\d,]*)\s*(?:-\s*)?tokens?\b")
# the next two only add a hint to a finding's message, but read every spawn block's text: gated
_OTHER_UNIT = Gated(
    lazy(
        r"(?<![\w{])\d[\d,]*\s*(?:words?|lines?|characters?|chars?|sentences?|paragraphs?)\b",
        re.I,
    ),
    *("word", "line", "char", "sentence", "paragraph"),
    exact=True,
)
_REPLY = folded(
    r"\b(?:repl(?:y|ies|ying)|respon(?:d|se|ses)|return(?:s|ed|ing)?|answer|summary|message|output|capped)\b",
)
_QUALIFIER = folded(
    r"\b(?:at most|under|no more than|not exceed|max(?:imum)?|fewer|less|up to"
    r"|limit(?:ed)?|budget|cap(?:ped)?|within|keep|below)\b|[≤<]",
)
_VAGUE = Gated(
    lazy(r"\b(?:brief|concise|short|succinct|terse|compact|highlights)\b", re.I),
    *("brief", "concise", "short", "succinct", "terse", "compact", "highlights"),
    exact=True,
)


# A sub-agent told to message its findings to the orchestrator (Claude Code's SendMessage to
# main, or to the lead by another name): the message lands in the orchestrator's context uncut,
# beside the reply and whatever the reply's cap, so the prompt asks for the whole report back.
_LEAD = (
    r"(?:main|team[- ]lead|me|(?:the\s+)?(?:lead(?:er)?|orchestrator|coordinator|main\s+(?:agent"
    r"|session|conversation|thread)|parent(?:\s+agent)?|team\s+lead))\b"
)
_MESSAGED = Gated(
    lazy(
        r"\bsendmessage\b|\bmessage\s+" + _LEAD + r"|\bsend\b[^.\n]{0,80}?\bto\s+" + _LEAD,
        re.I,
    ),
    "sendmessage",
    "message",
    "send",
)
# ... the findings themselves, not a note about them
_WHOLE = folded(
    r"\b(?:findings?|results|reports?|analysis|everything|details|full\s+output|whole\s+output"
    r"|all\s+(?:of\s+)?(?:your|the|its)\s+(?:work|output))\b"
)
_NOTE = folded(r"\b(?:path|paths|summary|status|one[- ]line|short|brief|note|count|counts)\b")


def messaged_whole(s: Sentence) -> bool:
    """Whether ``s`` tells a sub-agent to message its findings, not a note, to the lead."""
    m = _MESSAGED.search(s.text, s.lower)
    if m is None or not _WHOLE.search(s.text, s.lower):
        return False
    if _NOTE.search(s.text, s.lower) or _TOKENS.search(s.text, s.lower):
        return False  # a short note, or a message held to a cap
    return not NEGATION.search(s.text[: m.start()], s.lower[: m.start()])


class Cap(NamedTuple):
    tokens: int
    line: int
    block: Block


def caps_in(blocks: list[Block], need_reply_word: bool) -> list[Cap]:
    """Token caps on a reply stated in ``blocks``."""
    out = []
    for block in blocks:
        if "token" not in block.lower:
            continue  # nor in any of its sentences: no need to split it
        for s in sentences(block):
            out.extend(_caps(s, need_reply_word))
    return out


def _caps(s: Sentence, need_reply_word: bool) -> list[Cap]:
    found: list[Cap] = []
    if "token" not in s.lower:
        return found
    has_reply = bool(_REPLY.search(s.text, s.lower))
    if need_reply_word and not has_reply:
        return found
    if not (has_reply or _QUALIFIER.search(s.text, s.lower)):
        return found
    for m in _TOKENS.finditer(s.text, s.lower):
        found.append(
            Cap(int(m.group(1).replace(",", "")), s.block.line_of(s.offset + m.start()), s.block)
        )
    return found


OVER = "cap-over-budget"
PROMPT = "prompt-without-cap"
SPAWN = "spawn-without-cap"
MESSAGED = "findings-messaged"


def prompt_evidence(prompt: Prompt) -> Evidence:
    """A sub-agent prompt as evidence: its line and its opening words."""
    where = f" (in {prompt.source})" if prompt.source else ""
    return Evidence(prompt.line, f"sub-agent prompt{where}: {quote(prompt.text, 70)}")


class ReturnBudget(Rule):
    code = "CM001"
    protocol_rule = True
    tier = CALIBRATED  # each finding's tier from its probability (spawnkit.lint.calibration)
    families = (
        Family(OVER, CALIBRATED, "a reply cap in tokens above the standard's budget"),
        Family(PROMPT, CALIBRATED, "a sub-agent prompt, found in the file, that caps nothing"),
        Family(SPAWN, CALIBRATED, "spawn steps with no prompt text and no cap for any sub-agent"),
        Family(
            MESSAGED,
            CALIBRATED,
            "a sub-agent told to message its findings to the orchestrator (SendMessage to main "
            "or the lead): the whole report back, past any cap",
        ),
    )
    what = """
Finds every prompt the skill hands to a sub-agent (a fenced or quoted block
introduced as a prompt, a `prompt:` in a YAML/code block, a quoted prompt in a
spawn step, or the whole body of a `context: fork` skill) and checks that it
caps the reply at a number of tokens no larger than the standard's budget. A cap
stated once for every sub-agent (a "Rules" section, a referenced file beside
SKILL.md) covers all prompts. "Be brief" or "concise" is not a cap; neither is a
limit in words or lines. A prompt (or a rule for every sub-agent) that tells the
sub-agent to message its findings to the orchestrator — Claude Code's
`SendMessage` to `main` or the lead — asks for the whole report back however its
reply is capped: the message lands in the orchestrator's context uncut (a preview
reading; a message of the report's path, a status or a short note is fine).
"""
    why = """
Whatever a sub-agent writes as its final message lands in the orchestrator's
context window. Without a hard number, a few verbose returns fill the window and
the session dies, losing the work.
"""
    bad = """
---
name: demo-audit
description: Audit each package with a sub-agent.
---
Keep `.demo-audit-reports/state-<timestamp>.json`, updated after every package;
resume from an unfinished one at start. One sub-agent at a time.

For each package, spawn a sub-agent with this prompt:

```
Audit {package}. Write the full findings to .demo-audit-reports/{package}.md.
Keep your answer brief.
```
"""
    good = """
---
name: demo-audit
description: Audit each package with a sub-agent.
---
Keep `.demo-audit-reports/state-<timestamp>.json`, updated after every package;
resume from an unfinished one at start. One sub-agent at a time.

For each package, spawn a sub-agent with this prompt:

```
Audit {package}. Write the full findings to .demo-audit-reports/{package}.md.
Reply with at most 400 tokens: STATUS, counts, report path.
```
"""

    fix = (
        'Add a hard cap to each sub-agent prompt, e.g. "Reply with at most {return_budget} tokens" '
        "(or state it once in a Rules section for every sub-agent)."
    )

    def check(self, ctx: Context) -> Iterator[Finding]:
        yield from self._messaged(ctx)
        a = ctx.analysis
        budget = protocol.return_budget()
        prompt_ids = a.prompt_block_ids
        looked_for = (
            f'a cap on the reply in tokens, at most {budget} ("reply in at most {budget} '
            'tokens"), in the prompt or stated once for every sub-agent'
        )
        general = caps_in(
            [b for b in a.global_units if id(b) not in prompt_ids], need_reply_word=True
        )
        for cap in general:
            if cap.tokens > budget:
                yield self._over(a.report_line(cap.block, cap.line), cap, budget)
        covered = any(c.tokens <= budget for c in general)
        if a.prompts:
            for prompt in a.prompts:
                caps = caps_in(prompt.blocks, need_reply_word=False)
                for cap in caps:
                    if cap.tokens > budget:
                        yield self._over(
                            a.report_line(cap.block, cap.line), cap, budget, "this sub-agent prompt"
                        )
                if not caps and not covered:
                    yield Finding(
                        prompt.line,
                        self._missing(prompt.text, "this sub-agent prompt does not cap"),
                        family=PROMPT,
                        evidence=(prompt_evidence(prompt), *ctx.spawn_evidence(1)),
                        looked_for=looked_for,
                    )
            return
        if covered:
            return
        # no prompt text in the file: the spawn instructions must carry the cap
        spawn_blocks = [b for b in ctx.doc.blocks if a.spawns_in(b)]
        caps = caps_in(spawn_blocks, need_reply_word=False)
        if not any(c.tokens <= budget for c in caps) and not any(c.tokens > budget for c in caps):
            text = "\n".join(b.text for b in spawn_blocks)
            yield Finding(
                a.first_line,
                self._missing(text, "the sub-agents spawned here are never told to cap"),
                family=SPAWN,
                evidence=ctx.spawn_evidence(),
                looked_for=looked_for + "; the file hands over no prompt text",
            )
        for cap in caps:
            if cap.tokens > budget:
                yield self._over(cap.line, cap, budget)

    @staticmethod
    def _messaged(ctx: Context) -> Iterator[Finding]:
        """Prompts, and rules said of every sub-agent, that send the findings to the lead."""
        a = ctx.analysis
        prompt_ids = a.prompt_block_ids
        said = [(p.blocks, "this sub-agent prompt") for p in a.prompts]
        general = [b for b in a.global_units if id(b) not in prompt_ids]
        said.append((general, "the skill"))
        for blocks, who in said:
            for block in blocks:
                if "message" not in block.lower and "send" not in block.lower:
                    continue
                for s in sentences(block):
                    if who == "the skill" and not AGENT_NOUN.search(s.text, s.lower):
                        continue  # the orchestrator's own messages, not a sub-agent's
                    if not messaged_whole(s):
                        continue
                    line = a.report_line(block, s.line)
                    yield Finding(
                        line,
                        f"{who} tells a sub-agent to message its findings to the orchestrator: "
                        "a message lands in its context uncut, past any cap on the reply",
                        "Keep the findings in the report file and message (or reply) only its "
                        "path and a short note within the budget.",
                        family=MESSAGED,
                        evidence=(Evidence(line, f"messages its findings: {quote(s.text)}"),),
                        looked_for="the findings kept in a report file, with at most its path "
                        "and a short note sent to the orchestrator",
                    )
                    break

    @staticmethod
    def _over(line: int, cap: Cap, budget: int, what: str = "") -> Finding:
        said = next((s.text for s in sentences(cap.block) if str(cap.tokens) in s.text), "")
        message = (
            f"{what} caps the reply at {cap.tokens} tokens, above the standard's {budget}"
            if what
            else f"sub-agent replies are capped at {cap.tokens} tokens, above the standard's "
            f"{budget}"
        )
        return Finding(
            line,
            message,
            f"Lower the cap to {budget} tokens or fewer.",
            family=OVER,
            evidence=(
                Evidence(line, f"cap of {cap.tokens} tokens: {quote(said or cap.block.text)}"),
            ),
            looked_for=f"a cap on the reply of at most {budget} tokens",
        )

    @staticmethod
    def _missing(text: str, what: str) -> str:
        budget = protocol.return_budget()
        msg = f"{what} the reply at a number of tokens (<= {budget})"
        if _OTHER_UNIT.search(text):
            msg += "; a limit in words or lines is not a token cap"
        elif _VAGUE.search(text):
            msg += "; 'brief' or 'concise' is not a cap"
        return msg
