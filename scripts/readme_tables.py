"""Generate the documentation's tables from copier.yml and the rule registry.

The question table lives in README.md, the rule table in docs/rules.md. Each sits between
``<!-- generated:NAME -->`` and ``<!-- /generated:NAME -->`` lines; everything else in those
files is left alone. ``tests/test_readme_tables.py`` fails when a file differs from what this
prints, so the tables cannot drift from copier.yml or standards/protocol.json.

    python scripts/readme_tables.py --check   # exit 1 when a table is stale
    python scripts/readme_tables.py --write   # rewrite the tables in place
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
README = REPO / "README.md"
RULES_DOC = REPO / "docs" / "rules.md"
HIDDEN = {"protocol", "skill_name"}  # not asked: the protocol data, and NAME itself
MAX_DEFAULT = 44


def _copier_questions() -> dict[str, dict[str, Any]]:
    """copier.yml's questions as the template's own reader sees them (``template.answers``),
    with the hidden ``protocol`` question's default: the data of standards/protocol.json."""
    from spawnkit.standard import protocol
    from spawnkit.template import answers

    found = {"protocol": {"default": [protocol.load(str(REPO / "standards" / "protocol.json"))]}}
    found.update(answers.questions(REPO))
    return found


def _render(template: Any, context: dict[str, Any]) -> Any:
    if not isinstance(template, str) or "{" not in template:
        return template
    import jinja2

    return jinja2.Environment(autoescape=False).from_string(template).render(**context).strip()


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def questions_table() -> str:
    questions = _copier_questions()
    context = {"protocol": questions["protocol"]["default"], "skill_name": "NAME"}
    for name, spec in questions.items():  # defaults may refer to earlier answers
        if name not in context:
            context[name] = _render(spec.get("default"), context)
    rows = ["| question | default | what it asks |", "|---|---|---|"]
    for name, spec in questions.items():
        if name in HIDDEN:
            continue
        default = context[name]
        if isinstance(default, list):
            shown = ", ".join(str(item.get("name", item)) for item in default)
        elif isinstance(default, bool):
            shown = f"`{str(default).lower()}`"
        else:
            shown = str(default)
            if len(shown) > MAX_DEFAULT:  # a long default built from other answers: name them
                used = [q for q in questions if q not in HIDDEN and "{{ " + q in spec["default"]]
                shown = "built from " + " and ".join(f"`{q}`" for q in used or ["the answers"])
            shown = f"`{shown}`" if "choices" in spec or name == "reports_dir" else shown
        what = _render(spec.get("help", ""), context)
        choices = spec.get("choices")
        if choices:
            what = what + ": " + "; ".join(f"`{label}`" for label in choices)
        when = spec.get("when")
        if isinstance(when, str) and "profile" in when:
            what += " (asked only with profile `claude-code`)"
        rows.append(f"| `{name}` | {_cell(shown)} | {_cell(what)} |")
    return "\n".join(rows)


def rules_table() -> str:
    from spawnkit.lint.rules import ALL

    rows = ["| code | name | severity | tier | checks |", "|---|---|---|---|---|"]
    rows += [
        f"| {r.code} | {r.name} | {r.severity_label()} | {r.tier_label()} | {_cell(r.summary)} |"
        for r in ALL
    ]
    return "\n".join(rows)


TABLES = {"questions": questions_table, "rules": rules_table}
WHERE = {README: ("questions",), RULES_DOC: ("rules",)}  # which file holds which table


def render_readme(text: str, names: tuple[str, ...] = ("questions",)) -> str:
    """``text`` with the tables ``names`` regenerated (a file must hold each one it is given)."""
    for name in names:
        build = TABLES[name]
        pattern = re.compile(
            rf"(<!-- generated:{name} -->\n)(.*?)(\n[ \t]*<!-- /generated:{name} -->)", re.S
        )
        match = pattern.search(text)
        if match is None:
            raise SystemExit(f"no <!-- generated:{name} --> block where the {name} table belongs")
        indent = re.match(r"[ \t]*", match.group(3).lstrip("\n")).group(0)
        body = "\n".join(indent + line for line in build().split("\n"))
        text = text[: match.start(2)] + body + text[match.end(2) :]
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--check", action="store_true", help="exit 1 when the README is stale")
    group.add_argument("--write", action="store_true", help="rewrite the tables in place")
    args = parser.parse_args()
    stale = []
    for path, names in WHERE.items():
        text = path.read_text(encoding="utf-8")
        fresh = render_readme(text, names)
        if fresh == text:
            continue
        if args.write:
            path.write_text(fresh, encoding="utf-8")
        else:
            stale.append(path.relative_to(REPO).as_posix())
    if stale:
        print(f"stale tables in {', '.join(stale)}: run python scripts/readme_tables.py --write")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
