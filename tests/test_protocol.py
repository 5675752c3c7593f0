"""The protocol data file is well formed and the loader exposes it."""

from spawnkit.standard import protocol


def test_numbers_match_the_standard_defaults():
    """The one pin of the standard's numbers: every other test builds its expectations from
    protocol.json (so changing a number there changes them all, and only this test)."""
    assert protocol.return_budget() == 500
    assert protocol.max_parallel() == 2
    assert protocol.checkpoint_every() == 3
    assert protocol.resume_window_minutes() == 120


def test_reports_dir_pattern():
    assert protocol.reports_dir("demo-audit") == ".demo-reports/".replace("demo", "demo-audit")


def test_rule_codes_are_unique_and_sequential():
    codes = [r.code for r in protocol.rules()]
    cm = [c for c in codes if c.startswith("CM")]
    wf = [c for c in codes if c.startswith("WF")]  # WF001-WF005 are format rules, not protocol
    assert codes == cm + wf
    assert cm == [f"CM{n:03d}" for n in range(1, len(cm) + 1)]
    assert wf == [f"WF{n:03d}" for n in range(6, 6 + len(wf))]
    assert protocol.rule("cm001").name == "return-budget"
    assert protocol.rule("CM999") is None


def test_return_block_carries_budget_and_report():
    block = protocol.return_block(budget=300, report=".x-reports/a.md")
    assert "300 tokens" in block
    assert ".x-reports/a.md" in block
    assert "REPORT:" in block
