"""Render lint results as text, JSON, SARIF 2.1.0 or GitHub workflow annotations.

``json`` and ``pathlib`` are imported by the formats that need them: the default
text output of a one-file ``spawnkit lint`` starts faster without them.
"""

from __future__ import annotations

from collections.abc import Iterable

from spawnkit import __version__
from spawnkit.lint.engine import Diagnostic, FileResult

JSON_VERSION = 1
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def render(results: list[FileResult], fmt: str, unreadable: int = 0) -> str:
    if fmt == "json":
        return as_json(results)
    if fmt == "sarif":
        return as_sarif(results)
    if fmt == "github":
        return as_github(results)
    return as_text(results, unreadable)


def _all(results: Iterable[FileResult]) -> list[Diagnostic]:
    return [d for r in results for d in r.diagnostics]


def as_text(results: list[FileResult], unreadable: int = 0) -> str:
    """ruff-like: ``path:line:col: CODE message`` and the fix hint under it.

    ``unreadable`` files were reported on stderr; the summary must not call the run clean.
    """
    lines = []
    for d in _all(results):
        lines.append(f"{d.path}:{d.line}:{d.col}: {d.code} {d.message} [{d.name}, {d.severity}]")
        lines.append(f"    fix: {d.fix}")
    diags = _all(results)
    errors = sum(d.severity == "error" for d in diags)
    orchestrators = sum(r.orchestrator for r in results)
    files = len(results)
    spawning = f"{orchestrators} of them spawn{'s' * (orchestrators == 1)} sub-agents"
    if diags:
        lines.append(
            f"Found {len(diags)} problem{'s' * (len(diags) != 1)} "
            f"({errors} error{'s' * (errors != 1)}, "
            f"{len(diags) - errors} warning{'s' * (len(diags) - errors != 1)}) in {files} "
            f"file{'s' * (files != 1)} ({spawning})."
        )
    elif not unreadable:
        lines.append(f"All checks passed: {files} file{'s' * (files != 1)} ({spawning}).")
    else:
        lines.append(f"No problems in the {files} file{'s' * (files != 1)} read ({spawning}).")
    if unreadable:
        lines.append(
            f"{unreadable} file{'s' * (unreadable != 1)} could not be checked (see above)."
        )
    return "\n".join(lines)


def as_json(results: list[FileResult]) -> str:
    """The documented contract: version 1, one entry per linted file."""
    import json

    return json.dumps(
        {
            "version": JSON_VERSION,
            "files": [
                {
                    "path": r.path,
                    "orchestrator": r.orchestrator,
                    "diagnostics": [
                        {
                            "code": d.code,
                            "name": d.name,
                            "severity": d.severity,
                            "line": d.line,
                            "col": d.col,
                            "message": d.message,
                            "fix": d.fix,
                        }
                        for d in r.diagnostics
                    ],
                }
                for r in results
            ],
        },
        indent=2,
    )


def _uri(path: str) -> str:
    from pathlib import Path

    p = Path(path)
    return p.as_posix() if not p.is_absolute() else p.as_uri()


def as_sarif(results: list[FileResult]) -> str:
    from spawnkit.lint.rules import ALL  # every rule, the workflow ones too

    rules = [
        {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": " ".join(rule.what.split())},
            "help": {"text": rule.doc()},
            "defaultConfiguration": {"level": "error" if rule.severity == "error" else "warning"},
        }
        for rule in ALL
    ]
    index = {rule.code: i for i, rule in enumerate(ALL)}
    sarif_results = [
        {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": "error" if d.severity == "error" else "warning",
            "message": {"text": f"{d.message}. Fix: {d.fix}"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _uri(d.path)},
                        "region": {"startLine": d.line, "startColumn": d.col},
                    }
                }
            ],
        }
        for d in _all(results)
    ]
    import json

    return json.dumps(
        {
            "$schema": SARIF_SCHEMA,
            "version": "2.1.0",
            "runs": [
                {
                    "tool": {
                        "driver": {"name": "spawnkit", "version": __version__, "rules": rules}
                    },
                    "results": sarif_results,
                }
            ],
        },
        indent=2,
    )


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def as_github(results: list[FileResult]) -> str:
    """``::error file=…,line=…,col=…,title=CODE::message`` workflow commands."""
    out = []
    for d in _all(results):
        level = "error" if d.severity == "error" else "warning"
        message = _escape_data(f"{d.message} ({d.name}). Fix: {d.fix}")
        out.append(
            f"::{level} file={_escape_property(d.path)},line={d.line},col={d.col},"
            f"title={_escape_property(d.code)}::{message}"
        )
    return "\n".join(out)
