"""Per-return tokens from the usage the client recorded, where it allows, for any host.

A sub-agent's return (or a message it sent: Claude Code's SendMessage) lands in the
orchestrator's context between two model responses. The
client records each response's prompt (every input token, cache reads and writes included)
and output. The next prompt then holds the previous prompt, the previous output and whatever
arrived in between, so the return cost the orchestrator

    growth = next prompt - (previous prompt + previous output)

in the tokens of the model that read it. The return's words get their share of it by
characters: the client's framing (an ``agentId`` line, a notification's envelope) and anything
else that arrived in the same gap (other tool results, a second return, a reminder) keep the
rest. A return alone in its gap is ``usage``; one sharing it with other content, ``usage-shared``.
When nothing usable was recorded (no usage, a different model on either side, a compaction in
between, no growth) the return keeps spawnkit's offline estimate (``estimate``).

The estimate stays what the hooks enforce with: it is calibrated never to under-count the
tokenizer that counts the most, so it reads 1.4-1.9x the recorded growth on other models.
"""

from __future__ import annotations

from collections import defaultdict

from spawnkit.audit.model import (
    FROM_ESTIMATE,
    FROM_SHARED_USAGE,
    FROM_USAGE,
    ContextPoint,
    Message,
    Return,
    Session,
)


def gap_growth(context: list[ContextPoint], gap: int, breaks: set[int] = frozenset()) -> int | None:
    """What the prompt of response ``gap`` gained over response ``gap - 1`` (its prompt and its
    output), or None when the two cannot be compared."""
    if gap < 1 or gap >= len(context) or gap in breaks:
        return None
    before, after = context[gap - 1], context[gap]
    if None in (before.prompt, before.output, after.prompt):
        return None
    if before.model and after.model and before.model != after.model:
        return None  # another tokenizer: the two prompts are not in the same units
    growth = after.prompt - (before.prompt + before.output)
    return growth if growth > 0 else None


def attribute(session: Session) -> None:
    """Set every return's and message's ``tokens`` and ``tokens_source`` from the recorded usage
    where it allows, else from its estimate. A message shares its gap like a return does."""
    by_gap: dict[int, list[Return | Message]] = defaultdict(list)
    for ret in [*session.returns, *session.messages]:
        ret.tokens, ret.tokens_source = ret.estimated_tokens, FROM_ESTIMATE
        ret.delivered_tokens = None
        by_gap[ret.turn].append(ret)
    for gap, returns in by_gap.items():
        growth = gap_growth(session.context, gap, session.breaks)
        if growth is None:
            continue
        delivered = sum(r.delivered_chars for r in returns)
        total = max(session.gap_chars.get(gap, 0), delivered)
        if total <= 0:
            continue
        alone = len(returns) == 1 and total == delivered
        for ret in returns:
            ret.tokens = round(growth * ret.chars / total)
            ret.delivered_tokens = round(growth * ret.delivered_chars / total)
            ret.tokens_source = FROM_USAGE if alone else FROM_SHARED_USAGE
