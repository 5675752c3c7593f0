"""The rule registry: every rule, in the order diagnostics are reported.

``MARKDOWN`` holds the rules over skills, commands and agents; ``ALL`` adds the workflow-script
rules (WF…). ``ALL``, ``BY_CODE`` and ``BY_NAME`` are built on first use (PEP 562), so a lint of
Markdown files never imports the workflow rules.
"""

from __future__ import annotations

from spawnkit.lint.rules.base import DEFAULT_PROFILE, PROFILES, Context, Finding, Rule
from spawnkit.lint.rules.cm001_return_budget import ReturnBudget
from spawnkit.lint.rules.cm002_results_on_disk import ResultsOnDisk
from spawnkit.lint.rules.cm003_state_file import StateFile
from spawnkit.lint.rules.cm004_resume_check import ResumeCheck
from spawnkit.lint.rules.cm005_max_parallel import MaxParallel
from spawnkit.lint.rules.cm006_no_full_report_reads import NoFullReportReads
from spawnkit.lint.rules.cm007_checkpoint import Checkpoint
from spawnkit.lint.rules.cm008_lean_progress import LeanProgress
from spawnkit.lint.rules.spec_body import BodyTooLong
from spawnkit.lint.rules.spec_conflicts import ConflictMarkers
from spawnkit.lint.rules.spec_description import (
    DescriptionAngleBrackets,
    DescriptionLength,
    DescriptionMissing,
)
from spawnkit.lint.rules.spec_frontmatter import (
    FrontmatterInvalid,
    FrontmatterMissing,
    FrontmatterUnsupported,
)
from spawnkit.lint.rules.spec_keys import CompatibilityLength, UnknownKey
from spawnkit.lint.rules.spec_name import NameFolderMismatch, NameFormat, NameLength, NameMissing

MARKDOWN: tuple[Rule, ...] = (
    FrontmatterMissing(),
    FrontmatterInvalid(),
    FrontmatterUnsupported(),
    NameMissing(),
    NameFormat(),
    NameLength(),
    NameFolderMismatch(),
    DescriptionMissing(),
    DescriptionLength(),
    DescriptionAngleBrackets(),
    UnknownKey(),
    BodyTooLong(),
    CompatibilityLength(),
    ConflictMarkers(),
    ReturnBudget(),
    ResultsOnDisk(),
    StateFile(),
    ResumeCheck(),
    MaxParallel(),
    NoFullReportReads(),
    Checkpoint(),
    LeanProgress(),
)


def _workflow_rules() -> tuple[Rule, ...]:
    """The rules over workflow scripts (.js): Claude Code's format, then the protocol in code."""
    from spawnkit.lint.rules.wf_format import (
        Deterministic,
        MetaFirst,
        MetaLiteral,
        PhaseTitles,
        ScriptSyntax,
    )
    from spawnkit.lint.rules.wf_protocol import (
        BoundedResult,
        NoWholeAnswers,
        ParallelCap,
        ReportFile,
    )

    return (
        ScriptSyntax(),
        MetaFirst(),
        MetaLiteral(),
        PhaseTitles(),
        Deterministic(),
        BoundedResult(),
        NoWholeAnswers(),
        ParallelCap(),
        ReportFile(),
    )


def __getattr__(name: str) -> object:
    if name in ("ALL", "BY_CODE", "BY_NAME"):
        every = MARKDOWN + _workflow_rules()
        globals().update(
            ALL=every,
            BY_CODE={rule.code: rule for rule in every},
            BY_NAME={rule.name: rule for rule in every},
        )
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


ALL: tuple[Rule, ...]
BY_CODE: dict[str, Rule]
BY_NAME: dict[str, Rule]


def get(code_or_name: str) -> Rule | None:
    """A rule by code (``CM005``) or name (``max-parallel``, ``max_parallel``), any case."""
    key = code_or_name.strip()
    by_code, by_name = __getattr__("BY_CODE"), __getattr__("BY_NAME")
    return by_code.get(key.upper()) or by_name.get(key.lower().replace("_", "-"))


def selector(token: str) -> str | None:
    """What ``--select``/``ignore`` take: a rule name or code becomes its code, a code prefix
    (``CM``) or ``ALL`` stays as it is; None when it matches no rule."""
    rule = get(token)
    if rule is not None:
        return rule.code
    prefix = token.strip().upper()
    every = __getattr__("ALL")
    if prefix == "ALL" or (prefix and any(r.code.startswith(prefix) for r in every)):
        return prefix
    return None


__all__ = [
    "ALL",
    "MARKDOWN",
    "BY_CODE",
    "BY_NAME",
    "DEFAULT_PROFILE",
    "PROFILES",
    "Context",
    "Finding",
    "Rule",
    "get",
    "selector",
]
