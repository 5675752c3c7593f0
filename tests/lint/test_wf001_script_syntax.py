"""WF001 script-syntax: what makes Claude Code refuse a script before it runs."""

from __future__ import annotations

from spawnkit.lint.engine import lint_workflow
from spawnkit.lint.rules.wf_format import MAX_SCRIPT_BYTES

META = "export const meta = { name: 'demo', description: 'A demo workflow' }\n"


def test_typescript_is_a_syntax_error_on_its_line(wf_found):
    found = wf_found("const n = 1\nconst files: string[] = args.files\nreturn { n }\n", "WF001")
    assert len(found) == 1 and found[0][0] == 3 and "syntax error" in found[0][1]


def test_plain_javascript_passes(wf_found):
    assert wf_found("const files = args.files\nreturn { n: files.length }\n", "WF001") == []


def _sized(total: int) -> str:
    tail = "return { ok: true }\n"
    filler = total - len(META) - len(tail) - 3
    return META + "//" + "x" * filler + "\n" + tail


def test_size_limit_at_the_byte():
    at_limit, over = _sized(MAX_SCRIPT_BYTES), _sized(MAX_SCRIPT_BYTES + 1)
    assert len(at_limit.encode()) == MAX_SCRIPT_BYTES
    assert [d for d in lint_workflow(at_limit, "w.js", "claude-code").diagnostics] == []
    found = lint_workflow(over, "w.js", "claude-code").diagnostics
    assert [d.code for d in found] == ["WF001"] and "524,289 bytes" in found[0].message


def test_control_characters_but_tab_and_crlf(wf_found):
    assert wf_found("const a = '\x1b[0m'\nreturn { a }\n", "WF001")[0][0] == 2
    assert wf_found("const a = 1\r\nreturn {\ta }\r\n", "WF001") == []
    assert wf_found("const a = 1\rreturn { a }\n", "WF001")[0][0] == 2


def test_with_import_and_a_second_export(wf):
    result = wf(
        """
        import { x } from './x.js'
        const m = await import('./m.js')
        with (Math) { max(1, 2) }
        export const other = 1
        return { x, m, other }
        """
    )
    messages = [(d.line, d.message.split(":")[0]) for d in result.diagnostics if d.code == "WF001"]
    assert [line for line, _ in messages] == [2, 3, 4, 5]


def test_a_slow_parse_is_cut_short_and_reported_not_checked():
    text = META + "const a = [1, 2, {b: 3}];\n" * 20_000 + "return a\n"
    result = lint_workflow(text, "w.js", "claude-code", seconds=0.0)
    assert [(d.code, d.severity) for d in result.diagnostics] == [("WF001", "warning")]
    assert "not checked: parsing it took longer than 0 s" in result.diagnostics[0].message


def test_hostile_nesting_is_reported_without_a_crash():
    deep = META + "const x = " + "[" * 5000 + "]" * 5000 + "\nreturn { n: x.length }\n"
    result = lint_workflow(deep, "w.js", "claude-code")
    assert [d.code for d in result.diagnostics] == ["WF001"]
    assert "not analysed" in result.diagnostics[0].message


def test_deep_expressions_under_the_walk_limit_do_not_overflow_the_evaluator():
    nested = "(" * 300 + "'Write to .r-reports/a.md'" + ")" * 300
    text = META + f"const r = await agent({nested})\nreturn {{ r }}\n"
    result = lint_workflow(text, "w.js", "claude-code")  # no RecursionError
    assert result.kind == "workflow"


def test_a_cancelled_parse_leaves_the_next_file_unharmed():
    """tree-sitter resumes a cancelled parse on the parser's next call unless it is reset."""
    slow = META + "const a = [1, 2, {b: 3}];\n" * 20_000 + "return a\n"
    assert lint_workflow(slow, "w.js", "claude-code", seconds=0.0).diagnostics
    clean = META + "const x = [[1], [2]]\nreturn { n: x.length }\n"
    assert lint_workflow(clean, "w.js", "claude-code").diagnostics == []
