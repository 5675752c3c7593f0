"""Per-return tokens from the recorded usage (``spawnkit.audit.usage``), at its edges: what a
gap may be compared across, and how a growth is shared."""

from __future__ import annotations

from spawnkit.audit.model import ContextPoint, Return, Session
from spawnkit.audit.usage import attribute, gap_growth


def _session(points, returns, gap_chars=None, breaks=()) -> Session:
    s = Session(id="s", host="claude-code", path="/x.jsonl")
    s.context = [ContextPoint(p + o, None, p, o, m) for p, o, m in points]
    s.returns = returns
    s.gap_chars = dict(gap_chars or {})
    s.breaks = set(breaks)
    return s


def _ret(turn: int, chars: int, delivered: int | None = None, estimate: int = 999) -> Return:
    return Return(
        agent_id="a",
        tokens=0,
        turn=turn,
        chars=chars,
        delivered_chars=delivered or chars,
        estimated_tokens=estimate,
    )


def test_the_growth_counts_the_previous_output():
    context = [ContextPoint(1100, None, 1000, 100, "m"), ContextPoint(1700, None, 1600, 100, "m")]
    assert gap_growth(context, 1) == 500  # 1600 - (1000 + 100)


def test_no_growth_across_a_model_change_a_compaction_or_a_shrinking_prompt():
    two = [(1000, 100, "opus"), (1600, 10, "sonnet")]
    assert gap_growth(_session(two, []).context, 1) is None
    same = [(1000, 100, "m"), (1600, 10, "m")]
    assert gap_growth(_session(same, []).context, 1, {1}) is None
    shrunk = [(1000, 100, "m"), (1100, 10, "m")]  # exactly the old prompt + output: nothing new
    assert gap_growth(_session(shrunk, []).context, 1) is None
    assert gap_growth(_session(same, []).context, 2) is None  # no next response yet
    assert gap_growth(_session(same, []).context, 0) is None


def test_a_return_alone_gets_its_words_share_of_the_growth():
    ret = _ret(1, chars=900, delivered=1000)
    s = _session([(1000, 100, "m"), (2100, 10, "m")], [ret], {1: 1000})
    attribute(s)
    assert ret.tokens_source == "usage" and ret.tokens == 900 and ret.delivered_tokens == 1000


def test_returns_sharing_a_gap_split_it_by_characters():
    a, b = _ret(1, 300), _ret(1, 100)
    s = _session([(1000, 100, "m"), (1900, 10, "m")], [a, b], {1: 800})  # 400 chars of other input
    attribute(s)
    assert (a.tokens, b.tokens) == (
        300,
        100,
    ) and a.tokens_source == b.tokens_source == "usage-shared"


def test_without_a_usable_growth_the_estimate_stands():
    ret = _ret(1, 500, estimate=321)
    s = _session([(1000, 100, "m"), (1000, 10, "m")], [ret], {1: 500})
    attribute(s)
    assert ret.tokens_source == "estimate" and ret.tokens == 321 and ret.delivered_tokens is None
