"""The engine's API: what the hook and the CLI rely on."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap

import pytest
from samples import GOOD_PROMPT, HEAD

from spawnkit.lint.engine import Diagnostic, lint_document, lint_text, selected

BAD = HEAD + "Launch all sub-agents in parallel.\n\n" + GOOD_PROMPT


@pytest.mark.usefixtures("sure")
def test_diagnostic_fields_are_the_contract():
    assert list(Diagnostic._fields) == [
        "path",
        "line",
        "col",
        "code",
        "name",
        "severity",
        "message",
        "fix",
        # added by issue 25, after the original eight (positional construction still works)
        "tier",
        "evidence",
        "looked_for",
        "family",
        # added by issue 31: the runs behind a finding of the tier "observed"
        "observed",
        # added by issue 34: a calibrated finding's probability of being right
        "probability",
    ]
    diags = lint_text(BAD, "skills/demo-audit/SKILL.md")
    assert diags and all(d.fix and d.message and d.line >= 1 and d.col >= 1 for d in diags)
    assert diags == sorted(diags, key=lambda d: (d.line, d.code))


def test_the_garbage_collector_is_paused_during_a_lint_and_left_as_found():
    seen = []
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            gc.callbacks.append(lambda phase, info: seen.append(phase))
            lint_document(BAD * 200, "skills/demo-audit/SKILL.md")
            gc.callbacks.pop()
            assert gc.isenabled() is enabled
        assert seen == []  # no collection ran while linting
    finally:
        gc.enable()


def test_plain_skills_get_spec_rules_only():
    text = (
        "---\nname: notes\ndescription: Notes.\nallowed-tools: Agent\n---\nSummarise the meeting.\n"
    )
    result = lint_document(text, "skills/notes/SKILL.md")
    assert result.orchestrator is False and result.diagnostics == []


def test_select_and_ignore_by_code_or_prefix():
    assert selected("CM005", ["CM"], None) and not selected("SP001", ["CM"], None)
    assert not selected("CM005", None, ["CM005"]) and selected("CM004", ["ALL"], ["CM005"])
    only = lint_document(BAD, "skills/demo-audit/SKILL.md", select=["SP"]).diagnostics
    assert only == []
    assert {
        d.code
        for d in lint_document(BAD, "skills/demo-audit/SKILL.md", ignore=["CM00"]).diagnostics
    } == set()


# the sample prompt spawns one sub-agent per package: a fan-out that needs a cap of its own
CAPPED_PROMPT = GOOD_PROMPT + "\nOne sub-agent at a time.\n"


@pytest.mark.usefixtures("sure")
def test_inline_suppression_covers_the_next_block_only():
    text = (
        HEAD
        + "<!-- spawnkit: ignore CM005 -->\nLaunch all sub-agents in parallel.\n\n"
        + GOOD_PROMPT
        + "\nAlso run the rest all in parallel.\n\nOne sub-agent at a time.\n"
    )
    lines = [d.line for d in lint_text(text, "skills/demo-audit/SKILL.md") if d.code == "CM005"]
    assert lines == [15]


def test_file_wide_suppression_and_blanket_ignore():
    text = (
        HEAD
        + "<!-- spawnkit: ignore-file CM003, CM005 -->\nLaunch all sub-agents in parallel.\n\n"
        + GOOD_PROMPT
    )
    assert {d.code for d in lint_text(text, "skills/demo-audit/SKILL.md")} == set()
    text = (
        HEAD + "<!-- spawnkit: ignore -->\nLaunch all sub-agents in parallel.\n\n" + CAPPED_PROMPT
    )
    assert "CM005" not in {d.code for d in lint_text(text, "skills/demo-audit/SKILL.md")}


def test_sibling_file_rules_count(tmp_path):
    skill = tmp_path / "skills" / "demo-audit"
    skill.mkdir(parents=True)
    (skill / "protocol.md").write_text(
        textwrap.dedent("""\
        # Protocol
        - State: `.demo-audit-reports/state-<ts>.json`, updated after every package.
        - Resume from an unfinished state file at start.
        - Sub-agents run one at a time, write findings to `.demo-audit-reports/`,
          reply in at most 300 tokens.
        """)
    )
    text = (
        HEAD
        + "Follow [the protocol](protocol.md). For each package, use the Agent tool to audit it.\n"
    )
    (skill / "SKILL.md").write_text(text)
    assert lint_text(text, str(skill / "SKILL.md"), preview=True) == []
    # the same text without the sibling on disk breaks the protocol
    assert {d.code for d in lint_text(text, "elsewhere/demo-audit/SKILL.md", preview=True)} >= {
        "CM001",
        "CM002",
        "CM003",
    }


def test_hook_path_imports_only_the_standard_library():
    code = textwrap.dedent("""
        import sys
        before = set(sys.modules)
        from spawnkit.lint.engine import lint_text
        lint_text(open(sys.argv[1]).read(), sys.argv[1])
        third_party = sorted(
            m.split(".")[0] for m in set(sys.modules) - before
            if m.split(".")[0] not in sys.stdlib_module_names and m.split(".")[0] != "spawnkit"
        )
        print(",".join(sorted(set(third_party))))
    """)
    from pathlib import Path

    skill = Path(__file__).parent / "corpus" / "skills" / "dep-audit" / "SKILL.md"
    out = subprocess.run(
        [sys.executable, "-c", code, str(skill)], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""


def test_never_crashes_on_mangled_input():
    """The hook calls lint_text on whatever is being written: any text gets an answer."""
    import random
    from pathlib import Path

    rng = random.Random(5)
    texts = [p.read_text() for p in sorted((Path(__file__).parent / "corpus").rglob("*.md"))]
    pieces = [
        "---\n",
        "```\n",
        "> ",
        "- ",
        "1. ",
        "|a|b|\n",
        "<agent-prompt>\n",
        "</agent-prompt>\n",
        "\t",
        ":",
        '"',
        "'",
        "{",
        "[",
        "#",
        "\n\n",
        "<!-- spawnkit: ignore -->\n",
        "~~~\n",
        "\r\n",
        "é",
    ]
    for _ in range(500):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 6)):
            pos = rng.randrange(len(text) + 1)
            if rng.random() < 0.6:
                text = text[:pos] + rng.choice(pieces) + text[pos:]
            else:
                text = text[:pos] + text[pos + rng.randint(1, 40) :]
        path = rng.choice(["skills/x/SKILL.md", "commands/c.md", "agents/a.md", "notes.md"])
        result = lint_document(text, path, rng.choice(["claude-code", "portable"]))
        assert all(d.line >= 1 for d in result.diagnostics)
