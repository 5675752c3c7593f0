"""Render lint results as text, JSON, SARIF 2.1.0 or GitHub workflow annotations.

``json`` and ``pathlib`` are imported by the formats that need them: the default
text output of a one-file ``spawnkit lint`` starts faster without them.
"""

from __future__ import annotations

from collections.abc import Iterable

from spawnkit import __version__
from spawnkit.base.shown import shown
from spawnkit.lint.engine import Diagnostic, FileResult
from spawnkit.lint.evidence import DEFAULT as DEFAULT_TIER
from spawnkit.lint.evidence import OBSERVED, PREVIEW
from spawnkit.lint.observed import describe

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


SILENCE_HINT = (
    "A finding the linter got wrong: silence it with a reason, "
    "<!-- spawnkit: ignore CODE -- why --> on the line before it."
)
_SHOWN_EVIDENCE = 3  # places listed under a finding in text; JSON and SARIF carry them all


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def grounds(d: Diagnostic) -> list[str]:
    """The lines under a finding that say why: what was found (with lines), what was looked
    for, and the fix."""
    out = [f"found: line {e.line}: {e.note}" for e in d.evidence[:_SHOWN_EVIDENCE]]
    if len(d.evidence) > _SHOWN_EVIDENCE:
        out.append(f"found: … and {len(d.evidence) - _SHOWN_EVIDENCE} more places")
    out += [f"seen: {describe(run)}" for run in d.observed[:_SHOWN_EVIDENCE]]
    if len(d.observed) > _SHOWN_EVIDENCE:
        out.append(f"seen: … and {len(d.observed) - _SHOWN_EVIDENCE} more runs (--format json)")
    if d.probability is not None:
        out.append(f"calibrated: {calibrated(d)}")
    if d.looked_for:
        out.append(f"looked for: {d.looked_for}")
    out.append(f"fix: {d.fix}")
    return out


def calibrated(d: Diagnostic) -> str:
    """How sure a calibrated finding is: its probability of being right and the threshold
    from which the default tier asserts it (spawnkit.lint.calibration)."""
    from spawnkit.lint import calibration

    t = calibration.threshold(d.code)
    said = f"p = {d.probability:.2f} that this finding is right"
    return said + (f" (asserted from {t:.2f})" if t is not None else " (never asserted: preview)")


def summary(results: list[FileResult], unreadable: int = 0) -> list[str]:
    """The closing lines: counts by severity and tier, and how many files spawn sub-agents."""
    diags = _all(results)
    errors = sum(d.severity == "error" for d in diags)
    preview = sum(d.tier == PREVIEW for d in diags)
    observed = sum(d.tier == OBSERVED for d in diags)
    files = len(results)
    spawning = sum(r.orchestrator for r in results)
    maybe = sum(r.spawn_tier == PREVIEW and not r.orchestrator for r in results)
    where = f"{_plural(files, 'file')} ({spawning} of them spawn{'s' * (spawning == 1)} sub-agents"
    if maybe:
        where += f"; {maybe} more read as spawning below the calibrated threshold, checked with --preview"
    where += ")"
    lines = []
    if diags:
        tiers = f"; {preview} of them preview" if preview else ""
        tiers += f"; {observed} seen at run time" if observed else ""
        lines.append(
            f"Found {_plural(len(diags), 'problem')} ({_plural(errors, 'error')}, "
            f"{_plural(len(diags) - errors, 'warning')}{tiers}) in {where}."
        )
    elif not unreadable:
        lines.append(f"All checks passed: {where}.")
    else:
        lines.append(f"No problems in the {where} read.")
    silenced = sum(r.suppressed for r in results)
    if silenced:
        lines.append(f"{_plural(silenced, 'finding')} silenced by spawnkit: ignore comments.")
    if unreadable:
        lines.append(f"{_plural(unreadable, 'file')} could not be checked (see above).")
    if any(d.evidence or d.looked_for for d in diags):
        lines.append(SILENCE_HINT)
    return lines


