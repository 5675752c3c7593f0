"""standards/CONTEXT_MANAGEMENT.md agrees with standards/protocol.json, and its examples with the schemas."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from spawnkit.standard import protocol

STANDARDS = Path(__file__).resolve().parent.parent / "standards"
DOC = (STANDARDS / "CONTEXT_MANAGEMENT.md").read_text(encoding="utf-8")
DATA = json.loads((STANDARDS / "protocol.json").read_text(encoding="utf-8"))
DEFAULT_REPORT = "<reports dir>/<step>.md"
DEFAULT_HANDOFF = "<reports dir>/handoff-<step>.json"

# Prose phrases that state a protocol number, and the key that number must equal.
NUMBER_PHRASES = {
    r"(\d+) tokens": "return_budget_tokens",
    r"(\d+) minutes": "resume_window_minutes",
    r"every (\d+) (?:completed )?steps": "checkpoint_every",
    r"(\d+) (?:sub-agents )?in parallel": "max_parallel",
}


def schema(name: str) -> dict[str, Any]:
    return json.loads((STANDARDS / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))


def rendered_blocks(data: dict[str, Any]) -> dict[str, str]:
    """The protocol blocks the document must show, rendered from ``data`` with the default budget."""
    fmt = "\n".join(data["return_format"])
    budget = data["return_budget_tokens"]
    return {
        "return_block": "\n".join(data["return_block"]).format(
            budget=budget, report=DEFAULT_REPORT, format=fmt
        ),
        "return_format": fmt,
        "handoff_block": "\n".join(data["handoff_block"]).format(
            budget=budget,
            report=DEFAULT_REPORT,
            handoff=DEFAULT_HANDOFF,
            format=data["status_only_format"],
        ),
        "status_only_format": data["status_only_format"],
    }


def fenced_after(doc: str, marker: str) -> str | None:
    match = re.search(re.escape(marker) + r"\n```\w*\n(.*?)\n```", doc, re.S)
    return match.group(1) if match else None


def rule_sections(doc: str) -> list[tuple[str, str, str]]:
    """(code, name, section text) for every ``### CMnnn name`` (or ``WFnnn``) heading."""
    parts = re.split(r"^### ((?:CM|WF)\d{3}) (\S+)[ \t]*$", doc, flags=re.M)
    return [
        (parts[i], parts[i + 1], re.split(r"^## ", parts[i + 2], flags=re.M)[0])
        for i in range(1, len(parts), 3)
    ]


def prose_without_bad_examples(doc: str) -> str:
    return re.sub(r"^Bad:\n\n```\w*\n.*?\n```", "", doc, flags=re.S | re.M)


def disagreements(doc: str, data: dict[str, Any]) -> list[str]:
    """Every place where the document and the protocol data differ."""
    out: list[str] = []
    version = re.search(r"^Protocol version: `([^`]+)`", doc, re.M)
    if not version or version.group(1) != data["protocol_version"]:
        out.append("protocol version")

    sections = rule_sections(doc)
    if [(c, n) for c, n, _ in sections] != [(r["code"], r["name"]) for r in data["rules"]]:
        out.append(f"rule codes/names: doc {[(c, n) for c, n, _ in sections]}")
    by_code = {r["code"]: r for r in data["rules"]}
    for code, _name, text in sections:
        rule = by_code.get(code)
        if rule is None:
            continue
        severity = re.search(r"^- Severity: (\w+)$", text, re.M)
        if not severity or severity.group(1) != rule["severity"]:
            out.append(f"{code} severity")
        summary = re.search(r"^- Rule: (.+)$", text, re.M)
        if not summary or summary.group(1) != rule["summary"]:
            out.append(f"{code} rule text")
        for part in (r"\*\*Why\.\*\* \S", r"^Bad:\n\n```", r"^Good:\n\n```"):
            if not re.search(part, text, re.M):
                out.append(f"{code} lacks {part}")

    table = dict(re.findall(r"^\| `(\w+)` \| (.+?) \|", doc, re.M))
    numeric = [k for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool)]
    for key in numeric + [
        "reports_dir_pattern",
        "state_file_pattern",
        "handoff_file_pattern",
        "progress_line_format",
    ]:
        cell = table.get(key)
        expected = str(data[key]) if key in numeric else f"`{data[key]}`"
        if cell != expected:
            out.append(f"table row {key}: doc {cell!r}, data {expected!r}")

    prose = prose_without_bad_examples(doc)
    for phrase, key in NUMBER_PHRASES.items():
        for found in re.findall(phrase, prose):
            if int(found) != data[key]:
                out.append(f"prose states {found} for {key}, data says {data[key]}")

    for key in (
        "reports_dir_pattern",
        "state_file_pattern",
        "handoff_file_pattern",
        "progress_line_format",
    ):
        if data[key] not in doc:
            out.append(f"pattern {key} missing")
    for status in data["return_statuses"]:
        if f"`{status}`" not in doc:
            out.append(f"status {status} missing")

    for name, text in rendered_blocks(data).items():
        if fenced_after(doc, f"<!-- protocol:{name} -->") != text:
            out.append(f"block {name} differs from protocol.json")
    return out


