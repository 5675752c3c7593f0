"""Every rule is a documented unit whose own examples behave as documented."""

from __future__ import annotations

import textwrap

import pytest

from spawnkit.lint.engine import lint_document
from spawnkit.lint.rules import ALL, get
from spawnkit.standard import protocol


def test_every_protocol_rule_is_implemented_with_the_standards_data():
    for data in protocol.rules():
        rule = get(data.code)
        assert rule is not None, f"{data.code} from protocol.json has no implementation"
        assert (rule.name, rule.severity, rule.summary) == (data.name, data.severity, data.summary)


def test_codes_and_names_are_unique():
    assert len({r.code for r in ALL}) == len(ALL)
    assert len({r.name for r in ALL}) == len(ALL)


@pytest.mark.parametrize("rule", ALL, ids=lambda r: r.code)
def test_doc_has_the_four_parts_and_a_fix(rule):
    doc = rule.doc()
    for part in (
        "## What it does",
        "## Why is this bad?",
        "## Example (bad)",
        "## Use instead (good)",
        "## Fix",
    ):
        assert part in doc
    tier = "" if rule.tier == "default" else f", {rule.tier}"
    assert doc.startswith(f"{rule.code} {rule.name} ({rule.severity}{tier})")
    assert rule.fix.strip()
    if rule.tier == "calibrated":
        # the threshold (or that none reaches the target) and each reading's measured precision
        assert "## Tier: calibrated" in doc
        for family in rule.families:
            assert f"- {family.name} (" in doc


# SP009 and SP012 abbreviate their bad example ("... 600 rows ...");
# their own tests lint the real thing.
ABBREVIATED = {"SP009", "SP012"}


def _lint(rule, text):
    return lint_document(textwrap.dedent(text).lstrip("\n"), rule.example_path, preview=True)


@pytest.mark.parametrize(
    "rule", [r for r in ALL if r.code not in ABBREVIATED], ids=lambda r: r.code
)
def test_bad_example_triggers_the_rule(rule):
    assert rule.code in {d.code for d in _lint(rule, rule.bad).diagnostics}


@pytest.mark.parametrize("rule", ALL, ids=lambda r: r.code)
def test_good_example_is_clean(rule):
    assert _lint(rule, rule.good).diagnostics == []