def as_text(results: list[FileResult], unreadable: int = 0) -> str:
    """ruff-like: ``path:line:col: CODE message`` and, under it, why and the fix hint.

    ``unreadable`` files were reported on stderr; the summary must not call the run clean.
    Each line passes the output gate (``base.shown``): paths, messages and evidence quotes
    come from the files linted.
    """
    lines = []
    for d in _all(results):
        tier = f", {d.tier}" if d.tier != DEFAULT_TIER else ""
        lines.append(
            f"{d.path}:{d.line}:{d.col}: {d.code} {d.message} [{d.name}, {d.severity}{tier}]"
        )
        lines.extend(f"    {line}" for line in grounds(d))
    lines.extend(summary(results, unreadable))
    return "\n".join(shown(line) for line in lines)


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
                    "spawn_tier": r.spawn_tier or None,
                    "spawn_probability": _rounded(r.spawn_probability),
                    "spawns": [_place(e) for e in r.spawns],
                    "suppressed": r.suppressed,
                    "diagnostics": [
                        {
                            "code": d.code,
                            "name": d.name,
                            "severity": d.severity,
                            "tier": d.tier,
                            "family": d.family or None,
                            "line": d.line,
                            "col": d.col,
                            "message": d.message,
                            "evidence": [_place(e) for e in d.evidence],
                            "looked_for": d.looked_for or None,
                            "probability": d.probability,
                            "fix": d.fix,
                            **(
                                {"observed": [_run(run) for run in d.observed]}
                                if d.observed
                                else {}
                            ),
                        }
                        for d in r.diagnostics
                    ],
                }
                for r in results
            ],
        },
        indent=2,
    )


def _rounded(p: float | None) -> float | None:
    return None if p is None else round(p, 3)


def _run(run: object) -> dict[str, object]:
    """A run that broke a rule (tier observed), as JSON and SARIF give it."""
    return dict(run._asdict())  # type: ignore[attr-defined]


def _place(e: object) -> dict[str, object]:
    line, note = e  # type: ignore[misc]
    return {"line": line, "note": note}


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
            "defaultConfiguration": {
                "level": "error" if rule.severity == "error" and rule.tier != PREVIEW else "warning"
            },
            "properties": {"tier": rule.tier},
        }
        for rule in ALL
    ]
    index = {rule.code: i for i, rule in enumerate(ALL)}
    sarif_results = [_sarif_result(d, index[d.code]) for d in _all(results)]
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


def _sarif_result(d: Diagnostic, rule_index: int) -> dict[str, object]:
    """One SARIF result: the finding, its evidence as related locations, its tier."""
    uri = _uri(d.path)
    text = d.message + "."
    if d.evidence:
        text += " Found: " + "; ".join(f"line {e.line}: {e.note}" for e in d.evidence) + "."
    if d.looked_for:
        text += f" Looked for: {d.looked_for}."
    if d.observed:
        text += " Seen: " + "; ".join(describe(run) for run in d.observed) + "."
    if d.probability is not None:
        text += f" Calibrated: {calibrated(d)}."
    result: dict[str, object] = {
        "ruleId": d.code,
        "ruleIndex": rule_index,
        "level": "error" if d.severity == "error" else "warning",
        "message": {"text": f"{text} Fix: {d.fix}"},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": uri},
                    "region": {"startLine": d.line, "startColumn": d.col},
                }
            }
        ],
    }
    if d.evidence:
        result["relatedLocations"] = [
            {
                "id": k,
                "physicalLocation": {
                    "artifactLocation": {"uri": uri},
                    "region": {"startLine": max(1, e.line)},
                },
                "message": {"text": e.note},
            }
            for k, e in enumerate(d.evidence)
        ]
    properties: dict[str, object] = {"tier": d.tier}
    if d.looked_for:
        properties["lookedFor"] = d.looked_for
    if d.observed:
        properties["observed"] = [_run(run) for run in d.observed]
    if d.probability is not None:
        properties["probability"] = d.probability
    result["properties"] = properties
    return result


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def as_github(results: list[FileResult]) -> str:
    """``::error file=…,line=…,col=…,title=CODE::message`` workflow commands; the message and
    the path pass the output gate (``base.shown``) first, then GitHub's own escaping."""
    out = []
    for d in _all(results):
        level = "error" if d.severity == "error" else "warning"
        why = "".join(f" Found: line {e.line}: {e.note}." for e in d.evidence[:_SHOWN_EVIDENCE])
        if d.looked_for:
            why += f" Looked for: {d.looked_for}."
        why += "".join(f" Seen: {describe(run)}." for run in d.observed[:_SHOWN_EVIDENCE])
        if d.probability is not None:
            why += f" Calibrated: {calibrated(d)}."
        tier = f", {d.tier}" if d.tier != DEFAULT_TIER else ""
        message = _escape_data(shown(f"{d.message} ({d.name}{tier}).{why} Fix: {d.fix}"))
        out.append(
            f"::{level} file={_escape_property(shown(d.path))},line={d.line},col={d.col},"
            f"title={_escape_property(d.code)}::{message}"
        )
    return "\n".join(out)
