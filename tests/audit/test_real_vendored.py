"""The vendored subset of the real transcripts: intact, licensed, within budget, and still
bringing the shapes that matter (tests/fixtures/audit-real/vendored).

These run everywhere, materialised corpus or not: the subset is what CI audits, so what it
holds is asserted here rather than assumed.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from tests.reserved import RESERVED, RESERVED_LATER

from . import real_corpus
from .conftest import RealCorpus
from .real_corpus import VENDOR_BUDGET, VENDOR_LICENCES, VENDORED, groups
from .test_recompute import check

VENDORED_GROUPS = [g for g in groups() if g.vendored]


def _claude_sessions(real: RealCorpus) -> list[dict]:
    sessions = []
    for group in VENDORED_GROUPS:
        doc = real.audit(real.vendored_root(group))
        sessions += [s for s in doc["sessions"] if s["host"] == "claude-code"]
    return sessions


def test_the_vendored_copies_are_intact(real):
    assert real.problems == [], real.problems
    listed = {g.copy(e) for g in VENDORED_GROUPS for e in g.vendored}
    present = {p for p in VENDORED.rglob("*") if p.is_file()}
    assert present - listed == {VENDORED / "NOTICE.md"}  # nothing unlisted
    for group in VENDORED_GROUPS:
        assert group.missing(real.base, group.vendored) == []


def test_only_licensed_files_are_vendored_within_budget():
    assert VENDORED_GROUPS
    assert all(g.licence in VENDOR_LICENCES for g in VENDORED_GROUPS)
    size = sum(p.stat().st_size for p in VENDORED.rglob("*") if p.is_file())
    assert size <= VENDOR_BUDGET, f"vendored/ holds {size:,} bytes"


def test_the_notice_names_every_source_and_its_licence():
    notice = (VENDORED / "NOTICE.md").read_text(encoding="utf-8")
    found = re.finditer(r"^## (\S+)\n(.*?)(?=^## |\Z)", notice, re.S | re.M)
    sections = {m.group(1): m.group(2) for m in found}
    for group in VENDORED_GROUPS:
        section = sections[group.repo]
        assert f"`{group.commit}`" in section
        for entry in group.vendored:
            assert f"`{entry['path']}`" in section, entry["path"]
        assert re.search(r"^Copyright \(c\) \d{4} \S.*$", section, re.M), group.repo
        assert "Permission is hereby granted, free of charge" in section
        assert 'THE SOFTWARE IS PROVIDED "AS IS"' in section
    assert set(sections) == {g.repo for g in VENDORED_GROUPS}


def test_a_damaged_copy_is_named_not_audited(tmp_path, monkeypatch):
    copies = tmp_path / "vendored"
    shutil.copytree(VENDORED, copies)
    group = next(g for g in VENDORED_GROUPS if len(g.vendored) >= 4)
    entries = group.vendored[:4]
    paths = [copies / group.repo / f"{e['path']}.gz" for e in entries]
    whole = [p.read_bytes() for p in paths]
    edited = gzip.decompress(whole[0]).replace(b"e", b"f", 1)  # one character changed
    paths[0].write_bytes(gzip.compress(edited))
    paths[1].write_bytes(b"not gzip")
    paths[2].write_bytes(whole[2][: len(whole[2]) // 2])  # cut short
    paths[3].write_bytes(whole[3][:20] + bytes([whole[3][20] ^ 0xFF]) + whole[3][21:])
    monkeypatch.setattr(real_corpus, "VENDORED", copies)
    problems = real_corpus.unpack_vendored(tmp_path / "out")
    assert len(problems) == 4
    assert "differs from its sha256" in problems[0]
    for entry, problem in zip(entries, problems, strict=True):
        assert problem.startswith(f"vendored/{group.repo}/{entry['path']}.gz: ")
        assert not group.target(entry, tmp_path / "out").exists()


@pytest.mark.parametrize("ci", ["", "true"])
def test_without_corpus_or_copies_it_skips_locally_and_fails_in_ci(tmp_path, monkeypatch, ci):
    monkeypatch.setattr(real_corpus, "VENDORED", tmp_path / "none")
    monkeypatch.setattr(real_corpus, "FILES", tmp_path / "empty")
    monkeypatch.setenv("CI", ci)
    corpus = RealCorpus(tmp_path / "out")
    outcome = pytest.fail.Exception if ci else pytest.skip.Exception
    with pytest.raises(outcome, match="vendored copies"):
        corpus.root(VENDORED_GROUPS[0])


def test_the_vendored_subset_keeps_what_matters(real):
    """Both clients, 2.0.x flat and 2.1.x folder sub-agents, streamed and resumed records,
    returns alone and shared in a gap, rollouts with and without token counts."""
    totals: Counter[str] = Counter()
    problems: Counter[str] = Counter()
    codex = Counter()
    for group in VENDORED_GROUPS:
        doc = real.audit(real.vendored_root(group))
        totals.update(check(doc))
        problems.update(doc["input"]["problems"])
        codex.update(s["context_source"] for s in doc["sessions"] if s["host"] == "codex")
    assert dict(totals) == {
        "sessions": 22,
        "points": 206,
        "returns": 18,
        "from usage": 12,
        "shared": 6,
    }
    assert codex == {"usage": 4, "none": 4}
    assert problems == {"orphan_subagents": 1}  # 2.0.58's sample-agent.jsonl

    sessions = _claude_sessions(real)
    versions = {s["client_version"] for s in sessions}
    assert {"1.0.98", "1.0.108", "2.0.58", "2.0.59", "2.0.60", "2.1.3", "2.1.6"} <= versions
    assert {"2.1.20", "2.1.22"} <= versions
    with_agents = [s for s in sessions if s["subagent_transcripts"]]
    folder = [
        s for s in with_agents if Path(s["path"]).with_suffix("").joinpath("subagents").is_dir()
    ]
    flat = [s for s in with_agents if s["client_version"].startswith("2.0.")]
    assert len(folder) == 5 and len(flat) == 4
    assert all(s not in folder for s in flat)

    streamed = resumed = 0
    for session in sessions:
        outputs: dict[str, list[int]] = {}
        calls: Counter[str] = Counter()
        for line in Path(session["path"]).read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            msg = rec.get("message")
            if not isinstance(msg, dict):
                continue
            if rec.get("type") == "assistant" and "usage" in msg:
                outputs.setdefault(msg["id"], []).append(msg["usage"]["output_tokens"])
            for block in msg.get("content") if isinstance(msg.get("content"), list) else []:
                if block.get("type") == "tool_use" and block.get("name") in ("Task", "Agent"):
                    calls[block["id"]] += 1
        streamed += any(len(set(v)) > 1 for v in outputs.values())
        resumed += any(n > 1 for n in calls.values())
    assert streamed >= 1 and resumed >= 1


def test_no_transcript_comes_from_a_repository_kept_for_an_independent_check():
    """The transcripts, the vendored copies and their notice name none of them (issue 31 had
    vendored one: the only public transcript with a compaction found)."""
    reserved = {r.lower() for r in RESERVED | RESERVED_LATER}
    assert not {g.repo.lower() for g in real_corpus.groups()} & reserved
    folder = real_corpus.CORPUS.parent
    texts = [(folder / name).read_text("utf-8").lower() for name in ("corpus.yaml", "README.md")]
    texts.append((folder / "vendored" / "NOTICE.md").read_text("utf-8").lower())
    assert not [r for r in reserved for text in texts if r in text]
    assert not [r for r in RESERVED | RESERVED_LATER if (folder / "vendored" / r).exists()]
