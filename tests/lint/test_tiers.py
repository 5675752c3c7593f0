"""Tiers and evidence: what shows by default, what only with --preview, and why a finding says so.

The tiers each rule and reading really sit in are decided from the real-skill corpus and may
move; these tests put a rule, a rule's family or a detection reading into the preview tier
with ``monkeypatch`` so they test the mechanism, not today's table.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from samples import HEAD
from test_cli_lint import run

from spawnkit.lint.engine import lint_document
from spawnkit.lint.evidence import CALIBRATED, DEFAULT, PREVIEW, Family, quote
from spawnkit.lint.report import as_github, as_json, as_sarif, as_text
from spawnkit.lint.rules import BY_CODE
from spawnkit.lint.rules.cm005_max_parallel import PARALLEL, MaxParallel

SCHEMA = Path(__file__).resolve().parents[1] / "fixtures" / "sarif-schema-2.1.0.json"
PATH = "skills/demo-audit/SKILL.md"
# a state file never said to be updated (CM007), parallel with no cap (CM005)
STALE = HEAD + (
    "Keep `.demo-audit-reports/state.json`; resume from an unfinished one at start.\n\n"
    "Run the package sub-agents in parallel.\n\n"
    "Spawn a sub-agent with this prompt:\n\n"
    "```\nAudit {package}. Write every finding to .demo-audit-reports/{package}.md.\n"
    "Reply with at most 400 tokens: STATUS, counts, report path.\n```\n"
)


@pytest.fixture(autouse=True)
def fixed_table(request, calibrated):
    """The mechanism tests run on one fixed model (every calibrated finding asserted but CM005's
    parallel statements not said of agents, as in the tiers before issue 34 calibrated them), so
    they do not move when the shipped model is refitted."""
    if request.node.name == "test_the_tiers_decided_from_the_real_corpus":
        return
    calibrated(rules={"CM005": {"reading:parallel-not-said-of-agents": -10}})


def codes(result) -> list[str]:
    return sorted(d.code for d in result.diagnostics)


@pytest.fixture
def cm007_preview(monkeypatch):
    monkeypatch.setattr(type(BY_CODE["CM007"]), "tier", PREVIEW)


@pytest.fixture
def cm007_default(monkeypatch):
    monkeypatch.setattr(type(BY_CODE["CM007"]), "tier", DEFAULT)


def test_the_tiers_decided_from_the_real_corpus():
    """Issue 34: CM001, CM002, CM003 and CM005 take each finding's tier from its calibrated
    probability (test_calibration.py); CM004 and CM006 to CM008 stay preview, below 0.9
    precision on the labelled files (docs/lint-accuracy.md)."""
    tiers = {code: BY_CODE[code].tier for code in ("CM001", "CM002", "CM003", "CM005")}
    assert set(tiers.values()) == {CALIBRATED}
    tiers = {code: BY_CODE[code].tier for code in ("CM004", "CM006", "CM007", "CM008")}
    assert set(tiers.values()) == {PREVIEW}
    assert all(f.tier == CALIBRATED for f in MaxParallel.families)
    assert codes(lint_document(STALE, PATH, preview=True)) == ["CM005", "CM007"]


def test_default_tier_shows_a_default_rule(cm007_default):
    assert codes(lint_document(STALE, PATH)) == ["CM005", "CM007"]


def test_a_preview_rule_shows_only_with_preview_or_its_exact_code(cm007_preview):
    assert codes(lint_document(STALE, PATH)) == ["CM005"]
    shown = lint_document(STALE, PATH, preview=True)
    assert codes(shown) == ["CM005", "CM007"]
    cm007 = next(d for d in shown.diagnostics if d.code == "CM007")
    assert (cm007.tier, cm007.severity) == (PREVIEW, "warning")
    assert codes(lint_document(STALE, PATH, select=["CM007"])) == ["CM007"]
    # a prefix is not a name: "CM" selects the protocol rules of the default tier only
    assert codes(lint_document(STALE, PATH, select=["CM"])) == ["CM005"]


def test_a_reading_under_its_threshold_hides_only_its_own_findings(calibrated, cm007_default):
    calibrated(
        rules={"CM005": {f"reading:{PARALLEL}": -10, "reading:parallel-not-said-of-agents": -10}}
    )
    assert codes(lint_document(STALE, PATH)) == ["CM007"]
    shown = lint_document(STALE, PATH, preview=True)
    cm005 = next(d for d in shown.diagnostics if d.code == "CM005")
    assert (cm005.tier, cm005.severity) == (PREVIEW, "warning")  # an error by default
    # the sure family of the same rule stays in the default tier
    unbounded = STALE.replace("Run the package sub-agents in parallel.", "Run all agents at once.")
    found = lint_document(unbounded, PATH)
    assert [(d.code, d.tier, d.severity) for d in found.diagnostics if d.code == "CM005"] == [
        ("CM005", DEFAULT, "error")
    ]


def test_a_file_found_spawning_by_preview_readings_only(calibrated):
    text = HEAD + "Spawn three sub-agents, one per package.\n"
    before = lint_document(text, PATH)
    assert (before.spawn_tier, before.orchestrator) == (DEFAULT, True)
    assert before.spawns[0].line == 5 and "Spawn three sub-agents" in before.spawns[0].note
    # the calibrated probability of a file read only by this reading falls under the threshold
    calibrated(detection={"reading:agent-object": -20})
    hidden = lint_document(text, PATH)
    assert (hidden.spawn_tier, hidden.orchestrator, codes(hidden)) == (PREVIEW, False, [])
    assert hidden.spawn_probability is not None and hidden.spawn_probability < 0.5
    shown = lint_document(text, PATH, preview=True)
    assert shown.orchestrator and {"CM001", "CM002", "CM003"} <= set(codes(shown))
    assert {(d.tier, d.severity) for d in shown.diagnostics} == {(PREVIEW, "warning")}
    summary = as_text([hidden]).splitlines()[-1]
    assert (
        "0 of them spawn sub-agents; 1 more read as spawning below the calibrated threshold, "
        "checked with --preview" in summary
    )


def test_every_protocol_finding_says_what_it_found_and_where(cm007_default):
    text = HEAD + "Spawn three sub-agents, one per package.\n"
    found = {d.code: d for d in lint_document(text, PATH).diagnostics}
    for code in ("CM001", "CM002", "CM003"):
        d = found[code]
        assert d.evidence and d.evidence[0].line == 5, code
        assert "Spawn three sub-agents" in d.evidence[0].note
        assert d.looked_for, code
    cm007 = {d.code: d for d in lint_document(STALE, PATH).diagnostics}["CM007"]
    assert cm007.evidence[0].line == 5 and "state.json" in cm007.evidence[0].note
    assert "after each step" in cm007.looked_for
    text_out = as_text([lint_document(STALE, PATH)])
    assert (
        "    found: line 5: state kept outside the conversation: “Keep .demo-audit-reports/state.json”"
        in text_out
    )
    assert "    looked for: an update of the state while the run goes on" in text_out


def test_evidence_in_json_sarif_and_github(cm007_default):
    result = lint_document(STALE, PATH)
    data = json.loads(as_json([result]))["files"][0]
    cm007 = next(d for d in data["diagnostics"] if d["code"] == "CM007")
    assert cm007["tier"] == "default" and cm007["evidence"][0]["line"] == 5
    assert cm007["looked_for"].startswith("an update of the state")
    log = json.loads(as_sarif([result]))
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert not list(jsonschema.Draft4Validator(schema).iter_errors(log))
    sarif = next(r for r in log["runs"][0]["results"] if r["ruleId"] == "CM007")
    related = sarif["relatedLocations"][0]
    assert related["physicalLocation"]["region"]["startLine"] == 5
    assert "state.json" in related["message"]["text"]
    assert sarif["properties"]["tier"] == "default" and sarif["properties"]["lookedFor"]
    assert "Looked for: an update of the state" in sarif["message"]["text"]
    github = as_github([result])
    assert "Found: line 5: state kept outside the conversation" in github


def test_summary_counts_preview_findings(cm007_preview):
    result = lint_document(STALE, PATH, preview=True)
    lines = as_text([result]).splitlines()
    assert lines[-2] == (
        "Found 2 problems (1 error, 1 warning; 1 of them preview) in 1 file (1 of them spawns sub-agents)."
    )
    assert "[checkpoint, warning, preview]" in as_text([result])


def test_a_suppression_reason_is_not_read_as_codes(cm007_default):
    text = STALE.replace(
        "Run the package sub-agents in parallel.",
        "<!-- spawnkit: ignore CM005 -- SP checks and CM007 stay on -->\n"
        "Run the package sub-agents in parallel.",
    )
    result = lint_document(text, PATH)
    assert codes(result) == ["CM007"] and result.suppressed == 1
    assert "1 finding silenced by spawnkit: ignore comments." in as_text([result])


def test_quote_is_short_and_plain():
    assert quote("Launch  the `reviewer`\n agent") == "“Launch the reviewer agent”"
    assert quote("Keep `state.json`; then") == "“Keep state.json; then”"
    long = quote("word " * 40)
    assert len(long) <= 93 and long.endswith(" …”")


def test_preview_from_the_config_and_the_command_line(tmp_path, monkeypatch):
    monkeypatch.setattr(type(BY_CODE["CM007"]), "tier", PREVIEW)
    path = tmp_path / "skills" / "demo-audit" / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(STALE)
    assert "CM007" not in run(["lint", "skills"], tmp_path).output
    assert "CM007" in run(["lint", "--preview", "skills"], tmp_path).output
    (tmp_path / ".spawnkit.toml").write_text("preview = true\n")
    assert "CM007" in run(["lint", "skills"], tmp_path).output
    assert "CM007" not in run(["lint", "--no-preview", "skills"], tmp_path).output
    (tmp_path / ".spawnkit.toml").write_text('preview = "yes"\n')
    bad = run(["lint", "skills"], tmp_path)
    assert bad.exit_code == 2 and "preview = 'yes' must be true or false" in bad.output


def test_rule_docs_name_the_tier(monkeypatch, cm007_default):
    rule = BY_CODE["CM007"]
    monkeypatch.setattr(type(rule), "families", ())
    assert "## Tier" not in rule.doc()
    monkeypatch.setattr(type(rule), "tier", PREVIEW)
    assert rule.doc().startswith("CM007 checkpoint (warning, preview)")
    assert "## Tier: preview" in rule.doc()
    monkeypatch.setattr(type(rule), "tier", DEFAULT)
    monkeypatch.setattr(
        type(rule), "families", (Family("x", PREVIEW, "a guess"), Family("y", DEFAULT, "sure"))
    )
    assert "## Tier: default, with preview readings\n- x (preview): a guess" in rule.doc()


def test_workflow_rules_follow_the_same_tiers(monkeypatch):
    """A WF rule (JavaScript workflow scripts) put into preview shows only with preview or when
    selected by its code, and then as a warning carrying its tier."""
    script = Path(__file__).resolve().parent / "workflow-corpus" / "bad-new-date.js"
    text = script.read_text(encoding="utf-8")
    rule = BY_CODE["WF005"]
    found = lint_document(text, "workflows/stamped.js").diagnostics
    assert [(d.code, d.severity, d.tier) for d in found] == [("WF005", "error", DEFAULT)]
    monkeypatch.setattr(type(rule), "tier", PREVIEW)
    assert codes(lint_document(text, "workflows/stamped.js")) == []
    for result in (
        lint_document(text, "workflows/stamped.js", preview=True),
        lint_document(text, "workflows/stamped.js", select=["WF005"]),
    ):
        assert [(d.code, d.severity, d.tier) for d in result.diagnostics] == [
            ("WF005", "warning", PREVIEW)
        ]
    assert codes(lint_document(text, "workflows/stamped.js", select=["WF"])) == []


def test_every_family_of_every_protocol_rule_shows_evidence_and_what_it_looked_for():
    """Over the synthetic corpus, preview on: each finding says what it found (with a line) and
    what the rule looked for — in text, JSON and SARIF alike, which all print these fields."""
    seen = set()
    for path in sorted((Path(__file__).parent / "corpus").rglob("*.md")):
        for d in lint_document(
            path.read_text(encoding="utf-8"), str(path), preview=True
        ).diagnostics:
            if d.code.startswith("CM"):
                seen.add((d.code, d.family))
                assert d.evidence and d.evidence[0].line >= 1, (path, d.code, d.family)
                assert d.looked_for, (path, d.code, d.family)
    # the families the examples name are all among those checked
    assert {
        ("CM001", "cap-over-budget"),
        ("CM005", "no-limit"),
        ("CM005", "cap-over-limit"),
        ("CM006", "read-back"),
        ("CM007", "updated-at-end"),
        ("CM008", "relay-at-length"),
    } <= seen