def test_document_agrees_with_protocol_data():
    assert disagreements(DOC, DATA) == []


def test_every_rule_heading_is_parseable_and_complete():
    sections = rule_sections(DOC)
    assert [code for code, _, _ in sections] == [r.code for r in protocol.rules()]
    assert len(sections) == 12  # CM001-CM008, and WF006-WF009 for workflow scripts
    assert "CM002 results-on-disk" in DOC and "CM003 state-file" in DOC
    assert "fail independently" in DOC  # why rule 2 of the original seven was split


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.update(return_budget_tokens=400),
        lambda d: d.update(max_parallel=3),
        lambda d: d.update(checkpoint_every=4),
        lambda d: d.update(resume_window_minutes=90),
        lambda d: d.update(reports_dir_pattern=".{skill}-out/"),
        lambda d: d.update(protocol_version="1.1"),
        lambda d: d["rules"][3].update(severity="error"),
        lambda d: d["rules"][5].update(name="no-report-reads"),
        lambda d: d["rules"][0].update(summary="Keep replies short."),
        lambda d: d["rules"].append(
            {"code": "CM009", "name": "x", "severity": "warning", "summary": "x"}
        ),
        lambda d: d["return_block"].insert(1, "0. Be brief."),
        lambda d: d["return_format"].append("SCORE: <0-100>"),
        lambda d: d["handoff_block"].pop(),
        lambda d: d.update(status_only_format="STATUS: <status>"),
    ],
)
def test_a_change_to_the_data_alone_is_caught(mutate):
    data = copy.deepcopy(DATA)
    mutate(data)
    assert disagreements(DOC, data) != []


def test_a_stray_number_in_the_prose_is_caught():
    assert disagreements(DOC + "\nKeep replies under 800 tokens.\n", DATA) != []
    assert disagreements(DOC + "\nRun at most 3 sub-agents in parallel.\n", DATA) != []


def test_blocks_match_the_loader_that_template_and_hooks_use():
    blocks = rendered_blocks(DATA)
    assert protocol.return_block() == blocks["return_block"]
    assert protocol.handoff_block() == blocks["handoff_block"]
    budget_line = protocol.return_block(budget=300, report=".x-reports/a.md")
    assert "at most 300 tokens" in budget_line and ".x-reports/a.md" in budget_line
    for marker in DATA["return_contract_markers"]:
        assert marker in blocks["return_block"] and marker in blocks["handoff_block"]


@pytest.mark.parametrize("name", ["protocol", "state", "handoff"])
def test_schemas_are_valid_draft_2020_12(name):
    doc = schema(name)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(doc)


def test_protocol_json_matches_its_schema():
    assert (STANDARDS / DATA["$schema"]).resolve() == (
        STANDARDS / "schemas" / "protocol.schema.json"
    ).resolve()
    jsonschema.Draft202012Validator(schema("protocol")).validate(DATA)


def test_protocol_schema_rejects_broken_data():
    validator = jsonschema.Draft202012Validator(schema("protocol"))
    for broken in (
        {**DATA, "return_budget_tokens": 0},
        {**DATA, "rules": [{**DATA["rules"][0], "severity": "fatal"}]},
        {k: v for k, v in DATA.items() if k != "max_parallel"},
        {**DATA, "return_block": ["no budget placeholder"]},
    ):
        assert not validator.is_valid(broken)


@pytest.mark.parametrize("name", ["state", "handoff"])
def test_examples_in_the_document_validate(name):
    text = fenced_after(DOC, f"<!-- example:{name} -->")
    assert text is not None
    validator = jsonschema.Draft202012Validator(
        schema(name), format_checker=jsonschema.FormatChecker()
    )
    validator.validate(json.loads(text))


def test_schemas_use_the_protocol_name_pattern():
    pattern = DATA["skill_spec"]["name_pattern"]
    state = schema("state")
    assert state["properties"]["skill"]["pattern"] == pattern
    assert state["$defs"]["step"]["properties"]["id"]["pattern"] == pattern
    assert schema("handoff")["properties"]["step"]["pattern"] == pattern
    assert schema("handoff")["properties"]["status"]["enum"] == DATA["return_statuses"]
