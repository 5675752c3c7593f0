"""``spawnkit audit``'s JSON against an independent recomputation from the usage fields
(``recompute.py``), on every real transcript brought (``real_corpus.py``) and on the
real-client fixtures.

The real transcripts are the materialised corpus where it is (every group), else the vendored
MIT-licensed subset committed under tests/fixtures/audit-real/vendored (so CI always runs
them); a group whose licence allows no copy is audited only where it is materialised.

Tolerance: the context points (prompt, output, per response) must be equal; each return must
land in the gap the recomputation finds, as long as delivered as it finds; a return whose
``tokens_source`` is ``usage`` (alone in its gap) must be its words' share of the gap's growth
to the token (growth x chars / delivered_chars, rounded); the returns sharing a gap
(``usage-shared``) must together stay within the growth plus one token each (rounding); a
return whose gap has no usable growth must keep its estimate.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from .conftest import FIXTURES, SCENARIOS, RealCorpus, audit_json
from .real_corpus import groups
from .recompute import recompute

REAL = groups()
HERE = [g for g in REAL if RealCorpus.runnable(g)]


def check(doc: dict) -> dict[str, int]:
    """Hold every session of an audit to the recomputation; what was checked, counted."""
    seen = defaultdict(int)
    for session in doc["sessions"]:
        again = recompute(Path(session["path"]))
        seen["sessions"] += 1
        if session["context_source"] == "usage":
            got = [(p["prompt"], p["output"]) for p in session["context"]]
            assert got == [(p.prompt, p.output) for p in again.points], session["path"]
            seen["points"] += len(got)
        landings = {land.call_id: land for land in again.landings}
        shared: dict[int, list[dict]] = defaultdict(list)
        for ret in session["returns"]:
            land = landings.get(ret["tool_use_id"])
            assert land is not None, (session["path"], ret["tool_use_id"])
            assert ret["turn"] == land.gap, (session["path"], ret["tool_use_id"])
            assert ret["delivered_chars"] == land.chars, (session["path"], ret["tool_use_id"])
            growth = again.growth(land.gap) if session["context_source"] == "usage" else None
            seen["returns"] += 1
            if growth is None:
                assert ret["tokens_source"] == "estimate", ret
                assert ret["tokens"] == ret["estimated_tokens"]
                seen["estimated"] += 1
            elif ret["tokens_source"] == "usage":
                share = round(growth * ret["chars"] / ret["delivered_chars"])
                assert ret["tokens"] == share, (session["path"], ret, growth)
                seen["from usage"] += 1
            else:
                assert ret["tokens_source"] == "usage-shared", ret
                assert 0 <= ret["tokens"] <= growth + 1, (ret, growth)
                shared[land.gap].append(ret)
                seen["shared"] += 1
        got = [(m["sender"], m["turn"], m["chars"]) for m in session.get("messages", [])]
        assert got == [(m.call_id, m.gap, m.chars) for m in again.messages], session["path"]
        for message in session.get("messages", []):  # sub-agent text sharing a gap too
            seen["messages"] += 1
            if message["tokens_source"] == "usage-shared":
                shared[message["turn"]].append(message)
        for gap, rets in shared.items():
            assert sum(r["tokens"] for r in rets) <= again.growth(gap) + len(rets)
        assert len(landings) == len(session["returns"]), session["path"]  # none missed
    return dict(seen)


@pytest.mark.parametrize("group", HERE, ids=[g.name for g in HERE])
def test_real_transcripts_agree_with_the_recomputation(group, real):
    seen = check(real.audit(real.root(group)))
    assert seen["sessions"] >= 1


def test_the_real_corpus_brings_returns_from_both_clients(real):
    """What the corpus in use holds: recorded returns alone and shared, Codex responses."""
    totals: dict[str, int] = defaultdict(int)
    for group in HERE:
        for key, n in check(real.audit(real.root(group))).items():
            totals[key] += n
    if all(not g.missing() for g in REAL):  # the full corpus
        assert totals["from usage"] >= 20 and totals["points"] >= 800
    else:  # at least the vendored subset
        assert totals["from usage"] >= 12 and totals["shared"] >= 6 and totals["points"] >= 206


@pytest.mark.parametrize("name", SCENARIOS)
def test_fixtures_agree_with_the_recomputation(name):
    seen = check(audit_json(str(FIXTURES / name)))
    assert seen["returns"] >= 1 and seen.get("estimated", 0) == 0
